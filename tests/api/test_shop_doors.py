"""Shop doors: the API never kicks one (its keeper would kill the hero)."""

from __future__ import annotations


def test_a_shop_notice_is_recognised_however_worn_the_dust():
    from hackwright.api.nethack_api import _closed_for_inventory

    # Seen in real games: feet and kicks wear dust engravings down letter by letter.
    assert _closed_for_inventory('You read: "Closed for i?ventory".')
    assert _closed_for_inventory('You read: "(lcsed ?cr irve?tcry".')
    assert _closed_for_inventory('You read: "( cse       r? ? cry".')
    # worn so far that NetHack dropped the leading spaces (seed 10: the shopkeeper killed
    # the Barbarian who kicked this door)
    assert _closed_for_inventory('You read: "??         ???".')
    assert _closed_for_inventory('You read: "ve?tcry".') is False  # too little left to tell
    assert not _closed_for_inventory('You read: "Elbereth".')
    assert not _closed_for_inventory('You read: "ad aerarium".')
    assert not _closed_for_inventory('You read: "Closed for business".')

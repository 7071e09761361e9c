"""Pages generated from NetHack's monster and object tables carry the real numbers."""

from __future__ import annotations

import pytest

from hackwright.api import nethack_tables as T
from hackwright.kb import tables


@pytest.fixture(scope="module")
def pages():
    return {d.doc_id: d for d in tables.table_documents()}


def test_every_monster_and_every_named_object_has_a_page(pages):
    monsters = [d for d in pages if d.startswith("monster:")]
    objects = [d for d in pages if d.startswith("object:")]
    assert len(monsters) == len(T.monsters())
    assert len(objects) == len([o for o in T.objects() if o.name])


def test_the_floating_eye_page_states_its_passive_paralysis_and_telepathy(pages):
    text = pages["monster:floating eye"].text
    assert "Level 2, speed 1" in text
    assert "Passive paralysis ((level+1)d70)" in text and "when you hit it in melee" in text
    assert "may grant telepathy" in text


def test_corpse_verdicts_come_from_the_eating_rules(pages):
    assert "Is it safe to eat? No: cockatrice meat turns you to stone" in pages["monster:cockatrice"].text
    assert "Is it safe to eat? Yes, when fresh (never rots)" in pages["monster:lichen"].text
    assert "leaves no corpse" in pages["monster:wererat"].text


def test_weapon_armour_and_ring_pages_give_damage_ac_and_properties(pages):
    assert "Damage d8 against small monsters and d12 against large ones" in pages["object:long sword"].text
    boots = pages["object:speed boots"].text
    assert "worn as boots" in boots and "speed (very fast)" in boots
    assert "free action (you cannot be paralysed" in pages["object:ring of free action"].text


def test_class_pages_list_members_appearances_and_price_groups(pages):
    wands = pages["object class:wand"].text
    assert "base price 500: wand of wishing, wand of death" in wands
    assert "balsa wand" in wands
    assert "Members:" in pages["monster class:e"].text and "floating eye" in pages["monster class:e"].text

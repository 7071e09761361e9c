"""Engraving Elbereth: the API reports it written whenever NetHack says so."""

from __future__ import annotations


async def test_a_fast_samurai_writes_elbereth_even_when_the_turn_counter_stands_still(make_api):
    api = make_api(seed=5)  # a Samurai: intrinsically fast, so some actions take no turn
    assert api.hero_role == "Samurai"
    for _ in range(4):
        r = await api.engrave("Elbereth")
        assert r.success, (r.messages, r.error)
        look = await api.send_keys(":")
        assert 'You read: "Elbereth"' in " ".join(look.messages)

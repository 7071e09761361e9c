"""Scenarios for the escape skills (engrave_elbereth, retreat_upstairs)."""

from __future__ import annotations

from .conftest import message_log, run_skill


async def test_engrave_elbereth_writes_it_correctly_and_the_jackal_backs_off(play):
    api = play("jackal_adjacent")
    r = (await run_skill(api, "engrave_elbereth")).result
    assert r.stopped_reason == "safe" and r.success, r
    assert r.data["engraving"] == "Elbereth"  # dust engravings often come out smudged: re-engraved
    assert "You write in the dust" in await message_log(api)
    hero = await api.get_position()
    assert not [m for m in await api.get_visible_monsters() if m.position.is_adjacent(hero)]


async def test_engrave_elbereth_is_useless_against_a_human(play):
    api = play("peaceful_watchman")
    r = (await run_skill(api, "engrave_elbereth")).result
    # A peaceful watchman is no threat: with nobody hostile adjacent it engraves and is safe at once.
    assert r.stopped_reason == "safe" and r.data["engraving"] == "Elbereth"


async def test_retreat_upstairs_refuses_on_dungeon_level_1(play):
    api = play("stairs_across_room")
    r = (await run_skill(api, "retreat_upstairs", force=True)).result
    assert r.stopped_reason == "refused_level_1" and r.actions_taken == 0
    assert not api.game_over


async def test_retreat_upstairs_climbs_back_to_level_1_after_descending(play):
    api = play("stairs_across_room")
    assert (await run_skill(api, "descend")).result.stopped_reason == "descended"
    r = (await run_skill(api, "retreat_upstairs")).result
    assert r.stopped_reason == "hp_ok"  # full HP: no reason to flee
    r = (await run_skill(api, "retreat_upstairs", force=True)).result
    assert r.stopped_reason == "went_up" and r.success, r
    assert (await api.get_stats()).dungeon_level == 1 and r.data["depth"] == 1

"""Scenarios for the navigation skills (go_to, go_to_stairs, descend)."""

from __future__ import annotations

import re

from .conftest import message_log, run_skill, spot

HIT_THE_EYE = re.compile(r"You (hit|miss|kill) the floating eye|You are frozen|You can't move")


async def test_go_to_stairs_walks_across_the_room_onto_the_down_stairs(play):
    api = play("stairs_across_room")
    r = (await run_skill(api, "go_to_stairs")).result
    assert r.stopped_reason == "arrived" and r.success
    assert await api.get_position() == spot(api, 11, 4)
    assert r.actions_taken == 10 and r.turns_elapsed == 10  # the diagonal is 10 steps long


async def test_go_to_stairs_up_while_standing_on_them_arrives_at_once(play):
    # The API looks at the hero's own square at the start, so the stairs underfoot are known.
    api = play("stairs_across_room")
    assert (await api.get_current_level()).stairs_up == await api.get_position()
    r = (await run_skill(api, "go_to_stairs", direction="up")).result
    assert r.stopped_reason == "arrived" and r.turns_elapsed == 0


async def test_go_to_stairs_says_when_no_down_stairs_are_known_yet(play):
    api = play("bent_corridor")
    r = (await run_skill(api, "go_to_stairs")).result
    assert r.stopped_reason == "stairs_unknown" and not r.success and r.turns_elapsed == 0


async def test_descend_walks_to_the_stairs_and_goes_down_to_level_2(play):
    api = play("stairs_across_room")
    r = (await run_skill(api, "descend")).result
    assert r.stopped_reason == "descended" and r.success
    assert r.data["depth"] == 2 == (await api.get_stats()).dungeon_level


async def test_descend_refuses_with_low_hp_unless_forced(play):
    api = play("falling_rocks")
    await api.move("e")  # a rock falls on the hero's head
    stats = await api.get_stats()
    assert stats.hp < stats.max_hp
    r = (await run_skill(api, "descend", hp_threshold=1.0)).result
    assert r.stopped_reason == "hp_too_low" and r.actions_taken == 0
    r = (await run_skill(api, "descend", hp_threshold=1.0, force=True)).result
    assert r.stopped_reason == "stairs_unknown"  # forced past the HP check; this room has no way down


async def test_go_to_walks_round_a_floating_eye_asleep_in_the_short_corridor(play):
    api = play("floating_eye_corridor")
    home, goal = spot(api, 2, 2), spot(api, 20, 2)
    r = (await run_skill(api, "go_to", x=goal.x, y=goal.y)).result
    assert r.stopped_reason == "blocked"  # the way round is not known yet
    assert r.actions_taken == 0 and r.data["blocked_by"] == ["floating eye"]
    assert (await run_skill(api, "explore_level")).result.stopped_reason == "fully_explored"
    for there in (home, goal, home):  # west, east and back, each time round the eye
        r = (await run_skill(api, "go_to", x=there.x, y=there.y)).result
        assert r.stopped_reason == "arrived", r
        assert await api.get_position() == there
    assert not HIT_THE_EYE.search(await message_log(api))
    assert any(m.name == "floating eye" for m in await api.get_visible_monsters())


async def test_go_to_stops_before_a_floating_eye_that_blocks_the_only_corridor(play):
    api = play("floating_eye_dead_end")
    goal = spot(api, 20, 2)
    r = (await run_skill(api, "go_to", x=goal.x, y=goal.y)).result
    assert r.stopped_reason == "blocked" and r.data["blocked_by"] == ["floating eye"]
    assert not HIT_THE_EYE.search(await message_log(api))


async def test_go_to_a_square_off_the_map_is_a_bad_target(play):
    api = play("empty_room")
    r = (await run_skill(api, "go_to", x=200, y=3)).result
    assert r.stopped_reason == "bad_target" and "off the map" in r.data["error"]


async def test_go_to_stops_at_a_locked_door_and_says_which(play):
    api = play("locked_door")
    goal = spot(api, 20, 2)
    door = spot(api, 17, 2)
    r = (await run_skill(api, "go_to", x=door.x - 1, y=door.y)).result
    assert r.stopped_reason == "arrived"
    r = (await run_skill(api, "go_to", x=goal.x, y=goal.y)).result
    # The far room was never seen: there is no known way in yet.
    assert r.stopped_reason in ("door_locked", "no_path"), r
    if r.stopped_reason == "door_locked":
        assert r.data["door"] == (door.x, door.y)


async def test_go_to_waits_for_a_peaceful_watchman_in_the_corridor_then_gives_up_without_attacking(play):
    api = play("peaceful_in_corridor")
    goal = spot(api, 20, 2)
    r = (await run_skill(api, "go_to", x=goal.x, y=goal.y)).result
    assert r.stopped_reason == "blocked" and r.data["blocked_by"] == ["watchman"], r
    assert r.turns_elapsed >= 8  # it waited for him to move first
    log = await message_log(api)
    assert "Really attack" not in log and "You hit" not in log


async def _learn_the_level_and_come_back_the_long_way(api):
    """cautious_explore (it never kicks) walks the long way round and ends next to the
    outside of the closed door; go_to straight back into the first room would need that
    door, which is locked; waypoints bring the hero back by the south."""
    r = (await run_skill(api, "cautious_explore", stop_at_stairs=False)).result
    assert r.stopped_reason == "fully_explored", r
    door, home = spot(api, 6, 2), spot(api, 2, 2)
    r = (await run_skill(api, "go_to", x=home.x, y=home.y)).result
    assert r.stopped_reason == "door_locked" and r.data["door"] == (door.x, door.y), r
    for x, y in ((19, 3), (21, 6), (3, 6), (3, 3)):
        there = spot(api, x, y)
        r = (await run_skill(api, "go_to", x=there.x, y=there.y)).result
        assert r.stopped_reason == "arrived", (x, y, r)


async def test_descend_kicks_in_a_locked_door_on_its_shortest_way_to_the_stairs(play):
    api = play("locked_shortcut")
    await _learn_the_level_and_come_back_the_long_way(api)
    r = (await run_skill(api, "descend")).result
    assert r.stopped_reason == "descended" and r.data["via"] == "stairs", r
    assert (await api.get_stats()).dungeon_level == 2
    assert re.search(r"crashes open|shatters to pieces", await message_log(api))


async def test_go_to_only_reports_a_locked_door_where_go_to_stairs_kicks_it_in(play):
    api = play("locked_shortcut")
    await _learn_the_level_and_come_back_the_long_way(api)  # go_to reported the door
    r = (await run_skill(api, "go_to_stairs")).result
    assert r.stopped_reason == "arrived" and await api.get_position() == spot(api, 22, 2), r
    assert "WHAMM" in await message_log(api) or re.search(r"crashes open|shatters", await message_log(api))


async def test_a_trap_set_off_under_the_hero_is_on_the_map_and_walked_round_afterwards(play):
    """The hero's own glyph hides the trap it set off: a Cavewoman walked back onto the same
    rolling boulder trap five turns later."""
    api = play("falling_rocks")
    trap = spot(api, 3, 2)
    await api.move("e")  # a rock falls on the hero's head
    assert await api.get_position() == trap
    assert (await api.get_current_level()).tile_at(trap).has_trap
    await api.move("e")
    west = spot(api, 1, 2)
    r = (await run_skill(api, "go_to", x=west.x, y=west.y)).result
    assert r.stopped_reason == "arrived", r
    assert "falling rock" not in " ".join(await api.get_messages(4))  # round it, not over it again

"""Scenarios for travel (NetHack's `_`) and counted waiting, on real MiniHack levels."""

from __future__ import annotations

from pathlib import Path

from hackwright.api import NetHackAPI, Position
from hackwright.api.keyboard import PromptKind
from tests.conftest import room_des

LEVELS = Path(__file__).resolve().parent.parent / "levels"

# Two lit rooms joined by a straight corridor of 14 squares.
CORRIDOR = ["-----              -----",
            "|...|              |...|",
            "|....##############....|",
            "|...|              |...|",
            "-----              -----"]
LONG_ROOM = ["-" * 62, "|" + "." * 60 + "|", "|" + "." * 60 + "|", "|" + "." * 60 + "|", "-" * 62]
# Two lit rooms side by side; the gap in the wall between them is the only way through.
TWO_ROOMS = ["-------------",
             "|.....|.....|",
             "|.....|.....|",
             "|...........|",
             "|.....|.....|",
             "-------------"]


def at_command_prompt(api: NetHackAPI) -> bool:
    return api.game_over or api._kb.prompt().kind is PromptKind.NONE


async def turn(api: NetHackAPI) -> int:
    return (await api.get_stats()).turn


async def test_travel_crosses_a_long_room_in_one_call_taking_a_turn_a_square(make_api):
    api = make_api(room_des(LONG_ROOM, hero=(1, 1)), role="valkyrie")
    start, t0 = await api.get_position(), await turn(api)
    target = Position(start.x + 59, start.y + 2)
    steps = len(await api.find_path(target))
    assert steps == 59
    res = await api.travel(target)
    assert res.success, res
    assert await api.get_position() == target
    assert await turn(api) - t0 == steps  # a Valkyrie's speed 12: one square a turn, by a shortest way
    assert at_command_prompt(api)


async def test_after_travelling_down_a_corridor_its_sides_count_as_looked_at(make_api):
    api = make_api(room_des(CORRIDOR, hero=(1, 2)), role="valkyrie")
    start = await api.get_position()
    assert await api.find_unexplored() is not None  # the corridor's far end, not yet walked
    target = Position(start.x + 20, start.y)
    res = await api.travel(target)
    assert res.success, res
    assert await api.get_position() == target
    # The squares walked in that one command were never observed with the hero on them;
    # the level memory visits them along the way, so nothing is left to explore.
    assert await api.find_unexplored() is None


async def test_travel_to_the_down_stairs_lands_on_them(make_api):
    api = make_api((LEVELS / "stairs_across_room.des").read_text(), role="valkyrie")
    stairs = (await api.get_current_level()).stairs_down
    assert stairs is not None and await api.get_position() != stairs
    res = await api.travel(">")
    assert res.success, res
    assert await api.get_position() == stairs
    assert (await api.go_down()).success


async def test_travel_to_a_wall_an_unseen_square_or_missing_stairs_is_refused_without_moving(make_api):
    api = make_api(room_des(["-------", "|.....|", "|.....|", "-------"]), role="valkyrie")
    start, t0 = await api.get_position(), await turn(api)
    wall = Position(start.x - 1, start.y)
    res = await api.travel(wall)
    assert not res.success and "wall" in res.error, res
    res = await api.travel(Position(start.x + 30, start.y + 5))
    assert not res.success and "not been seen" in res.error, res
    res = await api.travel(">")
    assert not res.success and "no stairs down" in res.error, res
    res = await api.travel("far away")
    assert not res.success and "Position(x, y)" in res.error, res
    assert await api.get_position() == start and await turn(api) == t0
    assert at_command_prompt(api)


async def test_travel_stops_short_and_names_the_hostile_monster_that_came_near(make_api):
    api = make_api((LEVELS / "jackals_down_the_room.des").read_text(), role="valkyrie")
    start = await api.get_position()
    target = Position(start.x + 10, start.y - 1)
    res = await api.travel(target)
    assert not res.success
    here = await api.get_position()
    assert here != target and here != start
    assert f"stopped at ({here.x}, {here.y})" in res.error and "jackal" in res.error, res
    assert at_command_prompt(api)


async def test_wait_passes_the_turns_asked_for_when_nothing_is_about(make_api):
    api = make_api(room_des(["-------", "|.....|", "|.....|", "-------"]), role="valkyrie")
    t0 = await turn(api)
    res = await api.wait(5)
    assert res.success, res
    assert await turn(api) - t0 == 5
    assert (await api.wait()).success and await turn(api) - t0 == 6


async def test_a_long_wait_stops_when_a_hostile_monster_comes_into_view(make_api):
    # The jackal starts out of sight behind the dividing wall and comes round through the gap.
    api = make_api(room_des(TWO_ROOMS, 'MONSTER:(\'d\',"jackal"),(11,1),hostile'), role="valkyrie")
    assert await api.get_visible_monsters() == []
    t0 = await turn(api)
    res = await api.wait(50)
    assert res.success, res
    assert await turn(api) - t0 < 50 and "You stop searching." in res.messages
    assert any(m.name == "jackal" for m in await api.get_visible_monsters())
    assert at_command_prompt(api)


async def test_wait_refuses_counts_outside_1_to_200(make_api):
    api = make_api(room_des(["-------", "|.....|", "|.....|", "-------"]), role="valkyrie")
    t0 = await turn(api)
    for bad in (0, 201, -3, 2.5, "5", True):
        res = await api.wait(bad)
        assert not res.success and "1..200" in res.error, (bad, res)
    assert not (await api.search(0)).success
    assert await turn(api) == t0

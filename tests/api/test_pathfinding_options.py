"""The options of the API's path-finding (avoid, traps, avoid_monsters, through_doors) on real
MiniHack levels, in process and from a skill in the sandbox."""

from __future__ import annotations

import pytest

from hackwright.api import Position
from hackwright.api.maps import follow_path
from hackwright.sandbox.runner import SkillRunner
from tests.conftest import room_des

# A lit room three squares high.
ROOM = ["---------", "|.......|", "|.......|", "|.......|", "---------"]
# Three compartments joined by single gaps in row 2: the first gap holds a squeaky board
# (unknown until stepped on), the second a hole (NetHack shows holes from the start).
COMPARTMENTS = ["-----------",
                "|...|...|.|",
                "|.........|",
                "|...|...|.|",
                "-----------"]
# Two lit rooms joined by a closed door.
DOORED = ["-----  -----", "|...|  |...|", "|...+##+...|", "|...|  |...|", "-----  -----"]


def at(origin: Position, x: int, y: int) -> Position:
    """The map square of drawing coordinates (x, y), the hero having started on drawing (1, 2)."""
    return Position(origin.x + x - 1, origin.y + y - 2)


async def walk_with_move_to(api, target: Position, limit: int = 30, **options) -> list[Position]:
    """Squares stood on while move_to(target, **options) is called until there."""
    stood = [await api.get_position()]
    while stood[-1] != target:
        assert len(stood) < limit, stood
        res = await api.move_to(target, **options)
        assert res.success, res
        stood.append(await api.get_position())
    return stood


async def test_a_path_with_an_avoided_square_goes_round_it_and_move_to_never_steps_on_it(make_api):
    api = make_api(room_des(ROOM, hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    target = at(o, 7, 2)
    straight = await api.find_path(target)
    middle = follow_path(o, straight)[2]  # a square the plain path crosses

    path = await api.find_path(target, avoid=[middle])
    squares = follow_path(o, path)
    assert middle not in squares and squares[-1] == target
    assert len(path) == len(straight)  # one diagonal out and back costs no extra step
    # (x, y) pairs serve as well as Positions, and a set as well as a list.
    assert await api.find_path(target, avoid={(middle.x, middle.y)}) == path

    stood = await walk_with_move_to(api, target, avoid=[middle])
    assert middle not in stood and stood[-1] == target


async def test_a_wall_of_avoided_squares_leaves_no_path_and_move_to_fails_without_moving(make_api):
    api = make_api(room_des(ROOM, hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    target = at(o, 7, 2)
    column = [at(o, 4, y) for y in (1, 2, 3)]
    assert await api.find_path(target, avoid=column) == []
    assert await api.find_path(target, avoid=column[:2]) != []  # one square left open is enough
    turn = (await api.get_stats()).turn
    res = await api.move_to(target, avoid=column)
    assert not res.success and "no known path" in res.error, res
    assert await api.get_position() == o and (await api.get_stats()).turn == turn
    assert await api.find_nearest_of([target, at(o, 3, 2)], avoid=column) == at(o, 3, 2)


async def test_a_known_squeaky_board_is_crossed_with_traps_harmless_but_a_known_hole_never_short_of_any(make_api):
    api = make_api(room_des(COMPARTMENTS, 'TRAP:"board",(4,2)\nTRAP:"hole",(8,2)', hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    board, hole = at(o, 4, 2), at(o, 8, 2)
    level = await api.get_current_level()
    assert level.tile_at(hole).trap_type == "hole" and not level.tile_at(board).has_trap
    for d in ("e", "e", "e", "w", "w", "w"):  # onto the board (it squeaks: now a known trap) and back
        assert (await api.move(d)).success
    assert (await api.get_current_level()).tile_at(board).trap_type == "squeaky board"
    assert await api.get_position() == o

    beyond_board, beyond_hole = at(o, 6, 2), at(o, 9, 2)
    assert await api.find_path(beyond_board) == []  # by default no known trap is crossed
    assert await api.find_unexplored() is None
    harmless = await api.find_path(beyond_board, traps="harmless")
    assert board in follow_path(o, harmless) and follow_path(o, harmless)[-1] == beyond_board
    assert await api.find_unexplored(traps="harmless") is not None  # the dark corner beyond the hole

    # The hole leaves the level: neither "harmless" nor "risky" crosses it; "any" does.
    for traps in ("harmless", "risky"):
        assert await api.find_path(beyond_hole, traps=traps) == [], traps
    anyway = await api.find_path(beyond_hole, traps="any")
    assert hole in follow_path(o, anyway)
    # The hole itself as the target is always allowed: that is how a skill jumps in.
    assert follow_path(o, await api.find_path(hole, traps="harmless"))[-1] == hole

    stood = await walk_with_move_to(api, beyond_board, traps="harmless")
    assert board in stood


# Two columns joined by a gap at the top (an arrow trap, unknown until it shoots) and one at
# the bottom, about 20 steps longer round.
TALL = ["-----", "|.|.|", "|...|"] + ["|.|.|"] * 11 + ["|...|", "-----"]


async def test_risky_crosses_an_ordinary_trap_only_when_no_other_way_is_known(make_api):
    api = make_api(room_des(TALL, 'TRAP:"arrow",(2,2)', hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    trap, target, bottom_gap = at(o, 2, 2), at(o, 1, 3), at(o, 2, 14)
    # Onto the trap (it shoots: now it is known) and back, then down the west column, through
    # the bottom gap and up the east one, so that the whole way round is on the map.
    for d in ["e", "w"] + ["s"] * 11 + ["se", "ne"] + ["n"] * 10:
        assert (await api.move(d)).success, d
    assert (await api.get_current_level()).tile_at(trap).trap_type == "arrow trap"
    here = await api.get_position()
    assert here == at(o, 3, 3)

    assert follow_path(here, await api.find_path(target, traps="any")) == [trap, target]  # short despite the price
    round_about = await api.find_path(target, traps="risky")
    assert trap not in follow_path(here, round_about) and bottom_gap in follow_path(here, round_about)
    # With the bottom gap closed the arrow trap is the only way: "risky" takes it, "harmless" does not.
    assert follow_path(here, await api.find_path(target, avoid=[bottom_gap], traps="risky")) == [trap, target]
    assert await api.find_path(target, avoid=[bottom_gap], traps="harmless") == []
    assert await api.find_path(target, avoid=[bottom_gap]) == []


# Two compartments joined by one gap, which holds a sleeping gas trap.
GASSED_GAP = ["---------", "|...|...|", "|.......|", "|...|...|", "---------"]


async def test_risky_crosses_a_sleeping_gas_trap_in_the_only_way_on(make_api):
    # A nap of up to 25 turns is no reason to stay shut in for good (a Priest searched his
    # side of one for 11,000 turns): the trap is crossed when no other way is known.
    api = make_api(room_des(GASSED_GAP, 'TRAP:"sleep gas",(4,2)', hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    trap, target = at(o, 4, 2), at(o, 6, 2)
    for d in ("e", "e", "e", "w"):  # onto the trap (a cloud of gas: now it is known) and back
        assert (await api.move(d)).success, d
    assert (await api.get_current_level()).tile_at(trap).trap_type == "sleeping gas trap"
    here = await api.get_position()
    way = follow_path(here, await api.find_path(target, traps="risky"))
    assert way[0] == trap and way[-1] == target
    assert await api.find_path(target, traps="harmless") == []


async def test_with_through_doors_false_a_path_never_opens_a_closed_door(make_api):
    api = make_api(room_des(DOORED, "DOOR:closed,(4,2)\nDOOR:closed,(7,2)", hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    door = at(o, 4, 2)
    assert follow_path(o, await api.find_path(door, through_doors=False))[-1] == door  # the door itself may be the goal
    assert door in follow_path(o, await api.find_path(at(o, 5, 2)))
    assert await api.find_path(at(o, 5, 2), through_doors=False) == []


@pytest.mark.parametrize("options, named", [
    ({"traps": "sometimes"}, ("'avoid'", "'harmless'", "'risky'", "'any'")),
    ({"avoid_monsters": "yes"}, ("True", "False")),
    ({"through_doors": None}, ("True", "False")),
    ({"avoid": "3,4"}, ("Position", "(x, y)")),
    ({"avoid": [(1, 2), "east"]}, ("Position", "(x, y)")),
])
async def test_a_bad_option_value_fails_naming_the_valid_values(make_api, options, named):
    api = make_api(room_des(ROOM, hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    target = at(o, 7, 2)
    with pytest.raises(ValueError) as err:
        await api.find_path(target, **options)
    assert all(n in str(err.value) for n in named), err.value
    for query in (api.find_unexplored(**options), api.find_nearest_of([target], **options)):
        with pytest.raises(ValueError):
            await query
    res = await api.move_to(target, **options)
    assert not res.success and all(n in res.error for n in named), res
    assert await api.get_position() == o  # nothing was sent to the game


async def test_a_skill_in_the_sandbox_passes_the_options_and_hears_the_valid_values(make_api):
    api = make_api(room_des(ROOM, hero=(1, 2)), role="valkyrie")
    o = await api.get_position()
    code = (
        "async def detour(nh, x: int, y: int, ax: int, ay: int) -> SkillResult:\n"
        "    target, avoid = Position(x, y), {Position(ax, ay)}\n"
        "    stood = []\n"
        "    while await nh.get_position() != target and len(stood) < 20:\n"
        "        await nh.move_to(target, avoid=avoid, traps='harmless')\n"
        "        p = await nh.get_position()\n"
        "        stood.append((p.x, p.y))\n"
        "    try:\n"
        "        await nh.find_path(target, traps='never')\n"
        "        error = ''\n"
        "    except ValueError as e:\n"
        "        error = str(e)\n"
        "    return SkillResult('done', {'stood': stood, 'error': error}, len(stood), 0, True)\n"
    )
    middle = at(o, 4, 2)
    runner = SkillRunner(api)  # the real sandbox worker
    try:
        out = await runner.run(code, {"x": o.x + 6, "y": o.y, "ax": middle.x, "ay": middle.y})
    finally:
        runner.close()
    stood = [Position(*p) for p in out.result.data["stood"]]
    assert stood[-1] == at(o, 7, 2) and middle not in stood, out
    assert "'avoid', 'harmless', 'risky', 'any'" in out.result.data["error"]

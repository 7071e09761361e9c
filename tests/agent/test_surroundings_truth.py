"""The prompt's description of the surroundings says what is true, on real MiniHack games:
objects are named (never the hero or a monster standing on them), traps under objects are
shown, stairs known to lead into another branch say so, and no "explored" share is claimed
on arrival."""

from __future__ import annotations

from hackwright.agent.prompt import describe_surroundings
from hackwright.api import Position, observe
from tests.conftest import room_des

# A lit room one square high: whatever walks from one end to the other crosses every square.
ROW = ["-----------", "|.........|", "-----------"]


async def surroundings(api) -> str:
    """The surroundings as the agent loop builds them for a prompt."""
    state = await api.get_comprehensive_state()
    state["screen"] = await api.get_screen()
    state["frontier"] = await api.find_unexplored()
    return describe_surroundings(api, state)


def observe_top(api, pos: Position) -> str:
    """What the map shows at ``pos`` now, in NetHack's words."""
    return observe.screen_description(api.game.obs, pos)


def line_of(text: str, head: str) -> str:
    found = [ln for ln in text.splitlines() if ln.startswith(head)]
    assert found, f"no line starting {head!r} in:\n{text}"
    return found[0]


async def test_the_object_the_hero_stands_on_is_listed_and_the_hero_is_not(make_api):
    api = make_api(room_des(ROW, 'OBJECT:(\'(\',"large box"),(3,1)'), role="valkyrie")
    for _ in range(2):
        assert (await api.move("e")).success
    hero = await api.get_position()
    assert observe_top(api, hero) != "large box"  # the map shows the hero there, not the box
    objects = line_of(await surroundings(api), "Objects seen:")
    assert "large box here" in objects
    assert "valkyrie" not in objects and "Agent" not in objects


async def test_a_monster_standing_on_an_object_is_not_listed_as_an_object(make_api):
    api = make_api(room_des(ROW, 'OBJECT:(\'(\',"large box"),(5,1)\nMONSTER:(\'d\',"jackal"),(9,1),hostile,awake'),
                   role="valkyrie")
    hero = await api.get_position()
    box = Position(hero.x + 4, hero.y)
    for _ in range(30):  # wait for the jackal to come along the row and stand on the box
        if any(m.position == box for m in await api.get_visible_monsters()):
            break
        await api.search(1)
    else:
        raise AssertionError("the jackal never stood on the box")
    text = await surroundings(api)
    assert "jackal 4 e" in line_of(text, "Monsters:")
    objects = line_of(text, "Objects seen:")
    assert "large box 4 e" in objects and "jackal" not in objects


async def test_a_known_trap_under_a_dropped_object_is_shown(make_api):
    api = make_api(room_des(ROW, 'TRAP:"board",(3,1)'), role="valkyrie")
    for d in ("e", "e", "e"):  # onto the board (it squeaks: now known) and off it, so it is seen bare
        assert (await api.move(d)).success
    assert (await api.move("w")).success  # back on the board
    assert (await api.drop("b")).success  # the dagger now covers it
    assert (await api.move("e")).success
    hero = await api.get_position()
    assert observe_top(api, Position(hero.x - 1, hero.y)) .endswith("dagger")  # the map shows only the dagger
    text = await surroundings(api)
    assert "squeaky board 1 w" in line_of(text, "Known traps:") and "under an object" in line_of(text, "Known traps:")
    assert "+0 dagger (on a squeaky board) 1 w" in line_of(text, "Objects seen:")


async def test_down_stairs_known_to_lead_into_the_mines_are_shown_as_such(make_api):
    rows = ["---------", "|.......|", "|.......|", "---------"]
    api = make_api(room_des(rows, "STAIR:(7,1),down\nSTAIR:(7,2),down"), role="valkyrie")
    await api.get_current_level()  # folds the display into the level's memory
    level = api._level_memory()
    downs = level.all_stairs_down
    assert len(downs) == 2
    mines = downs[1]
    # What the API records when the hero went down these stairs and came out in the Mines.
    level.note_branch_stairs(mines, "Gnomish Mines")
    text = await surroundings(api)
    assert "Down stairs: " not in text
    assert f"at ({mines.x},{mines.y})." in line_of(text, "Down stairs to the Gnomish Mines")
    plain = line_of(text, "Down stairs (staying in the Dungeons of Doom)")
    assert f"({downs[0].x},{downs[0].y})" in plain


async def test_two_down_stairs_say_which_one_the_hero_has_never_taken(make_api):
    # On the level where the Gnomish Mines begin, one of two down stairs is theirs; the map
    # shows both alike. Those the hero went down (and came back up) are known to stay.
    rows = ["---------", "|.......|", "|.......|", "---------"]
    api = make_api(room_des(rows, "STAIR:(7,1),down\nSTAIR:(7,2),down"), role="valkyrie")
    await api.get_current_level()
    level = api._level_memory()
    first, second = level.all_stairs_down
    text = await surroundings(api)
    assert text.count("Down stairs (never taken") == 2
    level.note_stairs_taken(first)  # what go_down records
    text = await surroundings(api)
    assert f"({first.x},{first.y})" in line_of(text, "Down stairs (staying in the Dungeons of Doom)")
    assert f"({second.x},{second.y})" in line_of(text, "Down stairs (never taken")


async def test_arriving_in_a_lit_room_claims_no_share_of_the_level_explored(make_api):
    # A lit room with one doorway to a corridor leading off: on arrival nearly all known
    # squares are room floor already seen, which is no measure of the level.
    rows = ["-------", "|.....|", "|.....+######", "|.....|", "-------"]
    api = make_api(room_des(rows, "DOOR:nodoor,(6,2)"), role="valkyrie")
    text = await surroundings(api)
    first = text.splitlines()[0]
    assert "% explored" not in first and "%" not in first
    memory = api._level_memory()
    known, edge = int(memory.passable_mask().sum()), int(memory.frontier_mask().sum())
    assert edge > 0 and known > edge
    assert f"{known} square(s) of this level known to walk on, {edge} of them next to unexplored parts" in first

"""The agent's dungeon memory, read from real games."""

from __future__ import annotations

from pathlib import Path

from hackwright.agent.memory import AgentMemory

LEVELS = Path(__file__).resolve().parents[1] / "levels"


async def test_reading_the_map_into_memory_leaves_the_floating_eye_beside_the_hero_in_view(make_api):
    """Memory used to put an empty placeholder in the API's per-observation monster cache,
    so the next skill's first step saw no monsters and walked into a floating eye."""
    api = make_api((LEVELS / "eye_and_newt_adjacent.des").read_text())
    memory = AgentMemory(2000)
    memory.update(api)
    names = sorted(m.name for m in await api.get_visible_monsters())
    assert names == ["floating eye", "newt"]
    hero = await api.get_position()
    eye = next(m for m in await api.get_visible_monsters() if m.name == "floating eye")
    res = await api.move(hero.direction_to(eye.position))
    assert not res.success and "floating eye" in res.error  # the move guard saw it too
    assert api.game_over is False


# A lit room: the hero on the up stairs at (1,2), a chaotic altar, a fountain, an apple
# and the down stairs two squares east of the hero.
SHRINE_ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]
SHRINE = ("ALTAR:(4,1),chaos,altar\nFOUNTAIN:(5,1)\nOBJECT:('%',\"apple\"),(2,3)\nSTAIR:(3,2),down")


async def _shrine_game(make_api):
    from tests.conftest import room_des

    api = make_api(room_des(SHRINE_ROOM, SHRINE, hero=(1, 2)), role="valkyrie")
    memory = AgentMemory(2000)
    memory.update(api)
    return api, memory


async def test_an_altar_in_view_is_remembered_with_its_alignment_and_the_fountain_beside_it(make_api):
    api, memory = await _shrine_game(make_api)
    [(depth, where, alignment)] = memory.dungeon.altar_locations
    assert depth == 1 and alignment == "chaotic"
    assert (await api.get_current_level()).tile_at(where).feature == "altar"
    summary = memory.summary(api)
    assert "chaotic" in summary and "1 fountain(s)" in summary and "you are here" in summary


async def test_a_dropped_dagger_is_a_stash_that_dlvl_1_keeps_while_the_hero_is_below(make_api):
    api, memory = await _shrine_game(make_api)
    assert (await api.move("e")).success
    dagger = next(i for i in await api.get_inventory() if "dagger" in i.name)
    assert (await api.drop(dagger.slot)).success
    stash = await api.get_position()
    assert (await api.move("e")).success  # onto the down stairs
    memory.update(api)
    assert memory.dungeon.stash_locations == [(1, stash)]

    assert (await api.go_down()).success
    memory.update(api)
    assert (await api.get_stats()).dungeon_level == 2
    dlvl1 = next(line for line in memory.summary(api).splitlines() if line.startswith("- Dlvl 1"))
    assert f"your stash at ({stash.x},{stash.y})" in dlvl1
    assert "chaotic" in dlvl1 and "last here on turn" in dlvl1
    assert "dagger" in dlvl1 and "apple" in dlvl1  # objects left there

    assert (await api.go_up()).success  # back on Dlvl 1: the same notes, not new ones
    memory.update(api)
    assert len(memory.dungeon.levels) == 2
    assert memory.dungeon.altar_locations[0][2] == "chaotic"
    assert memory.dungeon.stash_locations == [(1, stash)]


async def test_a_stash_picked_up_again_is_forgotten(make_api):
    api, memory = await _shrine_game(make_api)
    assert (await api.move("e")).success
    dagger = next(i for i in await api.get_inventory() if "dagger" in i.name)
    assert (await api.drop(dagger.slot)).success
    memory.update(api)
    assert len(memory.dungeon.stash_locations) == 1
    assert (await api.pickup()).success
    assert (await api.move("w")).success  # step off: the square is seen bare
    memory.update(api)
    assert memory.dungeon.stash_locations == []
    assert "stash" not in memory.summary(api)


async def test_the_shop_and_the_eaten_apple_come_from_the_messages(make_api):
    """Shops are known by the shopkeeper's welcome; an object a monster eats or picks up
    is forgotten when the message says so."""
    api, memory = await _shrine_game(make_api)
    notes = memory.dungeon.levels[memory.dungeon.current]
    apple = next(p for p, (_, what) in notes.items.items() if "apple" in what)
    hero = await api.get_position()
    memory._read_message("Welcome to Asidonhopo's general store!", notes, hero, 5)
    memory._read_message("The little dog eats an apple.", notes, hero, 6)
    assert memory.dungeon.shop_locations == [(1, hero, "general store")]
    assert apple not in notes.items
    assert "Asidonhopo's general store" in memory.summary(api)


def test_the_timeline_keeps_the_newest_entries_within_its_token_budget():
    from hackwright.agent.memory import CHARS_PER_TOKEN, ShortTermMemory

    timeline = ShortTermMemory(max_tokens=50)
    for turn in range(100):
        timeline.add(turn, f"You hit the jackal number {turn}.")
    text = timeline.render()
    assert "number 99." in text and "number 0." not in text
    assert sum(len(e.text) + 8 for e in timeline.entries) <= 50 * CHARS_PER_TOKEN

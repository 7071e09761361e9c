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


# ------------------------------------------------------------------ the timeline collapses repeats
LOCKED_DOOR_ROOM = ["-----------", "|.........|", "|...|+|...|", "-----------"]


async def test_kicking_a_locked_door_open_is_one_line_of_the_timeline(make_api):
    from tests.conftest import room_des

    api = make_api(room_des(LOCKED_DOOR_ROOM, "DOOR:locked,(5,2)", hero=(5, 1)), seed=5)
    memory = AgentMemory(2000)
    memory.update(api)
    assert not (await api.open_door("s")).success  # "This door is locked."
    kicks = 0
    for _ in range(30):
        r = await api.kick("s")
        kicks += 1
        memory.update(api)
        if any("crashes open" in m or "shatters" in m for m in r.messages):
            break
    assert kicks >= 2  # seed 5: the door holds a few times first
    raw = [e.text for e in memory.short_term.entries]
    assert sum(e.count for e in memory.short_term.entries if e.text.startswith("WHAMM")) == kicks - 1
    text = memory.short_term.render()
    assert f"kicked the locked door {kicks}×, it crashed open" in text
    assert "WHAMM" not in text and "In what direction" not in text
    assert len(text.splitlines()) < len(raw)


def test_identical_messages_in_a_row_are_one_line_with_a_count():
    from hackwright.agent.memory import ShortTermMemory

    timeline = ShortTermMemory(max_tokens=500)
    for turn in (10, 11, 12):
        timeline.add(turn, "You hear some noises in the distance.")
    timeline.add(12, "You feel hungry.")
    assert timeline.render().splitlines() == ["T10–T12: You hear some noises in the distance. ×3",
                                              "T12: You feel hungry."]


def test_a_fight_is_one_line_with_its_hits_misses_and_end_and_what_else_happened():
    from hackwright.agent.memory import ShortTermMemory

    timeline = ShortTermMemory(max_tokens=500)
    for turn, msg in [(5, "You hit the jackal."), (5, "The jackal bites!"), (6, "You miss the jackal."),
                      (6, "The jackal bites!"), (7, "You hit the jackal."), (8, "You kill the jackal!"),
                      (9, "You see here a jackal corpse.")]:
        timeline.add(turn, msg)
    assert timeline.render().splitlines() == [
        "T5–T8: attacked the jackal 4× (3 hits, 1 miss), killed it (also: The jackal bites! ×2)",
        "T9: You see here a jackal corpse.",
    ]
    one = ShortTermMemory(max_tokens=500)
    one.add(3, "You hit the newt.")
    one.add(3, "The newt bites!")
    assert one.render() == "T3: You hit the newt.\nT3: The newt bites!"  # a single blow stays as it was


def test_a_cycle_of_messages_is_one_line_and_the_rendering_is_deterministic():
    from hackwright.agent.memory import ShortTermMemory

    def fill() -> ShortTermMemory:
        t = ShortTermMemory(max_tokens=500)
        for turn in range(20, 24):
            t.add(turn, "skill search_here() -> searched (ok, 5 actions, 5 turns)")
            t.add(turn, "You hear bubbling water.")
        t.add(24, "You find a hidden door.")
        return t

    lines = fill().render().splitlines()
    assert lines == ["T20–T23: (skill search_here() -> searched (ok, 5 actions, 5 turns) / "
                     "You hear bubbling water.) ×4", "T24: You find a hidden door."]
    assert fill().render() == fill().render()


# ------------------------------------------------------------------ a failing skill's own line
FAILING = '''async def check_hp(nh):
    """Stop when hit points run low."""
    stats = await nh.get_stats()
    if stats.hitpoints < 5:
        return SkillResult("low", {}, 0, 0, False)
    return SkillResult("fine", {}, 0, 0, True)
'''


def test_an_execution_note_shows_the_failing_line_with_the_code_around_it():
    from hackwright.agent.memory import ErrorSite, ExecutionNote
    from hackwright.sandbox.errors import SkillRuntimeError

    err = SkillRuntimeError(exc_type="AttributeError", exc_message="'Stats' object has no attribute 'hitpoints'",
                            traceback="Traceback (the skill's own lines):\n  line 4, in check_hp\n"
                                      "    if stats.hitpoints < 5:\nAttributeError: 'Stats' object has no attribute "
                                      "'hitpoints'")
    assert err.line == 4 and "(line 4)" in err.message  # read from the worker's trimmed traceback
    site = ErrorSite.of(err, FAILING)
    assert site is not None and site.line == 4
    marked = [ln for ln in site.excerpt.splitlines() if ln.startswith(">")]
    assert marked == ["> 4 |     if stats.hitpoints < 5:"]
    assert len(site.excerpt.splitlines()) == 6  # lines 1..6 of a 6-line skill: 3 before, 2 after
    note = ExecutionNote(turn=7, skill="check_hp", params={}, stopped_reason="error", success=False, actions=0,
                         turns=0, error=err.for_model(), created=True, site=site)
    text = note.line()
    assert "AttributeError" in text and "line 4" in text and "if stats.hitpoints < 5:" in text
    assert all(ln.startswith("    ") for ln in text.splitlines()[1:])  # stays inside its list item
    assert "\n" not in note.summary() and "AttributeError" in note.summary()
    # no line (a timeout): no excerpt
    from hackwright.sandbox.errors import SkillTimeoutError

    assert ErrorSite.of(SkillTimeoutError(seconds=30.0), FAILING) is None


def test_only_the_newest_failures_keep_their_excerpts_and_shown_code_is_bounded():
    from hackwright.agent.memory import ErrorSite, ExecutionNote

    memory = AgentMemory(2000)
    for turn in range(5):
        memory.record_execution(ExecutionNote(turn=turn, skill="check_hp", params={}, stopped_reason="error",
                                              success=False, actions=0, turns=0, error="Error in the skill: x",
                                              site=ErrorSite(4, "> 4 | x")))
    assert [e.site is not None for e in memory.executions] == [False, False, False, True, True]
    for name in ("go_to", "descend", "go_to", "retreat_upstairs"):
        memory.add_shown(name, f"async def {name}(nh):\n    pass\n")
    assert [n for n, _ in memory.shown] == ["go_to", "retreat_upstairs"]
    long_code = "".join(f"x{i} = {i}\n" for i in range(5000))
    memory.add_shown("huge", long_code)
    code = dict(memory.shown)["huge"]
    assert len(code) <= AgentMemory.SHOWN_MAX_CHARS + 60 and "more line(s) not shown" in code

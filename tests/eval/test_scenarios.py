"""The scenario suite: every scenario is solvable (a short scripted solution through the
real API makes its check true, and the check is false at the start), task lists tell
order, and the runner plays scenarios as agent episodes and tabulates the results."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from hackwright.api import NetHackAPI, Position
from hackwright.api import glyphs as G
from hackwright.env import GameConfig
from hackwright.eval.scenarios import (
    SCENARIOS,
    Scenario,
    ScenarioResult,
    TaskList,
    format_results,
    get_scenario,
    run_suite_async,
    scenario_names,
)
from hackwright.eval.scenarios.checks import now


@pytest.fixture
def start(capfd):
    """start(name, seed=0) -> (scenario, a fresh check, NetHackAPI) as the agent loop would make them."""
    made: list[NetHackAPI] = []

    def factory(name: str, seed: int = 0):
        sc = get_scenario(name)
        api = NetHackAPI.new_game(GameConfig(env_id=sc.env_id, seed=seed, role=sc.role, des_file=sc.des_text()))
        made.append(api)
        # NetHack makes a random level instead of a des-file it cannot read, saying so only on stderr.
        err = capfd.readouterr().err
        assert "error" not in err.lower(), f"{sc.des_file}: {err}"
        check = sc.new_check()
        assert check(api) is False, f"{name}: the check holds before anything was done"
        api.test_origin = _origin(sc, api)
        return sc, check, api

    yield factory
    for api in made:
        api.close()


def _origin(sc: Scenario, api: NetHackAPI) -> Position | None:
    """Map position of the drawing's (0, 0), from the hero's fixed start square (BRANCH)."""
    m = re.search(r"BRANCH:\((\d+),(\d+),(\d+),(\d+)\)", sc.des_text())
    x, y, x2, y2 = map(int, m.groups())
    if (x, y) != (x2, y2):
        return None  # a random start
    p = api.last_stats.position
    return Position(p.x - x, p.y - y)


def spot(api, x: int, y: int) -> Position:
    return Position(api.test_origin.x + x, api.test_origin.y + y)


async def walk(api, target: Position, limit: int = 60) -> None:
    for _ in range(limit):
        if await api.get_position() == target:
            return
        r = await api.move_to(target)
        assert r.success, r
    raise AssertionError(f"never reached {target}")


def find_object(api, word: str) -> Position:
    level = now(api.get_current_level())
    hits = [t.position for row in level.tiles for t in row if G.IS_ITEM[t.glyph] and word in t.description.lower()]
    assert hits, f"no {word!r} on the map"
    return hits[0]


async def slot_of(api, word: str) -> str:
    return next(i.slot for i in await api.get_inventory() if word in (i.text or i.name).lower())


async def take(api, pos: Position) -> None:
    await walk(api, pos)
    r = await api.pickup()
    assert r.success, r


# ---------------------------------------------------------------- the suite itself
def test_every_scenario_has_a_des_file_a_task_and_sane_limits():
    assert scenario_names() == ["pickup_pile", "bag_items", "zap_statue", "tasks_ordered", "tasks_unordered",
                                "boulder_corridor", "dig_out", "sso_key_lava"]
    for sc in SCENARIOS.values():
        assert sc.des_path.is_file() and "MAP" in sc.des_text()
        assert len(sc.task) > 30 and sc.success
        assert 0 < sc.max_steps <= 100 and (sc.max_turns or 1) > 0
    with pytest.raises(KeyError, match="known: pickup_pile"):
        get_scenario("nope")


def test_the_docs_list_every_scenario():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text()
    for name in scenario_names():
        assert f"| `{name}` |" in docs, name


# ---------------------------------------------------------------- scripted solutions
async def test_pickup_pile(start):
    sc, check, api = start("pickup_pile")
    await walk(api, spot(api, 6, 2))
    assert len(await api.get_items_here()) == 5
    r = await api.pickup()  # everything, through one menu
    assert r.success and check(api)


async def test_bag_items(start):
    sc, check, api = start("bag_items")
    for x, y in ((3, 1), (4, 2), (8, 1), (6, 3)):  # towel, bag, apple, blindfold
        await take(api, spot(api, x, y))
    assert not check(api)  # all carried, none in the bag yet
    bag = await slot_of(api, "bag")
    wanted = "".join([await slot_of(api, w) for w in ("apple", "blindfold", "towel")])
    # apply the bag: i (put in), a (all types), then the three letters
    for keys in ("a" + bag, "i", "a<enter>", wanted + "<enter>"):
        r = await api.send_keys(keys)
    assert any("into the bag" in m for m in r.messages), r
    turn = (await api.get_stats()).turn
    assert check(api)
    assert (await api.get_stats()).turn == turn  # looking inside took no time
    assert any("containing 3 items" in i.text for i in await api.get_inventory())


async def test_bag_check_wants_the_named_things_inside(start):
    sc, check, api = start("bag_items")
    for x, y in ((3, 1), (4, 2), (8, 1), (6, 3)):
        await take(api, spot(api, x, y))
    bag = await slot_of(api, "bag")
    # three things, but the dagger instead of the towel
    wrong = "".join([await slot_of(api, w) for w in ("apple", "blindfold", "dagger")])
    for keys in ("a" + bag, "i", "a<enter>", wrong + "<enter>"):
        await api.send_keys(keys)
    assert any("containing 3 items" in i.text for i in await api.get_inventory())
    assert not check(api)


async def test_zap_statue(start):
    sc, check, api = start("zap_statue")
    await take(api, spot(api, 3, 3))
    await walk(api, spot(api, 4, 1))  # in line with the statue at (8, 1), four squares west
    r = await api.zap(await slot_of(api, "wand"), "e")
    assert r.success and any("statue shatters" in m for m in r.messages), r
    assert check(api)


async def test_tasks_ordered_in_order(start):
    sc, check, api = start("tasks_ordered")
    assert isinstance(check, TaskList) and check.ordered
    await take(api, spot(api, 10, 1))  # the blindfold
    assert not check(api) and check.progress() == ["pick up the blindfold"]
    await take(api, spot(api, 2, 3))  # the towel
    assert not check(api)
    await walk(api, spot(api, 10, 4))
    assert (await api.go_down()).success
    assert check(api) and check.broken is None
    assert check.progress() == ["pick up the blindfold", "pick up the towel", "go down the stairs"]


async def test_tasks_ordered_out_of_order_fails_for_good(start):
    sc, check, api = start("tasks_ordered")
    await take(api, spot(api, 2, 3))  # the towel first: wrong
    assert not check(api) and "towel" in check.broken
    await take(api, spot(api, 10, 1))
    await walk(api, spot(api, 10, 4))
    assert (await api.go_down()).success
    assert not check(api)


async def test_tasks_ordered_within_one_step_uses_the_messages(start):
    """Both items picked up between two checks (one skill run): the pickup
    messages tell the order."""
    sc, check, api = start("tasks_ordered")
    await take(api, spot(api, 2, 3))  # towel, then blindfold, before any check
    await take(api, spot(api, 10, 1))
    assert not check(api) and "towel" in check.broken
    sc, check, api = start("tasks_ordered")
    await take(api, spot(api, 10, 1))
    await take(api, spot(api, 2, 3))
    assert not check(api) and check.broken is None
    assert check.progress() == ["pick up the blindfold", "pick up the towel"]


async def test_tasks_unordered(start):
    sc, check, api = start("tasks_unordered")
    await take(api, spot(api, 5, 3))
    r = await api.wear(await slot_of(api, "fedora"))
    assert r.success, r
    assert not check(api) and check.progress() == ["wear the fedora"]
    for _ in range(40):  # hunt the newt down
        newts = [m for m in await api.get_visible_monsters() if m.name == "newt"]
        if not newts:
            break
        hero = await api.get_position()
        if newts[0].position.is_adjacent(hero):
            await api.attack(hero.direction_to(newts[0].position))
        else:
            await api.move_to(newts[0].position)
    assert not check(api) and set(check.progress()) == {"wear the fedora", "kill the newt"}
    await walk(api, spot(api, 9, 2))
    for _ in range(5):  # a door may be stuck
        if (await api.open_door("e")).success:
            break
    assert check(api)


async def test_boulder_corridor(start):
    sc, check, api = start("boulder_corridor")
    await walk(api, spot(api, 5, 2))
    for _ in range(30):  # push the boulder east along the corridor into the far room
        if await api.get_position() == spot(api, 23, 2):
            break
        assert (await api.move("e")).success
    await walk(api, spot(api, 25, 2))  # round the boulder, now in the room
    assert not check(api)
    assert (await api.go_down()).success
    assert check(api)


async def test_dig_out(start):
    sc, check, api = start("dig_out")
    assert (await api.pickup()).success  # the wand is underfoot
    r = await api.zap(await slot_of(api, "wand"), "e")
    assert r.success, r
    await walk(api, spot(api, 10, 2))
    assert not check(api)
    assert (await api.go_down()).success
    assert check(api)


@pytest.mark.parametrize("seed", [0, 1])  # seed 0 places a potion of levitation, seed 1 a ring
async def test_sso_key_lava(start, seed):
    sc, check, api = start("sso_key_lava", seed)
    await take(api, find_object(api, "key"))
    door = next(t.position for row in (await api.get_current_level()).tiles for t in row
                if G.CMAP_INDEX[t.glyph] in (G.S_VCDOOR, G.S_HCDOOR))
    await walk(api, Position(door.x - 1, door.y))
    key = await slot_of(api, "key")
    for _ in range(10):  # unlocking takes a few tries
        r = await api.send_keys(f"a{key}l")
        if r.prompt and "Unlock it?" in r.prompt:
            r = await api.send_keys("y")
        if (await api.open_door("e")).success:
            break
    else:
        raise AssertionError("the door never opened")
    await walk(api, Position(door.x + 1, door.y))
    item = next(p for word in ("ring", "potion") if (p := _maybe(api, word)))
    await take(api, item)
    inv = {i.object_class: i.slot for i in await api.get_inventory()}
    if "ring" in inv:
        r = await api.send_keys(f"P{inv['ring']}r")
    else:
        r = await api.quaff(inv["potion"])
    assert "Levitating" in await api.get_status_effects(), r
    stairs = None
    for _ in range(30):  # float east over the lava to the stairs
        stairs = (await api.get_current_level()).stairs_down
        if stairs is not None:
            break
        await api.move("e")
    hero = await api.get_position()
    for _ in range(40):  # no path finding over lava: step straight at the stairs
        if hero == stairs:
            break
        await api.move(hero.direction_to(stairs))
        hero = await api.get_position()
    assert check(api)


def _maybe(api, word: str) -> Position | None:
    try:
        return find_object(api, word)
    except AssertionError:
        return None


# ---------------------------------------------------------------- the runner
def test_format_results_tabulates_rates_and_means():
    rs = [ScenarioResult("a", 0, 0, True, "goal reached", 4, 20, 1.0),
          ScenarioResult("a", 1, 1, False, "step cap", 10, 60, 1.0),
          ScenarioResult("b", 0, 0, False, "error", 0, 0, 0.0, error="RuntimeError: boom")]
    text = format_results(rs)
    lines = text.splitlines()
    assert lines[0].split() == ["scenario", "runs", "successes", "success", "rate", "mean", "steps", "mean", "turns"]
    assert lines[2].split() == ["a", "2", "1", "50%", "7.0", "40.0"]
    assert lines[3].split() == ["b", "1", "0", "0%", "0.0", "0.0"]
    assert lines[4].split()[:4] == ["all", "3", "1", "33%"]
    assert "1 episode(s) failed to run" in text and "boom" in text


async def test_the_autopilot_plays_scenarios_end_to_end(tmp_path):
    seen: list[ScenarioResult] = []
    results = await run_suite_async(
        "autopilot", names=["boulder_corridor", "tasks_ordered"], seed=0, max_steps=8,
        db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"), out_dir=str(tmp_path / "out"),
        progress=seen.append)
    assert [r.scenario for r in results] == ["boulder_corridor", "tasks_ordered"] and seen == results
    assert all(r.error is None and r.steps >= 1 and r.turns > 0 for r in results), results
    for r in results:  # the goal ends an episode as soon as it holds
        assert r.success == (r.end_reason == "goal reached")
    print("\n" + format_results(results))
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [s["scenario"] for s in saved] == ["boulder_corridor", "tasks_ordered"]
    run = tmp_path / "out" / "boulder_corridor" / "run-0"
    assert (run / "summary.json").exists()
    # isolated (the default): each episode played on its own copy of the database and library
    assert (run / "store" / "memory.db").exists() and not (tmp_path / "m.db").exists()


async def test_a_shared_run_uses_the_given_database_and_library(tmp_path):
    results = await run_suite_async("autopilot", names=["zap_statue"], max_steps=2, isolated=False,
                                    db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"))
    assert results[0].steps == 2 and not results[0].success
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 1
    assert db.execute("SELECT COUNT(*) FROM decisions").fetchone()[0] == 2
    db.close()


async def test_a_model_that_solves_a_scenario_ends_the_episode_with_the_goal(tmp_path):
    """A scripted model (a local server speaking the Anthropic wire format) walks to the
    pile and picks everything up: the check holds and the episode stops there."""
    from tests.agent.fake_model_server import FakeModelServer, Reply

    def press(keys: str) -> Reply:
        return Reply(tool_input={"action": "direct", "key": keys, "reasoning": "scripted"})

    with FakeModelServer() as server:
        server.script(press("llll"), press(",,<enter>"), press("s"))  # the third is never asked for
        results = await run_suite_async(
            f"anthropic:claude-haiku-4-5@{server.url}", names=["pickup_pile"],
            db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
            episode_options={"backend_options": {"timeout": 2.0, "max_retries": 0}})
        prompt = json.dumps(server.bodies("/v1/messages")[0])
        assert server.pending == 1
    (r,) = results
    assert r.success and r.end_reason == "goal reached" and r.steps == 2 and r.model_calls == 2, r
    assert get_scenario("pickup_pile").task in prompt  # the task is on the model's prompt
    with pytest.raises(TypeError, match="no_such_field"):
        await run_suite_async("autopilot", names=["pickup_pile"], episode_options={"no_such_field": 1})

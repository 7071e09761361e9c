"""Skills calling skills by name (``await nh.run_skill(...)``), on real games, in the real
sandbox worker and in-process, with real skill libraries on disk."""

from __future__ import annotations

import pytest

from hackwright.api import Position
from hackwright.sandbox.composition import MAX_DEPTH
from hackwright.sandbox.runner import SandboxLimits, SkillRunner
from hackwright.skills.library import SkillLibrary
from tests.conftest import room_des

HALL = ["------------------", "|................|", "|................|", "|................|",
        "------------------"]
MODES = ["sandbox", "inprocess"]

WALK_THROUGH_GO_TO = '''
async def walk_via_go_to(nh, x: int, y: int):
    """Walk somewhere by calling the built-in go_to."""
    result = await nh.run_skill("go_to", x=x, y=y)
    here = await nh.get_position()
    return SkillResult("called", {"inner": result, "at": (here.x, here.y)}, result.actions_taken,
                       result.turns_elapsed, result.success)
'''


@pytest.fixture
def hall(make_api):
    """A runner factory on a lit hall; the hero starts at the drawing's (1, 1)."""
    api = make_api(room_des(HALL), seed=3)
    start = api.last_stats.position
    made: list[SkillRunner] = []

    def runner(mode: str = "sandbox", **kw) -> SkillRunner:
        kw.setdefault("limits", SandboxLimits(wall_seconds=60, cpu_seconds=20))
        r = SkillRunner(api, mode=mode, **kw)
        made.append(r)
        return r

    runner.api = api
    runner.spot = lambda x, y: Position(start.x - 1 + x, start.y - 1 + y)
    yield runner
    for r in made:
        r.close()


def library(tmp_path, **skills: str) -> SkillLibrary:
    lib = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "runs.db")
    for name, code in skills.items():
        lib.save(name, code, category="navigation", description=f"{name}, a test skill")
    return lib


@pytest.mark.parametrize("mode", MODES)
async def test_a_model_written_skill_walks_the_hero_there_through_go_to(hall, mode):
    runner = hall(mode)
    target = hall.spot(12, 3)
    out = await runner.run(WALK_THROUGH_GO_TO, {"x": target.x, "y": target.y})
    inner = out.result.data["inner"]
    assert inner.stopped_reason == "arrived" and inner.success
    assert await hall.api.get_position() == target
    assert tuple(out.result.data["at"]) == (target.x, target.y)
    # go_to's steps were this run's steps: the caller's count holds them
    assert out.actions >= 11 and out.actions == inner.actions_taken
    assert ("in-process" in out.stack) == (mode == "inprocess")


@pytest.mark.parametrize("mode", MODES)
async def test_the_called_skill_spends_the_callers_action_budget_and_the_run_stops_there(hall, mode):
    runner = hall(mode)
    start = await hall.api.get_position()
    target = hall.spot(15, 1)
    code = '''
async def far_walk(nh, x: int, y: int):
    result = await nh.run_skill("go_to", x=x, y=y)
    return SkillResult("caller_went_on", {"inner": result.stopped_reason}, 0, 0, True)
'''
    out = await runner.run(code, {"x": target.x, "y": target.y},
                           limits=SandboxLimits(max_actions=4, wall_seconds=60, cpu_seconds=20))
    assert out.result.stopped_reason == "action_limit" and not out.result.success
    assert out.actions == 4
    here = await hall.api.get_position()
    assert here != target and here.x - start.x == 4  # four steps east, then stopped


@pytest.mark.parametrize("mode", MODES)
async def test_an_unknown_name_comes_back_as_a_failed_result_naming_close_skills(hall, mode):
    runner = hall(mode)
    code = '''
async def ask_wrong(nh):
    typo = await nh.run_skill("goto", x=3, y=3)
    return SkillResult("asked", {"result": typo}, 0, 0, True)
'''
    out = await runner.run(code)
    got = out.result.data["result"]
    assert got.stopped_reason == "unknown_skill" and not got.success and got.actions_taken == 0
    assert "go_to" in got.data["close"] and "go_to" in got.data["error"]
    assert "descend" in got.data["skills"]
    assert out.actions == 0


@pytest.mark.parametrize("mode", MODES)
async def test_wrong_parameters_are_refused_with_what_the_skill_takes(hall, mode):
    runner = hall(mode)
    before = await hall.api.get_position()
    code = '''
async def ask_badly(nh):
    extra = await nh.run_skill("go_to", x=3, z=5)
    missing = await nh.run_skill("go_to", x=3)
    return SkillResult("asked", {"extra": extra, "missing": missing}, 0, 0, True)
'''
    out = await runner.run(code)
    extra, missing = out.result.data["extra"], out.result.data["missing"]
    assert extra.stopped_reason == "bad_params" and "'z'" in extra.data["error"]
    assert "y (required)" in extra.data["error"] and "max_steps=200" in extra.data["params"]
    assert missing.stopped_reason == "bad_params" and missing.data["missing"] == ["y"]
    assert await hall.api.get_position() == before


@pytest.mark.parametrize("mode", MODES)
async def test_a_skill_calling_itself_is_refused(hall, mode):
    runner = hall(mode)
    code = '''
async def again(nh, n: int = 0):
    inner = await nh.run_skill("again", n=n + 1)
    return SkillResult("returned", {"inner": inner}, 0, 0, True)
'''
    out = await runner.run(code)
    inner = out.result.data["inner"]
    assert inner.stopped_reason == "recursion" and not inner.success
    assert "cannot call itself" in inner.data["error"] and "again → again" in inner.data["error"]


PING = '''
async def ping(nh):
    """Calls pong."""
    r = await nh.run_skill("pong")
    return SkillResult("ping_done", {"pong": r}, r.actions_taken, 0, r.success)
'''
PONG = '''
async def pong(nh):
    """Calls ping back: a loop through two skills."""
    r = await nh.run_skill("ping")
    return SkillResult("pong_done", {"ping": r}, 0, 0, True)
'''


async def test_recursion_through_another_library_skill_is_refused_too(hall, tmp_path):
    runner = hall("sandbox", skills=library(tmp_path, ping=PING, pong=PONG))
    out = await runner.run("async def start(nh):\n    return await nh.run_skill('ping')\n")
    assert out.result.stopped_reason == "ping_done"
    pong = out.result.data["pong"]
    assert pong.stopped_reason == "pong_done"
    assert pong.data["ping"].stopped_reason == "recursion"
    assert "start → ping → pong → ping" in pong.data["ping"].data["error"]


def nest(i: int) -> str:
    return f'''
async def nest{i}(nh):
    """Calls nest{i + 1}."""
    r = await nh.run_skill("nest{i + 1}")
    return SkillResult("nest{i}", {{"inner": r}}, 0, 0, True)
'''


async def test_nesting_stops_at_the_depth_limit(hall, tmp_path):
    lib = library(tmp_path, **{f"nest{i}": nest(i) for i in range(1, MAX_DEPTH + 2)})
    runner = hall("sandbox", skills=lib)
    out = await runner.run("async def top(nh):\n    return await nh.run_skill('nest1')\n")
    depth, r = 1, out.result
    while r.stopped_reason.startswith("nest"):
        r, depth = r.data["inner"], depth + 1
    assert r.stopped_reason == "too_deep" and depth == MAX_DEPTH
    assert f"at most {MAX_DEPTH} deep" in r.data["error"]


CRASHER = '''
async def crasher(nh):
    """Fails on its third line."""
    stats = await nh.get_stats()
    return stats.hp / 0
'''


async def test_the_called_code_comes_from_the_episodes_library_and_its_crash_is_a_result(hall, tmp_path):
    runner = hall("sandbox", skills=library(tmp_path, crasher=CRASHER))
    code = '''
async def careful(nh):
    r = await nh.run_skill("crasher")
    return SkillResult("survived", {"inner": r}, 0, 0, True)
'''
    out = await runner.run(code)
    inner = out.result.data["inner"]
    assert out.result.stopped_reason == "survived"
    assert inner.stopped_reason == "error" and "ZeroDivisionError" in inner.data["error"]
    assert "stats.hp / 0" in inner.data["traceback"] and "line 5" in inner.data["traceback"]
    # without that library the name means nothing
    plain = hall("sandbox")
    alone = await plain.run(code)
    assert alone.result.data["inner"].stopped_reason == "unknown_skill"


async def test_a_trusted_in_process_skill_may_not_run_model_written_code(hall, tmp_path):
    runner = hall("inprocess", skills=library(tmp_path, crasher=CRASHER))
    code = '''
async def trusted(nh):
    r = await nh.run_skill("crasher")
    return SkillResult("asked", {"inner": r}, 0, 0, True)
'''
    inner = (await runner.run(code)).result.data["inner"]
    assert inner.stopped_reason == "not_allowed" and "model-written" in inner.data["error"]


STAY_PUT = '''
async def stay_put(nh):
    """Walk to where the hero stands, through the built-in go_to."""
    here = await nh.get_position()
    r = await nh.run_skill("go_to", x=here.x, y=here.y)
    return SkillResult("went", {"inner": r.stopped_reason, "inner_success": r.success}, r.actions_taken,
                       r.turns_elapsed, r.success)
'''


async def test_in_an_episode_a_skill_the_model_creates_calls_a_built_in(tmp_path):
    import json
    import sqlite3

    from hackwright.agent.loop import Agent, EpisodeConfig
    from tests.agent.fake_model_server import FakeModelServer, Reply

    decision = {"action": "create", "name": "stay_put", "category": "navigation",
                "description": "Walk to where the hero stands", "triggers": [], "params": {}, "code": STAY_PUT}
    with FakeModelServer() as server:
        server.script(Reply(text="```json\n" + json.dumps(decision) + "\n```"))
        cfg = EpisodeConfig(seed=5, llm=f"openai:qwen2.5-7b@{server.openai_base_url}", max_steps=1,
                            db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                            record_dir=str(tmp_path / "rec"), backend_options={"timeout": 5.0, "max_retries": 1})
        summary = await Agent(cfg).run()
    assert summary.skills_created == ["stay_put"]
    row = sqlite3.connect(tmp_path / "m.db").execute(
        "SELECT stopped_reason, error, data FROM skill_executions WHERE skill_name = 'stay_put'").fetchone()
    assert row[0] == "went" and row[1] is None
    assert json.loads(row[2]) == {"inner": "arrived", "inner_success": True}

"""Scenarios for running skills: results, typed errors, limits, recovery."""

from __future__ import annotations

import asyncio
import inspect
import os
import signal
import textwrap

import pytest

from hackwright.api import NetHackAPI, Position
from hackwright.api.keyboard import PromptKind
from hackwright.env import GameConfig
from hackwright.sandbox import errors, surface
from hackwright.sandbox.runner import SandboxLimits, SkillRunner
from tests.conftest import room_des

SPEC_SKILL = open(os.path.join(os.path.dirname(__file__), "..", "api", "spec_skills", "cautious_explore.py")).read()
ROOM = ["---------", "|.......|", "|.......|", "|.......|", "---------"]


@pytest.fixture
def runner():
    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0",
                                         des_file=room_des(ROOM, "STAIR:(7,3),down"), seed=1))
    r = SkillRunner(api, limits=SandboxLimits(wall_seconds=10, cpu_seconds=3))
    yield r
    r.close()
    api.close()


def at_prompt(r: SkillRunner) -> bool:
    return r.api.game_over or r.api._kb.prompt().kind is PromptKind.NONE


async def test_the_specs_cautious_explore_runs_sandboxed_exactly_as_written(runner):
    out = await runner.run(SPEC_SKILL, {"hp_threshold": 0.5}, entry="cautious_explore")
    assert out.result.stopped_reason in ("found_stairs", "fully_explored")
    assert out.stack and "in-process" not in out.stack
    assert at_prompt(runner)


async def test_a_skill_gets_the_api_dataclasses_without_importing_them(runner):
    code = '''
async def where(nh):
    pos = await nh.get_position()
    level = await nh.get_current_level()
    assert isinstance(pos, Position) and isinstance(level, DungeonLevel)
    tile = level.tiles[pos.y][pos.x]
    stats = await nh.get_stats()
    return SkillResult("ok", {"pos": pos, "hunger": stats.hunger, "walkable": tile.is_walkable}, 0, 0, True)
'''
    out = await runner.run(code)
    assert isinstance(out.result.data["pos"], Position)
    assert out.result.data["hunger"].value == "Not Hungry"


async def test_a_walking_skill_moves_the_hero_and_counts_its_actions(runner):
    code = '''
async def walk(nh, steps=3):
    for _ in range(steps):
        r = await nh.move("e")
    return SkillResult("walked", {"last": r}, steps, 0, r.success)
'''
    before = await runner.api.get_position()
    out = await runner.run(code, {"steps": 3})
    assert out.actions == 3
    assert (await runner.api.get_position()).x == before.x + 3


async def test_the_action_limit_stops_a_skill_with_a_result_not_an_error(runner):
    code = '''
async def forever(nh):
    while True:
        await nh.search()
'''
    out = await runner.run(code, limits=SandboxLimits(max_actions=5, wall_seconds=10))
    assert out.result.stopped_reason == "action_limit" and out.actions == 5
    assert at_prompt(runner)


async def test_a_syntax_error_says_where(runner):
    with pytest.raises(errors.SkillSyntaxError) as e:
        await runner.run("async def s(nh):\n    x = (1,\n")
    assert e.value.line >= 2


async def test_a_forbidden_import_is_refused_before_running(runner):
    with pytest.raises(errors.SkillValidationError) as e:
        await runner.run("import os\nasync def s(nh):\n    return None\n")
    assert "math" in str(e.value.for_model())


async def test_an_exception_in_the_skill_comes_back_with_the_skills_own_lines(runner):
    code = '''
async def broken(nh):
    stats = await nh.get_stats()
    return stats.hp / 0
'''
    with pytest.raises(errors.SkillRuntimeError) as e:
        await runner.run(code)
    text = e.value.for_model()
    assert "ZeroDivisionError" in text and "stats.hp / 0" in text
    assert "runner.py" not in text and "worker.py" not in text


async def test_an_api_error_reaches_the_skill_as_a_catchable_exception(runner):
    code = '''
async def ask(nh):
    try:
        await nh.lookup_monster("newtt")
    except ValueError as e:
        return SkillResult("caught", {"msg": str(e)}, 0, 0, True)
    return SkillResult("not raised", {}, 0, 0, False)
'''
    out = await runner.run(code)
    assert out.result.stopped_reason == "caught" and "newt" in out.result.data["msg"]


async def test_print_output_is_captured_and_capped(runner):
    code = '''
async def chatty(nh):
    for i in range(1000):
        print("line", i, "x" * 100)
    return SkillResult("done", {}, 0, 0, True)
'''
    out = await runner.run(code, limits=SandboxLimits(max_output_bytes=2000))
    assert out.log.startswith("line 0") and len(out.log) <= 2000


async def test_a_wall_clock_timeout_is_typed_and_the_next_skill_runs(runner):
    code = '''
async def spin(nh):
    n = 0
    while True:
        n += 1
'''
    with pytest.raises((errors.SkillTimeoutError,)):
        await runner.run(code, limits=SandboxLimits(wall_seconds=1.0, cpu_seconds=5))
    out = await runner.run("async def ok(nh):\n    return SkillResult('ok', {}, 0, 0, True)\n")
    assert out.result.success


async def test_a_killed_worker_is_replaced_without_the_caller_noticing_more_than_one_failure(runner):
    code = '''
async def slow(nh):
    while True:
        await nh.get_messages(1)
'''
    runner.warm_up()
    spare = set(_worker_pids(runner))  # the pre-forked worker waiting for the next skill
    task = asyncio.get_running_loop().run_in_executor(None, lambda: asyncio.run(runner.run(code)))
    for _ in range(100):  # until the skill's worker is busy
        await asyncio.sleep(0.05)
        if runner.record_call_times or any(_busy(pid) for pid in _worker_pids(runner)):
            break
    await asyncio.sleep(0.2)
    for pid in list(_worker_pids(runner)):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # a worker dies with the zygote if that was killed first
            pass
    with pytest.raises(errors.SkillExecutionError):
        await task
    out = await runner.run("async def ok(nh):\n    return SkillResult('ok', {}, 0, 0, True)\n")
    assert out.result.success and at_prompt(runner)


def _worker_pids(runner: SkillRunner) -> list[int]:
    z = runner._zygote
    children = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read().split()
        except OSError:
            continue
        # direct children of the zygote's python (under bwrap one level deeper)
        ppid = int(stat[3])
        if ppid == z.proc.pid or _parent_of(ppid) == z.proc.pid:
            if int(pid) != z.proc.pid:
                children.append(int(pid))
    return children


def _busy(pid: int) -> bool:
    try:
        return int(open(f"/proc/{pid}/stat").read().split()[13]) > 0  # user CPU ticks
    except OSError:
        return False


def _parent_of(pid: int) -> int:
    try:
        return int(open(f"/proc/{pid}/stat").read().split()[3])
    except OSError:
        return -1


async def test_a_dead_zygote_is_restarted(runner):
    runner.warm_up()
    os.killpg(runner._zygote.proc.pid, signal.SIGKILL)
    runner._zygote.proc.wait()
    out = await runner.run("async def ok(nh):\n    return SkillResult('ok', {}, 0, 0, True)\n")
    assert out.result.success


async def test_in_process_mode_runs_trusted_skills_on_the_real_api(runner):
    r = SkillRunner(runner.api, mode="inprocess")
    out = await r.run(SPEC_SKILL, {"hp_threshold": 0.5}, entry="cautious_explore")
    assert out.result.stopped_reason in ("found_stairs", "fully_explored")
    assert out.stack.startswith("in-process")


def test_without_any_isolation_model_written_skills_are_refused(monkeypatch):
    from hackwright.sandbox import runner as runner_module

    monkeypatch.setattr(runner_module, "best_stack", lambda caps: None)
    with pytest.raises(errors.SandboxUnavailableError, match="allow_weak"):
        SkillRunner(object())
    weak = SkillRunner(object(), allow_weak=True)
    assert weak.warnings and "WARNING" in weak.warnings[0]


def test_the_sandbox_serves_exactly_the_public_async_methods_of_the_api():
    public = {n for n, f in inspect.getmembers(NetHackAPI, inspect.iscoroutinefunction) if not n.startswith("_")}
    assert public == set(surface.QUERIES) | set(surface.ACTIONS) | set(surface.LOCAL)


def test_find_nearest_with_a_predicate_works_in_the_sandbox(runner):
    code = '''
async def stairs(nh):
    pos = await nh.find_nearest(lambda t: t.char == ">")
    return SkillResult("found" if pos else "none", {"pos": pos}, 0, 0, pos is not None)
'''
    out = asyncio.run(runner.run(code))
    assert out.result.success and isinstance(out.result.data["pos"], Position)

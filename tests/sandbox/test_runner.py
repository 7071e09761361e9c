"""Scenarios for running skills: results, typed errors, limits, recovery."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import os
import signal
import subprocess
import sys

import pytest

from hackwright.api import NetHackAPI, Position
from hackwright.api.keyboard import PromptKind
from hackwright.env import GameConfig
from hackwright.sandbox import errors, surface
from hackwright.sandbox.isolation import Stack, detect
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


async def test_a_skill_gets_the_list_of_monsters_never_to_bump_without_importing_it(runner):
    code = '''
async def keep_off(nh):
    return SkillResult("ok", {"eye": "floating eye" in NEVER_BUMP, "newt": "newt" in NEVER_BUMP}, 0, 0, True)
'''
    out = await runner.run(code)
    assert out.result.data == {"eye": True, "newt": False}


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


# The scenarios of a worker killed from outside run on each stack that works here, chosen
# explicitly: CI has bubblewrap (the default stack there), and the user-namespace stack
# is what a machine without bubblewrap uses.
CAPS = detect()
EACH_STACK = [
    pytest.param(Stack.USERNS, id="userns", marks=pytest.mark.skipif(
        not (CAPS.seccomp and (CAPS.userns or CAPS.landlock_abi >= 1)),
        reason="the user-namespace stack needs seccomp and user namespaces or Landlock")),
    pytest.param(Stack.BWRAP, id="bwrap", marks=pytest.mark.skipif(
        not (CAPS.seccomp and CAPS.bwrap), reason="bubblewrap is not installed or unusable")),
]
SPIN = '''
async def spin(nh):
    while True:
        await nh.get_messages(1)
'''
OK_SKILL = "async def ok(nh):\n    return SkillResult('ok', {}, 0, 0, True)\n"


@pytest.fixture(params=EACH_STACK)
def runner_on_each_stack(request):
    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0",
                                         des_file=room_des(ROOM, "STAIR:(7,3),down"), seed=1))
    r = SkillRunner(api, stack=request.param, limits=SandboxLimits(wall_seconds=10, cpu_seconds=3))
    assert r.stack is request.param
    yield r
    r.close()
    api.close()


def _live_workers(runner: SkillRunner) -> dict[int, int]:
    """The zygote's live workers: {pid as the zygote knows it: pid on this host}.

    Under bubblewrap the zygote is two levels below the process the runner started
    (bwrap, then bwrap's reaper) and knows its workers by their pids inside its PID
    namespace (the last field of NSpid).
    """
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
            status = open(f"/proc/{name}/status").read()
            argv = open(f"/proc/{name}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        nspid = next(line.split()[-1] for line in status.splitlines() if line.startswith("NSpid:"))
        table[int(name)] = (int(stat[1]), stat[0], int(nspid), argv)
    zygote = runner._pool.zygote.proc.pid
    while table[zygote][3][1:4] != [b"-I", b"-m", b"hackwright.sandbox.zygote"]:
        zygote = next(pid for pid, row in table.items() if row[0] == zygote)
    return {ns: pid for pid, (ppid, state, ns, _) in table.items() if ppid == zygote and state not in "ZX"}


async def _kill_during_a_skill(runner: SkillRunner, which: str) -> tuple[errors.SkillCrashedError, tuple[int, int]]:
    """Run SPIN; while it runs, SIGKILL its worker (``which="skill"``) or its worker and the
    spare forked for the next run (``"both"``). Returns the error the run raised and the
    spare's (pid in the zygote's namespace, pid on this host)."""
    runner.warm_up()
    busy_ns = runner._pool.spare.pid  # the warm worker is the one the next run takes
    busy = _live_workers(runner)[busy_ns]
    runner.record_call_times = True  # the host notes every API call: the skill has started
    # (no call budget: SPIN's cached queries would use 50,000 calls before a slow spare is forked)
    endless = dataclasses.replace(runner.limits, max_api_calls=10**12)
    task = asyncio.get_running_loop().run_in_executor(None, lambda: asyncio.run(runner.run(SPIN, limits=endless)))
    spare = None
    for _ in range(600):
        await asyncio.sleep(0.05)
        others = {ns: pid for ns, pid in _live_workers(runner).items() if ns != busy_ns}
        if runner.call_times and others:
            spare = next(iter(others.items()))
            break
    assert spare is not None, "the skill never started, or no spare was forked while it ran"
    os.kill(busy, signal.SIGKILL)
    if which == "both":
        os.kill(spare[1], signal.SIGKILL)
    with pytest.raises(errors.SkillCrashedError) as e:
        await task
    return e.value, spare


async def test_a_killed_skill_worker_is_a_crash_and_the_spare_it_leaves_runs_the_next_skill(runner_on_each_stack):
    runner = runner_on_each_stack
    error, (spare_ns, spare) = await _kill_during_a_skill(runner, "skill")
    assert error.signal == "SIGKILL" and "the skill's worker was killed" in str(error)
    # Each worker is its own session and process group: the kill took nothing else with it.
    assert _live_workers(runner).get(spare_ns) == spare
    out = await runner.run(OK_SKILL)
    assert out.result.success and at_prompt(runner)
    status = runner._pool.zygote.exit_status(spare_ns, timeout=10)
    assert status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0  # it served a skill


async def test_a_spare_killed_along_with_the_skills_worker_is_replaced_and_the_next_skill_runs(runner_on_each_stack):
    runner = runner_on_each_stack
    error, _ = await _kill_during_a_skill(runner, "both")
    assert error.signal == "SIGKILL" and "the skill's worker was killed" in str(error)
    out = await runner.run(OK_SKILL)
    assert out.result.success and at_prompt(runner)


async def test_a_spare_killed_while_it_waits_is_replaced_without_a_failure(runner_on_each_stack):
    runner = runner_on_each_stack
    runner.warm_up()
    # No waiting for the spare to be gone: a worker sent SIGKILL never answers the
    # runner's ping, even while the signal is still pending.
    os.kill(_live_workers(runner)[runner._pool.spare.pid], signal.SIGKILL)
    out = await runner.run(OK_SKILL)
    assert out.result.success and at_prompt(runner)


def test_without_bubblewrap_on_the_path_a_runner_uses_the_user_namespace_stack(tmp_path):
    if not (CAPS.seccomp and CAPS.userns and CAPS.landlock_abi >= 1):
        pytest.skip("the full user-namespace stack (user namespaces, Landlock, seccomp) does not work here")
    code = "from hackwright.sandbox.runner import SkillRunner; print(SkillRunner(object()).stack.name)"
    done = subprocess.run([sys.executable, "-c", code], env={"PATH": str(tmp_path)}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "USERNS"


async def test_a_dead_zygote_is_restarted(runner):
    runner.warm_up()
    os.killpg(runner._pool.zygote.proc.pid, signal.SIGKILL)
    runner._pool.zygote.proc.wait()
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


CPU_LOOP_UNDER_AN_IGNORED_SIGXCPU = r'''
import asyncio, signal
from hackwright.api import NetHackAPI
from hackwright.env import GameConfig
from hackwright.sandbox import errors
from hackwright.sandbox.runner import SandboxLimits, SkillRunner

signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # as a launcher (nohup, a CI runner) may hand it down
SPIN = """
async def spin(nh):
    n = 0
    while True:
        n += 1
"""
api = NetHackAPI.new_game(GameConfig(seed=0))
runner = SkillRunner(api, limits=SandboxLimits(cpu_seconds=1, wall_seconds=120))
try:
    asyncio.run(runner.run(SPIN, {}))
    print("no error")
except errors.SkillExecutionError as e:
    print(type(e).__name__, getattr(e, "limit", None))
finally:
    runner.close()
    api.close()
'''


def test_a_cpu_loop_stops_at_its_cpu_limit_even_when_the_host_ignores_sigxcpu():
    proc = subprocess.run([sys.executable, "-c", CPU_LOOP_UNDER_AN_IGNORED_SIGXCPU], capture_output=True, text=True,
                          timeout=300)
    assert proc.stdout.strip().splitlines()[-1] == "SkillTimeoutError cpu_time", proc.stdout + proc.stderr

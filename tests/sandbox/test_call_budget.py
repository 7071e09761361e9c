"""Every API call a skill makes counts against ``max_api_calls``, queries included: those a
sandboxed worker answers from its own cache too. Real games, real sandbox workers."""

from __future__ import annotations

import pytest

from hackwright.api import NetHackAPI
from hackwright.env import GameConfig
from hackwright.sandbox import errors
from hackwright.sandbox.runner import SandboxLimits, SkillRunner
from hackwright.skills.library import SkillLibrary
from tests.conftest import room_des

ROOM = ["---------", "|.......|", "|.......|", "|.......|", "---------"]
BUDGET = 2000

LOOPING_ON_STATS = '''
async def wait_for_change(nh):
    first = await nh.get_stats()
    while True:  # the game never changes without an action: this never ends by itself
        if await nh.get_stats() != first:
            return SkillResult("changed", {}, 0, 0, True)
'''

COUNTED = '''
async def counted(nh):
    for _ in range(100):
        await nh.get_stats()
    await nh.move("e")
    for _ in range(50):
        await nh.get_position()
    return SkillResult("counted", {}, 1, 0, True)
'''


@pytest.fixture
def api():
    game = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0", des_file=room_des(ROOM), seed=1))
    yield game
    game.close()


@pytest.fixture
def sandbox(api):
    r = SkillRunner(api, limits=SandboxLimits(wall_seconds=20, cpu_seconds=10, max_api_calls=BUDGET))
    yield r
    r.close()


async def test_a_sandboxed_skill_looping_on_get_stats_is_stopped_by_the_call_budget_naming_the_query(sandbox):
    with pytest.raises(errors.SkillLimitError) as raised:
        await sandbox.run(LOOPING_ON_STATS)
    error = raised.value
    assert error.limit == "api_calls" and error.value == BUDGET and error.used == BUDGET + 1
    assert error.detail == f"api_call_budget: {BUDGET} calls, mostly get_stats ({BUDGET + 1})"
    told = error.for_model()
    assert f"more than {BUDGET} API calls" in told and f"api_call_budget: {BUDGET} calls, mostly get_stats" in told
    # the worker is gone and the next skill runs
    assert (await sandbox.run(COUNTED)).result.stopped_reason == "counted"


async def test_queries_answered_from_the_workers_cache_are_counted_like_any_other_call(sandbox, api):
    sandboxed = await sandbox.run(COUNTED)
    assert sandboxed.result.success and sandboxed.actions == 1
    assert sandboxed.api_calls == 151
    trusted = await SkillRunner(api, mode="inprocess").run(COUNTED)
    assert trusted.api_calls == sandboxed.api_calls


async def test_a_trusted_skill_that_swallows_exceptions_is_still_stopped_by_the_call_budget(api):
    code = '''
async def stubborn(nh):
    while True:
        try:
            await nh.get_position()
        except Exception:
            pass
'''
    runner = SkillRunner(api, mode="inprocess", limits=SandboxLimits(max_api_calls=BUDGET))
    with pytest.raises(errors.SkillLimitError) as raised:
        await runner.run(code)
    assert raised.value.detail == f"api_call_budget: {BUDGET} calls, mostly get_position ({BUDGET + 1})"


HELPER = '''
async def peek(nh):
    """Read the stats thirty times."""
    for _ in range(30):
        await nh.get_stats()
    return SkillResult("peeked", {}, 0, 0, True)
'''

CALLER = '''
async def caller(nh):
    for _ in range(5):
        await nh.run_skill("peek")
    return SkillResult("done", {}, 0, 0, True)
'''


async def test_the_queries_of_a_called_skill_spend_the_callers_budget(api, tmp_path):
    lib = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "runs.db")
    lib.save("peek", HELPER, category="utility", description="peek, a test skill")
    runner = SkillRunner(api, limits=SandboxLimits(wall_seconds=20, cpu_seconds=10, max_api_calls=100), skills=lib)
    try:
        with pytest.raises(errors.SkillLimitError) as raised:
            await runner.run(CALLER)  # 5 x (1 run_skill + 30 queries): over 100 in the fourth call
    finally:
        runner.close()
    assert raised.value.used == 101
    assert raised.value.detail.startswith("api_call_budget: 100 calls, mostly get_stats (")

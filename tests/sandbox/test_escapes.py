"""The escape battery: every way out works without the sandbox, and each layer stops it on its own.

For each attempt (``escape_attempts.py``) and each layer that must hold against it, the test
first runs the attempt with every layer off — a bare forked worker, no policy — and requires the
evidence of an escape on the host (``escape_host.py``): the attempt is real. Then it runs the
same code with only that layer on and requires no evidence and exactly the error (or result)
that layer gives. The whole sandbox, without the policy, is checked the same way on every stack
this machine has. After each run the game must be at the command prompt and an ordinary skill
must run normally.

``--no-sandbox-layer=LAYER`` (repeatable; ``all`` for every layer) or
``HACKWRIGHT_TEST_ESCAPES_UNSANDBOXED=1`` keeps those layers off in the runs that expect them
to hold: then every case that claims one of them fails, which shows the cases can fail.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from hackwright.api import NetHackAPI
from hackwright.api.keyboard import PromptKind
from hackwright.env import GameConfig
from hackwright.sandbox import errors
from hackwright.sandbox.isolation import Stack, best_stack, detect
from hackwright.sandbox.runner import SkillRunner

from .escape_attempts import ATTEMPTS, CONTAINED, Attempt
from .escape_host import SECRET, TEST_LAYERS, Config, Host, Runners, mismatches

CAPS = detect()
BEST = best_stack(CAPS) or Stack.USERNS  # where an ordinary skill runs after each attempt
# The host's handlers before any attempt ran (checked again after the battery); taken when
# this module's first test starts, since tests run before it may install their own (Ray does).
HOST_HANDLERS: dict = {}


@pytest.fixture(scope="module", autouse=True)
def _host_handlers_before_the_battery():
    HOST_HANDLERS.update({s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)})
    yield

NORMAL = '''
async def walk(nh, steps=3):
    for d in ["n", "s", "e", "w"][:steps]:
        await nh.move(d)
    stats = await nh.get_stats()
    return SkillResult("done", {"hp": stats.hp}, steps, 0, True)
'''

_NO_BWRAP = "bubblewrap is not installed or cannot build a sandbox here" + (
    f" ({'; '.join(CAPS.notes)})" if CAPS.notes else "")
_NO_USERNS = "user namespaces, Landlock and seccomp are not all available here"
STACKS = [
    pytest.param(Stack.BWRAP, id="bwrap",
                 marks=pytest.mark.skipif(CAPS.bwrap is None or not CAPS.seccomp, reason=_NO_BWRAP)),
    pytest.param(Stack.USERNS, id="userns",
                 marks=pytest.mark.skipif(not (CAPS.userns and CAPS.landlock_abi >= 1 and CAPS.seccomp),
                                          reason=_NO_USERNS)),
]


def _missing_here(attempt: Attempt, layer: str) -> str:
    """Why this machine cannot show ``layer`` holding on its own ('' when it can)."""
    if layer == "namespaces" and not CAPS.userns:
        return "user namespaces do not work here"
    if layer == "landlock" and CAPS.landlock_abi < attempt.needs_landlock_abi:
        return f"this attempt needs Landlock ABI {attempt.needs_landlock_abi}; this kernel has {CAPS.landlock_abi}"
    if layer == "seccomp" and not CAPS.seccomp:
        return "seccomp filters are not available here"
    return ""


@pytest.fixture(scope="module")
def battery(tmp_path_factory):
    host = Host(tmp_path_factory.mktemp("escapes"))
    api = NetHackAPI.new_game(GameConfig(seed=9))
    runners = Runners(api)
    yield api, host, runners
    runners.close()
    api.close()
    host.close()


@pytest.fixture
def switched_off(request) -> set[str]:
    """The layers the command line keeps off where they are expected to hold."""
    names = set(request.config.getoption("--no-sandbox-layer") or [])
    if os.environ.get("HACKWRIGHT_TEST_ESCAPES_UNSANDBOXED") == "1" or "all" in names:
        return set(TEST_LAYERS)
    return names


async def _control(battery, attempt: Attempt) -> None:
    """Without any layer, the attempt gets out: the host shows it."""
    api, host, runners = battery
    _, outcome, error, evidence = await runners.run(host, Stack.USERNS, Config.with_on(set(), attempt), attempt)
    what = repr(error) if error is not None else f"it returned {outcome.result.data!r}"
    assert evidence, f"{attempt.name!r} does not get out even with every layer off ({what}): its refusal proves nothing"


async def _the_game_survives(battery, stack: Stack | None) -> None:
    api, host, runners = battery
    os.kill(os.getpid(), 0)
    assert api._kb.prompt().kind in (PromptKind.NONE, PromptKind.GAME_OVER)
    full = Config.with_on(set(TEST_LAYERS), ATTEMPTS[0])
    normal = await runners.get(stack or BEST, full).run(NORMAL, {"steps": 2}, limits=full.limits())
    assert (normal.result.success, normal.result.stopped_reason) == (True, "done")


CASES = [pytest.param(a, layer, id=f"{a.name} | {layer}") for a in ATTEMPTS for layer in a.holds]


@pytest.mark.parametrize("attempt,layer", CASES)
async def test_an_escape_that_works_without_the_sandbox_is_stopped_by_each_layer_on_its_own(
        battery, attempt, layer, switched_off):
    why = _missing_here(attempt, layer)
    if why:
        pytest.skip(why)
    api, host, runners = battery
    await _control(battery, attempt)

    only = Config.with_on({layer} - switched_off, attempt)
    params, outcome, error, evidence = await runners.run(host, Stack.USERNS, only, attempt)
    assert not evidence, f"with {only.describe()}, {attempt.name!r} got out: {evidence}"
    problems = mismatches(attempt.holds[layer], params, outcome, error)
    assert not problems, f"with {only.describe()}, {attempt.name!r}: {problems}"
    await _the_game_survives(battery, None)


@pytest.mark.parametrize("attempt", [pytest.param(a, id=a.name) for a in ATTEMPTS])
@pytest.mark.parametrize("stack", STACKS)
async def test_an_escape_that_works_without_the_sandbox_is_stopped_by_the_whole_sandbox_without_the_policy(
        battery, stack, attempt, switched_off):
    api, host, runners = battery
    await _control(battery, attempt)

    whole = Config.with_on(set(TEST_LAYERS) - {"policy"} - switched_off, attempt)
    params, outcome, error, evidence = await runners.run(host, stack, whole, attempt)
    assert not evidence, f"with {whole.describe()}, {attempt.name!r} got out: {evidence}"
    expect = attempt.on_bwrap if stack is Stack.BWRAP and attempt.on_bwrap else attempt.holds[attempt.first]
    problems = mismatches(expect, params, outcome, error)
    assert not problems, f"with {whole.describe()}, {attempt.name!r} was not stopped by {attempt.first}: {problems}"
    await _the_game_survives(battery, stack)


@pytest.mark.parametrize("stack", STACKS)
def test_the_worker_parent_starts_without_the_hosts_environment(battery, stack, switched_off):
    api, host, runners = battery
    inherited = runners.get(Stack.USERNS, Config.with_on(set(), ATTEMPTS[0]))
    z = inherited._pool.ensure_zygote()
    assert SECRET.encode() in Path(f"/proc/{z.proc.pid}/environ").read_bytes()  # the control: it could leak

    runner = runners.get(stack, Config.with_on(set(TEST_LAYERS) - switched_off, ATTEMPTS[0]))
    z = runner._pool.ensure_zygote()
    assert SECRET.encode() not in Path(f"/proc/{z.proc.pid}/environ").read_bytes()


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CONTAINED])
async def test_a_skill_writing_past_the_api_gets_the_hosts_refusal_and_the_game_survives(battery, case):
    api, host, runners = battery
    whole = Config.with_on(set(TEST_LAYERS) - {"policy"}, ATTEMPTS[0])
    runner = runners.get(BEST, whole)
    accepted = await runner.run(case.source, case.fine, validate=False, limits=whole.limits())
    assert accepted.result.data == case.returns  # what the skill writes reaches the host

    error = None
    try:
        outcome = await runner.run(case.source, case.params, validate=False, limits=whole.limits())
    except errors.SkillExecutionError as e:
        error, outcome = e, None
    problems = mismatches(case.refused, case.params, outcome, error)
    assert not problems, f"{case.name!r}: {problems}"
    await _the_game_survives(battery, None)


def test_a_runner_outside_a_pytest_test_refuses_to_switch_a_layer_off(battery, monkeypatch):
    api, host, runners = battery
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    with pytest.raises(ValueError) as refused:
        SkillRunner(api, layers_off={"seccomp"})
    assert str(refused.value) == ("sandbox layers can be switched off only in the sandbox's own tests (under "
                                  "pytest); run skills with every layer on")


def test_a_runner_refuses_an_unknown_layer_name_and_lists_the_layers(battery):
    api, host, runners = battery
    with pytest.raises(ValueError) as refused:
        SkillRunner(api, layers_off={"selinux"})
    assert str(refused.value) == ("unknown sandbox layer(s) 'selinux'; the layers are: environment, builtins, "
                                  "surface, rlimits, namespaces, landlock, seccomp")


def test_after_the_battery_the_hosts_signal_handlers_are_the_ones_it_started_with():
    # pytest would have died on a SIGTERM with the default handler; a replaced handler could hide one.
    assert {s: signal.getsignal(s) for s in HOST_HANDLERS} == HOST_HANDLERS

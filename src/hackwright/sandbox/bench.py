"""``hackwright bench sandbox``: the cost of isolation, against in-process in the same run.

* proxy round trip: the host times consecutive API calls of a skill that does
  nothing but call ``nh.get_messages(n)`` with a new ``n`` each time (so the
  worker's own cache cannot answer);
* warm start: a trivial skill's whole invocation (a pre-forked worker takes the
  code, runs it, answers), and a cold fork + isolation of a new worker;
* game actions/s of the same exploration skill in-process and sandboxed, on the
  same seeded game.

Every measure is repeated; the two exploration modes alternate, and their ratio
is taken per pair. Wall time only: a sandboxed skill's work happens in worker
processes whose CPU time the host cannot read.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from ..api.nethack_api import NetHackAPI
from ..bench.stats import BenchReport, MachineLoad, Measure, Spread, load_note, paired_ratio
from ..env.make import GameConfig
from .runner import SandboxLimits, SkillRunner

ROUND_TRIP_SKILL = '''
async def ping(nh, n=2000):
    for i in range(n):
        await nh.get_messages(i + 1)
    return SkillResult("done", {}, 0, 0, True)
'''

TRIVIAL_SKILL = '''
async def noop(nh):
    return SkillResult("done", {}, 0, 0, True)
'''

EXPLORE_SKILL = '''
async def explore(nh, budget=600):
    actions = 0
    while actions < budget:
        stats = await nh.get_stats()
        monsters = await nh.get_visible_monsters()
        hostile = [m for m in monsters if not m.is_tame and not m.is_peaceful and m.position.is_adjacent(stats.position)]
        if hostile:
            await nh.attack(stats.position.direction_to(hostile[0].position))
        else:
            target = await nh.find_unexplored()
            if target is None:
                await nh.search()
            else:
                await nh.move_to(target)
        actions += 1
        if stats.hp <= 0:
            break
    return SkillResult("budget", {}, actions, 0, True)
'''


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def _explore(mode: str, seed: int, budget: int) -> tuple[float, int, int]:
    """Seconds, game actions and final turn of the exploration skill run once."""
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    limits = SandboxLimits(max_actions=budget + 10, wall_seconds=300)
    runner = SkillRunner(api, mode=mode, limits=limits)
    runner.warm_up()
    try:
        t0 = time.perf_counter()
        out = await runner.run(EXPLORE_SKILL, {"budget": budget}, validate=mode == "sandbox")
        dt = time.perf_counter() - t0
        turn = (await api.get_stats()).turn
    finally:
        runner.close()
        api.close()
    return dt, out.actions, turn


async def _round_trips(runner: SkillRunner, calls: int) -> list[float]:
    """Microseconds between consecutive API calls the host received from one skill."""
    runner.call_times = []
    runner.record_call_times = True
    await runner.run(ROUND_TRIP_SKILL, {"n": calls})
    runner.record_call_times = False
    times = runner.call_times
    return [(b - a) * 1e6 for a, b in zip(times, times[1:])]


async def run(seed: int = 0, calls: int = 2000, starts: int = 30, budget: int = 600,
              repeats: int = 5) -> BenchReport:
    """The sandbox benchmark: each measure ``repeats`` times, as a median with its spread."""
    load = MachineLoad()
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    runner = SkillRunner(api, limits=SandboxLimits(max_api_calls=calls + 10))
    runner.warm_up()
    trip, trip99, warm, cold = [], [], [], []
    inproc, boxed, plays = [], [], set()
    try:
        for r in range(repeats):
            gaps = await _round_trips(runner, calls)
            trip.append(statistics.median(gaps))
            trip99.append(_pct(gaps, 0.99))
            starts_ms = []
            for _ in range(starts):
                t0 = time.perf_counter()
                await runner.run(TRIVIAL_SKILL)
                starts_ms.append((time.perf_counter() - t0) * 1e3)
            warm.append(statistics.median(starts_ms))
            forks_ms = []
            z = runner._pool.ensure_zygote()
            for _ in range(10):
                t0 = time.perf_counter()
                pid, sock = z.collect(z.request(runner.limits.memory_bytes, runner.limits.cpu_seconds))
                forks_ms.append((time.perf_counter() - t0) * 1e3)
                z.kill(pid)
                sock.close()
                z.exit_status(pid)
            cold.append(statistics.median(forks_ms))
            # Alternate which mode goes first, so that a burst of load does not always hit the same one.
            for mode in (("inprocess", "sandbox") if r % 2 == 0 else ("sandbox", "inprocess")):
                dt, actions, turn = await _explore(mode, seed, budget)
                (inproc if mode == "inprocess" else boxed).append((dt, actions))
                plays.add((actions, turn))
        stack = runner.stack.value if runner.stack else "?"
    finally:
        runner.close()
        api.close()
    actions = inproc[0][1]
    ratio = paired_ratio([dt / a for dt, a in inproc], [dt / a for dt, a in boxed])
    measures = [
        Measure("proxy round trip, median", "µs", f"per repetition, the median gap between {calls} consecutive "
                "API calls of one sandboxed skill, as the host receives them (target median ≤ 50 µs)",
                Spread.of(trip)),
        Measure("proxy round trip, 99th percentile", "µs", "per repetition, the 99th percentile of those gaps",
                Spread.of(trip99)),
        Measure("warm start: trivial skill invocation", "ms", f"per repetition, the median of {starts} whole "
                "invocations of a skill that returns at once, on a pre-forked worker (target ≤ 20 ms)",
                Spread.of(warm)),
        Measure("cold worker fork + isolation", "ms", "per repetition, the median of 10 new workers forked from "
                "the zygote and isolated", Spread.of(cold)),
        Measure("exploration skill in-process", "actions/s", f"the same exploration skill ({budget} actions "
                "budget) on the same seeded game, run in this process", Spread.of([a / dt for dt, a in inproc])),
        Measure("exploration skill sandboxed", "actions/s", "that skill in a sandboxed worker, each API call "
                "crossing the proxy", Spread.of([a / dt for dt, a in boxed])),
        Measure("sandboxed ÷ in-process", "%", "per repetition pair, in-process seconds per action ÷ sandboxed "
                "seconds per action (target ≥ 75%)", ratio),
    ]
    same = len(plays) == 1
    facts = {"seed": seed, "calls": calls, "starts": starts, "budget": budget, "repeats": repeats,
             "isolation": stack, "exploration_actions": actions, "same_game_in_both_modes": same,
             "load": load.finish()}
    notes = [
        f"Isolation: {stack}. Wall time only: the sandboxed work runs in worker processes whose CPU time "
        "this process cannot read.",
        ("Both modes played the same game every time" if same else
         "WARNING: the two modes did not play the same game (actions, final turn): "
         + ", ".join(map(str, sorted(plays))))
        + f" ({actions} actions per run).",
        "Spread = min–max over the repetitions; every repetition's value and the quartiles are in --json.",
        load_note(facts["load"]),
    ]
    return BenchReport(f"hackwright bench sandbox (seed {seed}, {repeats} repetitions)", measures, facts, notes)


def run_sandbox_bench(**kw) -> BenchReport:
    """Run the sandbox benchmark (see the module docstring)."""
    return asyncio.run(run(**kw))

"""``hackwright bench sandbox``: the cost of isolation, against in-process in the same run.

* proxy round trip: the host times consecutive API calls of a skill that does
  nothing but call ``nh.get_messages(n)`` with a new ``n`` each time (so the
  worker's own cache cannot answer);
* warm start: a trivial skill's whole invocation (a pre-forked worker takes the
  code, runs it, answers), and a cold fork + isolation of a new worker;
* game actions/s of the same exploration skill in-process and sandboxed, on the
  same seeded game.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from ..api.nethack_api import NetHackAPI
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


async def _explore_rate(mode: str, seed: int, budget: int) -> float:
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    limits = SandboxLimits(max_actions=budget + 10, wall_seconds=300)
    runner = SkillRunner(api, mode=mode, limits=limits)
    runner.warm_up()
    t0 = time.perf_counter()
    out = await runner.run(EXPLORE_SKILL, {"budget": budget}, validate=mode == "sandbox")
    dt = time.perf_counter() - t0
    runner.close()
    api.close()
    return out.actions / dt


async def run(seed: int = 0, calls: int = 2000, starts: int = 30, budget: int = 600,
              repeats: int = 3) -> list[tuple[str, str]]:
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    runner = SkillRunner(api, limits=SandboxLimits(max_api_calls=calls + 10))
    runner.warm_up()
    runner.record_call_times = True
    await runner.run(ROUND_TRIP_SKILL, {"n": calls})
    times = runner.call_times
    gaps = [(b - a) * 1e6 for a, b in zip(times, times[1:])]
    warm = []
    for _ in range(starts):
        t0 = time.perf_counter()
        await runner.run(TRIVIAL_SKILL)
        warm.append((time.perf_counter() - t0) * 1e3)
    cold = []
    z = runner._ensure_zygote()
    for _ in range(10):
        t0 = time.perf_counter()
        pid, sock = z.collect(z.request(runner.limits.memory_bytes, runner.limits.cpu_seconds))
        cold.append((time.perf_counter() - t0) * 1e3)
        z.kill(pid)
        sock.close()
        z.exit_status(pid)
    stack = runner.stack.value if runner.stack else "?"
    runner.close()
    api.close()
    # Alternate the two modes and take medians: this machine's noise is large.
    inprocs, boxeds = [], []
    for _ in range(repeats):
        inprocs.append(await _explore_rate("inprocess", seed, budget))
        boxeds.append(await _explore_rate("sandbox", seed, budget))
    inproc, boxed = statistics.median(inprocs), statistics.median(boxeds)
    return [
        ("isolation", stack),
        ("proxy round trip (median / p99)", f"{statistics.median(gaps):.1f} / {_pct(gaps, 0.99):.1f} µs  (target median ≤ 50)"),
        ("warm start: trivial skill invocation (median)", f"{statistics.median(warm):.2f} ms  (target ≤ 20)"),
        ("cold worker fork + isolation (median)", f"{statistics.median(cold):.2f} ms"),
        (f"exploration skill in-process (median of {repeats})", f"{inproc:,.0f} actions/s"),
        (f"exploration skill sandboxed (median of {repeats})", f"{boxed:,.0f} actions/s"),
        ("sandboxed ÷ in-process", f"{boxed / inproc:.0%}  (target ≥ 75%)"),
    ]


def run_sandbox_bench(**kw) -> list[tuple[str, str]]:
    return asyncio.run(run(**kw))

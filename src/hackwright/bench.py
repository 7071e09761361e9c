"""Benchmarks, measured as ratios against a baseline taken in the same run.

``hackwright bench api`` compares three things on the same seeded game:
raw NLE stepping (gymnasium ``env.step`` with the same observation keys, and
the bare key stepping underneath it), ``NetHackAPI.move()`` actions, and
uncached ``get_current_level()`` calls.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from nle import nethack

from .api.nethack_api import DIRECTION_KEYS, NetHackAPI
from .env.make import Game, GameConfig


@dataclass
class BenchResult:
    name: str
    count: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else float("inf")


def _directions(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    names = list(DIRECTION_KEYS)
    return [rng.choice(names) for _ in range(n)]


def bench_raw_env_step(steps: int, seed: int) -> BenchResult:
    """gymnasium-style ``env.step(action)`` with random movement actions."""
    game = Game(GameConfig(seed=seed))
    game.reset()
    env = game.env
    index = {int(a): i for i, a in enumerate(env.actions)}
    actions = [index[ord(DIRECTION_KEYS[d])] for d in _directions(seed, steps)]
    t0 = time.perf_counter()
    for a in actions:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    dt = time.perf_counter() - t0
    game.close()
    return BenchResult("raw NLE env.step()", steps, dt)


def bench_raw_keys(steps: int, seed: int) -> BenchResult:
    """The bare key stepping the API itself sits on (no observation copies)."""
    game = Game(GameConfig(seed=seed))
    game.reset()
    keys = [ord(DIRECTION_KEYS[d]) for d in _directions(seed, steps)]
    t0 = time.perf_counter()
    for k in keys:
        if game.done:
            game.reset()
        game.step_key(k)
    dt = time.perf_counter() - t0
    game.close()
    return BenchResult("raw NLE key steps (nethack.step)", steps, dt)


async def _bench_moves(steps: int, seed: int) -> tuple[BenchResult, int]:
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    dirs = _directions(seed, steps)
    keys_before = api.game.steps
    t0 = time.perf_counter()
    for d in dirs:
        if api.game_over:
            api.reset()
        await api.move(d)
    dt = time.perf_counter() - t0
    keys = api.game.steps - keys_before
    api.close()
    return BenchResult("NetHackAPI.move() actions", steps, dt), keys


async def _bench_level(calls: int, seed: int) -> BenchResult:
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    for d in _directions(seed, 30):
        await api.move(d)
    t0 = time.perf_counter()
    for _ in range(calls):
        api._cache.clear()  # measure the real decoding, not the per-turn cache
        await api.get_current_level()
    dt = time.perf_counter() - t0
    api.close()
    return BenchResult("get_current_level() calls (uncached)", calls, dt)


def run_api_bench(steps: int = 5000, level_calls: int = 300, seed: int = 0) -> list[tuple[str, str]]:
    """Run the API benchmark; returns printable (label, value) rows."""
    raw = bench_raw_env_step(steps, seed)
    bare = bench_raw_keys(steps, seed)
    moves, keys = asyncio.run(_bench_moves(steps, seed))
    level = asyncio.run(_bench_level(level_calls, seed))
    rows = [
        (raw.name, f"{raw.rate:,.0f} steps/s"),
        (bare.name, f"{bare.rate:,.0f} steps/s"),
        (moves.name, f"{moves.rate:,.0f} actions/s  ({keys / steps:.2f} keys per action)"),
        (level.name, f"{level.rate:,.0f} calls/s"),
        ("move() actions/s ÷ raw env.step steps/s", f"{moves.rate / raw.rate:.0%}  (target ≥ 50%)"),
        ("move() actions/s ÷ bare key steps/s", f"{moves.rate / bare.rate:.0%}"),
    ]
    return rows


__all__ = ["run_api_bench", "BenchResult", "nethack"]

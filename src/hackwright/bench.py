"""Benchmarks, measured as ratios against a baseline taken in the same run.

``hackwright bench api`` plays random ``NetHackAPI.move()`` actions on a seeded
game, recording every key the API sends, then replays exactly those keys on a
fresh game with the same seed through raw NLE (gymnasium-style ``env.step`` with
the same observation keys, and the bare ``nethack.step`` under it). Replaying the
same keys matters: random raw keys soon sit at a --More-- that ignores them, a
"game" that costs NetHack nothing. It also times uncached ``get_current_level()``.
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


RESET = -1  # marker in a recorded key log


async def _bench_moves(steps: int, seed: int) -> tuple[BenchResult, list[int]]:
    """API move() actions; records every key the API sent (and every reset)."""
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    log: list[int] = []
    step = api.game.step_key

    def recording(key: int):
        log.append(key)
        return step(key)

    api.game.step_key = recording  # type: ignore[method-assign]
    dirs = _directions(seed, steps)
    t0 = time.perf_counter()
    for d in dirs:
        if api.game_over:
            log.append(RESET)
            api.reset()
        await api.move(d)
    dt = time.perf_counter() - t0
    api.close()
    # reset() itself sends keys (the opening --More--s); keep only the moves' keys
    return BenchResult("NetHackAPI.move() actions", steps, dt), log


def bench_raw_env_step(log: list[int], seed: int) -> BenchResult:
    """Replays the API's exact keys through gymnasium-style ``env.step``: the
    same game, the same work for NetHack, without the API around it."""
    game = Game(GameConfig(seed=seed))
    game.reset()
    env = game.env
    index = {int(a): i for i, a in enumerate(env.actions)}
    n = 0
    done = False
    t0 = time.perf_counter()
    for k in log:
        if k == RESET:
            game.reset()
            done = False
            continue
        if done:
            continue  # env.step already stepped through the end-of-game screens
        if k in index:
            done = env.step(index[k])[2]
        else:  # a key outside the 121 actions (menu letters): step the game directly
            game.step_key(k)
            done = game.done
        n += 1
    dt = time.perf_counter() - t0
    game.close()
    return BenchResult("raw NLE env.step() (same keys)", n, dt)


def bench_raw_keys(log: list[int], seed: int) -> BenchResult:
    """The same keys through the bare key stepping the API itself sits on."""
    game = Game(GameConfig(seed=seed))
    game.reset()
    n = 0
    t0 = time.perf_counter()
    for k in log:
        if k == RESET:
            game.reset()
            continue
        if game.done:
            continue
        game.step_key(k)
        n += 1
    dt = time.perf_counter() - t0
    game.close()
    return BenchResult("raw NLE nethack.step() (same keys)", n, dt)


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
    moves, log = asyncio.run(_bench_moves(steps, seed))
    raw = bench_raw_env_step(log, seed)
    bare = bench_raw_keys(log, seed)
    level = asyncio.run(_bench_level(level_calls, seed))
    keys = sum(1 for k in log if k != RESET)
    rows = [
        (raw.name, f"{raw.rate:,.0f} steps/s"),
        (bare.name, f"{bare.rate:,.0f} steps/s"),
        (moves.name, f"{moves.rate:,.0f} actions/s  ({keys / steps:.2f} keys per action)"),
        (level.name, f"{level.rate:,.0f} calls/s"),
        ("move() actions/s ÷ raw env.step() steps/s", f"{moves.rate / raw.rate:.0%}  (target ≥ 50%)"),
        ("move() actions/s ÷ bare nethack.step() steps/s", f"{moves.rate / bare.rate:.0%}"),
    ]
    return rows


__all__ = ["run_api_bench", "BenchResult", "nethack"]

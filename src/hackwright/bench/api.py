"""``hackwright bench api``: the NetHack API against raw NLE, on the same keys.

A first, untimed run plays random ``NetHackAPI.move()`` actions on a seeded game
and records every key the API sends, game by game (a dead hero starts a new game
with the same seed). Each repetition then plays that work three ways on fresh
games with the same seed, in alternating order:

* bare stepping: the recorded keys through ``Game.step_key`` (NLE's
  ``nethack.step`` and a dict of the same observation arrays: the layer the API
  itself sends keys through);
* gymnasium ``env.step``: the recorded keys as actions (NLE also copies every
  observation array of the previous step, computes a reward and an info dict);
* the API: the same ``move()`` calls, which send those same keys.

Game resets and their opening keys are outside the timed stretches. After every
run the games must end on the same screen and turn as the API's (checked, not
assumed), or the benchmark stops: a comparison of different games is void.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Optional

from nle import nethack

from ..api.nethack_api import DIRECTION_KEYS, NetHackAPI
from ..env.make import Game, GameConfig
from .stats import BenchReport, Clock, MachineLoad, Measure, Spread, load_note, paired_ratio, rate

DEFAULT_STEPS = 5000
DEFAULT_LEVEL_CALLS = 300
DEFAULT_REPEATS = 5
TARGET = 0.5  # the API should keep at least half of gymnasium env.step's speed on the same keys


class BenchMismatchError(RuntimeError):
    """A replay ended somewhere else than the API's game: the timings compare different games."""


@dataclass
class GameKeys:
    """The keys one game of the recorded run was sent: the opening keys of
    ``NetHackAPI.reset()`` (never timed), then the keys of the ``move()`` calls."""

    opening: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)


class KeyRecorder:
    """A ``Game.on_frame`` hook that files every key under the game it was sent to."""

    def __init__(self) -> None:
        self.games: list[GameKeys] = []
        self._sink: list[int] = []

    def __call__(self, game: Game, key: Optional[int]) -> None:
        if key is None:  # a reset: a new game begins with its opening keys
            self.games.append(GameKeys())
            self._sink = self.games[-1].opening
        else:
            self._sink.append(key)

    def start_moves(self) -> None:
        self._sink = self.games[-1].moves


@dataclass(frozen=True)
class Ending:
    """Where a game stood at the end of its keys: the turn counter (NLE zeroes it
    once the hero is dead), whether the game is over, and the terminal screen."""

    turn: int
    dead: bool
    screen: str

    @classmethod
    def of(cls, game: Game, dead: bool) -> "Ending":
        raw = game.env.last_observation
        tty = raw[game.keys.index("tty_chars")]
        turn = int(raw[game.keys.index("blstats")][nethack.NLE_BL_TIME])
        screen = "\n".join(bytes(row).decode("latin-1").rstrip() for row in tty)
        return cls(turn, dead, screen)


def directions(seed: int, n: int) -> list[str]:
    """The benchmark's ``n`` move() directions, the same for a given seed."""
    rng = random.Random(seed)
    names = list(DIRECTION_KEYS)
    return [rng.choice(names) for _ in range(n)]


async def play_api(seed: int, moves: list[str], clock: Optional[Clock] = None,
                   recorder: Optional[KeyRecorder] = None) -> list[Ending]:
    """``NetHackAPI.move()`` in each direction; a new game (same seed) after a death.
    Only the moves are timed; returns how each game ended."""
    clock = clock or Clock()
    game = Game(GameConfig(seed=seed))
    if recorder is not None:
        game.on_frame.append(recorder)
    api = NetHackAPI(game)
    endings: list[Ending] = []
    i = 0
    try:
        while i < len(moves):
            api.reset()
            if recorder is not None:
                recorder.start_moves()
            with clock.running():
                while i < len(moves) and not api.game_over:
                    await api.move(moves[i])
                    i += 1
            endings.append(Ending.of(game, game.done))
    finally:
        api.close()
    return endings


def replay_bare(seed: int, games: list[GameKeys], clock: Optional[Clock] = None) -> list[Ending]:
    """The recorded keys through ``Game.step_key``; only the moves' keys are timed."""
    clock = clock or Clock()
    game = Game(GameConfig(seed=seed))
    endings: list[Ending] = []
    try:
        for keys in games:
            game.reset()
            for k in keys.opening:
                game.step_key(k)
            with clock.running():
                for k in keys.moves:
                    game.step_key(k)
            endings.append(Ending.of(game, game.done))
    finally:
        game.close()
    return endings


def replay_env_step(seed: int, games: list[GameKeys], clock: Optional[Clock] = None) -> list[Ending]:
    """The recorded keys through gymnasium's ``env.step``. A key outside the 121
    actions (a menu letter) goes through ``Game.step_key``; at a death ``env.step``
    steps through NetHack's closing screens itself, so that game's remaining keys
    are skipped."""
    clock = clock or Clock()
    game = Game(GameConfig(seed=seed))
    env = game.env
    index = {int(a): i for i, a in enumerate(env.actions)}
    endings: list[Ending] = []
    try:
        for keys in games:
            game.reset()
            for k in keys.opening:
                game.step_key(k)
            done = False
            with clock.running():
                for k in keys.moves:
                    action = index.get(k)
                    if action is None:
                        game.step_key(k)
                        done = game.done
                    else:
                        done = env.step(action)[2]
                    if done:
                        break
            endings.append(Ending.of(game, done))
    finally:
        game.close()
    return endings


def check_same_games(name: str, api: list[Ending], other: list[Ending], *, screens_at_death: bool) -> None:
    """Raise BenchMismatchError unless every game ended as the API's did (the
    screen after a death only when ``screens_at_death``)."""
    if len(api) != len(other):
        raise BenchMismatchError(f"{name} played {len(other)} games, the API {len(api)}")
    for n, (a, b) in enumerate(zip(api, other), 1):
        same = a == b if (screens_at_death or not a.dead) else b.dead
        if not same:
            raise BenchMismatchError(
                f"{name} ended game {n} on turn {b.turn} ({'dead' if b.dead else 'alive'}), the API on turn "
                f"{a.turn} ({'dead' if a.dead else 'alive'}): the key replay is not faithful")


async def _level_api(seed: int) -> NetHackAPI:
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    for d in directions(seed, 30):
        await api.move(d)
    return api


async def _time_level(api: NetHackAPI, calls: int, clock: Clock) -> None:
    with clock.running():
        for _ in range(calls):
            api._cache.clear()  # the real decoding each time, not the per-turn cache
            await api.get_current_level()


@dataclass
class _Runs:
    """Seconds per repetition, CPU and wall, of one measure."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def add(self, clock: Clock) -> None:
        self.cpu.append(clock.cpu)
        self.wall.append(clock.wall)


async def _bench(steps: int, level_calls: int, seed: int, repeats: int) -> BenchReport:
    load = MachineLoad()
    moves = directions(seed, steps)
    recorder = KeyRecorder()
    reference = await play_api(seed, moves, recorder=recorder)  # also warms caches and tables
    games = recorder.games
    keys = sum(len(g.moves) for g in games)
    bare, gym, api, level = _Runs(), _Runs(), _Runs(), _Runs()
    level_api = await _level_api(seed)
    try:
        for r in range(repeats):
            # Alternate the order so that a burst of load does not always hit the same side.
            order = ("bare", "gym", "api") if r % 2 == 0 else ("api", "gym", "bare")
            for which in order:
                clock = Clock()
                if which == "bare":
                    check_same_games("bare stepping", reference, replay_bare(seed, games, clock),
                                     screens_at_death=True)
                    bare.add(clock)
                elif which == "gym":
                    check_same_games("env.step", reference, replay_env_step(seed, games, clock),
                                     screens_at_death=False)
                    gym.add(clock)
                else:
                    check_same_games("the API (timed run)", reference, await play_api(seed, moves, clock),
                                     screens_at_death=True)
                    api.add(clock)
            clock = Clock()
            await _time_level(level_api, level_calls, clock)
            level.add(clock)
    finally:
        level_api.close()
    return _report(steps, level_calls, seed, repeats, games, keys, bare, gym, api, level, load.finish())


def _report(steps: int, level_calls: int, seed: int, repeats: int, games: list[GameKeys], keys: int,
            bare: _Runs, gym: _Runs, api: _Runs, level: _Runs, load: dict) -> BenchReport:
    def both(count: int, runs: _Runs) -> dict:
        return {"cpu": rate(count, runs.cpu), "wall": rate(count, runs.wall)}

    ratio_bare = {"cpu": paired_ratio(bare.cpu, api.cpu), "wall": paired_ratio(bare.wall, api.wall)}
    ratio_gym = {"cpu": paired_ratio(gym.cpu, api.cpu), "wall": paired_ratio(gym.wall, api.wall)}
    keys_per_action = keys / steps
    codes = {int(a) for a in nethack.ACTIONS}
    outside = sum(1 for g in games for k in g.moves if k not in codes)
    measures = [
        Measure("bare NLE stepping, same keys", "keys/s",
                "baseline: the recorded keys through nethack.step and the dict of the same observation "
                "arrays (Game.step_key, the layer under the API)", **both(keys, bare)),
        Measure("raw NLE env.step(), same keys", "keys/s",
                "gymnasium step on the same keys: also copies every observation array and makes a reward "
                f"and an info dict per key ({outside} keys outside the 121 actions go through step_key)",
                **both(keys, gym)),
        Measure("NetHackAPI.move() actions", "actions/s",
                f"candidate: the same move() calls ({keys_per_action:.2f} keys per action), which send "
                "exactly those keys", **both(steps, api)),
        Measure("get_current_level() calls (uncached)", "calls/s",
                "the whole remembered level as a DungeonLevel, per-turn cache emptied before each call",
                **both(level_calls, level)),
        Measure("API ÷ bare stepping", "%",
                "per repetition: bare seconds ÷ API seconds for the same keys (100% = the API costs "
                "nothing on top of NLE)", **ratio_bare),
        Measure("API ÷ env.step()", "%",
                f"per repetition: env.step seconds ÷ API seconds for the same keys "
                f"(target ≥ {TARGET:.0%})", **ratio_gym),
    ]
    # The headline ratios use the clock on which the two ratios varied less in this run.
    cpu_steadier = (ratio_bare["cpu"].relative_iqr + ratio_gym["cpu"].relative_iqr
                    <= ratio_bare["wall"].relative_iqr + ratio_gym["wall"].relative_iqr)
    clock = "cpu" if cpu_steadier else "wall"
    clock_name = "CPU" if cpu_steadier else "wall"
    headline = ratio_gym[clock]
    facts = {
        "seed": seed, "steps": steps, "level_calls": level_calls, "repeats": repeats,
        "games": len(games), "keys": keys, "keys_outside_actions": outside,
        "keys_per_action": round(keys_per_action, 3),
        "steadier_clock": clock,
        "ratio_to_env_step_median": headline.median, "meets_target": headline.median >= TARGET,
        "load": load,
    }
    notes = [
        f"{steps} move() calls sent {keys} keys over {len(games)} game(s) (a dead hero starts the same seed "
        f"again; resets are not timed). Every run ended each game on the same screen and turn as the API's.",
        "What the API does on top of bare stepping, per action: it decodes the visible monsters (a move "
        "refuses to walk into a floating eye), reads the screen after each key for --More--, menus and "
        "questions and collects the messages, compares the turn, map, status and inventory before and after, "
        "copies the "
        "glyphs for the remembered map (folded only when a map question is asked) and builds an ActionResult.",
        "Ratios are taken per repetition (baseline and API of the same repetition, run back to back in "
        "alternating order) and then summarised; spread = min–max over the repetitions, IQR in --json.",
        f"Steadier clock in this run: {clock_name} time (interquartile range of the two ratios, as a "
        f"fraction of their medians: CPU {ratio_bare['cpu'].relative_iqr:.0%} and "
        f"{ratio_gym['cpu'].relative_iqr:.0%}, wall {ratio_bare['wall'].relative_iqr:.0%} and "
        f"{ratio_gym['wall'].relative_iqr:.0%}). On it the API keeps {ratio_bare[clock].median:.0%} of bare "
        f"stepping's speed and {headline.median:.0%} of env.step's "
        f"({'meets' if headline.median >= TARGET else 'misses'} the {TARGET:.0%} target).",
        load_note(load),
    ]
    return BenchReport(f"hackwright bench api (seed {seed}, {steps} actions, {repeats} repetitions)",
                       measures, facts, notes)


def run_api_bench(steps: int = DEFAULT_STEPS, level_calls: int = DEFAULT_LEVEL_CALLS, seed: int = 0,
                  repeats: int = DEFAULT_REPEATS) -> BenchReport:
    """Run the API benchmark (see the module docstring); every row is a median with its spread."""
    if steps < 1 or level_calls < 1 or repeats < 1:
        raise ValueError("steps, level_calls and repeats must each be at least 1")
    return asyncio.run(_bench(steps, level_calls, seed, repeats))


__all__ = ["run_api_bench", "play_api", "replay_bare", "replay_env_step", "KeyRecorder", "GameKeys", "Ending",
           "BenchMismatchError", "Spread", "directions"]

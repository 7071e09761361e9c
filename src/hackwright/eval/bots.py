"""Bots as evaluation agents: AutoAscend, or any folder that follows the NetHackers bot contract.

``hackwright eval --agent autoascend`` plays the NetHack Challenge winner AutoAscend as
the ``nethackers`` package ships it (``nethackers/roots/autoascend``, MIT; the optional
extra ``hackwright[autoascend]``, Python 3.11 or newer). ``--agent bot:PATH`` plays the
bot in folder PATH.

The contract (that of the NetHackers arena, ``nethackers/contracts/bot.py`` and
``nethackers/arena/sandbox.py``): the folder has a ``bot.py`` whose ``make_agent()``
returns an object with ``reset(observation)``, called once with the first observation of
the game, and ``act(observation) -> int``, called before every step and returning an
index into ``nle.nethack.ACTIONS``; an optional ``close()`` is called at the end. An
observation is gymnasium's dictionary of NLE arrays (read-only) with the keys of
:data:`BOT_OBSERVATION_KEYS`. As in the arena, the bot runs in a process of its own
(spawned, working directory = its folder, the folder first on ``sys.path``, ``random`` and
``numpy.random`` seeded from the episode seed) and the game steps through NLE's own
``env.step``, which also plays NetHack's end-of-game screens.

The game is Hackwright's: :class:`hackwright.env.make.GameConfig` with the episode's seed
and role, so a bot on seed S plays the same hero and dungeon as the autopilot on seed S.
``--max-steps`` caps the bot's actions, ``--max-turns`` the game turn. The episode is
recorded like an agent's (ttyrec and ``frames.bin`` in its record folder, one
``episodes`` row, ``summary.json``) and summarised with the fields of
:class:`hackwright.agent.episode.EpisodeSummary`; ``decisions`` counts the bot's actions.
A bot that fails to load, raises, returns a bad action, dies or hangs ends its episode
with ``end_reason`` "error: bot …" and the bot's traceback in ``error``.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import json
import multiprocessing
import numbers
import os
import random
import re
import signal
import sys
import time
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional

import numpy as np
from nle import nethack

from ..env.make import CHALLENGE_ENV, Game, GameConfig

AUTOASCEND = "autoascend"
BOT_PREFIX = "bot:"
INSTALL_HINT = "pip install 'hackwright[autoascend]'"
# What AutoAscend imports, beyond NLE and numpy (nethackers' own "autoascend" extra).
AUTOASCEND_MODULES = ("nethackers", "numba", "cv2", "scipy", "nltk", "toolz")
# The arena's public observation keys: the spec's keys without screen_descriptions.
BOT_OBSERVATION_KEYS = ("glyphs", "chars", "colors", "specials", "blstats", "message", "inv_glyphs", "inv_strs",
                        "inv_letters", "inv_oclasses", "tty_chars", "tty_colors", "tty_cursor", "misc")
DEFAULT_MAX_STEPS = 1_000_000  # a bot takes one key per action: AutoAscend needs ~100,000 for a whole game
# Hang guards only: AutoAscend compiles its numba kernels on its first actions.
STARTUP_TIMEOUT_S = 600.0
ACTION_TIMEOUT_S = 600.0
TIMELINE_EVERY_TURNS = 50  # one timeline point per this many turns (and at every new depth or level)


def is_bot_agent(agent: str) -> bool:
    """True for the agent names this module plays: ``autoascend`` and ``bot:PATH``."""
    agent = (agent or "").strip()
    return agent == AUTOASCEND or agent.startswith(BOT_PREFIX)


class BotSpecError(ValueError):
    """An ``--agent autoascend``/``bot:PATH`` that cannot run here (one line saying what to do)."""


class BotError(RuntimeError):
    """The bot failed during an episode; ``details`` holds its traceback when it raised."""

    def __init__(self, message: str, details: Optional[str] = None):
        super().__init__(message)
        self.details = details


@dataclass(frozen=True)
class BotSource:
    """Where a bot lives and what it is called in tables and the run database."""

    agent: str  # the --agent spec as given
    name: str  # "autoascend" or "bot:<folder name>" (the episodes' strategist)
    directory: Path  # the folder with bot.py


def _importable(module: str) -> bool:
    if module in sys.modules:
        return sys.modules[module] is not None  # None: imports of it are blocked
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def resolve_bot(agent: str, env_id: Optional[str] = None) -> BotSource:
    """The bot an ``--agent`` spec names, checked: :class:`BotSpecError` says what to fix."""
    agent = (agent or "").strip()
    if env_id not in (None, "", CHALLENGE_ENV):
        raise BotSpecError(f"bots play {CHALLENGE_ENV} only, not {env_id}: drop the environment option")
    if agent == AUTOASCEND:
        if sys.version_info < (3, 11):
            raise BotSpecError(f"--agent autoascend needs Python 3.11 or newer (nethackers does; this is "
                               f"{sys.version_info.major}.{sys.version_info.minor}): {INSTALL_HINT} there")
        missing = [m for m in AUTOASCEND_MODULES if not _importable(m)]
        if missing:
            raise BotSpecError(f"--agent autoascend needs the nethackers package with AutoAscend "
                               f"({', '.join(missing)} missing): {INSTALL_HINT}")
        import nethackers

        directory = Path(nethackers.__file__).resolve().parent / "roots" / "autoascend"
        if not (directory / "bot.py").is_file():
            raise BotSpecError(f"this nethackers ({directory.parent.parent}) ships no roots/autoascend/bot.py: "
                               f"{INSTALL_HINT} (nethackers 0.37 or newer)")
        return BotSource(agent, AUTOASCEND, directory)
    if not agent.startswith(BOT_PREFIX) or not agent[len(BOT_PREFIX):].strip():
        raise BotSpecError(f"not a bot: {agent!r}; write autoascend or bot:PATH (a folder with a bot.py)")
    directory = Path(agent[len(BOT_PREFIX):].strip()).expanduser().resolve()
    if not directory.is_dir():
        raise BotSpecError(f"{agent}: no folder {directory}; bot:PATH names a folder with a bot.py")
    if not (directory / "bot.py").is_file():
        raise BotSpecError(f"{agent}: {directory} has no bot.py (it must define make_agent())")
    return BotSource(agent, f"{BOT_PREFIX}{directory.name}", directory)


# ---------------------------------------------------------------- the bot's process
def _die_with_parent(parent_pid: int) -> None:
    """Have the kernel end this process when the episode's process goes (Linux)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:
        os._exit(1)


def _read_only(observation: Mapping[str, Any]) -> dict:
    for a in observation.values():
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    return dict(observation)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _failure(stage: str, e: BaseException) -> tuple[str, tuple[str, str, str]]:
    return "error", (stage, f"{type(e).__name__}: {e}", traceback.format_exc(limit=20)[-8000:])


def _bot_main(conn, directory: str, seed: int, parent_pid: int) -> None:
    """The bot's process: load ``bot.py``, then answer reset/act/close until told to stop."""
    _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the episode's to handle, between two actions
    warnings.filterwarnings("ignore", category=RuntimeWarning)  # AutoAscend's numpy warnings flood stderr
    try:
        os.chdir(directory)
        sys.path.insert(0, directory)
        random.seed(seed)
        np.random.seed(seed % (1 << 32))
        module = importlib.import_module("bot")
        make_agent = getattr(module, "make_agent", None)
        if not callable(make_agent):
            raise TypeError("bot.py defines no make_agent() function")
        bot = make_agent()
        for method in ("reset", "act"):
            if not callable(getattr(bot, method, None)):
                raise TypeError(f"make_agent() returned a {type(bot).__name__} without a {method}(observation) "
                                "method")
    except BaseException as e:  # noqa: BLE001 — reported to the episode, which ends with it
        conn.send(_failure("load", e))
        return
    conn.send(("ready", None))
    while True:
        try:
            command, payload = conn.recv()
        except (EOFError, OSError):
            return  # the episode is gone
        try:
            if command == "reset":
                bot.reset(_read_only(payload))
                conn.send(("ok", None))
            elif command == "act":
                conn.send(("action", bot.act(_read_only(payload))))
            else:
                close = getattr(bot, "close", None)
                if callable(close):
                    close()
                conn.send(("ok", None))
                return
        except BaseException as e:  # noqa: BLE001
            conn.send(_failure(command, e))
            return


class BotProcess:
    """A bot in its own spawned process, spoken to over a pipe (see the module docstring)."""

    def __init__(self, source: BotSource, seed: int, *, startup_timeout_s: float = STARTUP_TIMEOUT_S,
                 action_timeout_s: float = ACTION_TIMEOUT_S):
        self.source = source
        self.action_timeout_s = action_timeout_s
        self.actions = len(nethack.ACTIONS)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=True)
        self._process = ctx.Process(target=_bot_main, args=(child, str(source.directory), int(seed), os.getpid()),
                                    name=f"hackwright-bot-{source.name}", daemon=True)
        # Started with Ctrl-C ignored (kept through exec), so a terminal's SIGINT cannot
        # reach the interpreter while it starts, before _bot_main ignores it itself.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
        try:
            self._process.start()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        child.close()
        try:
            self._expect("ready", "load", startup_timeout_s)
        except BaseException:
            self.close()
            raise

    def _receive(self, stage: str, timeout_s: float) -> tuple[str, Any]:
        if not self._conn.poll(timeout_s):
            raise BotError(f"bot took more than {timeout_s:g} s to {stage}; it was stopped")
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            self._process.join(timeout=5)
            raise BotError(f"bot process died during {stage} (exit code {self._process.exitcode})") from None

    def _expect(self, kind: str, stage: str, timeout_s: float) -> Any:
        got, payload = self._receive(stage, timeout_s)
        if got == "error":
            where, message, details = payload
            if where == "load":
                raise BotError(f"bot failed to load: {message}", details)
            raise BotError(f"bot raised {message} in {where}()", details)
        if got != kind:
            raise BotError(f"bot answered {got!r} to {stage}")
        return payload

    def _send(self, message: tuple) -> None:
        try:
            self._conn.send(message)
        except (BrokenPipeError, EOFError, OSError):
            self._process.join(timeout=5)
            raise BotError(f"bot process died (exit code {self._process.exitcode})") from None

    def reset(self, observation: Mapping[str, Any]) -> None:
        """Hand the bot the game's first observation."""
        self._send(("reset", dict(observation)))
        self._expect("ok", "reset", self.action_timeout_s)

    def act(self, observation: Mapping[str, Any]) -> int:
        """The bot's next action, checked: an index into ``nle.nethack.ACTIONS``."""
        self._send(("act", dict(observation)))
        action = self._expect("action", "act", self.action_timeout_s)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, numbers.Integral):
            raise BotError(f"bot returned a bad action {action!r} ({type(action).__name__}): act() must return an "
                           f"int index into nle.nethack.ACTIONS (0-{self.actions - 1})")
        if not 0 <= int(action) < self.actions:
            raise BotError(f"bot returned a bad action index {int(action)}: act() must return an index into "
                           f"nle.nethack.ACTIONS (0-{self.actions - 1})")
        return int(action)

    def close(self) -> None:
        """Let the bot close (if it is still there), then end its process."""
        if self._process.is_alive():
            try:
                self._conn.send(("close", None))
                if self._conn.poll(10):
                    self._conn.recv()
            except (BrokenPipeError, EOFError, OSError):
                pass
            self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=5)
        self._conn.close()


# ---------------------------------------------------------------- the game
class BotGame(Game):
    """A :class:`Game` stepped by action index through NLE's ``env.step``, as the arena
    steps it (NetHack's end-of-game screens are answered by NLE itself). Frame hooks see
    every step, with the key the action stands for."""

    def step_action(self, index: int) -> tuple[bool, bool]:
        """Play ``nle.nethack.ACTIONS[index]``; return (game over, cut short by NLE)."""
        _obs, _reward, done, truncated, _info = self.env.step(int(index))
        self.steps += 1
        self.done = bool(done)
        self._set_obs(self.env.last_observation)
        self._frame(int(self.env.actions[int(index)]))
        return self.done, bool(truncated)

    def bot_view(self) -> dict[str, np.ndarray]:
        """The observation a bot gets (NLE reuses these arrays: they are sent, not kept)."""
        return {k: self.obs[k] for k in BOT_OBSERVATION_KEYS}

    def hero_role(self) -> str:
        """The hero's role as NetHack names it ("Wizard", "Cavewoman", "Priestess"), read from
        the hero's glyph, so that reading it sends no key."""
        bl = self.obs["blstats"]
        glyph = int(self.obs["glyphs"][int(bl[nethack.NLE_BL_Y]), int(bl[nethack.NLE_BL_X])])
        if not nethack.glyph_is_monster(glyph):
            return "?"
        return nethack.permonst(nethack.glyph_to_mon(glyph)).mname.title()

    def death_record(self) -> Optional[str]:
        """NetHack's own account of how the game ended (``death=`` of the xlogfile's last
        line), once it has ended. NLE keeps the xlogfile beside the ttyrec when recording
        (``nle.PID.xlogfile``), else in the game's temporary directory."""
        files = []
        if self.ttyrec_path:
            files.append(Path(re.sub(r"\d+\.ttyrec\d*\.bz2$", "", self.ttyrec_path) + "xlogfile"))
        vardir = getattr(self.env.nethack, "_vardir", None)
        if vardir:
            files.append(Path(vardir, "xlogfile"))
        for f in files:
            try:
                lines = [ln for ln in f.read_text().splitlines() if ln.strip()]
            except (OSError, UnicodeDecodeError):
                continue
            if lines:
                fields = dict(p.split("=", 1) for p in lines[-1].split("\t") if "=" in p)
                return fields.get("death", "").strip() or None
        return None


# ---------------------------------------------------------------- one episode
def _one_line(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]


class BotEpisode:
    """One seeded game played by a bot, recorded like an agent's episode."""

    def __init__(self, source: BotSource, *, seed: int, role: Optional[str] = None,
                 max_steps: Optional[int] = None, max_turns: Optional[int] = None,
                 db_path: str = "data/memory.db", record_dir: Optional[str] = None):
        self.source = source
        self.seed = int(seed)
        self.role = role
        self.max_steps = int(max_steps or DEFAULT_MAX_STEPS)
        self.max_turns = max_turns
        self.db_path = db_path
        self.record_dir = record_dir
        self.stop_requested = False
        self.actions = 0
        self.max_depth = 0
        self.max_xl = 0
        self.timeline: list[tuple[int, int, int, int]] = []

    def request_stop(self) -> None:
        """End the episode before the bot's next action (Ctrl-C); it is recorded as interrupted."""
        self.stop_requested = True

    def _observe(self, game: BotGame) -> int:
        """Track maxima and the timeline from the last living status line; return the turn."""
        bl = game.live_blstats
        if bl is None:
            return 0
        turn, depth, xl = int(bl[nethack.NLE_BL_TIME]), int(bl[nethack.NLE_BL_DEPTH]), int(bl[nethack.NLE_BL_XP])
        new_high = depth > self.max_depth or xl > self.max_xl
        self.max_depth, self.max_xl = max(self.max_depth, depth), max(self.max_xl, xl)
        if new_high or not self.timeline or turn >= self.timeline[-1][0] + TIMELINE_EVERY_TURNS:
            point = (turn, depth, xl, int(bl[nethack.NLE_BL_SCORE]))
            if self.timeline and self.timeline[-1][0] == turn:
                self.timeline[-1] = point
            else:
                self.timeline.append(point)
        return turn

    def run(self) -> dict:
        """Play the game to its end or a cap and return the summary as a dict (with ``error``:
        None, or the bot's traceback when the bot failed)."""
        from ..replay.frames import FrameRecorder
        from ..store.db import connect
        from ..store.episodes import finish_episode, start_episode

        t0 = time.time()
        record = Path(self.record_dir) if self.record_dir else None
        game = BotGame(GameConfig(seed=self.seed, role=self.role, ttyrec_dir=str(record) if record else None,
                                  max_episode_steps=self.max_steps + 1,
                                  extra={"observation_keys": BOT_OBSERVATION_KEYS}))
        conn = recorder = bot = None
        end_reason, details, truncated = "step cap", None, False
        try:
            if tuple(game.env.actions) != tuple(nethack.ACTIONS):
                raise RuntimeError(f"{CHALLENGE_ENV} does not have NLE's full action set")
            game.reset()
            role = game.hero_role()
            self._observe(game)
            conn = connect(self.db_path, check=False)
            episode_id = start_episode(conn, seed=self.seed, env_id=CHALLENGE_ENV, role=role,
                                       strategist=self.source.name)
            if record is not None:
                recorder = FrameRecorder(game, record / "frames.bin", meta={
                    "episode_id": episode_id, "seed": self.seed, "env_id": CHALLENGE_ENV, "agent": self.source.agent})
            try:
                bot = BotProcess(self.source, self.seed)
                bot.reset(game.bot_view())
                while True:
                    turn = self._observe(game)
                    if game.done:
                        end_reason = "death"
                        break
                    if self.stop_requested:
                        end_reason = "interrupted"
                        break
                    if self.actions >= self.max_steps:
                        end_reason = "step cap"
                        break
                    if self.max_turns and turn >= self.max_turns:
                        end_reason = "turn cap"
                        break
                    action = bot.act(game.bot_view())
                    self.actions += 1
                    if recorder is not None:
                        recorder.step = self.actions
                    _, truncated = game.step_action(action)
            except BotError as e:
                end_reason, details = _one_line(f"error: {e}"), e.details or traceback.format_exc()[-4000:]
            except Exception as e:  # noqa: BLE001 — the harness failed mid-game: still recorded
                end_reason, details = _one_line(f"error: {type(e).__name__}: {e}"), traceback.format_exc()[-4000:]
            death_reason = None
            if end_reason == "death":
                end_reason, death_reason = self._ending(game, truncated)
            summary = self._summary(game, episode_id, role, end_reason, death_reason, time.time() - t0)
            finish_episode(conn, episode_id, summary)
        finally:
            if bot is not None:
                bot.close()
            if recorder is not None:
                recorder.close()
            if conn is not None:
                conn.close()
            game.close()
        if record is not None:
            record.mkdir(parents=True, exist_ok=True)
            (record / "summary.json").write_text(json.dumps(summary, indent=2))
        summary["error"] = details
        return summary

    def _ending(self, game: BotGame, truncated: bool) -> tuple[str, Optional[str]]:
        """(end_reason, death_reason) of a game that NetHack or NLE ended."""
        if truncated:
            timeout = getattr(game.env, "no_progress_timeout", None)
            return f"no progress: {timeout} actions without the game clock moving", None
        death = game.death_record()
        word = (death or "").split(" ", 1)[0]
        if word in ("quit", "escaped", "ascended"):
            return word, None
        return "death", death

    def _summary(self, game: BotGame, episode_id: int, role: str, end_reason: str, death_reason: Optional[str],
                 wall_s: float) -> dict:
        from ..agent.episode import EpisodeSummary
        from .progression import progression

        bl = game.live_blstats if game.live_blstats is not None else np.zeros(nethack.NLE_BLSTATS_SIZE, np.int64)
        turns = int(bl[nethack.NLE_BL_TIME])
        s = EpisodeSummary(
            episode_id=episode_id, seed=self.seed, role=role, strategist=self.source.name, end_reason=end_reason,
            death_reason=death_reason, score=int(bl[nethack.NLE_BL_SCORE]), depth=int(bl[nethack.NLE_BL_DEPTH]),
            max_depth=self.max_depth, xp_level=int(bl[nethack.NLE_BL_XP]), max_xp_level=self.max_xl, turns=turns,
            progression=progression(self.max_depth or 1, self.max_xl or 1), decisions=self.actions,
            decisions_per_1000_turns=round(1000 * self.actions / turns, 2) if turns else 0.0, model_calls=0,
            input_tokens=0, output_tokens=0, cost_usd=0.0, skills_used={}, skills_created=[], fallback_steps=0,
            wall_s=round(wall_s, 2), ttyrec=game.ttyrec_path, timeline=list(self.timeline))
        return json.loads(s.to_json())


def play_bot_job(job, db_path: str) -> dict:
    """Play an evaluation job (``hackwright.eval.runner.EpisodeJob``) whose agent is a bot,
    into the run database at ``db_path``; Ctrl-C ends it before the bot's next action."""
    from ..agent.stopping import StopOnInterrupt

    source = resolve_bot(job.agent, job.env_id)
    episode = BotEpisode(source, seed=job.seed, role=job.role, max_steps=job.max_steps, max_turns=job.max_turns,
                         db_path=db_path, record_dir=job.record_dir)
    with StopOnInterrupt(episode, hard_on_second=False):
        return episode.run()


__all__ = ["AUTOASCEND", "BOT_OBSERVATION_KEYS", "BotEpisode", "BotError", "BotGame", "BotProcess", "BotSource",
           "BotSpecError", "DEFAULT_MAX_STEPS", "INSTALL_HINT", "is_bot_agent", "play_bot_job", "resolve_bot"]

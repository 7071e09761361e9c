"""Watching a game as it is played: the frame hook behind ``--delay``, ``--web`` and the terminal view.

A :class:`LiveWatch` is one more :attr:`hackwright.env.make.Game.on_frame` hook,
next to the replay's frame recorder: it sees the screen after every key,
whoever sends it (built-in skills, sandboxed skills, the API's own look-ups).
After each key it

* keeps the latest frame (glyphs, terminal, bottom line, message) and the
  agent's current decision, skill and code, the recent messages and the
  inventory, as a :class:`LiveState` that readers wait for (the web page's
  feed, :mod:`hackwright.replay.live_server`);
* pauses ``delay_ms`` milliseconds, so that a person can follow the game
  (``--delay MS``); each pause is counted in :attr:`LiveWatch.pauses`.

The agent loop attaches the watch that is active in this process
(:func:`watching`) when it opens its game, so ``play`` and an ``eval`` with one
worker (its episodes run in the driver's process) are watched the same way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Iterator, Optional

import numpy as np

from .frames import BLSTATS, tty_lines

if TYPE_CHECKING:
    from ..agent.loop import Agent

MESSAGES_KEPT = 12  # recent messages shown beside the map


@dataclass
class LiveDecision:
    """The decision being played (or last played), in the replay viewer's decision shape."""

    step: int
    turn: Optional[int]
    type: str
    skill_name: Optional[str] = None
    params: Optional[dict] = None
    success: Optional[bool] = None  # None while it runs
    stopped_reason: Optional[str] = None
    error: Optional[str] = None
    reasoning: str = ""
    code: Optional[str] = None  # a model-written skill's code (built-in skills: none)
    running: bool = True


@dataclass
class LiveFrame:
    """One screen, copied out of the observation."""

    index: int  # keys sent so far
    key: Optional[int]  # the key that led here (None: the game's first screen)
    glyphs: np.ndarray  # (21, 79)
    tty_chars: np.ndarray  # (24, 80)
    tty_colors: np.ndarray  # (24, 80)
    blstats: np.ndarray
    message: str
    over: bool  # NetHack's game was over on this screen

    def stat(self, name: str) -> int:
        return int(self.blstats[BLSTATS[name]])


@dataclass
class LiveState:
    """Everything the live views show, at one moment (``seq`` grows with every frame)."""

    seq: int
    title: str
    frame: Optional[LiveFrame]
    step: int
    skill: Optional[str]
    decision: Optional[LiveDecision]
    messages: list[str]
    inventory: list[str]
    finished: bool
    delay_ms: int
    pauses: int  # pauses made so far (one per key while the game runs)
    keys: int  # keys sent since the watch began

    def to_json(self, tile_ids=None) -> dict:
        """Plain data for the web page; ``tile_ids`` maps glyphs to tile ids (the page's atlas)."""
        out: dict[str, Any] = {k: getattr(self, k) for k in ("seq", "title", "step", "skill", "messages",
                                                                "inventory", "finished", "delay_ms", "pauses", "keys")}
        out["decision"] = asdict(self.decision) if self.decision else None
        f = self.frame
        if f is None:
            out["frame"] = None
        else:
            out["frame"] = {
                "index": f.index, "key": -1 if f.key is None else f.key,
                "tiles": (tile_ids(f.glyphs) if tile_ids else f.glyphs).reshape(-1).tolist(),
                "text": tty_lines(f.tty_chars), "msg": f.message, "over": f.over,
                "turn": f.stat("turn"), "dlvl": f.stat("depth"), "hp": f.stat("hp"), "hpmax": f.stat("hpmax"),
                "score": f.stat("score"),
            }
        return out


def _message(obs: dict) -> str:
    raw = obs.get("message")
    if raw is None:
        return ""
    return bytes(np.asarray(raw, dtype=np.uint8)).split(b"\0", 1)[0].decode("latin-1").strip()


def _inventory(obs: dict) -> list[str]:
    letters, strs = obs.get("inv_letters"), obs.get("inv_strs")
    if letters is None or strs is None:
        return []
    out = []
    for i, code in enumerate(np.asarray(letters).tolist()):
        if not code:
            break
        text = bytes(strs[i]).split(b"\0", 1)[0].decode("latin-1")
        out.append(f"{chr(code)} - {text}")
    return out


class LiveWatch:
    """The live views' frame hook: the latest state for readers, and a pause after each key.

    ``delay_ms`` is the pause after every key sent to the game (0: none);
    ``publish`` keeps the state for readers (the web page) — the terminal view
    reads the game itself and needs only the pause. Thread-safe for readers:
    :meth:`wait` may be called from any thread while the game plays in another.
    """

    def __init__(self, delay_ms: int = 0, *, publish: bool = False):
        self.delay_ms = max(0, int(delay_ms))
        self.publish = publish
        self.pauses = 0
        self.keys = 0  # keys seen since the watch was first attached
        self.agent: Optional["Agent"] = None
        self.title = "Hackwright"
        self._state: Optional[LiveState] = None
        self._seq = -1
        self._finished = False
        self._messages: list[str] = []
        self._done_decision: Optional[LiveDecision] = None  # the last decision with its outcome
        self._cond = threading.Condition()

    # ------------------------------------------------------------ the game's side
    def attach(self, agent: "Agent") -> None:
        """Watch ``agent``'s game from now on (called by the agent loop when it opens its game,
        before its skill runners exist: with a delay, their wall time grows by the pauses)."""
        self.agent = agent
        self._done_decision, self._messages = None, []  # eval: a new episode starts afresh
        if self.delay_ms:
            agent.config.skill_limits = slowed_limits(agent.config.skill_limits, self.delay_ms)
        game = agent.api.game
        game.on_frame.append(self.on_frame)
        chained = agent.on_step

        def on_step(report, agent_) -> None:
            self.on_step(report)
            if chained is not None:
                chained(report, agent_)

        agent.on_step = on_step
        c = agent.config
        self.title = f"Hackwright · {getattr(agent.strategist, 'name', c.llm)} · seed {c.seed} · {agent.api.hero_role}"
        if self.publish and game.obs:
            self._publish(game, None)

    def on_frame(self, game, key: Optional[int]) -> None:
        """The ``Game.on_frame`` hook: keep the state, then pause (only after a key, while the game runs)."""
        msg = _message(game.obs)
        if msg and (not self._messages or self._messages[-1] != msg):
            self._messages = (self._messages + [msg])[-MESSAGES_KEPT:]
        if key is not None:
            self.keys += 1
        if self.publish:
            self._publish(game, key)
        if key is not None and self.delay_ms and not game.done:
            self.pauses += 1
            time.sleep(self.delay_ms / 1000.0)

    def on_step(self, report) -> None:
        """After each decision: its outcome, for the decision panel."""
        d = self._decision(report.decision, report.step, report.stats.turn if report.stats else None)
        d.running = False
        r = report.result
        d.success = bool(r and r.success)
        d.stopped_reason = r.stopped_reason if r else None
        d.error = report.error
        self._done_decision = d
        if self.publish and self.agent is not None:
            self._publish(self.agent.api.game, None, new_frame=False)

    def finish(self) -> None:
        """The game is over (or the watch is no longer fed): readers stop waiting."""
        with self._cond:
            self._finished = True
            self._seq += 1
            if self._state is not None:
                self._state.finished, self._state.seq, self._state.pauses = True, self._seq, self.pauses
                self._state.keys = self.keys
            self._cond.notify_all()

    def _decision(self, d, step: int, turn: Optional[int]) -> LiveDecision:
        code = d.code
        if not code and d.skill_name and self.agent is not None:
            try:
                skill = self.agent.library.get(d.skill_name)
                code = skill.code if skill.source == "model" else None
            except Exception:  # not in the library (yet): no code to show
                code = None
        return LiveDecision(step=step, turn=turn, type=d.type, skill_name=d.skill_name or d.action,
                            params=dict(d.params) if d.params else None, reasoning=d.reasoning or "", code=code)

    def _current_decision(self, turn: Optional[int]) -> Optional[LiveDecision]:
        agent = self.agent
        d = getattr(agent, "last_decision", None)
        done = self._done_decision
        if d is None:
            return done
        step = int(getattr(agent, "decisions", 0))
        if done is not None and done.step >= step:
            return done  # the decision in flight is the one that just ended
        return self._decision(d, step, turn)

    def _publish(self, game, key: Optional[int], new_frame: bool = True) -> None:
        obs = game.obs
        frame = self._state.frame if self._state is not None else None
        if new_frame or frame is None:
            screen = game.final_screen()  # after a death: the tombstone, not NLE's score list
            bl = game.live_blstats if game.live_blstats is not None else obs["blstats"]
            msg = _message(obs)
            frame = LiveFrame(index=game.steps, key=key, glyphs=np.array(obs["glyphs"]), tty_chars=screen.chars.copy(),
                              tty_colors=screen.colors.copy(), blstats=np.array(bl), message=msg, over=game.done)
        agent = self.agent
        with self._cond:
            self._seq += 1
            self._state = LiveState(
                seq=self._seq, title=self.title, frame=frame, step=int(getattr(agent, "decisions", 0)),
                skill=getattr(agent, "current_skill", None), decision=self._current_decision(frame.stat("turn")),
                messages=list(self._messages), inventory=_inventory(obs), finished=self._finished,
                delay_ms=self.delay_ms, pauses=self.pauses, keys=self.keys)
            self._cond.notify_all()

    # ------------------------------------------------------------ the readers' side
    @property
    def messages(self) -> list[str]:
        """The game's recent messages, the newest last."""
        return list(self._messages)

    def state(self) -> Optional[LiveState]:
        """The latest state (None before the game's first screen)."""
        with self._cond:
            return self._state

    def wait(self, after: int, timeout: float) -> Optional[LiveState]:
        """The first state newer than ``after`` (its ``seq``), waiting up to ``timeout`` seconds;
        the latest state when none came (or the game is finished)."""
        with self._cond:
            self._cond.wait_for(lambda: self._finished or (self._state is not None and self._state.seq > after),
                                timeout=timeout)
            if self._state is None and self._finished:
                return LiveState(seq=self._seq, title=self.title, frame=None, step=0, skill=None, decision=None,
                                 messages=[], inventory=[], finished=True, delay_ms=self.delay_ms, pauses=self.pauses,
                                 keys=self.keys)
            return self._state


_active: list[LiveWatch] = []


@contextlib.contextmanager
def watching(watch: LiveWatch) -> Iterator[LiveWatch]:
    """Within this block, every agent that opens a game in this process is watched by ``watch``."""
    _active.append(watch)
    try:
        yield watch
    finally:
        _active.remove(watch)
        watch.finish()


def attach_active(agent: "Agent") -> None:
    """Attach the active watch, if any, to ``agent`` (the agent loop calls this once its game is open)."""
    if _active:
        _active[-1].attach(agent)



def slowed_limits(limits, delay_ms: int):
    """``limits`` (a :class:`~hackwright.sandbox.runner.SandboxLimits`) with the wall time a skill
    may take grown by the pauses it can meet: the pauses are the watcher's, not the skill's."""
    if not delay_ms:
        return limits
    # keys can outnumber actions (--More--, menus): allow two pauses per action
    extra = 2 * limits.max_actions * delay_ms / 1000.0
    return dataclasses.replace(limits, wall_seconds=limits.wall_seconds + extra)

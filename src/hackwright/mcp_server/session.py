"""One game played from outside, decision by decision: the episode loop of ``play``,
with a strategist whose decisions arrive from an MCP client.

:class:`GameSession` runs :class:`~hackwright.agent.loop.Agent` as a background task.
The agent asks its strategist, a :class:`RemoteStrategist`, for each decision; that
strategist waits until :meth:`GameSession.play` hands it one. Everything else is the
loop's own: the prompt, the sandbox and validation of model-written skills, the library's
adoption rules, the game-integrity rules of raw keys, the step and turn caps, the run
database and the ttyrec. Nothing here needs the MCP SDK.
"""

from __future__ import annotations

import asyncio
import difflib
import re
from dataclasses import dataclass
from typing import Optional

from ..agent.decisions import AgentDecision, DecisionError, decision_from_dict
from ..agent.episode import EpisodeConfig, EpisodeSummary, StepReport
from ..agent.loop import Agent, DecisionContext


class SessionError(Exception):
    """A call the session cannot serve; the message is one line saying what to do instead."""


def one_line(error: object, limit: int = 400) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


class RemoteStrategist:
    """A strategist whose every decision is handed in from outside (``submit``).

    The autopilot never stands in for it: a loop of the same decision is the player's
    own business, so ``loop_fallback`` is off."""

    name = "mcp"
    loop_fallback = False

    def __init__(self) -> None:
        self.ctx: Optional[DecisionContext] = None
        self._pending: Optional[asyncio.Future] = None
        self.waiting = asyncio.Event()

    async def decide(self, ctx: DecisionContext) -> AgentDecision:
        self.ctx = ctx
        self._pending = asyncio.get_running_loop().create_future()
        self.waiting.set()
        try:
            return await self._pending
        finally:
            self.waiting.clear()
            self._pending = None

    @property
    def ready(self) -> bool:
        return self._pending is not None and not self._pending.done()

    def submit(self, decision: AgentDecision) -> None:
        assert self._pending is not None and not self._pending.done()
        self.waiting.clear()  # at once: whoever waits for the next request must not see this one
        self._pending.set_result(decision)


@dataclass
class StepOutcome:
    """What one decision did, for the client: the execution line (as the next prompt shows
    it), what a show or lookup returned, and the game's end when it came."""

    line: str
    shown_code: Optional[str] = None
    answer: Optional[str] = None
    message: str = ""  # the game's message line after the decision
    ended: Optional[EpisodeSummary] = None


_FENCE = re.compile(r"^\s*```[A-Za-z0-9_+-]*[^\n]*\n(.*?)\n?```\s*$", re.S)


def unfenced(code: str) -> str:
    """Code as given, or the inside of the one ```python fence it was wrapped in."""
    m = _FENCE.match(code or "")
    return m.group(1) if m else (code or "")


class GameSession:
    """One episode under ``play``'s loop and rules, its decisions supplied by :meth:`play`."""

    def __init__(self, episode: EpisodeConfig):
        self.episode = episode
        self.strategist = RemoteStrategist()
        self.agent = Agent(episode, strategist=self.strategist, on_step=self._on_step)
        self.task: Optional[asyncio.Future] = None
        self._reports: list[StepReport] = []
        self._lock = asyncio.Lock()
        self.last_screen = ""

    # ------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the game; raises :class:`SessionError` when it cannot start (bad role, env …)."""
        self.task = asyncio.ensure_future(self.agent.run())
        await self._settle()
        if self.task.done():
            error = self.task.exception()
            if error is not None:
                raise SessionError(f"the game could not start: {one_line(error)}")

    async def _settle(self) -> None:
        """Wait until the loop asks for the next decision or the episode is over."""
        assert self.task is not None
        if self.task.done() or self.strategist.ready:
            return
        waiter = asyncio.ensure_future(self.strategist.waiting.wait())
        try:
            await asyncio.wait({waiter, self.task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()

    @property
    def over(self) -> bool:
        return self.task is not None and self.task.done()

    @property
    def summary(self) -> Optional[EpisodeSummary]:
        return getattr(self.agent, "summary", None)

    def crash(self) -> Optional[str]:
        """Why the loop failed, when it ended by an exception rather than a cap or death."""
        if self.task is None or not self.task.done() or self.task.cancelled():
            return None
        error = self.task.exception()
        return one_line(error) if error is not None else None

    async def end(self) -> Optional[EpisodeSummary]:
        """End the game now (recorded as interrupted) or, when it ended already, return its summary."""
        async with self._lock:
            if self.task is None:
                return None
            if not self.task.done():
                self.agent.request_stop()
                try:
                    await asyncio.shield(self.task)
                except Exception:
                    pass  # recorded by the loop; crash() says why
            return self.summary

    # ------------------------------------------------------------ reading
    def _ctx(self) -> DecisionContext:
        if self.over:
            raise SessionError(self.over_text())
        ctx = self.strategist.ctx
        if ctx is None or not self.strategist.ready:
            raise SessionError("the game is busy with a decision; call again when it returns")
        return ctx

    async def state_text(self) -> str:
        """The screen as NetHack shows it (map and status lines) and the budgets used."""
        async with self._lock:
            await self._settle()
            ctx = self._ctx()
            screen = "\n".join(line.rstrip() for line in ctx.state["screen"].split("\n")).strip("\n")
            return f"{screen}\n\n{self.budget_line()}"

    async def prompt_user(self) -> str:
        async with self._lock:
            await self._settle()
            return self._prompt(self._ctx()).user

    async def prompt_system(self) -> str:
        async with self._lock:
            await self._settle()
            return self._prompt(self._ctx()).system

    @staticmethod
    def _prompt(ctx: DecisionContext):
        try:
            return ctx.prompt()
        except Exception as e:  # a prompt budget too small for the game: say so, keep serving
            raise SessionError(f"the prompt cannot be built: {one_line(e)}") from None

    def budget_line(self) -> str:
        c, a = self.episode, self.agent
        s = a.api.last_stats if a.api is not None else None
        turns = f"turn {s.turn}" if s else "turn ?"
        turns += f" of {c.max_turns}" if c.max_turns else " (no turn cap)"
        where = f"Dlvl {s.dungeon_level}, HP {s.hp}/{s.max_hp}, XL {s.xp_level}" if s else ""
        return f"Episode {a.episode_id} · {where} · decision {a.decisions} of {c.max_steps} · {turns}"

    def over_text(self) -> str:
        s = self.summary
        if s is None:
            why = self.crash()
            return f"the game has ended{': ' + why if why else ''}; call start_game for a new one"
        return (f"the game has ended ({s.end_reason}); episode {s.episode_id} is recorded; "
                "call start_game for a new one")

    # ------------------------------------------------------------ deciding
    def _on_step(self, report: StepReport, agent: Agent) -> None:
        self._reports.append(report)

    def check_skill(self, name: str) -> None:
        """SessionError, with the closest names, unless ``name`` is a library skill one may invoke."""
        names = sorted(self._ctx().skill_names)
        if name in names:
            return
        close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
        listed = ", ".join(close) if close else ", ".join(names[:15]) + (" …" if len(names) > 15 else "")
        raise SessionError(f"there is no skill named {name!r}; {'close names' if close else 'skills'}: {listed} "
                           "(nothing was played)")

    async def play(self, wire: dict) -> StepOutcome:
        """Play one decision given in the decision format (``{"action": "invoke", …}``) and
        return what it did. Bad input raises :class:`SessionError` and plays nothing."""
        async with self._lock:
            if self.task is None:
                raise SessionError("no game is running: call start_game first")
            await self._settle()
            self._ctx()
            try:
                decision = decision_from_dict(wire)
            except DecisionError as e:
                raise SessionError(f"{one_line(e)} (nothing was played)") from None
            if decision.type == "invoke_skill":
                self.check_skill(decision.skill_name or "")
            if decision.type == "create_skill":
                decision.code = unfenced(decision.code or "")
            self._reports.clear()
            self.strategist.submit(decision)
            await self._settle()
            return self._outcome(decision)

    def _outcome(self, decision: AgentDecision) -> StepOutcome:
        memory = self.agent.memory
        report = self._reports[-1] if self._reports else None
        if report is None:  # the loop stopped before the step was recorded
            line = f"the decision was not completed: {self.crash() or 'the game ended'}"
        else:
            line = memory.executions[-1].line() if memory.executions else (report.error or "done")
        out = StepOutcome(line=line)
        if report is not None and report.result is not None:
            if report.result.stopped_reason == "shown" and memory.shown:
                out.shown_code = memory.shown[-1][1]
            if report.result.stopped_reason == "looked_up":
                out.answer = str(report.result.data.get("answer", ""))
        if self.over:
            out.ended = self.summary
        elif self.strategist.ctx is not None:
            out.message = self.strategist.ctx.state["screen"].split("\n", 1)[0].strip()
        return out

"""The agent loop (spec §7.1): gather state, remember, prompt, decide, execute, record.

One :class:`Agent` plays one episode. Each step asks the strategist for a
decision — invoke a library skill, create a new skill, or one raw key — runs
it (built-in skills in-process, model-written ones in the sandbox), records
the execution in the library's statistics and the run database, and goes on
until the hero dies, a step or turn cap is reached, or the budget runs out.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from ..api.nethack_api import NetHackAPI
from ..env.make import GameConfig
from ..eval.progression import progression
from ..replay.frames import FrameRecorder
from ..replay.live import attach_active
from ..sandbox import errors as skill_errors
from ..sandbox.runner import SkillOutcome, SkillRunner
from ..skills.library import Situation, SkillLibrary, SkillNotFoundError
from ..skills.result import SkillResult
from ..skills.triggers import TriggerConfig
from ..store import episodes
from ..store.db import connect
from .backends.base import BackendError
from .budget import Budget
from .created_skills import NEVER_RAN, adopt_created, created_triggers, known_squares
from .decisions import AgentDecision, DecisionError
from .execution_report import ExecutionProbe, ExecutionReport
from .episode import EpisodeConfig, EpisodeSummary, StepReport  # noqa: F401  (their home was here)
from .memory import AgentMemory, ErrorSite, ExecutionNote
from .prompt import PromptParts, build_prompt, system_prompt
from .request_budget import request_reserve, summary_passages
from .strategists import FALLBACKS, Autopilot, UnknownAgentError, make_strategist
from .strategists.diving import digging_tool
from .task_outcome import task_end_reason, task_summary


def _clip(error: BaseException, limit: int = 300) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass
class DecisionContext:
    """What a strategist sees when it decides."""

    api: NetHackAPI
    state: dict
    memory: AgentMemory
    skills: list  # every library skill, the most relevant first
    skill_names: set[str]
    warnings: list[str]
    task: Optional[str] = None
    _prompt: Optional[PromptParts] = None
    _system: Optional[str] = None
    _stats_of: Optional[Callable] = None
    _on_reply: Optional[Callable] = None
    _max_prompt_tokens: Optional[int] = None  # EpisodeConfig.max_prompt_tokens: the whole request's
    _reserve_chars: int = 0  # what the requests add to the prompt (request_budget.request_reserve)
    retries: int = 0  # unusable replies sent back before this decision (set by model strategists)

    def prompt(self) -> PromptParts:
        if self._prompt is None:
            self._prompt = build_prompt(self.api, self.state, self.memory, self.skills, self._stats_of,
                                        self.warnings, role=self.api.hero_role, system=self._system, task=self.task,
                                        max_request_tokens=self._max_prompt_tokens, reserve_chars=self._reserve_chars)
        return self._prompt

    def record_reply(self, reply, prompt, messages) -> None:
        if self._on_reply is not None:
            self._on_reply(reply, prompt, messages)


class Agent:
    """Plays one episode with a strategist over the skill library."""

    LOOP_WARN = 3  # the same decision this many times without progress: warn the model
    LOOP_FALLBACK = 5  # … this many: let the autopilot take one step
    MAX_SHOWS = 20  # `show` decisions per episode: they take no game time, so they are capped
    MAX_QUERY_CHARS = 300  # of a lookup's question

    def __init__(self, config: EpisodeConfig, *, on_step: Optional[Callable[[StepReport, "Agent"], None]] = None,
                 strategist=None):
        self.config = config
        self.on_step = on_step
        self.strategist = strategist
        self.autopilot = Autopilot()
        self.api: Optional[NetHackAPI] = None
        self.memory = AgentMemory(config.short_term_tokens)
        self.budget = Budget(max_calls=config.max_model_calls, max_tokens=config.max_tokens,
                             max_usd=config.budget_usd, max_wall_s=config.max_wall_s)
        self.decisions = 0
        self.fallback_steps = 0
        self.loop_break_steps = 0
        self.failed_decisions = 0
        self._failed_in_a_row = 0
        self.decided_by: Counter = Counter()
        self.model_error: Optional[str] = None
        self.stop_requested = False  # Ctrl-C: end at the next action boundary
        self._decide_task: Optional[asyncio.Future] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self.model_calls = 0
        self.tokens_in = 0
        self.tokens_out = 0
        self.skills_used: Counter = Counter()
        self.skills_created: list[str] = []
        self.max_depth = 0
        self.max_xl = 0
        self.last_decision: Optional[AgentDecision] = None
        self.current_skill: Optional[str] = None
        self.shows = 0  # `show` decisions answered this episode
        self._error_site: Optional[ErrorSite] = None  # where the last model-written skill failed
        self._report: Optional[ExecutionReport] = None  # what the last skill run did
        self._repeats: list[tuple[str, tuple]] = []
        self._trusted: Optional[SkillRunner] = None
        self._sandbox: Optional[SkillRunner] = None
        self.episode_id = 0
        self._system: Optional[str] = None
        self.goal_reached: Optional[bool] = None if config.goal is None else False
        self._idle_decisions = 0  # consecutive decisions after which the game turn had not moved
        self._last_turn: Optional[int] = None
        self.timeline: list[tuple[int, int, int, int]] = []
        self.digging_tool_turn: Optional[int] = None
        self.recorder: Optional[FrameRecorder] = None  # every key's screen, for replays and renders
        # Skills stop at the turn cap, so an episode ends there rather than when a long skill returns.
        # A skill never runs the hero into the ground: at prayer-level HP it hands back
        # to the strategist, which alone knows whether a prayer is safe.
        self._triggers = TriggerConfig(turn_cap=config.max_turns or None, always_stop=("very_low_hp", "deadly"),
                                       stop_requested=lambda: self.stop_requested)

    def request_stop(self) -> None:
        """End the episode at the next action boundary (the first Ctrl-C): a running skill
        stops after its current game action, a model call in flight is abandoned, and the
        episode is recorded as ``interrupted``. Safe to call from a signal handler."""
        self.stop_requested = True
        task, loop = self._decide_task, self._loop
        if task is not None and loop is not None and not task.done():
            loop.call_soon_threadsafe(task.cancel)

    # ------------------------------------------------------------ set-up
    def _make_strategist(self) -> None:
        """The strategist, before anything is recorded: a bad name, a missing key or a
        missing transcript is an error now, not an episode played by someone else."""
        c = self.config
        if c.fallback not in (None, *FALLBACKS):
            raise UnknownAgentError(f"unknown fallback {c.fallback!r}: the fallback is autopilot (or none)")
        if self.strategist is None:
            transcript = str(Path(c.record_dir) / "transcript.jsonl") if c.record_dir else None
            self.strategist = make_strategist(c.llm, transcript=transcript, seed=c.seed, **c.backend_options)

    def _open(self) -> None:
        c = self.config
        self._make_strategist()
        Path(c.db_path).parent.mkdir(parents=True, exist_ok=True)
        self.db = connect(c.db_path, check=False)
        self.library = SkillLibrary(Path(c.library_path), db_path=Path(c.db_path))
        self.load_report = self.library.load()
        ttyrec_dir = str(Path(c.record_dir)) if c.record_dir else None
        self.api = NetHackAPI.new_game(GameConfig(env_id=c.env_id, seed=c.seed, role=c.role, ttyrec_dir=ttyrec_dir,
                                                  des_file=c.des_file))
        attach_active(self)  # --web / --delay: the live views' frame hook (replay/live.py), before the runners
        if isinstance(self.strategist, Autopilot):
            self.autopilot = self.strategist  # one memory of what worked, whoever decides
        self._trusted = SkillRunner(self.api, mode="inprocess", limits=c.skill_limits, skills=self.library)
        self.episode_id = episodes.start_episode(self.db, seed=c.seed, env_id=c.env_id, role=self.api.hero_role,
                                                 strategist=getattr(self.strategist, "name", c.llm))
        if c.record_dir:
            try:
                self.recorder = FrameRecorder(self.api.game, Path(c.record_dir) / "frames.bin",
                                              meta={"episode_id": self.episode_id, "seed": c.seed, "env_id": c.env_id})
            except OSError as e:  # a replay is nice to have; the episode goes on without it
                self.memory.errors.append(f"frames are not recorded: {e}")

    def _sandbox_runner(self) -> SkillRunner:
        if self._sandbox is None:
            self._sandbox = SkillRunner(self.api, limits=self.config.skill_limits,
                                        allow_weak=self.config.allow_weak_sandbox, skills=self.library)
        return self._sandbox

    # ------------------------------------------------------------ the loop
    async def run(self) -> EpisodeSummary:
        """Play the episode to its end and return its summary (also kept in ``.summary``).
        A model that cannot be reached ends it with ``end_reason`` "model error: …" and
        ``model_error`` set, unless ``config.fallback`` names a strategist to stand in."""
        t0 = time.time()
        self._loop = asyncio.get_running_loop()
        self._open()
        assert self.api is not None
        end_reason = "step cap"
        try:
            step = 0
            while True:
                reason = self._end_reason(step)
                if reason:
                    end_reason = reason
                    break
                step += 1
                await self._step(step)
        except (KeyboardInterrupt, asyncio.CancelledError):
            end_reason = "interrupted"  # a second Ctrl-C: stop at once, still recorded
            raise
        finally:
            if self.stop_requested and not end_reason.startswith(("death", "goal", "task")):
                end_reason = "interrupted"
            summary = self._finish(end_reason, time.time() - t0)
            self.summary = summary
        return summary

    def _end_reason(self, step: int) -> Optional[str]:
        api = self.api
        assert api is not None
        if self.stop_requested:
            return "interrupted"
        if self.model_error:
            return f"model error: {self.model_error}"
        if self.goal_reached:
            return "goal reached"
        idle_cap = getattr(self.strategist, "max_idle_decisions", None)
        if idle_cap and self._idle_decisions >= idle_cap:
            return f"no progress: {idle_cap} decisions without the game clock moving"
        if api.game_over:
            return task_end_reason(api) or "death"  # a MiniHack task ends the game its own way
        if step >= self.config.max_steps:
            return "step cap"
        s = api.last_stats
        if self.config.max_turns and s is not None and s.turn >= self.config.max_turns:
            return "turn cap"
        b = self.budget.exhausted()
        if b:
            return f"budget: {b}"
        return None

    async def _gather(self) -> dict:
        api = self.api
        assert api is not None
        self.memory.update(api)
        state = await api.get_comprehensive_state()
        state["screen"] = await api.get_screen()
        state["frontier"] = await api.find_unexplored()
        s = state["stats"]
        self.max_depth = max(self.max_depth, s.dungeon_level)
        self.max_xl = max(self.max_xl, s.xp_level)
        if self.digging_tool_turn is None and digging_tool(state["inventory"]) is not None:
            self.digging_tool_turn = s.turn
        return state

    def _situation(self, state: dict) -> Situation:
        try:
            return Situation.from_state(state["stats"], state["monsters"], state["level"])
        except Exception:
            return Situation()

    def _prompt_skills(self, state: dict) -> list:
        """Every non-retired skill, the most relevant first: the prompt details the first
        ``config.prompt_skills`` and lists the rest one short line each, so that no skill
        (a built-in, or one the model just saved) drops out of sight."""
        return self.library.relevant(self._situation(state), k=max(len(self.library.all()), 1))

    async def _step(self, step: int) -> None:
        api = self.api
        assert api is not None
        if self.recorder is not None:
            self.recorder.step = step
        state = await self._gather()
        skills = self._prompt_skills(state)
        names = {s.name for s in self.library.all()}
        warnings = self._loop_warnings(state)
        if self._system is None:
            self._system = system_prompt(api.hero_role)
        ctx = DecisionContext(api, state, self.memory, skills, names, warnings,
                              task=self.config.task, _system=self._system, _stats_of=self.library.stats,
                              _max_prompt_tokens=self.config.max_prompt_tokens,
                              _reserve_chars=request_reserve(getattr(self.strategist, "max_invalid", 0)),
                              _on_reply=lambda r, p, m: self._record_reply(step, r, p, m))
        loop_break = len(warnings) > 1
        decision: Optional[AgentDecision] = None
        error: Optional[str] = None
        unreachable: Optional[BackendError] = None
        stand_in: Optional[str] = None  # the model's failure, when the autopilot plays in its place
        decided_by = "strategist"
        if not loop_break:
            try:
                self._decide_task = asyncio.ensure_future(self.strategist.decide(ctx))
                decision = await self._decide_task
                decided_by = "retry" if ctx.retries else "strategist"
            except asyncio.CancelledError:
                if not self.stop_requested:
                    raise
                return  # Ctrl-C while the model was thinking: nothing was played
            except DecisionError as e:
                error = f"no usable decision: {e}"
                stand_in = f"no usable decision ({_clip(e)}); the autopilot played this step"
            except BackendError as e:
                error = f"model backend failed: {e}"
                stand_in = f"model backend failed ({_clip(e)}); the autopilot played this step"
                unreachable = e
            finally:
                self._decide_task = None
        if decision is None:
            if loop_break:
                decided_by = "loop_break"
                self.loop_break_steps += 1
            elif self.config.fallback:
                decided_by = "fallback"
            else:
                self._no_decision(step, error or "no decision", unreachable, state)
                return
            decision = await self.autopilot.decide(ctx)
            self.fallback_steps += 1
            if error:
                self.memory.errors.append(error)
        self._failed_in_a_row = 0
        self.decisions += 1
        self.decided_by[decided_by] += 1
        self.last_decision = decision
        # A strategist whose keys are whole commands never answers a question with them: one
        # a monster's turn left open (an incubus's "Shall I remove your mail?") is closed first.
        decider = self.autopilot if decided_by in ("fallback", "loop_break") else self.strategist
        whole = bool(getattr(decider, "keys_are_commands", False))
        result, exec_error = await self._execute(step, decision, state, whole_command=whole)
        # The step's own outcome; the model's failure is a line of its own, never this step's error.
        self._after_step(step, decision, result, exec_error, state, decided_by, stand_in)

    def _no_decision(self, step: int, error: str, unreachable: Optional[BackendError], state: dict) -> None:
        """The model gave nothing to play and no fallback was asked for: nothing is played.
        An unreachable model ends the episode now; unusable replies end it after
        ``max_failed_decisions`` steps in a row (each time the model is told what was wrong)."""
        self.failed_decisions += 1
        self._failed_in_a_row += 1
        s0 = state["stats"]
        # the next prompt shows the model what went wrong, as it shows a skill's error
        self.memory.record_execution(ExecutionNote(turn=s0.turn, skill="(your decision)", params={},
                                                   stopped_reason="error", success=False, actions=0, turns=0,
                                                   error=f"{error}; nothing was played"))
        if unreachable is not None:
            self.model_error = " ".join(str(unreachable).split())
        elif self._failed_in_a_row >= self.config.max_failed_decisions:
            self.model_error = (f"{self._failed_in_a_row} steps in a row without a usable decision; the last: "
                                + " ".join(error.split()))
        s = (self.api.last_stats if self.api else None) or state["stats"]
        episodes.record_decision(self.db, self.episode_id, step, s.turn, type="none", decided_by="none", error=error)

    def _loop_warnings(self, state: dict) -> list[str]:
        """The same decision again and again without progress: warn, then step in."""
        s = state["stats"]
        progress_key = (s.turn, s.position, s.dungeon_level, s.hp)
        if self.last_decision is None or not getattr(self.strategist, "loop_fallback", True):
            return []
        sig = self.last_decision.signature()
        self._repeats.append((sig, progress_key))
        self._repeats = self._repeats[-self.LOOP_FALLBACK:]
        same = [k for g, k in self._repeats if g == sig]
        stuck = len(same) >= self.LOOP_WARN and len(set(same[-self.LOOP_WARN:])) <= 2
        if not stuck:
            return []
        out = [f"you chose {sig} {len(same)} times in a row without progress: change the plan"]
        if len(same) >= self.LOOP_FALLBACK:
            out.append("the autopilot takes this step")
            self._repeats.clear()
        return out

    # ------------------------------------------------------------ executing
    async def _execute(self, step: int, d: AgentDecision, state: dict,
                       whole_command: bool = False) -> tuple[Optional[SkillResult], Optional[str]]:
        api = self.api
        assert api is not None
        before = state["stats"]
        if d.type == "direct_action":
            r = await api.send_keys(d.action or "", new_command=whole_command)
            return SkillResult("direct", {"prompt": r.prompt}, 1, 0, r.success), r.error
        if d.type == "lookup":
            return await self._lookup(step, d.query or "")
        if d.type == "show_skill":
            return self._show(d.skill_name or "")
        name = d.skill_name or ""
        self.current_skill = name
        outcome: Optional[SkillOutcome] = None
        error: Optional[str] = None
        created = d.type == "create_skill"
        own_code: Optional[str] = d.code if created else None  # model-written code, for error excerpts
        self._error_site = None
        never_ran = False  # refused before it ran, or no such skill: no run to record or keep
        explored = known_squares(api)
        probe = ExecutionProbe.start(api, self.library, d, self.config.auto_save, len(self.memory.errors))
        runner: Optional[SkillRunner] = None
        try:
            if created:
                runner = self._sandbox_runner()
                outcome = await runner.run(d.code or "", d.params, entry=name or None,
                                           triggers=created_triggers(d), trigger_config=self._triggers)
            else:
                skill = self.library.get(name)
                own_code = None if skill.source == "builtin" else skill.code
                runner = self._trusted if skill.source == "builtin" else self._sandbox_runner()
                assert runner is not None
                outcome = await runner.run(skill.code, d.params, entry=skill.name, triggers=tuple(skill.triggers),
                                           trigger_config=self._triggers)
        except SkillNotFoundError:
            never_ran = True
            error = (f"there is no skill named {name!r}; available: "
                     + ", ".join(sorted(s.name for s in self.library.all())))
        except NEVER_RAN as e:
            never_ran = True
            error = e.for_model() if isinstance(e, skill_errors.SkillExecutionError) else \
                f"model-written skills cannot run here: {e}"
            self._error_site = ErrorSite.of(e, own_code)
        except skill_errors.SkillExecutionError as e:
            error = e.for_model()
            self._error_site = ErrorSite.of(e, own_code)
        result = outcome.result if outcome else None
        after = api.last_stats or before
        if name and not never_ran:
            try:
                # A rewrite under a stored name ran code the library does not hold yet.
                draft = created and name in self.library and \
                    self.library.get(name).code.strip() != (d.code or "").strip()
                self.library.record_execution(name, params=d.params, result=result, before=before, after=after,
                                              error=error, episode_id=self.episode_id, draft=draft,
                                              explored_before=explored, explored_after=known_squares(api))
            except Exception:
                pass  # statistics must never end an episode
        adoption = adopt_created(self.library, d, result, error) \
            if created and self.config.auto_save and not never_ran else None
        if adoption is not None and adoption.current and name not in self.skills_created:
            self.skills_created.append(name)
        self._report = await probe.finish(api, result, outcome.log if outcome else "", error,
                                          runner.failed_actions if runner else None, self.memory.errors)
        if adoption is not None and adoption.worth_telling and self._report is not None:  # the library's own word
            self._report.saved = adoption.message
        self.skills_used[name or d.type] += 1
        # The autopilot (strategist or fallback) learns what worked and which levels are done.
        self.autopilot.observe(name, result, api)
        if self.strategist is not self.autopilot and hasattr(self.strategist, "observe"):
            self.strategist.observe(name, result, api)  # baselines keep their own notes
        return result, error

    async def _lookup(self, step: int, question: str) -> tuple[SkillResult, Optional[str]]:
        """AutoRAG (seed 000): retrieve passages, have the model condense them, and keep the
        answer in the prompt for the next decisions. Takes no game time."""
        api = self.api
        assert api is not None
        if len(question) > self.MAX_QUERY_CHARS:  # a question, not a document: cut before it travels
            question = question[:self.MAX_QUERY_CHARS] + f" (… {len(question) - self.MAX_QUERY_CHARS} characters cut)"
        try:
            passages = await api.lookup(question, k=4)
        except Exception as e:  # noqa: BLE001 — a broken index must not end the episode
            return SkillResult("lookup_failed", {"query": question}, 0, 0, False), f"the lookup failed: {e}"
        answer = passages
        summarise = getattr(self.strategist, "summarise", None)
        fitted = summary_passages(question, passages, self.config.max_prompt_tokens)  # None: no room
        if summarise is not None and fitted is not None and not passages.startswith("No entry found"):
            try:
                answer = await summarise(question, fitted,
                                         lambda r, p, m: self._record_reply(step, r, p, m)) or passages
            except BackendError as e:
                self.memory.errors.append(f"the lookup's summary failed ({e}); the passages are shown instead")
        answer = " ".join(answer.split())
        if len(answer) > 700:
            answer = answer[:699].rsplit(" ", 1)[0] + " …"
        self.memory.add_knowledge(question, answer)
        return SkillResult("looked_up", {"query": question, "answer": answer}, 0, 0, True), None

    def _show(self, name: str) -> tuple[SkillResult, Optional[str]]:
        """A library skill's code (built-in or model-written), put in memory for the next
        prompts so the model can adapt it. Takes no game time."""
        if self.shows >= self.MAX_SHOWS:
            return (SkillResult("show_refused", {"skill": name}, 0, 0, False),
                    f"no more shows this episode (at most {self.MAX_SHOWS}): invoke or create a skill")
        self.shows += 1
        try:
            skill = self.library.get(name)
        except SkillNotFoundError:
            names = sorted(s.name for s in self.library.all(include_retired=True))
            close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
            listed = ", ".join(close) if close else ", ".join(names[:12]) + (" …" if len(names) > 12 else "")
            return (SkillResult("show_failed", {"skill": name}, 0, 0, False),
                    f"there is no skill named {name!r}; {'close names' if close else 'skills'}: {listed}")
        self.memory.add_shown(skill.name, skill.code)
        return SkillResult("shown", {"skill": skill.name, "lines": len(skill.code.splitlines())}, 0, 0, True), None

    def _after_step(self, step: int, d: AgentDecision, result: Optional[SkillResult], error: Optional[str],
                    state: dict, decided_by: str = "strategist", stand_in: Optional[str] = None) -> None:
        api = self.api
        assert api is not None
        s = api.last_stats or state["stats"]
        shown = d.type == "show_skill"
        if not api.game_over:  # the run's messages, each on its own turn, before its outcome
            self.memory.update(api)
        self.memory.record_execution(ExecutionNote(
            turn=s.turn, skill="show" if shown else d.skill_name or d.type,
            params={"skill": d.skill_name} if shown else dict(d.params or {}),
            stopped_reason=result.stopped_reason if result else "error", success=bool(result and result.success),
            actions=result.actions_taken if result else 0, turns=result.turns_elapsed if result else 0,
            error=error, created=d.type == "create_skill", site=self._error_site, report=self._report,
            stand_in=stand_in))
        self._error_site = self._report = None
        events = api.events[:]
        api.events.clear()
        episodes.record_decision(self.db, self.episode_id, step, s.turn, type=d.type, decided_by=decided_by,
                                 skill_name=d.skill_name, params=d.params, code=d.code, reasoning=d.reasoning,
                                 stopped_reason=result.stopped_reason if result else None,
                                 success=bool(result and result.success),
                                 error="; ".join(e for e in (error, stand_in) if e) or None, events=events)
        s2 = api.last_stats
        if s2 is not None:
            self._idle_decisions = self._idle_decisions + 1 if s2.turn == self._last_turn else 0
            self._last_turn = s2.turn
            self.max_depth = max(self.max_depth, s2.dungeon_level)
            self.max_xl = max(self.max_xl, s2.xp_level)
            if not api.game_over:  # NLE zeroes the stats of the final observation
                self.timeline.append((s2.turn, s2.dungeon_level, s2.xp_level, s2.score))
        if self.config.goal is not None and not api.game_over:
            try:
                self.goal_reached = bool(self.config.goal(api))
            except Exception as e:  # a broken check is a failed goal, never a crashed episode
                self.memory.errors.append(f"goal check failed: {e!r}")
        if self.on_step:
            self.on_step(StepReport(step, d, result, error, s2), self)

    def _record_reply(self, step: int, reply, prompt: PromptParts, messages) -> None:
        self.model_calls += 1
        self.tokens_in += int(reply.input_tokens or 0) + int(reply.cache_read_tokens or 0) + int(
            reply.cache_write_tokens or 0)
        self.tokens_out += int(reply.output_tokens or 0)
        self.budget.charge(reply)
        episodes.record_model_call(self.db, self.episode_id, step, backend=getattr(self.strategist, "name", ""),
                                   reply=reply, prompt=messages[-1].content if messages else prompt.user)

    # ------------------------------------------------------------ ending
    def _finish(self, end_reason: str, wall: float) -> EpisodeSummary:
        api = self.api
        s = api.last_stats if api else None
        turns = s.turn if s else 0
        b = self.budget.summary()
        summary = EpisodeSummary(
            episode_id=self.episode_id,
            seed=self.config.seed,
            role=(api.hero_role if api else None) or "?",
            strategist=getattr(self.strategist, "name", self.config.llm),
            end_reason=end_reason,
            death_reason=api.death_reason if api and api.game_over else None,
            score=s.score if s else 0,
            depth=s.dungeon_level if s else 0,
            max_depth=self.max_depth,
            xp_level=s.xp_level if s else 0,
            max_xp_level=self.max_xl,
            turns=turns,
            progression=progression(self.max_depth or 1, self.max_xl or 1),
            decisions=self.decisions,
            decisions_per_1000_turns=round(1000 * self.decisions / turns, 2) if turns else 0.0,
            model_calls=self.model_calls,
            input_tokens=self.tokens_in,
            output_tokens=self.tokens_out,
            cost_usd=float(b.get("usd", 0.0) or 0.0),
            skills_used=dict(self.skills_used),
            skills_created=list(self.skills_created),
            fallback_steps=self.fallback_steps,
            wall_s=round(wall, 2),
            ttyrec=api.game.ttyrec_path if api else None,
            goal_reached=self.goal_reached,
            timeline=list(self.timeline),
            decided_by=dict(self.decided_by),
            loop_break_steps=self.loop_break_steps,
            failed_decisions=self.failed_decisions,
            model_error=self.model_error,
            digging_tool_turn=self.digging_tool_turn,
            **task_summary(api),
        )
        try:
            episodes.finish_episode(self.db, self.episode_id, json.loads(summary.to_json()))
        except Exception:
            pass
        try:
            self.library.prune()
        except Exception:
            pass
        for r in (self._trusted, self._sandbox):
            if r is not None:
                r.close()
        if self.recorder is not None:
            self.recorder.close()
        if api is not None:
            api.close()
        try:
            self.db.close()
        except Exception:
            pass
        if self.config.record_dir:
            Path(self.config.record_dir).mkdir(parents=True, exist_ok=True)
            (Path(self.config.record_dir) / "summary.json").write_text(summary.to_json())
        return summary

"""Running a skill: validation, a sandboxed worker, the API proxy and the limits.

``SkillRunner.run(code, params)`` validates the code, hands it to a warm worker
(forked from the zygote and isolated), answers the worker's API calls against
the real :class:`NetHackAPI` — only the methods in ``surface`` — and returns a
:class:`SkillOutcome`, or raises a typed :class:`SkillExecutionError`. Whatever
happens, the game is left at the ordinary command prompt and the next run
works: a dead worker is replaced, a dead zygote restarted.
"""

from __future__ import annotations

import ast
import asyncio
import os
import signal
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Optional

from ..skills.result import SkillResult
from ..skills.triggers import EventMonitor, TriggerConfig, declared_triggers, unknown_triggers
from . import errors, surface
from .call_budget import LOCAL_KEY, CallBudget
from .composition import SkillCaller, SkillCalls
from .failed_actions import FailedActions
from .isolation import Stack, best_stack, detect
from .layers import check_layers_off
from .pool import Worker, WorkerPool, Zygote  # noqa: F401 - Worker, Zygote: importable from here as before
from .protocol import MAX_FRAME, ChannelClosed, ProtocolError
from .skill_source import SkillSource
from .worker import OutputBuffer, drive, skill_namespace, trimmed_traceback

MiB = 1 << 20


@dataclass
class SandboxLimits:
    """Per-invocation limits (config: sandbox.*)."""

    wall_seconds: float = 30.0
    cpu_seconds: int = 10
    memory_bytes: int = 256 * MiB
    max_actions: int = 1000
    max_api_calls: int = 50_000  # every nh call, queries answered from the worker's cache too
    max_output_bytes: int = 64 * 1024


@dataclass
class SkillOutcome:
    """A skill that ran to a result (successful or not)."""

    result: SkillResult
    log: str = ""  # captured print() output, capped
    actions: int = 0
    api_calls: int = 0
    seconds: float = 0.0
    stack: str = ""  # which isolation it ran under


def _entry_name(code: str, entry: Optional[str]) -> str:
    """The entry point without the policy (validate=False, trusted tests only)."""
    if entry:
        return entry
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        raise errors.SkillSyntaxError.from_syntax_error(e, source=code)
    names = [n.name for n in tree.body if isinstance(n, ast.AsyncFunctionDef)]
    if not names:
        raise errors.SkillValidationError(
            "the skill defines no entry point",
            violations=[errors.Violation(1, 1, "no `async def name(nh, ...)` function",
                                         "define the skill as `async def name(nh, **params) -> SkillResult`")])
    return names[-1]


def _choose_cpu() -> Optional[int]:
    """The CPU a runner's workers share with the host while a skill runs.

    A skill and the host take turns (call, answer, call …); on the same CPU a
    hand-over is a plain context switch, while across CPUs an idle virtual CPU
    has to be woken up first, which measured 100-250 µs per hand-over here.
    Spread over the allowed CPUs by pid so parallel evaluations do not pile up.
    """
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    return allowed[os.getpid() % len(allowed)] if len(allowed) > 1 else None


class SkillRunner:
    """Runs skills against one game's API.

    mode: "sandbox" (isolated workers; the default for model-written skills),
    "inprocess" (trusted built-in skills only: no isolation at all).
    ``allow_weak`` opts into seccomp + rlimits only where nothing stronger
    works — with a loud warning. ``layers_off`` is for the sandbox's escape
    tests only and refused anywhere else (see ``sandbox/layers.py``).
    ``skills``: the library whose skills a running skill may call with
    ``nh.run_skill`` (a SkillLibrary; default: the package's built-in skills).
    """

    def __init__(self, api, *, mode: str = "sandbox", limits: Optional[SandboxLimits] = None,
                 allow_weak: bool = False, stack: Optional[Stack] = None, pin_cpu: bool = True,
                 backend: str = "local", docker_image: Optional[str] = None, docker_runtime: Optional[str] = None,
                 layers_off: Iterable[str] = (), skills: Any = None):
        self.api = api
        self.skill_source = SkillSource(skills)
        self.layers_off = check_layers_off(layers_off)
        if self.layers_off and (mode != "sandbox" or backend != "local"):
            raise ValueError("layers_off applies only to mode='sandbox' with the local backend")
        self.backend = backend
        self.docker_image, self.docker_runtime = docker_image, docker_runtime
        self.cpu = _choose_cpu() if pin_cpu and mode == "sandbox" and backend == "local" else None
        self.mode = mode
        self.limits = limits or SandboxLimits()
        self.stack: Optional[Stack] = None
        self.warnings: list[str] = []
        self.record_call_times = False  # benchmarks: host receive time of every API call
        self.call_times: list[float] = []
        self.failed_actions = FailedActions()  # the last run's failed actions, by error (see failed_actions)
        if backend not in ("local", "docker"):
            raise ValueError(f"unknown backend {backend!r}; use 'local' or 'docker'")
        if mode == "inprocess":
            self.stack = Stack.INPROCESS
        elif mode == "sandbox" and backend == "docker":
            from .docker_backend import docker_available

            ok, why = docker_available()
            if not ok:
                raise errors.SandboxUnavailableError(f"Docker backend unavailable: {why}")
            self.stack = Stack.DOCKER
        elif mode == "sandbox":
            chosen = stack or best_stack(detect())
            if chosen is None:
                if not allow_weak:
                    raise errors.SandboxUnavailableError(
                        "no isolation for model-written skills works on this machine (no gVisor, bubblewrap, "
                        "user namespaces or Landlock); run `hackwright sandbox check`, or opt into the weak "
                        "mode (seccomp + rlimits only) with allow_weak / --allow-weak-sandbox"
                    )
                chosen = Stack.WEAK
            if chosen is Stack.WEAK:
                self.warnings.append(
                    "WARNING: model-written skills run with seccomp + rlimits only; files may be readable"
                )
            self.stack = chosen
        else:
            raise ValueError(f"unknown mode {mode!r}; use 'sandbox' or 'inprocess'")
        if self.layers_off:
            self.warnings.append(f"TEST ONLY: sandbox layers switched off: {', '.join(sorted(self.layers_off))}")
        self._pool = WorkerPool(self.stack, self.cpu, backend, docker_image, docker_runtime, self.layers_off)

    # ------------------------------------------------------------ workers
    def warm_up(self) -> None:
        """Start the zygote and a spare worker now rather than at the first run."""
        if self.mode == "sandbox":
            self._pool.warm_up(self.limits.memory_bytes, self.limits.cpu_seconds)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> "SkillRunner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ running
    def _validate(self, code: str, entry: Optional[str], validate: bool) -> str:
        if not isinstance(code, str) or not code.strip():
            raise errors.SkillValidationError("the skill's code is empty; write `async def name(nh, ...)`")
        if validate:
            from . import policy

            return policy.validate(code, entry).name
        return _entry_name(code, entry)

    def _restore_prompt(self) -> None:
        """Whatever happened, leave the game at the command prompt."""
        try:
            if not self.api.game_over:
                self.api.back_to_command_prompt()
        except Exception:
            pass

    async def run(self, code: str, params: Optional[dict] = None, *, entry: Optional[str] = None,
                  limits: Optional[SandboxLimits] = None, validate: bool = True,
                  triggers: Optional[tuple[str, ...]] = None, handle: tuple[str, ...] = (),
                  trigger_config: Optional[TriggerConfig] = None) -> SkillOutcome:
        """Validate and run a skill; a SkillOutcome, or a typed SkillExecutionError.

        ``triggers``: events that interrupt the skill (default: the TRIGGERS the
        skill file declares); ``handle``: events the skill deals with itself,
        removed from that set. An interrupt ends the run with
        ``stopped_reason="interrupted:<event>"`` at the next action boundary.
        """
        limits = limits or self.limits
        params = dict(params or {})
        self.failed_actions = FailedActions()
        name = self._validate(code, entry, validate)
        wanted = tuple(triggers) if triggers is not None else declared_triggers(code)
        bad = unknown_triggers(wanted) + unknown_triggers(handle)
        if bad:
            from ..skills.triggers import EVENT_KINDS

            raise errors.SkillValidationError(
                f"unknown trigger(s): {', '.join(map(repr, bad))}; triggers are: {', '.join(EVENT_KINDS)}",
                violations=[errors.Violation(1, 1, f"unknown trigger {b!r}", f"use only: {', '.join(EVENT_KINDS)}")
                            for b in bad],
            )
        stop_on = set(wanted) - set(handle)
        if trigger_config is not None and trigger_config.turn_cap is not None:
            stop_on.add("turn_cap")  # the episode ends there, whatever the skill asked for
        if trigger_config is not None:
            stop_on |= set(trigger_config.always_stop) - set(handle)
            if trigger_config.stop_requested is not None:
                stop_on.add("user_stop")  # Ctrl-C: no skill may handle it away
        monitor = EventMonitor(self.api, trigger_config)
        self.api.after_action.append(monitor)
        try:
            if self.mode == "inprocess":
                return await self._run_inprocess(code, name, params, limits, monitor, stop_on)
            with _on_cpu(self.cpu):
                return self._run_sandboxed(code, name, params, limits, monitor, stop_on)
        finally:
            if monitor in self.api.after_action:
                self.api.after_action.remove(monitor)
            self._restore_prompt()

    def _interrupted(self, event, actions: int, turn0: int) -> SkillResult:
        data = {"event": event.kind, "message": event.message, **event.data}
        return SkillResult(f"interrupted:{event.kind}", data, actions, self._turn() - turn0, False)

    # ------------------------------------------------------------ sandboxed
    def _run_sandboxed(self, code: str, name: str, params: dict, limits: SandboxLimits,
                       monitor: EventMonitor, stop_on: set[str]) -> SkillOutcome:
        worker = self._pool.take(limits.memory_bytes, limits.cpu_seconds)
        z = self._pool.zygote
        assert z is not None
        # the next run's worker starts while this one runs
        self._pool.prefork(limits.memory_bytes, limits.cpu_seconds)
        api = self.api
        t0 = time.monotonic()
        deadline = t0 + limits.wall_seconds
        turn0 = self._turn()
        actions = 0
        budget = CallBudget(limits.max_api_calls)  # every call, those the worker answered from its cache too
        # Queries the skill asked (or used from a prefetch) since its last action: the
        # next action's reply answers them ahead of time.
        asked: dict[tuple, tuple] = {}
        known: dict[tuple, tuple] = {}
        log = OutputBuffer(limits.max_output_bytes)

        def stop_worker() -> Optional[int]:
            z.kill(worker.pid)
            worker.chan.close()
            return z.exit_status(worker.pid)

        def fail(err: errors.SkillExecutionError) -> errors.SkillExecutionError:
            try:
                err.log = log.take() if hasattr(err, "log") else None
            except Exception:
                pass
            return err

        try:
            worker.chan.send({"op": "run", "code": code, "entry": name, "params": params,
                              "max_output": limits.max_output_bytes, "max_calls": limits.max_api_calls})
        except (OSError, ProtocolError) as e:
            stop_worker()
            if isinstance(e, ProtocolError):
                raise fail(_limit_error(f"the skill's parameters are too large to send ({e})", "parameters"))
            raise errors.SandboxUnavailableError(f"the sandboxed worker was not ready: {e}")
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                msg = worker.chan.recv(timeout=left)
            except TimeoutError:
                stop_worker()
                raise fail(_timeout_error(f"the skill ran longer than {limits.wall_seconds:g} s (wall time); "
                                          "make it stop sooner, e.g. with an action budget", "wall_time"))
            except (ChannelClosed, OSError):
                status = z.exit_status(worker.pid)
                worker.chan.close()
                raise fail(_death_error(status, limits))
            except ProtocolError as e:
                stop_worker()
                raise fail(_limit_error(f"the skill sent a message the harness refuses: {e}", "message size"))
            if not isinstance(msg, dict):
                stop_worker()
                raise fail(_crash_error("the skill's worker broke the protocol"))
            if isinstance(msg.get("out"), str):
                log.write(msg["out"])
            budget.add_local(msg.get(LOCAL_KEY))
            op = msg.get("op")
            if op == "call":
                if self.record_call_times:
                    self.call_times.append(time.perf_counter())
                m, a, k = msg.get("m"), msg.get("a"), msg.get("k")
                budget.add(m)
                if budget.spent:
                    stop_worker()
                    raise fail(budget.error())
                if m in surface.ACTIONS:
                    if actions >= limits.max_actions:
                        stop_worker()
                        return SkillOutcome(
                            SkillResult("action_limit", {"limit": limits.max_actions}, actions,
                                        self._turn() - turn0, False),
                            log.take(), actions, budget.total, time.monotonic() - t0,
                            self.stack.value if self.stack else "",
                        )
                    actions += 1
                used = msg.get("used")
                if used:
                    for u in used:
                        if isinstance(u, list) and len(u) == 3 and tuple(u) in known:
                            asked[tuple(u)] = known[tuple(u)]
                if m in surface.ACTIONS:
                    reply = self._serve(m, a, k, list(asked.items())[: surface.MAX_ADAPTIVE_PREFETCH])
                    asked = {}
                    event = monitor.take_stopping(stop_on)
                    if event is not None:
                        stop_worker()
                        return SkillOutcome(self._interrupted(event, actions, turn0), log.take(), actions, budget.total,
                                            time.monotonic() - t0, self.stack.value if self.stack else "")
                else:
                    reply = self._serve(m, a, k)
                    wkey = msg.get("key")
                    if m in surface.PREFETCHABLE and isinstance(wkey, list) and len(wkey) == 2 \
                            and all(isinstance(x, str) and len(x) < 2000 for x in wkey):
                        qkey = (m, wkey[0], wkey[1])
                        if qkey not in known and len(known) < 64:
                            known[qkey] = (m, a, k)
                        if qkey in known:
                            asked[qkey] = known[qkey]
                try:
                    worker.chan.send(reply)
                except ProtocolError as e:
                    worker.chan.send({"op": "exc", "type": "ValueError", "msg": str(e), "s": api.game.steps})
                except OSError:
                    status = z.exit_status(worker.pid)
                    raise fail(_death_error(status, limits))
            elif op == "skill":  # nh.run_skill: the host checks the call and sends the code
                budget.add("run_skill")
                if budget.spent:
                    stop_worker()
                    raise fail(budget.error())
                try:
                    worker.chan.send({**self.skill_source.answer_frame(msg), "s": api.game.steps})
                except OSError:
                    raise fail(_death_error(z.exit_status(worker.pid), limits))
            elif op == "done":
                worker.chan.close()
                self.last_worker_timing = msg.get("timing")
                try:
                    result = SkillResult.coerce(msg.get("result"))
                except TypeError as e:
                    raise fail(_runtime_error("TypeError", str(e), ""))
                return SkillOutcome(result, log.take(), actions, budget.total, time.monotonic() - t0,
                                    self.stack.value if self.stack else "")
            elif op == "error":
                worker.chan.close()
                raise fail(_skill_raised(msg, limits))
            else:
                stop_worker()
                raise fail(_crash_error(f"the skill's worker sent an unknown message {op!r}"))

    def _serve(self, m: Any, a: Any, k: Any, prefetch: Optional[list] = None) -> dict:
        api = self.api
        if not isinstance(m, str) or (m not in surface.CALLABLE and "surface" not in self.layers_off):
            return {"op": "exc", "type": "AttributeError", "s": api.game.steps,
                    "msg": f"nh has no method {m!r}; see the NetHack API for what skills can call"}
        if not isinstance(a, list) or not isinstance(k, dict) or not all(isinstance(x, str) for x in k):
            return {"op": "exc", "type": "TypeError", "msg": "malformed call", "s": api.game.steps}
        try:
            coro = getattr(api, m)(*a, **k)
            value = drive(coro)
            if m in surface.ACTIONS:
                self.failed_actions.note(m, value)
        except Exception as e:  # the skill's bad arguments, or an API error: back to the skill
            kind = next((c.__name__ for c in type(e).__mro__ if c.__name__ in surface.EXCEPTIONS), "RuntimeError")
            return {"op": "exc", "type": kind, "msg": str(e)[:2000], "s": api.game.steps}
        reply = {"op": "ret", "v": value, "s": api.game.steps}
        if m in surface.ACTIONS and not api.game_over:
            # What the skill will most likely ask next, answered now: the basics,
            # and the queries it asked after its previous action. Saves round trips.
            pre = []
            wanted = [((q, "()", "[]"), (q, [], {})) for q in surface.PREFETCH] + list(prefetch or [])
            seen = set()
            for key, (q, qa, qk) in wanted:
                if key in seen:
                    continue
                seen.add(key)
                try:
                    pre.append([q, key[1], key[2], drive(getattr(api, q)(*qa, **qk))])
                except Exception:
                    continue
            reply["pre"] = pre
            reply["s"] = api.game.steps
        return reply

    def _turn(self) -> int:
        s = self.api.last_stats
        return s.turn if s is not None else 0

    # ------------------------------------------------------------ in-process
    async def _run_inprocess(self, code: str, name: str, params: dict, limits: SandboxLimits,
                             monitor: EventMonitor, stop_on: set[str]) -> SkillOutcome:
        out = OutputBuffer(limits.max_output_bytes)
        self._inproc_count = getattr(self, "_inproc_count", 0) + 1
        module_name = f"hackwright_skill_{id(self)}_{self._inproc_count}"
        ns = _trusted_namespace(out, module_name)
        counter = _CountingAPI(self.api, limits.max_actions, monitor, stop_on, self.failed_actions,
                               CallBudget(limits.max_api_calls))
        counter._skill_calls = SkillCalls(
            name, lambda chain, n, p: self.skill_source.answer(chain, n, p, sandboxed=False),
            lambda module: _trusted_namespace(out, module))
        t0 = time.monotonic()
        turn0 = self._turn()
        try:
            exec(compile(code, "<skill>", "exec"), ns)
            value = await asyncio.wait_for(ns[name](counter, **params), timeout=limits.wall_seconds)
            result = SkillResult.coerce(value)
        except _ActionLimit:
            result = SkillResult("action_limit", {"limit": limits.max_actions}, counter.actions,
                                 self._turn() - turn0, False)
        except _Interrupted as stop:
            result = self._interrupted(stop.event, counter.actions, turn0)
        except _CallLimit:
            assert counter._budget is not None  # only a budget raises it
            raise counter._budget.error()
        except asyncio.TimeoutError:
            raise _timeout_error(f"the skill ran longer than {limits.wall_seconds:g} s", "wall_time")
        except errors.SkillExecutionError:
            raise
        except Exception as e:
            raise _runtime_error(type(e).__name__, str(e), trimmed_traceback(e))
        finally:
            sys.modules.pop(module_name, None)
        return SkillOutcome(result, out.take(), counter.actions, counter.calls, time.monotonic() - t0,
                            Stack.INPROCESS.value)


class _on_cpu:
    """Keep the host on ``cpu`` for the duration of a sandboxed run (see _choose_cpu)."""

    def __init__(self, cpu: Optional[int]):
        self.cpu = cpu
        self.saved: Optional[set[int]] = None

    def __enter__(self) -> None:
        if self.cpu is not None:
            try:
                self.saved = os.sched_getaffinity(0)
                os.sched_setaffinity(0, {self.cpu})
            except OSError:
                self.saved = None

    def __exit__(self, *exc) -> None:
        if self.saved is not None:
            try:
                os.sched_setaffinity(0, self.saved)
            except OSError:
                pass


class _ActionLimit(BaseException):
    """Raised into trusted in-process skills at the action limit (not an Exception: not swallowed)."""


class _CallLimit(BaseException):
    """Raised into trusted in-process skills over the API-call budget (not swallowed either)."""


class _Interrupted(BaseException):
    """Raised into trusted in-process skills when a trigger fires."""

    def __init__(self, event):
        super().__init__(event.kind)
        self.event = event


def _trusted_namespace(out: OutputBuffer, module_name: str) -> dict:
    ns = skill_namespace(out, module_name)
    ns["__builtins__"]["__import__"] = __import__  # trusted code: normal imports
    return ns


class _CountingAPI(SkillCaller):
    """The real API with its calls counted and triggers checked (in-process mode)."""

    def __init__(self, api, max_actions: int, monitor: Optional[EventMonitor] = None, stop_on: frozenset = frozenset(),
                 failed: Optional[FailedActions] = None, budget: Optional[CallBudget] = None):
        self._api = api
        self._budget = budget
        self._failed = failed
        self._max = max_actions
        self._monitor = monitor
        self._stop_on = set(stop_on)
        self.actions = 0
        self.calls = 0

    def __getattr__(self, name: str):
        target = getattr(self._api, name)
        if name not in surface.CALLABLE and name not in surface.LOCAL:
            return target

        async def call(*a, **k):
            self.calls += 1
            if self._budget is not None:
                self._budget.add(name)
                if self._budget.spent:
                    raise _CallLimit()
            if name in surface.ACTIONS:
                if self.actions >= self._max:
                    raise _ActionLimit()
                self.actions += 1
                value = await target(*a, **k)
                if self._failed is not None:
                    self._failed.note(name, value)
                if self._monitor is not None:
                    event = self._monitor.take_stopping(self._stop_on)
                    if event is not None:
                        raise _Interrupted(event)
                return value
            return await target(*a, **k)

        return call


# ------------------------------------------------------------ error helpers
def _make(cls, message: str, **kw):
    try:
        return cls(message, **kw)
    except TypeError:
        return cls(message)


def _timeout_error(message: str, which: str):
    return _make(errors.SkillTimeoutError, message, limit=which)


def _limit_error(message: str, which: str):
    return _make(errors.SkillLimitError, message, limit=which)


def _crash_error(message: str, sig: Optional[int] = None):
    if sig is not None:
        return _make(errors.SkillCrashedError, message, signal=signal.Signals(sig).name)
    return _make(errors.SkillCrashedError, message)


def _runtime_error(type_name: str, message: str, tb: str):
    return _make(errors.SkillRuntimeError, f"{type_name}: {message}", exc_type=type_name, exc_message=message,
                 traceback=tb)


def _skill_raised(msg: dict, limits: SandboxLimits):
    t, m, tb = str(msg.get("type", "Exception")), str(msg.get("msg", "")), str(msg.get("tb", ""))
    if t == "MemoryError":
        return _limit_error(f"the skill ran out of memory (limit {limits.memory_bytes // MiB} MiB); keep fewer "
                            "or smaller things in memory", "memory")
    if t == "SkillLimitError":
        return _limit_error(m, "result size")
    return _runtime_error(t, m, tb)


def _death_error(status: Optional[int], limits: SandboxLimits):
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGSYS:
            return _crash_error("the skill tried something the sandbox forbids (files, sockets, processes or "
                                "signals) and was stopped; skills reach the game only through nh", sig)
        if sig == signal.SIGXCPU:
            return _timeout_error(f"the skill used more than {limits.cpu_seconds} CPU seconds; it is probably "
                                  "looping — add a stopping condition", "cpu_time")
        if sig == signal.SIGKILL:
            return _crash_error("the skill's worker was killed (memory or process limit of the sandbox)", sig)
        return _crash_error(f"the skill's worker died from signal {signal.Signals(sig).name}", sig)
    if status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 70:
        return _crash_error("the sandbox could not isolate the skill's worker")
    return _crash_error("the skill's worker stopped unexpectedly")


__all__ = ["SandboxLimits", "SkillOutcome", "SkillRunner", "MAX_FRAME"]

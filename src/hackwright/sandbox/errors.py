"""What can go wrong with a skill, as data a model can act on (spec §9.4).

Every failure of a skill is a :class:`SkillExecutionError` subclass carrying a
``message`` (what happened), a ``hint`` (what to do instead) and the ``log``
(what the skill printed before it failed). The errors cross the process
boundary as plain dicts (``to_dict`` / ``SkillExecutionError.from_dict``: only
str, int, float, None, lists and dicts, so JSON and msgpack both carry them)
and reach the model as ``for_model()`` text.

=====================  =====================================================
SkillSyntaxError       the source does not parse / compile (line, column, text)
SkillValidationError   the source breaks the skill policy (a list of Violation)
SkillTimeoutError      wall-time or CPU-time limit hit (which, and the limit)
SkillLimitError        another budget ran out: game actions, API calls,
                       memory, output … (which, the limit, what was used)
SkillCrashedError      the worker process died (signal, exit code), e.g.
                       killed by the sandbox for a forbidden system call
SkillRuntimeError      the skill's own code raised (type, message, traceback
                       trimmed to the skill's own lines)
=====================  =====================================================

:class:`SandboxUnavailableError` is not a skill's fault: the sandbox itself
cannot run here (missing kernel feature, worker failed to start).

Line and column numbers are 1-based, as an editor shows them.
"""

from __future__ import annotations

import re
import signal as _signal
import traceback as _traceback
from dataclasses import dataclass
from typing import Any, ClassVar, Optional

SKILL_FILENAME = "<skill>"

# How much of the captured output ``for_model`` shows (the end of it).
_LOG_TAIL_LINES = 20
_LOG_TAIL_CHARS = 2000

_REGISTRY: dict[str, type["SkillExecutionError"]] = {}


class SandboxUnavailableError(RuntimeError):
    """The sandbox cannot run skills on this machine (not the skill's fault)."""


class SkillExecutionError(Exception):
    """Base of every skill failure.

    ``message``: what went wrong; ``hint``: what to do instead (or None);
    ``log``: the skill's captured ``print`` output up to the failure.
    """

    title: ClassVar[str] = "Skill failed"
    # Extra constructor keywords that travel in to_dict()/from_dict().
    _wire_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, message: str = "", *, hint: Optional[str] = None, log: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.log = log or ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _REGISTRY[cls.__name__] = cls

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_dict() == self.to_dict()  # type: ignore[union-attr]

    __hash__ = Exception.__hash__

    # ------------------------------------------------------------ the wire
    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON/msgpack-safe) that ``from_dict`` turns back into this error."""
        d: dict[str, Any] = {"type": type(self).__name__, "message": self.message, "hint": self.hint, "log": self.log}
        for name in self._wire_fields:
            d[name] = self._encode_field(name, getattr(self, name))
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SkillExecutionError":
        """Rebuild the error ``to_dict`` described, as its own class.

        An unknown ``type`` (a newer peer) gives an instance of ``cls`` with the
        message, hint and log kept.
        """
        kind = _REGISTRY.get(str(data.get("type")), cls)
        if kind is not cls and not issubclass(kind, cls) and cls is not SkillExecutionError:
            kind = cls
        kwargs = {name: kind._decode_field(name, data[name]) for name in kind._wire_fields if name in data}
        return kind(str(data.get("message") or ""), hint=data.get("hint"), log=str(data.get("log") or ""), **kwargs)

    def _encode_field(self, name: str, value: Any) -> Any:
        return value

    @classmethod
    def _decode_field(cls, name: str, value: Any) -> Any:
        return value

    def __reduce__(self):  # pickles (multiprocessing) through the same dict
        return (_rebuild, (self.to_dict(),))

    # ------------------------------------------------------------ for the model
    def details(self) -> str:
        """Lines between the message and the hint (subclasses fill in)."""
        return ""

    def for_model(self) -> str:
        """A short text a model can act on: what failed, where, what to do instead."""
        parts = [f"{self.title}: {self.message}"]
        details = self.details().rstrip()
        if details:
            parts.append(details)
        if self.hint:
            parts.append(f"Hint: {self.hint}")
        tail = _log_tail(self.log)
        if tail:
            parts.append("Output before the error:\n" + tail)
        return "\n".join(parts)


def _rebuild(data: dict[str, Any]) -> SkillExecutionError:
    return SkillExecutionError.from_dict(data)


def _log_tail(log: str) -> str:
    if not log or not log.strip():
        return ""
    lines = log.rstrip("\n").splitlines()
    cut = len(lines) > _LOG_TAIL_LINES
    text = "\n".join(lines[-_LOG_TAIL_LINES:])
    if len(text) > _LOG_TAIL_CHARS:
        text, cut = text[-_LOG_TAIL_CHARS:], True
    return ("[…]\n" if cut else "") + text


# ---------------------------------------------------------------- syntax
class SkillSyntaxError(SkillExecutionError):
    """The source is not valid Python (or does not compile)."""

    title = "Syntax error"
    _wire_fields = ("line", "column", "text")

    def __init__(
        self,
        message: str = "invalid syntax",
        *,
        line: Optional[int] = None,
        column: Optional[int] = None,
        text: Optional[str] = None,
        hint: Optional[str] = None,
        log: str = "",
    ):
        super().__init__(message, hint=hint, log=log)
        self.line = line
        self.column = column
        self.text = text

    @classmethod
    def from_syntax_error(cls, exc: SyntaxError, source: Optional[str] = None, *, log: str = "") -> "SkillSyntaxError":
        """From Python's SyntaxError (IndentationError, TabError …), with a hint for common slips.

        ``source`` fills in the offending line when the compiler left it out.
        """
        line = exc.lineno
        text = exc.text
        if not text and line and source is not None:
            lines = source.splitlines()
            if 1 <= line <= len(lines):
                text = lines[line - 1]
        msg = exc.msg or "invalid syntax"
        if source is not None and "```" in source:
            hint = "send only the Python code, without Markdown ``` fences"
        elif "await" in msg and "outside" in msg:
            hint = "await works only inside `async def`: make the helper `async def` and `await` it"
        elif isinstance(exc, (IndentationError, TabError)):
            hint = "indent blocks consistently with 4 spaces (no tabs)"
        elif "outside function" in msg:
            hint = "return/yield only inside a function: put the code inside the skill's `async def`"
        elif line:
            hint = f"fix line {line} and send the whole skill again"
        else:
            hint = "fix the syntax and send the whole skill again"
        return cls(msg, line=line, column=exc.offset, text=text.rstrip("\n") if text else None, hint=hint, log=log)

    def details(self) -> str:
        where = ""
        if self.line is not None:
            where = f"at line {self.line}" + (f", column {self.column}" if self.column else "")
        if not self.text:
            return where
        src = self.text.rstrip("\n")
        stripped = src.lstrip()
        out = f"{where}:\n    {stripped}" if where else f"    {stripped}"
        if self.column and self.column > 0:
            caret = max(0, self.column - 1 - (len(src) - len(stripped)))
            out += "\n    " + " " * min(caret, len(stripped)) + "^"
        return out


# ---------------------------------------------------------------- policy
@dataclass(frozen=True)
class Violation:
    """One thing the policy does not allow: where (1-based), what, and what to do instead."""

    line: int
    column: int
    what: str
    instead: str

    def __str__(self) -> str:
        s = f"line {self.line}, column {self.column}: {self.what}"
        return f"{s}. Instead: {self.instead}" if self.instead else s

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "what": self.what, "instead": self.instead}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Violation":
        return cls(int(data["line"]), int(data["column"]), str(data["what"]), str(data.get("instead") or ""))


class SkillValidationError(SkillExecutionError):
    """The source breaks the skill policy; ``violations`` lists every problem found."""

    title = "Skill rejected"
    _wire_fields = ("violations",)

    def __init__(
        self,
        message: Optional[str] = None,
        *,
        violations: Optional[list[Violation]] = None,
        hint: Optional[str] = None,
        log: str = "",
    ):
        self.violations = list(violations or [])
        if not message:
            n = len(self.violations)
            message = f"{n} problem{'s' if n != 1 else ''} found; fix {'them all' if n != 1 else 'it'} and submit the skill again"
        super().__init__(message, hint=hint, log=log)

    def _encode_field(self, name: str, value: Any) -> Any:
        return [v.to_dict() for v in value] if name == "violations" else value

    @classmethod
    def _decode_field(cls, name: str, value: Any) -> Any:
        if name == "violations":
            return [v if isinstance(v, Violation) else Violation.from_dict(v) for v in value or []]
        return value

    def details(self) -> str:
        return "\n".join(f"- {v}" for v in self.violations)


# ---------------------------------------------------------------- limits
WALL_TIME = "wall_time"
CPU_TIME = "cpu_time"

_LIMIT_ALIASES = {
    "wall": WALL_TIME, "wall_seconds": WALL_TIME, "wall_clock": WALL_TIME, "time": WALL_TIME,
    "cpu": CPU_TIME, "cpu_seconds": CPU_TIME,
    "actions": "game_actions", "calls": "api_calls", "mem": "memory", "prints": "output", "result": "result_size",
}


def _limit_name(limit: str) -> str:
    """Limit names as snake_case ('wall time' -> 'wall_time', 'cpu' -> 'cpu_time')."""
    name = str(limit).strip().lower().replace(" ", "_").replace("-", "_")
    return _LIMIT_ALIASES.get(name, name)


class SkillTimeoutError(SkillExecutionError):
    """A time limit ran out: ``limit`` is ``"wall_time"`` or ``"cpu_time"``, ``seconds`` its value."""

    title = "Timed out"
    _wire_fields = ("limit", "seconds")

    def __init__(
        self,
        message: Optional[str] = None,
        *,
        limit: str = WALL_TIME,
        seconds: Optional[float] = None,
        hint: Optional[str] = None,
        log: str = "",
    ):
        self.limit = limit = _limit_name(limit)
        self.seconds = seconds
        if not message:
            what = "CPU time" if limit == CPU_TIME else "wall-clock time"
            amount = f" of {_num(seconds)} s" if seconds is not None else ""
            message = f"the skill used up its {what}{amount} and was stopped"
        if hint is None:
            hint = (
                "give every loop an end: count steps (e.g. `for _ in range(200):`) and "
                "`return SkillResult(...)` when the budget runs out or nothing changes; "
                "avoid loops that never await nh"
            )
        super().__init__(message, hint=hint, log=log)


GAME_ACTIONS = "game_actions"
API_CALLS = "api_calls"
MEMORY = "memory"
OUTPUT = "output"
RESULT_SIZE = "result_size"

_LIMIT_TEXT = {
    GAME_ACTIONS: (
        "the skill took more than {value} game actions",
        "stop earlier: count your actions and return SkillResult(...) before the budget runs out",
    ),
    API_CALLS: (
        "the skill called nh more than {value} times",
        "ask for state once per step (keep `level = await nh.get_current_level()` in a variable) "
        "instead of calling nh inside inner loops",
    ),
    MEMORY: (
        "the skill used more than {value} of memory",
        "keep data small: don't build huge lists or copies of the map",
    ),
    OUTPUT: (
        "the skill printed more than {value} (the rest was dropped)",
        "print less; put what matters in SkillResult.data",
    ),
    RESULT_SIZE: (
        "the skill's result is larger than {value}",
        "return a smaller SkillResult.data (summaries, not whole maps)",
    ),
}


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


class SkillLimitError(SkillExecutionError):
    """A budget other than time ran out.

    ``limit`` names it (``"game_actions"``, ``"api_calls"``, ``"memory"``,
    ``"output"``, ``"result_size"`` or another name), ``value`` is the limit,
    ``used`` what the skill got to (if known), ``unit`` e.g. ``"MB"`` / ``"chars"``,
    ``detail`` what the budget went on ("api_call_budget: 50000 calls, mostly get_stats (49990)").
    """

    title = "Limit reached"
    _wire_fields = ("limit", "value", "used", "unit", "detail")

    def __init__(
        self,
        message: Optional[str] = None,
        *,
        limit: str = GAME_ACTIONS,
        value: Optional[float] = None,
        used: Optional[float] = None,
        unit: str = "",
        detail: str = "",
        hint: Optional[str] = None,
        log: str = "",
    ):
        self.limit = limit = _limit_name(limit)
        self.value = value
        self.used = used
        self.unit = unit
        self.detail = detail or ""
        template, default_hint = _LIMIT_TEXT.get(limit, (f"the skill went over its {limit} limit" + " ({value})", None))
        if not message:
            if value is None:
                message = f"the skill reached its {limit.replace('_', ' ')} limit"
            else:
                message = template.format(value=f"{_num(value)}{' ' + unit if unit else ''}")
        super().__init__(message, hint=default_hint if hint is None else hint, log=log)

    def details(self) -> str:
        return self.detail


# ---------------------------------------------------------------- crashes
_SIGNAL_MEANING = {
    "SIGSYS": "a forbidden system call: skills cannot open files, start processes or use the network",
    "SIGKILL": "killed (usually for using too much memory or time)",
    "SIGXCPU": "the CPU time limit",
    "SIGSEGV": "a crash inside the interpreter",
    "SIGABRT": "an abort inside the interpreter",
    "SIGBUS": "a crash inside the interpreter",
}


class SkillCrashedError(SkillExecutionError):
    """The worker process died instead of answering: ``signal`` (e.g. ``"SIGSYS"``) or ``exit_code``."""

    title = "Skill crashed"
    _wire_fields = ("signal", "exit_code")

    def __init__(
        self,
        message: Optional[str] = None,
        *,
        signal: Optional[str] = None,
        exit_code: Optional[int] = None,
        hint: Optional[str] = None,
        log: str = "",
    ):
        self.signal = signal
        self.exit_code = exit_code
        if not message:
            if signal:
                meaning = _SIGNAL_MEANING.get(signal)
                message = f"the skill's process was killed by {signal}" + (f" ({meaning})" if meaning else "")
            elif exit_code is not None:
                message = f"the skill's process exited with code {exit_code} before finishing"
            else:
                message = "the skill's process died before finishing"
        if hint is None:
            hint = "use only nh and the allowed modules; skills cannot reach files, processes or the network"
        super().__init__(message, hint=hint, log=log)

    @classmethod
    def from_returncode(cls, returncode: int, *, log: str = "") -> "SkillCrashedError":
        """From ``Popen.returncode`` / ``os.waitstatus_to_exitcode``: negative means a signal."""
        if returncode < 0:
            try:
                name = _signal.Signals(-returncode).name
            except ValueError:
                name = f"signal {-returncode}"
            return cls(signal=name, log=log)
        return cls(exit_code=returncode, log=log)


# ---------------------------------------------------------------- runtime
_FRAME = re.compile(r'File "(?P<file>.*)", line (?P<line>\d+)(?:, in (?P<func>.*))?$')


def trim_traceback(tb_text: str, filename: str = SKILL_FILENAME, source: Optional[str] = None) -> str:
    """Keep only the traceback frames of ``filename`` (with their source lines).

    ``tb_text`` is a formatted traceback (``traceback.format_exception``);
    headers, chained-exception separators and the exception lines stay. When a
    kept frame has no source line (nothing in linecache) and ``source`` is
    given, the line is taken from it. Text without any ``File "…"`` frame is
    returned unchanged (it is already trimmed).
    """
    lines = tb_text.rstrip("\n").splitlines()
    if not any(_FRAME.match(ln.strip()) for ln in lines):
        return tb_text.rstrip("\n")
    src_lines = source.splitlines() if source is not None else None
    out: list[str] = []
    kept_last = False
    i = 0
    while i < len(lines):
        ln = lines[i]
        stripped = ln.strip()
        m = _FRAME.match(stripped)
        if m and ln.startswith(" "):
            indent = len(ln) - len(ln.lstrip())
            j = i + 1
            while j < len(lines):
                nxt = lines[j]
                nind = len(nxt) - len(nxt.lstrip())
                if not nxt.strip() or nind <= indent or _FRAME.match(nxt.strip()):
                    break
                j += 1
            kept_last = m.group("file") == filename
            if kept_last:
                block = lines[i:j]
                if len(block) == 1 and src_lines is not None:
                    n = int(m.group("line"))
                    if 1 <= n <= len(src_lines) and src_lines[n - 1].strip():
                        block.append(" " * (indent + 2) + src_lines[n - 1].strip())
                out.extend(block)
            i = j
            continue
        if stripped.startswith("[Previous line repeated"):
            if kept_last:
                out.append(ln)
            i += 1
            continue
        kept_last = False
        out.append(ln)
        i += 1
    return "\n".join(out)


def _last_frame_line(tb_text: str, filename: str) -> Optional[int]:
    line = None
    for ln in tb_text.splitlines():
        m = _FRAME.match(ln.strip())
        if m and m.group("file") == filename:
            line = int(m.group("line"))
        elif filename == SKILL_FILENAME and (w := _WORKER_FRAME.match(ln)):
            line = int(w.group("line"))
    return line


# A frame of the worker's own trimmed traceback ("  line 4, in skill"): skill frames only.
_WORKER_FRAME = re.compile(r"^  line (?P<line>\d+), in \S")


_RUNTIME_HINTS = (
    (re.compile(r"coroutine"), "an nh method (or your own async helper) was called without await: "
                               "write `x = await nh.get_stats()`"),
    (re.compile(r"'NoneType' object"), "something you used was None: check results such as "
                                       "`await nh.find_unexplored()` for None before using them"),
    (re.compile(r"RemoteNetHackAPI|NetHackAPI' object has no attribute"),
     "nh has only the documented methods (get_stats, move, move_to, find_unexplored, …)"),
)


class SkillRuntimeError(SkillExecutionError):
    """The skill's own code raised an exception.

    ``exc_type`` is the exception's class name, ``exc_message`` its text,
    ``traceback`` the traceback trimmed to the skill's own lines and ``line``
    the skill line it was raised from (the last skill frame), when known.
    """

    title = "Error in the skill"
    _wire_fields = ("exc_type", "exc_message", "traceback", "line")

    def __init__(
        self,
        message: Optional[str] = None,
        *,
        exc_type: str = "Exception",
        exc_message: str = "",
        traceback: str = "",
        line: Optional[int] = None,
        hint: Optional[str] = None,
        log: str = "",
    ):
        self.exc_type = exc_type
        self.exc_message = exc_message
        self.traceback = traceback
        self.line = line if line is not None or not traceback else _last_frame_line(traceback, SKILL_FILENAME)
        line = self.line
        if not message:
            message = f"{exc_type}: {exc_message}" if exc_message else exc_type
            if line is not None:
                message += f" (line {line})"
        if hint is None:
            text = f"{exc_type}: {exc_message}"
            hint = next((h for rx, h in _RUNTIME_HINTS if rx.search(text)), None)
        super().__init__(message, hint=hint, log=log)

    @classmethod
    def from_exception(
        cls,
        exc: BaseException,
        *,
        filename: str = SKILL_FILENAME,
        source: Optional[str] = None,
        log: str = "",
    ) -> "SkillRuntimeError":
        """Build from a live exception raised by skill code compiled as ``filename``."""
        tb = "".join(_traceback.format_exception(type(exc), exc, exc.__traceback__))
        trimmed = trim_traceback(tb, filename, source)
        return cls(
            exc_type=type(exc).__name__,
            exc_message=str(exc),
            traceback=trimmed,
            line=_last_frame_line(trimmed, filename),
            log=log,
        )

    def details(self) -> str:
        return self.traceback.rstrip()

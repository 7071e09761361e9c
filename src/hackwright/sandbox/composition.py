"""Skills calling skills: ``result = await nh.run_skill("go_to", x=10, y=5)``.

A skill runs another skill of the library by name with the same ``nh``, in the same
sandbox worker (or the same process, in-process mode). Every action of the called
skill goes through that ``nh``, so it counts against the caller's action budget, its
time against the caller's time limit, and the caller's stop triggers keep watching:
a called skill can neither outlive nor out-spend its caller. The called skill's own
TRIGGERS are not added; the caller already chose what interrupts the run.

The host decides what may be called and sends the code (:mod:`.skill_source`); this
module holds what both sides share: the :class:`CalledSkill` answer, the refusals, the
``run_skill`` method itself (:class:`SkillCaller`) and running the called code to a
:class:`SkillResult`. The worker imports it, so it stays free of the library, NLE and numpy.
"""

from __future__ import annotations

import linecache
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Union

from ..skills.result import SkillResult

# At most this many skills running one inside another, the first one included.
MAX_DEPTH = 4

# The refusals' stopped_reason values (the called skill's own reasons come back unchanged).
UNKNOWN_SKILL = "unknown_skill"
BAD_PARAMS = "bad_params"
RECURSION = "recursion"
TOO_DEEP = "too_deep"
NOT_ALLOWED = "not_allowed"
RAISED = "error"


@dataclass(frozen=True)
class CalledSkill:
    """The host's go-ahead for a call: the skill's code and entry point."""

    name: str
    code: str
    entry: str
    source: str = "builtin"  # "builtin" | "model"


# (chain of running skills, name asked for, parameter names) -> the go-ahead or a refusal
Ask = Callable[[tuple, Any, tuple], Union[CalledSkill, SkillResult]]


def refused(reason: str, error: str, **data: Any) -> SkillResult:
    """A call that did not run: nothing happened in the game."""
    return SkillResult(stopped_reason=reason, data={"error": error, **data}, actions_taken=0, turns_elapsed=0,
                       success=False)


def called_filename(name: str) -> str:
    """The file name a called skill's code is compiled under (its traceback lines)."""
    return f"<skill {name}>"


def own_traceback(exc: BaseException, keep: Callable[[Any], bool], title: str,
                  where: Callable[[Any], str] = lambda f: "") -> str:
    """The traceback of ``exc`` with only the frames ``keep`` accepts (a skill's own code,
    never the harness's), each line prefixed by ``where(frame)``."""
    lines = [title]
    for f in traceback.extract_tb(exc.__traceback__):
        if keep(f):
            lines.append(f"  {where(f)}line {f.lineno}, in {f.name}")
            if f.line:
                lines.append(f"    {f.line.strip()}")
    lines.append(f"{type(exc).__name__}: {exc}")
    return "\n".join(lines)


def _traceback(exc: BaseException) -> str:
    return own_traceback(exc, lambda f: f.filename.startswith("<skill "),
                         "Traceback (the called skills' own lines):", lambda f: f"{f.filename[1:-1]}, ")


async def run_called(nh: Any, called: CalledSkill, params: dict, ns: dict) -> SkillResult:
    """Run the called skill's code in the fresh globals ``ns`` with ``nh``; its SkillResult.

    An exception of the called skill comes back as a failed SkillResult (stopped_reason
    "error"), so the caller can go on; what ends the whole run (the action limit, a
    trigger, memory, the time limit) is not an Exception and passes through."""
    filename = called_filename(called.name)
    linecache.cache[filename] = (len(called.code), None, called.code.splitlines(True), filename)
    try:
        exec(compile(called.code, filename, "exec"), ns)
        fn = ns.get(called.entry)
        if fn is None:
            return refused(RAISED, f"the skill {called.name} defines no function named {called.entry!r}",
                           skill=called.name)
        return SkillResult.coerce(await fn(nh, **params))
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 - the caller gets it as data
        return refused(RAISED, f"the skill {called.name} raised {type(e).__name__}: {str(e)[:1000]}",
                       skill=called.name, traceback=_traceback(e)[:4000])


class SkillCalls:
    """One run's calls of other skills: the chain of skills running, and how to run one.

    ``ask`` gets the host's answer for a call; ``namespace(module_name)`` makes fresh
    globals for a called skill's code (the same builtins and injected names as the caller's).
    """

    def __init__(self, top: str, ask: Ask, namespace: Callable[[str], dict]):
        self.chain: list[str] = [top]
        self._ask = ask
        self._namespace = namespace
        self._count = 0

    async def run(self, nh: Any, name: Any, params: dict) -> SkillResult:
        if not isinstance(name, str) or not name:
            return refused(UNKNOWN_SKILL, "give the skill's name first, as a string: "
                           "await nh.run_skill('go_to', x=10, y=5)")
        answer = self._ask(tuple(self.chain), name, tuple(params))
        if isinstance(answer, SkillResult):
            return answer
        self._count += 1
        module = f"{self.chain[0]}__calls__{answer.name}_{self._count}"
        ns = self._namespace(module)
        self.chain.append(answer.name)
        try:
            return await run_called(nh, answer, params, ns)
        finally:
            self.chain.pop()
            sys.modules.pop(module, None)


class SkillCaller:
    """What gives ``nh`` its ``run_skill`` method (the sandbox's and in-process ``nh``)."""

    _skill_calls: SkillCalls | None = None

    async def run_skill(self, name: str = "", /, **params: Any) -> SkillResult:
        """Run another skill of the library by name and return its SkillResult.

        Example: ``result = await nh.run_skill("go_to", x=10, y=5)``, then
        ``if result.success: ...`` or look at ``result.stopped_reason`` and ``result.data``.

        Arguments: ``name``, the skill's name as the skill list shows it (a built-in
        or a saved skill), given first and positionally; every keyword argument is a
        parameter of that skill (its required ones must be given, unknown ones are refused).

        Limits are shared: the called skill runs inside this one, with this ``nh``. Its
        game actions count against this skill's action budget, its time against this
        skill's time limit, and this skill's stop triggers still apply (the called
        skill's own triggers are not added). When the budget runs out or a trigger fires
        inside the called skill, the whole run stops there (e.g. "action_limit",
        "interrupted:<event>"), exactly as if this skill had spent the budget itself.

        Returns the called skill's own SkillResult. A call that cannot run raises
        nothing: it returns SkillResult(success=False, actions_taken=0) whose
        ``data["error"]`` says what is valid, and whose ``stopped_reason`` is
        "unknown_skill" (no skill of that name; ``data["close"]`` lists similar names,
        ``data["skills"]`` every callable one), "bad_params" (an unknown or missing
        parameter; ``data["params"]`` lists what the skill takes), "recursion" (the skill
        is already running in this chain: no skill may call itself, directly or through
        others), "too_deep" (more than 4 skills nested, the first included) or
        "not_allowed" (a model-written skill called from a trusted built-in running
        outside the sandbox). If the called skill raises an exception, the result has
        stopped_reason "error", ``data["error"]`` and ``data["traceback"]`` (its lines).
        """
        calls = self._skill_calls
        if calls is None:
            return refused(NOT_ALLOWED, "skills cannot be called by name here (no skill library attached)")
        return await calls.run(self, name, params)


__all__ = ["MAX_DEPTH", "CalledSkill", "SkillCaller", "SkillCalls", "refused", "run_called"]

"""What a skill's source may contain, checked before it runs.

``validate(source, entry=None)`` parses a skill, checks it against the rules
below and returns its :class:`SkillInfo` (entry point, parameters, docstring),
or raises :class:`SkillSyntaxError` / :class:`SkillValidationError` listing
*every* problem with its line, column and what to write instead.

This is the model's early feedback, not the security boundary (the worker's
OS sandbox is): it rejects the obvious ways out of the API so that a model
learns them before a run, not from a killed process.

The rules
---------
* The source must parse and compile (``SyntaxError`` → ``SkillSyntaxError``).
* Entry point: one top-level ``async def`` whose first parameter is ``nh``; its
  other parameters are the skill's (passed by keyword). Several top-level
  ``async def`` need ``entry=`` to say which. Helper functions (sync or async)
  and classes, ``@dataclass`` included, are fine.
* Top level: only imports, ``def``/``class``, assignments of constants to
  plain names (no calls of the skill's own functions), a docstring, ``pass``,
  ``global`` and ``if TYPE_CHECKING:`` blocks of the same.
* Imports: only :data:`ALLOWED_IMPORTS` (plus ``collections.abc``), and from
  them only their public, non-module members minus
  :data:`BANNED_MODULE_MEMBERS`; a module name is only used as ``mod.member``
  (never stored or passed on). ``from __future__ import …`` is allowed.
* ``from <API module> import <names>`` — API modules are ``hackwright…``,
  ``nethack_api``, ``nle_api``, ``api``, ``skills``, ``models`` and relative
  imports — is accepted and *ignored* when every name is one of
  :data:`INJECTED_NAMES` (or ``*``): skills written from the spec import them,
  and the runner injects them anyway. ``import hackwright…`` is rejected.
* Names never allowed: :data:`FORBIDDEN_NAMES` (``eval``, ``open``,
  ``getattr``, ``type`` …); dunder names (``__import__``, ``__builtins__``,
  ``__name__`` …) except ``__slots__`` / ``__match_args__``. Names with one
  leading underscore (``_``, ``_helper``) are the skill's own and fine.
* Attributes never allowed: any starting with ``_`` (``nh._game``,
  ``x.__class__``, ``self._cache``) except ``__init__``, ``__post_init__``,
  ``__name__``, ``__doc__``; the frame / traceback / generator / coroutine
  internals and ``mro``, ``fget`` … of :data:`FORBIDDEN_ATTRIBUTES`; the same
  rules for ``match`` class patterns and for the fields of a literal
  ``"…".format`` string.
* ``nh``: only its public async methods (:func:`nh_methods`, plus ``run_skill``:
  :data:`SKILL_CALLS`), always awaited, never assigned to; ``NetHackAPI`` only as an annotation. Calls of the skill's
  own top-level ``async def`` helpers must be awaited too.
* Special methods may be *defined* in classes (``__init__``, ``__eq__``,
  ``__lt__`` …, see :data:`SPECIAL_METHODS`), not ``__getattr__``,
  ``__setattr__``, ``__new__``, ``__del__`` and the like.
* Loops are not checked for termination (``while True:`` is fine): the
  sandbox's time limits end them.

Columns are 1-based.

The parts live in their own modules: the allow-lists, deny-lists and API surface in
:mod:`.policy_names`, the top-level and entry-point checks and the results in
:mod:`.policy_structure`, the rules for every node in :mod:`.policy_checker`; every name is
importable from here.
"""

from __future__ import annotations

import ast
from typing import Optional

from .errors import SKILL_FILENAME, SkillSyntaxError, SkillValidationError, Violation
from .policy_checker import _Checker
from .policy_names import (
    _ALLOWED_LIST,
    ALLOWED_DUNDER_ATTRIBUTES,
    ALLOWED_DUNDER_NAMES,
    ALLOWED_IMPORTS,
    ALLOWED_SUBMODULES,
    API_MODULE_ROOTS,
    BANNED_MODULE_MEMBERS,
    FORBIDDEN_ATTRIBUTE_PREFIXES,
    FORBIDDEN_ATTRIBUTES,
    FORBIDDEN_NAMES,
    INJECTED_NAMES,
    MAX_SOURCE_CHARS,
    SPECIAL_METHODS,
    module_members,
    nh_methods,
)
from .policy_structure import Param, SkillInfo
from .surface import SKILL_CALLS

__all__ = [
    "ALLOWED_DUNDER_ATTRIBUTES", "ALLOWED_DUNDER_NAMES", "ALLOWED_IMPORTS", "ALLOWED_SUBMODULES", "API_MODULE_ROOTS",
    "BANNED_MODULE_MEMBERS", "FORBIDDEN_ATTRIBUTES", "FORBIDDEN_ATTRIBUTE_PREFIXES", "FORBIDDEN_NAMES",
    "INJECTED_NAMES", "MAX_SOURCE_CHARS", "SKILL_CALLS", "SPECIAL_METHODS", "Param", "SkillInfo",
    "describe_policy", "module_members", "nh_methods", "validate",
]


# ---------------------------------------------------------------- validation
def validate(source: str, entry: Optional[str] = None) -> SkillInfo:
    """Check a skill's source; return its SkillInfo or raise SkillSyntaxError /
    SkillValidationError (with every violation, sorted by position)."""
    if not isinstance(source, str):
        raise TypeError(f"source must be str, not {type(source).__name__}")
    if len(source) > MAX_SOURCE_CHARS:
        raise SkillValidationError(violations=[Violation(
            1, 1, f"the skill is {len(source)} characters long (at most {MAX_SOURCE_CHARS})",
            "keep skills short: one behaviour per skill",
        )])
    tree = _parse(source)
    checker = _Checker(source, tree, entry)
    try:
        info = checker.run()
    except RecursionError:
        raise SkillValidationError(violations=[Violation(
            1, 1, "the code is nested too deeply to check", "flatten deeply nested expressions")]) from None
    if checker.violations:
        seen: set[tuple[int, int, str]] = set()
        unique = []
        for v in sorted(checker.violations, key=lambda v: (v.line, v.column)):
            if (v.line, v.column, v.what) not in seen:
                seen.add((v.line, v.column, v.what))
                unique.append(v)
        raise SkillValidationError(violations=unique)
    assert info is not None
    return info


def _parse(source: str) -> ast.Module:
    try:
        tree = ast.parse(source, filename=SKILL_FILENAME)
        # The compiler finds what the parser lets through ('await' outside
        # async def, 'return' outside a function, bad nonlocal …).
        compile(tree, SKILL_FILENAME, "exec", dont_inherit=True)
        return tree
    except SyntaxError as e:
        raise SkillSyntaxError.from_syntax_error(e, source) from None
    except ValueError as e:  # e.g. null bytes
        raise SkillSyntaxError(str(e), line=1, column=1, hint="send plain Python source text") from None
    except (RecursionError, MemoryError):
        raise SkillSyntaxError("the code is nested too deeply to parse", line=1, column=1,
                               hint="flatten deeply nested expressions") from None


# ---------------------------------------------------------------- for the prompt
def describe_policy() -> str:
    """The rules, short, for the model's prompt."""
    return "\n".join([
        "How to write a skill:",
        "- One top-level `async def my_skill(nh, param: int = 3) -> SkillResult:` whose first parameter is nh; "
        "its other parameters are passed by name. Await every nh method: `stats = await nh.get_stats()`. "
        "End with `return SkillResult(stopped_reason=..., data={...}, actions_taken=..., turns_elapsed=..., success=...)`.",
        "- Already defined, no import needed: " + ", ".join(INJECTED_NAMES)
        + " (`from hackwright.api import ...` of these is accepted and ignored).",
        "- You may import only: " + _ALLOWED_LIST + ". No os, sys, files, network, threads, asyncio or time.",
        "- Helper functions, classes and @dataclass are fine; the top level may hold only imports, def/class, "
        "constants and a docstring.",
        "- Not available: " + ", ".join(n for n in FORBIDDEN_NAMES if n not in ("copyright", "credits", "license"))
        + " (use isinstance() instead of type(), obj.name instead of getattr); names and attributes starting "
        "with '_' (nh._game, x.__class__; your own attributes too), and frame/traceback/generator internals.",
        "- Build on the library: `result = await nh.run_skill(\"go_to\", x=10, y=5)` runs another skill by name "
        "and returns its SkillResult; its actions count against your skill's limits.",
        "- print() goes to the skill's log. Time, game actions, API calls, memory and output are limited "
        "while the skill runs; give loops an end.",
    ])

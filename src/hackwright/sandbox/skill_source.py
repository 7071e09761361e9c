"""The host's side of ``nh.run_skill``: which skills a running skill may call, and whether
a call is valid (known name, its parameters, no recursion, not too deep).

The skills come from the library the episode uses (a :class:`SkillLibrary`, or anything
with its ``get(name)`` and ``all()``); without one, from the package's built-in skill
files. The worker never reads them itself: it asks, and gets the code in the answer.
"""

from __future__ import annotations

import ast
import difflib
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from ..skills.result import SkillResult
from .composition import (BAD_PARAMS, MAX_DEPTH, NOT_ALLOWED, RECURSION, TOO_DEEP, UNKNOWN_SKILL, CalledSkill,
                          refused)

MAX_LISTED = 80  # names listed in an "unknown_skill" answer


@dataclass(frozen=True)
class ParamSpec:
    """A parameter of a skill's entry point (after nh): its name and default's source (None: required)."""

    name: str
    default: Optional[str] = None

    def shown(self) -> str:
        return f"{self.name} (required)" if self.default is None else f"{self.name}={self.default}"


@dataclass(frozen=True)
class Signature:
    params: tuple[ParamSpec, ...]
    any_keyword: bool  # the entry point takes **kwargs


@functools.lru_cache(maxsize=256)
def signature_of(code: str, entry: str) -> Optional[Signature]:
    """The parameters of ``async def entry(nh, ...)`` in ``code``; None if it is not there."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.AsyncFunctionDef) and node.name == entry:
            a = node.args
            pos = (a.posonlyargs + a.args)[1:]  # after nh
            first_default = len(pos) - len(a.defaults)
            out = [ParamSpec(arg.arg, ast.unparse(a.defaults[i - first_default]) if i >= first_default else None)
                   for i, arg in enumerate(pos)]
            out += [ParamSpec(arg.arg, ast.unparse(d) if d is not None else None)
                    for arg, d in zip(a.kwonlyargs, a.kw_defaults)]
            return Signature(tuple(out), a.kwarg is not None)
    return None


@functools.lru_cache(maxsize=1)
def _package_builtins() -> dict[str, CalledSkill]:
    from ..skills.library.vocabulary import builtin_dir

    out: dict[str, CalledSkill] = {}
    root = builtin_dir()
    for path in sorted(Path(root).glob("*/*.py")) if root.is_dir() else ():
        if path.stem.startswith("_") or path.stem in out:
            continue
        out[path.stem] = CalledSkill(path.stem, path.read_text(encoding="utf-8"), path.stem, "builtin")
    return out


class SkillSource:
    """The skills ``nh.run_skill`` may call: ``library``'s, else the package's built-ins."""

    def __init__(self, library: Any = None):
        self.library = library

    def find(self, name: str) -> Optional[CalledSkill]:
        if self.library is None:
            return _package_builtins().get(name)
        try:
            skill = self.library.get(name)
        except KeyError:
            return None
        return CalledSkill(skill.name, skill.code, skill.name, skill.source)

    def names(self) -> list[str]:
        if self.library is None:
            return sorted(_package_builtins())
        return sorted(s.name for s in self.library.all())

    def answer(self, chain: tuple, name: Any, param_names: tuple, *,
               sandboxed: bool) -> Union[CalledSkill, SkillResult]:
        """The go-ahead for calling ``name`` with those parameters from the skills in
        ``chain`` (outermost first), or a failed SkillResult saying what is valid.
        ``sandboxed``: the caller runs in the sandbox (else only built-ins may be called)."""
        if not isinstance(name, str) or not name:
            return refused(UNKNOWN_SKILL, "give the skill's name first, as a string: "
                           "await nh.run_skill('go_to', x=10, y=5)")
        if len(name) > 100:
            return refused(UNKNOWN_SKILL, "skill names are at most 64 characters; give one from the skill list")
        if name in chain:
            path = " → ".join([*chain, name])
            return refused(RECURSION, f"{name} is already running ({path}): a skill cannot call itself, directly "
                           "or through another skill; repeat inside the skill with a loop instead",
                           skill=name, chain=list(chain))
        if len(chain) >= MAX_DEPTH:
            return refused(TOO_DEEP, f"skills may run at most {MAX_DEPTH} deep, one inside another "
                           f"({' → '.join(chain)} is already {len(chain)}); call {name} from a shallower skill",
                           skill=name, chain=list(chain))
        called = self.find(name)
        if called is None:
            return self._unknown(name)
        if called.source != "builtin" and not sandboxed:
            return refused(NOT_ALLOWED, f"{name} is model-written and the calling skill runs outside the sandbox; "
                           "only built-in skills can be called from here", skill=name)
        sig = signature_of(called.code, called.entry)
        if sig is None:
            return refused(UNKNOWN_SKILL, f"the skill {name} has no entry point async def {called.entry}(nh, ...)",
                           skill=name)
        return self._check_params(called, sig, param_names)

    def _unknown(self, name: str) -> SkillResult:
        names = self.names()
        close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
        close += [n for n in names if n not in close and len(name) >= 3 and (name in n or n in name)][:5 - len(close)]
        hint = f"did you mean {', '.join(close)}? " if close else ""
        listed = names[:MAX_LISTED]
        more = f" (and {len(names) - MAX_LISTED} more)" if len(names) > MAX_LISTED else ""
        return refused(UNKNOWN_SKILL, f"there is no skill named {name!r}; {hint}skills you can call: "
                       f"{', '.join(listed)}{more}", skill=name, close=close, skills=listed)

    @staticmethod
    def _check_params(called: CalledSkill, sig: Signature, given: tuple) -> Union[CalledSkill, SkillResult]:
        takes = ", ".join(p.shown() for p in sig.params) or "no parameters"
        shown = [p.shown() for p in sig.params]
        known = {p.name for p in sig.params}
        unknown = [g for g in given if g not in known] if not sig.any_keyword else []
        if unknown:
            return refused(BAD_PARAMS, f"{called.name} has no parameter {', '.join(map(repr, unknown))}; "
                           f"it takes: {takes}", skill=called.name, params=shown, unknown=unknown)
        missing = [p.name for p in sig.params if p.default is None and p.name not in given]
        if missing:
            example = ", ".join(f"{m}=..." for m in missing)
            return refused(BAD_PARAMS, f"{called.name} needs {', '.join(missing)}: "
                           f"await nh.run_skill({called.name!r}, {example}); it takes: {takes}",
                           skill=called.name, params=shown, missing=missing)
        return called

    def answer_frame(self, msg: dict) -> dict:
        """The reply to a sandboxed worker's ``{"op": "skill", ...}`` request."""
        chain, params = msg.get("chain"), msg.get("params")
        if not (isinstance(chain, list) and chain and all(isinstance(c, str) for c in chain)
                and isinstance(params, list) and all(isinstance(p, str) for p in params)):
            answer: Union[CalledSkill, SkillResult] = refused(UNKNOWN_SKILL, "malformed call of nh.run_skill")
        else:
            answer = self.answer(tuple(chain), msg.get("name"), tuple(params), sandboxed=True)
        if isinstance(answer, SkillResult):
            return {"op": "ret", "v": answer}
        return {"op": "skill", "name": answer.name, "code": answer.code, "entry": answer.entry,
                "source": answer.source}


__all__ = ["SkillSource", "ParamSpec", "Signature", "signature_of"]

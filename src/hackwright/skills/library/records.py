"""What the library hands out: its errors, skills and their parameters and versions,
and the report of a ``load()``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ...sandbox.errors import SkillValidationError, Violation
from ...store.skills import MergedRuns

# ---------------------------------------------------------------- errors
class SkillLibraryError(Exception):
    """Base of the library's own errors."""


class SkillNotFoundError(SkillLibraryError, KeyError):
    """No skill of that name in the library."""

    def __init__(self, name: str):
        self.name = name
        super().__init__(name)

    def __str__(self) -> str:
        return f"no skill named {self.name!r} in the library"


class BuiltinConflictError(SkillValidationError):
    """A model-written skill tried to take the name of a built-in skill."""

    title = "Skill rejected"


def _reject(what: str, instead: str, line: int = 1, column: int = 1) -> SkillValidationError:
    return SkillValidationError(violations=[Violation(line, column, what, instead)])


# ---------------------------------------------------------------- records
@dataclass(frozen=True)
class SkillParam:
    """A parameter of a skill's entry point (after ``nh``)."""

    name: str
    type: str = "any"  # the annotation's text, else the default's type, else "any"
    default: Optional[str] = None  # the default's source text; None: required
    description: Optional[str] = None

    @property
    def default_repr(self) -> Optional[str]:  # the name policy.Param uses
        return self.default

    @property
    def required(self) -> bool:
        return self.default is None

    def to_dict(self) -> dict:
        d = {"name": self.name, "type": self.type, "default": self.default}
        if self.description:
            d["description"] = self.description
        return d


@dataclass
class Skill:
    """One skill of the library."""

    name: str
    category: str
    description: str
    triggers: tuple[str, ...]
    parameters: list[SkillParam]
    code: str
    version: int
    source: str  # "builtin" | "model"
    retired: bool
    path: Path
    retired_reason: Optional[str] = None
    created_at: Optional[str] = None
    updated_at: Optional[str] = None

    @property
    def is_builtin(self) -> bool:
        return self.source == "builtin"

    def signature(self) -> str:
        """``name(p: int = 1, q)`` — how the prompt shows the skill's call."""
        parts = []
        for p in self.parameters:
            s = p.name
            if p.type and p.type != "any":
                s += f": {p.type}"
            if p.default is not None:
                s += f" = {p.default}"
            parts.append(s)
        return f"{self.name}({', '.join(parts)})"


@dataclass
class SkillVersion:
    """One version of a skill's code."""

    name: str
    version: int
    code: str
    created_at: Optional[str] = None
    description: Optional[str] = None
    category: Optional[str] = None
    source: Optional[str] = None
    path: Optional[Path] = None  # the file holding it (current file or _versions/<name>/v<N>.py)
    current: bool = False


@dataclass
class QuarantinedFile:
    path: Path  # where it was
    moved_to: Path
    category: str
    reason: str


@dataclass
class InvalidBuiltin:
    path: Path
    reason: str


@dataclass
class LoadReport:
    """What ``load()`` found."""

    loaded: list[str] = field(default_factory=list)  # model-written skills
    builtins: list[str] = field(default_factory=list)
    quarantined: list[QuarantinedFile] = field(default_factory=list)
    invalid_builtins: list[InvalidBuiltin] = field(default_factory=list)  # reported, not moved
    warnings: list[str] = field(default_factory=list)
    db_recovered_from: Optional[Path] = None  # a corrupt database was moved here
    meta_recovered_from: Optional[Path] = None  # an unreadable meta.json was moved here
    merged: Optional[MergedRuns] = None  # an old <library>/library.db merged into the run database

    @property
    def ok(self) -> bool:
        return not (self.quarantined or self.invalid_builtins or self.db_recovered_from or self.meta_recovered_from)

    def summary(self) -> str:
        s = f"{len(self.builtins)} built-in and {len(self.loaded)} model-written skills loaded"
        if self.quarantined:
            s += f"; {len(self.quarantined)} quarantined"
        if self.invalid_builtins:
            s += f"; {len(self.invalid_builtins)} invalid built-in(s)"
        if self.db_recovered_from:
            s += f"; corrupt database moved to {self.db_recovered_from}"
        if self.meta_recovered_from:
            s += f"; unreadable meta.json moved to {self.meta_recovered_from}"
        if self.merged is not None and self.merged.moved_to is not None:
            s += f"; {self.merged.runs} runs merged from {self.merged.path} (kept as {self.merged.moved_to.name})"
        return s

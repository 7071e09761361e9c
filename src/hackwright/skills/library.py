"""The skill library (spec §6.4, §8.3): skills on disk, their history in SQLite.

Where things go
---------------
::

    <root>/                         the library (``hackwright skills path``)
    ├── <category>/<name>.py        model-written skills, one entry point each
    ├── <category>/SKILL.md         generated: every skill of the category (built-ins too)
    ├── meta.json                   generated: name → category, description, triggers,
    │                               parameters, version, source, created_at, updated_at,
    │                               retired, retired_reason and a stats snapshot
    ├── run-database.json           the database the library's runs were last recorded in
    ├── _versions/<name>/v<N>.py    older versions of re-saved skills
    └── _quarantine/<category>__<file>  (+ ``.reason.txt``) skill files that failed to load

The history (tables skills, skill_executions, skill_versions) lives in the run database,
the SQLite file the agent loop records its episodes in (``db_path=``; without it
:func:`hackwright.skills.database.library_database` chooses: ``HACKWRIGHT_MEMORY_DATABASE_PATH``,
else the database named in run-database.json, else ``runs.db`` beside an evaluation's
library, else ``memory.database_path`` of config.yaml, ``./data/memory.db``). The SQL is
:mod:`hackwright.store.skills`. A ``library.db`` left in the folder by an older Hackwright
(libraries kept their own database then) is merged into the run database by ``load()``
and renamed ``library.db.merged-<time>``: merged rather than read beside it, so that one
database answers every question (prune, should_save, the prompt and ``hackwright skills``
read the same numbers); its runs count in the records but not in the judged runs.

Built-in skills are read from ``builtin_dir()`` (the package's ``skills/builtin/<category>/<name>.py``),
validated like the others, never moved or written; a model-written skill may not take a
built-in's name. A missing or empty built-in folder is fine.

Skill files
-----------
A Python file with one top-level ``async def <name>(nh, **params)`` entry point
(``name`` = the file's stem), a docstring whose first line is the description,
and optional module constants ``CATEGORY = "combat"`` and
``TRIGGERS = ("monster", "low_hp")`` (events that interrupt the skill:
:data:`TRIGGER_EVENTS`). For files the folder is the category.

Values, statistics, pruning
---------------------------
``record_execution`` scores every run with :func:`execution_value` (the formula is in
:mod:`hackwright.skills.stats`). ``prune(min_runs=5)`` retires a model-written skill
(built-ins only with ``builtins=True``) whose mean value is ≤ 0 over at least
``min_runs`` runs of its current version since it was saved or last revived; retired
skills stay on disk and in the database, are marked in meta.json, SKILL.md and the
``skills`` table, and are left out of ``all()`` and ``relevant()`` until ``revive``.

What the agent loop calls
-------------------------
* ``lib.load()`` once at start (report quarantined files);
* ``lib.relevant(situation, k)`` to choose which skills the prompt lists;
* ``lib.get(name)`` to run one: ``runner.run(skill.code, params, entry=skill.name,
  triggers=skill.triggers)`` (pass the triggers: they are the library's
  normalised list, e.g. "hungry" → "hunger", which may differ from the file's);
* ``lib.record_execution(name, params=…, result=…, before=stats, after=stats,
  error=…, episode_id=…)`` after **every** skill run (model-written drafts too);
* ``lib.should_save(result, name)`` then ``lib.save(name, code, category=…)``
  for a model-written skill;
* ``lib.prune()`` (which also regenerates the docs) at the end of an episode.
"""

from __future__ import annotations

import ast
import contextlib
import json
import logging
import math
import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

from ..sandbox.errors import SkillExecutionError, SkillValidationError, Violation
from ..sandbox.policy import SkillInfo, validate
from ..store import connect, transaction, utc_now
from ..store import skills as sql
from ..store.db import corrupt_path
from ..store.skills import MergedRuns
from .database import LibraryDatabase, library_database, old_database, remember_database
from .result import SkillResult
from .stats import (
    DEATH_REASONS,
    DEFAULT_WEIGHTS,
    ExecutionRecord,
    SkillStats,
    ValueWeights,
    compute_deltas,
    execution_value,
    hunger_severity,
    json_text,
    jsonable,
    number_of,
    record_from_row,
    snapshot,
    stats_from_row,
)

try:  # POSIX: serialise writers of the library folder across processes
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("hackwright.skills")

# ---------------------------------------------------------------- vocabulary
CATEGORIES: tuple[str, ...] = ("exploration", "navigation", "combat", "resource", "inventory", "escape")

CATEGORY_DESCRIPTIONS: dict[str, str] = {
    "exploration": "Skills for navigating and exploring dungeon levels.",
    "navigation": "Skills for getting to a known place: stairs, stashes, a position.",
    "combat": "Skills for fighting monsters.",
    "resource": "Skills for keeping the hero alive and fed: eating, healing, resting, praying.",
    "inventory": "Skills for picking up, using and organising items.",
    "escape": "Skills for getting out of danger.",
}

TRIGGER_EVENTS: tuple[str, ...] = (
    "monster", "low_hp", "very_low_hp", "deadly", "hunger", "level_change", "teleport", "items", "engulfed", "message",
)
# Words models (and the spec's examples) use for the same events.
TRIGGER_ALIASES: dict[str, str] = {
    "monsters": "monster", "monster_spotted": "monster", "hostile": "monster", "hostile_visible": "monster",
    "hungry": "hunger", "weak": "hunger", "hp": "low_hp", "critical_hp": "very_low_hp", "danger": "low_hp",
    "item": "items", "items_seen": "items", "level": "level_change", "new_level": "level_change",
    "teleported": "teleport", "engulf": "engulfed", "messages": "message",
}

SOURCES = ("builtin", "model")
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
_CATEGORY_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MIN_RUNS_TO_JUDGE = 3  # should_save keeps an existing skill until it has this many judged runs


def builtin_dir() -> Path:
    """The package's built-in skills: ``hackwright/skills/builtin/<category>/<name>.py``."""
    return Path(__file__).resolve().parent / "builtin"


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


@dataclass
class Situation:
    """What the agent sees now, reduced to what choosing skills needs.

    ``level_explored_pct`` is 0–100 (``DungeonLevel.explored_percentage``).
    """

    hostile_adjacent: bool = False
    hostile_visible: bool = False
    hp_fraction: float = 1.0
    hungry: bool = False  # Hungry or worse
    weak: bool = False  # Weak or worse
    items_here: bool = False
    stairs_down_known: bool = False
    on_stairs_down: bool = False
    level_explored_pct: float = 0.0
    in_danger: bool = False
    engulfed: bool = False
    burdened: bool = False
    depth: int = 1

    @classmethod
    def from_state(
        cls,
        stats: Any,
        monsters: Iterable[Any] = (),
        level: Any = None,
        *,
        items_here: bool = False,
        engulfed: bool = False,
        in_danger: Optional[bool] = None,
    ) -> "Situation":
        """From the API's ``Stats``, visible ``Monster`` s and ``DungeonLevel`` (any may be
        None). Hostile: neither peaceful nor tame. ``in_danger`` defaults to HP
        below a third with a hostile within two squares."""
        hp_fraction = stats.hp / stats.max_hp if stats is not None and stats.max_hp else 1.0
        hero = getattr(stats, "position", None)
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame
                   and not getattr(m, "is_invisible_marker", False)]
        adjacent = bool(hero is not None and any(m.position.is_adjacent(hero) for m in hostile))
        close = bool(hero is not None and any(m.position.steps_to(hero) <= 2 for m in hostile))
        sev = hunger_severity(getattr(stats, "hunger", None)) or 0
        stairs = getattr(level, "stairs_down", None) if level is not None else None
        return cls(
            hostile_adjacent=adjacent,
            hostile_visible=bool(hostile),
            hp_fraction=hp_fraction,
            hungry=sev >= 1,
            weak=sev >= 2,
            items_here=items_here,
            stairs_down_known=stairs is not None,
            on_stairs_down=stairs is not None and hero is not None and stairs == hero,
            level_explored_pct=float(getattr(level, "explored_percentage", 0.0) or 0.0),
            in_danger=(hp_fraction < 1 / 3 and close) if in_danger is None else in_danger,
            engulfed=engulfed,
            burdened=str(getattr(stats, "encumbrance", "Unencumbered")) not in ("Unencumbered", ""),
            depth=int(getattr(stats, "dungeon_level", 1) or 1),
        )

    @property
    def low_hp(self) -> bool:
        return self.hp_fraction < 0.5

    @property
    def critical(self) -> bool:
        return self.hp_fraction < 0.3 or self.in_danger

    @property
    def quiet(self) -> bool:
        return not (self.hostile_visible or self.hostile_adjacent or self.engulfed or self.in_danger)

    def active_events(self) -> set[str]:
        """The trigger events that hold right now (a skill with one of them would stop at once)."""
        ev = set()
        if self.hostile_visible or self.hostile_adjacent:
            ev.add("monster")
        if self.low_hp:
            ev.add("low_hp")
        if self.hungry or self.weak:
            ev.add("hunger")
        if self.items_here:
            ev.add("items")
        if self.engulfed:
            ev.add("engulfed")
        return ev


# ---------------------------------------------------------------- parsing skill files
class _Invalid(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _module_constants(code: str) -> dict[str, Any]:
    """Top-level ``CATEGORY`` / ``TRIGGERS`` literals of a (valid) skill."""
    out: dict[str, Any] = {}
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return out
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for t in targets:
            if isinstance(t, ast.Name) and t.id in ("CATEGORY", "TRIGGERS"):
                try:
                    out[t.id] = ast.literal_eval(value)
                except (ValueError, SyntaxError, TypeError):
                    pass
    return out


def normalize_triggers(triggers: Union[str, Iterable[str], None]) -> tuple[str, ...]:
    """Lower-case, map aliases ("hungry" → "hunger"), drop duplicates, keep the order."""
    if triggers is None:
        return ()
    if isinstance(triggers, str):
        triggers = [t for t in re.split(r"[,\s]+", triggers) if t]
    out: list[str] = []
    for t in triggers:
        name = str(t).strip().lower().replace("-", "_").replace(" ", "_")
        name = TRIGGER_ALIASES.get(name, name)
        if name and name not in out:
            out.append(name)
    return tuple(out)


def unknown_triggers(triggers: Iterable[str]) -> list[str]:
    return [t for t in triggers if t not in TRIGGER_EVENTS]


def normalize_category(category: str) -> str:
    c = str(category or "").strip().lower().replace("-", "_").replace(" ", "_")
    if not _CATEGORY_RE.match(c):
        raise _reject(
            f"category {category!r} is not a valid category name",
            f"use one of {', '.join(CATEGORIES)} (or another lower-case word)",
        )
    return c


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not _NAME_RE.match(name) or not name.isidentifier():
        raise _reject(
            f"{name!r} is not a valid skill name",
            "name the skill with letters, digits and underscores, starting with a letter (e.g. `explore_safely`)",
        )
    import keyword

    if keyword.iskeyword(name):
        raise _reject(f"{name!r} is a Python keyword", "choose another name for the skill")


def _param_type(annotation: Optional[str], default: Optional[str]) -> str:
    if annotation:
        return annotation
    if default is None:
        return "any"
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return "any"
    if value is None:
        return "any"
    return type(value).__name__


def parameters_of(info: SkillInfo) -> list[SkillParam]:
    """The entry point's parameters (after ``nh``) from the validator's SkillInfo."""
    return [SkillParam(p.name, _param_type(p.annotation, p.default_repr), p.default_repr) for p in info.params]


def _normalize_parameters(parameters: Any) -> list[SkillParam]:
    """SkillParams from SkillParams, names, ``{"name", "type", "default"}`` dicts or ``{name: type}``."""
    if parameters is None:
        return []
    if isinstance(parameters, Mapping):  # {"name": "type"} or {"name": {"type":…, "default":…}}
        items: list[Any] = []
        for k, v in parameters.items():
            if isinstance(v, Mapping):
                items.append({**{kk: vv for kk, vv in v.items() if kk != "name"}, "name": str(k)})
            else:
                items.append({"name": str(k), "type": str(v)})
        parameters = items
    out = []
    for p in parameters:
        if isinstance(p, SkillParam):
            out.append(p)
        elif isinstance(p, str):
            out.append(SkillParam(p))
        elif isinstance(p, Mapping) and "name" in p:
            out.append(SkillParam(
                str(p["name"]), str(p.get("type") or "any"),
                None if p.get("default") is None else str(p["default"]),
                str(p["description"]) if p.get("description") else None,
            ))
        elif hasattr(p, "name") and hasattr(p, "default_repr"):  # policy.Param
            out.append(SkillParam(p.name, _param_type(getattr(p, "annotation", None), p.default_repr), p.default_repr))
        else:
            raise TypeError(f"a parameter must be a name or a dict with 'name', not {p!r}")
    return out


def _first_line(text: Optional[str]) -> str:
    if not text:
        return ""
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _error_text(e: BaseException) -> str:
    if isinstance(e, SkillExecutionError):
        return e.for_model()
    return f"{type(e).__name__}: {e}"


def _read_skill(path: Path, name: str) -> tuple[str, SkillInfo, dict[str, Any]]:
    """Read and validate a skill file; raise _Invalid with the reason."""
    if not _NAME_RE.match(name) or not name.isidentifier():
        raise _Invalid(f"the file name {path.name!r} is not a valid skill name "
                       "(letters, digits and underscores, starting with a letter)")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise _Invalid(f"unreadable: {e}") from None
    try:
        code = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Invalid(f"not UTF-8 text (corrupt file?): {e}") from None
    try:
        info = validate(code, entry=name)
    except SkillExecutionError as e:
        raise _Invalid(_error_text(e)) from None
    except Exception as e:  # the validator must never stop loading
        raise _Invalid(f"could not be validated: {type(e).__name__}: {e}") from None
    if info.name != name:
        raise _Invalid(f"the entry point is `async def {info.name}` but the file is {path.name}: "
                       f"the function must be named like the file")
    return code, info, _module_constants(code)


def _scan(base: Optional[Path]) -> list[tuple[str, Path]]:
    """(category, file) of every ``base/<category>/<name>.py`` (folders and files
    starting with ``_`` or ``.`` are skipped)."""
    out: list[tuple[str, Path]] = []
    if base is None or not base.is_dir():
        return out
    for cat in sorted(base.iterdir()):
        if not cat.is_dir() or cat.name.startswith(("_", ".")):
            continue
        for f in sorted(cat.glob("*.py")):
            if f.name.startswith(("_", ".")) or not f.is_file():
                continue
            out.append((cat.name, f))
    return out


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _parse_time(text: Optional[str]) -> Optional[datetime]:
    if not text:
        return None
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


# ---------------------------------------------------------------- relevance
_NEED_WORDS: dict[str, tuple[str, ...]] = {
    "fight": ("fight", "attack", "melee", "kill", "combat", "kite"),
    "flee": ("flee", "escape", "retreat", "elbereth", "pray", "evade"),
    "eat": ("eat", "food", "hunger", "hungry"),
    "heal": ("heal", "rest", "pray", "recover", "regen"),
    "pickup": ("pick", "loot", "collect", "item"),
    "descend": ("stairs", "descend", "downstairs", "go_down", "dive"),
    "explore": ("explore", "search", "scout"),
}


def _needs(s: Situation) -> set[str]:
    n = set()
    if s.hostile_adjacent or s.hostile_visible or s.engulfed:
        n.add("fight")
    if s.critical:
        n.add("flee")
    if s.hungry or s.weak:
        n.add("eat")
    if s.low_hp and s.quiet:
        n.add("heal")
    if s.items_here and not s.hostile_adjacent:
        n.add("pickup")
    if s.stairs_down_known and s.quiet and not s.low_hp:
        n.add("descend")
    if s.level_explored_pct < 90 and s.quiet and not s.low_hp:
        n.add("explore")
    return n


def category_fit(category: str, s: Situation) -> float:
    """How much the situation calls for skills of ``category`` (0 … ~4.5)."""
    quiet_ok = s.quiet and not s.low_hp
    if category == "combat":
        if s.hostile_adjacent or s.engulfed:
            return 2.5 if s.critical else 4.0
        return 2.0 if s.hostile_visible else 0.0
    if category == "escape":
        if s.critical:
            return 4.5 if not s.quiet else 2.0
        return 1.0 if s.low_hp and s.hostile_visible else 0.0
    if category == "resource":
        v = 3.0 if s.weak else 2.0 if s.hungry else 0.2
        if s.low_hp and s.quiet:
            v = max(v, 2.5)
        return v if not s.hostile_adjacent else v * 0.3
    if category == "inventory":
        if s.items_here and not s.hostile_adjacent:
            return 1.5
        return 0.6 if s.burdened else 0.1
    if category == "navigation":
        if not quiet_ok:
            return 0.1
        if s.on_stairs_down or (s.stairs_down_known and s.level_explored_pct >= 60):
            return 2.0
        return 1.0 if s.stairs_down_known else 0.3
    if category == "exploration":
        if not quiet_ok:
            return 0.3 if not s.hostile_adjacent else 0.0
        return 2.0 if s.level_explored_pct < 60 else 1.0 if s.level_explored_pct < 95 else 0.3
    return 0.5  # special and other categories


def _recency_bonus(last_used: Optional[str], now: datetime) -> float:
    t = _parse_time(last_used)
    if t is None:
        return 0.0
    hours = max(0.0, (now - t).total_seconds() / 3600)
    return 0.3 * 0.5 ** (hours / 24)


def relevance(skill: Skill, stats: Optional[SkillStats], s: Situation, now: Optional[datetime] = None) -> float:
    """The score ``relevant()`` sorts by: category fit + name/description words
    for what the situation needs + trigger fit + success rate (Beta(1, 1) prior)
    + value (weighted by how many runs back it) + recency + a nudge for untried skills."""
    now = now or datetime.now(timezone.utc)
    score = category_fit(skill.category, s)
    name = skill.name.lower()
    desc = skill.description.lower()
    for need in _needs(s):
        words = _NEED_WORDS[need]
        if any(w in name for w in words):
            score += 1.0
        elif any(re.search(rf"\b{re.escape(w)}", desc) for w in words):
            score += 0.5
    active = s.active_events()
    trig = set(skill.triggers)
    for ev in trig & active:
        if ev == "monster" and skill.category in ("combat", "escape"):
            continue
        score -= 0.5  # it would stop at once
    if not active and trig & {"monster", "low_hp"}:
        score += 0.25  # cautious skills for long quiet stretches
    n = stats.recent_executions if stats else 0
    k = stats.recent_successes if stats else 0
    score += 1.5 * (k + 1) / (n + 2)
    if stats and n:
        score += (n / (n + 5)) * math.tanh(stats.recent_mean_value / 50)
    score += _recency_bonus(stats.last_used if stats else None, now)
    if n < MIN_RUNS_TO_JUDGE:
        score += 0.2
    return score


# ---------------------------------------------------------------- the library
class _PackageBuiltins:
    def __repr__(self) -> str:
        return "builtin_dir()"


_PACKAGE_BUILTINS: Any = _PackageBuiltins()


def default_library_path() -> Path:
    """``$HACKWRIGHT_LIBRARY`` or ``./skills``."""
    return Path(os.environ.get("HACKWRIGHT_LIBRARY") or "skills")


class SkillLibrary:
    """The skills the agent can run: built-ins plus the model's own, with their history.

    ``root``: the library folder (created when missing). ``db_path``: the SQLite
    database of the skills' history, the run database the agent records episodes in
    (a path, or a :class:`~hackwright.skills.database.LibraryDatabase`; default: chosen
    by :func:`~hackwright.skills.database.library_database`, ``./data/memory.db``
    unless something says otherwise; ``self.database`` says which and why).
    ``builtin_root``: the built-in skills (default :func:`builtin_dir`; ``None`` or a
    missing folder: none). Nothing is read until the first call that needs it
    (``load()`` runs then).
    """

    META = "meta.json"
    QUARANTINE = "_quarantine"
    VERSIONS = "_versions"
    LOCK = ".lock"

    def __init__(
        self,
        root: Union[str, os.PathLike],
        db_path: Union[str, os.PathLike, LibraryDatabase, None] = None,
        builtin_root: Union[str, os.PathLike, None] = _PACKAGE_BUILTINS,
        *,
        weights: ValueWeights = DEFAULT_WEIGHTS,
    ):
        self.root = Path(root)
        self.database: LibraryDatabase = (db_path if isinstance(db_path, LibraryDatabase)
                                          else library_database(self.root, db_path, given_as="db_path"))
        self.db_path = self.database.path
        if builtin_root is _PACKAGE_BUILTINS:
            builtin_root = builtin_dir()
        self.builtin_root: Optional[Path] = Path(builtin_root) if builtin_root is not None else None
        self.weights = weights
        self._skills: dict[str, Skill] = {}
        self._others: dict[str, Skill] = {}  # skills other processes saved since our load (from meta.json)
        self._loaded = False
        self._conn = None
        self.db_recovered_from: Optional[Path] = None
        self.last_report: Optional[LoadReport] = None
        self._rlock = threading.RLock()
        self._lock_depth = 0
        self._lock_file = None
        self._remembered = False  # run-database.json names db_path (checked once per instance)

    # ------------------------------------------------------------ plumbing
    def builtin_dir(self) -> Optional[Path]:
        return self.builtin_root

    @property
    def meta_path(self) -> Path:
        return self.root / self.META

    @property
    def quarantine_dir(self) -> Path:
        return self.root / self.QUARANTINE

    @property
    def versions_dir(self) -> Path:
        return self.root / self.VERSIONS

    @property
    def db(self):
        """The open store connection (opened, migrated and checked on first use)."""
        if self._conn is None:
            self.root.mkdir(parents=True, exist_ok=True)
            self._conn = connect(self.db_path)
            self.db_recovered_from = self._conn.recovered_from
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> "SkillLibrary":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """Exclusive use of the library folder: this thread, and other processes (flock)."""
        with self._rlock:
            if self._lock_depth == 0:
                self.root.mkdir(parents=True, exist_ok=True)
                f = open(self.root / self.LOCK, "a+")
                if fcntl is not None:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                self._lock_file = f
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
                if self._lock_depth == 0 and self._lock_file is not None:
                    if fcntl is not None:
                        fcntl.flock(self._lock_file.fileno(), fcntl.LOCK_UN)
                    self._lock_file.close()
                    self._lock_file = None

    def _ensure_loaded(self) -> None:
        if not self._loaded:
            self.load()

    def _read_meta(self, report: Optional[LoadReport] = None) -> dict[str, dict]:
        p = self.meta_path
        if not p.exists():
            return {}
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
                raise ValueError("not a JSON object of skill entries")
            return data
        except (ValueError, UnicodeDecodeError, OSError) as e:
            target = corrupt_path(p)
            os.replace(p, target)
            log.warning("unreadable %s (%s): moved aside to %s and rebuilt", p, e, target)
            if report is not None:
                report.meta_recovered_from = target
                report.warnings.append(f"meta.json was unreadable ({e}); moved to {target}")
            return {}

    def _meta_entry(self, skill: Skill, stats: Optional[SkillStats]) -> dict:
        e = {
            "category": skill.category,
            "description": skill.description,
            "triggers": list(skill.triggers),
            "parameters": [p.to_dict() for p in skill.parameters],
            "version": skill.version,
            "source": skill.source,
            "created_at": skill.created_at,
            "updated_at": skill.updated_at,
            "retired": skill.retired,
            "retired_reason": skill.retired_reason,
        }
        if stats is not None:
            e.update(executions=stats.executions, successes=stats.successes,
                     success_rate=round(stats.success_rate, 4), mean_value=round(stats.mean_value, 4),
                     last_used=stats.last_used)
        return e

    def _write_meta(self, stats: Optional[dict[str, SkillStats]] = None) -> None:
        stats = self.all_stats() if stats is None else stats
        data = {n: self._meta_entry(s, stats.get(n)) for n, s in sorted(self._skills.items())}
        _atomic_write(self.meta_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def _builtin_files(self) -> list[tuple[str, Path]]:
        return _scan(self.builtin_root)

    def _max_execution_id(self) -> int:
        return sql.max_execution_id(self.db)

    # ------------------------------------------------------------ load
    def load(self) -> LoadReport:
        """(Re)read every skill: validate built-ins (invalid ones are reported, not
        moved) and the library's files (invalid ones are quarantined with the
        reason), sync the database, rewrite meta.json and SKILL.md. Never raises
        for a bad skill file."""
        report = LoadReport()
        with self._lock():
            conn = self.db
            report.db_recovered_from = self.db_recovered_from
            if self.db_recovered_from:
                report.warnings.append(f"the database was corrupt; moved to {self.db_recovered_from}")
            meta = self._read_meta(report)
            rows = sql.skill_rows(conn)
            now = utc_now()
            skills: dict[str, Skill] = {}
            sync: list[tuple[Skill, Optional[Any]]] = []

            # built-ins: validated, never moved
            builtin_names: set[str] = set()
            for category, path in self._builtin_files():
                name = path.stem
                if name in builtin_names:
                    report.invalid_builtins.append(InvalidBuiltin(path, f"a second built-in named {name} (first kept)"))
                    continue
                builtin_names.add(name)
                try:
                    code, info, consts = _read_skill(path, name)
                except _Invalid as e:
                    report.invalid_builtins.append(InvalidBuiltin(path, e.reason))
                    log.warning("built-in skill %s is invalid: %s", path, e.reason)
                    continue
                m = meta.get(name) if (meta.get(name) or {}).get("source") == "builtin" else None
                row = rows.get(name)
                if consts.get("CATEGORY") and consts["CATEGORY"] != category:
                    report.warnings.append(f"built-in {name}: CATEGORY {consts['CATEGORY']!r} differs from its "
                                           f"folder {category!r}; the folder wins")
                if not info.docstring:
                    report.warnings.append(f"built-in {name} has no docstring (no description)")
                skill = Skill(
                    name=name, category=category, description=_first_line(info.docstring),
                    triggers=self._known_triggers(name, consts.get("TRIGGERS"), report),
                    parameters=parameters_of(info),
                    code=code, version=int(row["version"]) if row is not None else 1, source="builtin",
                    retired=bool(m["retired"]) if m and "retired" in m else bool(row["retired"]) if row is not None else False,
                    path=path,
                    retired_reason=(m or {}).get("retired_reason") if m and "retired" in m
                    else (row["retired_reason"] if row is not None else None),
                    created_at=(row["created_at"] if row is not None else None) or now,
                    updated_at=(row["updated_at"] if row is not None else None) or now,
                )
                skills[name] = skill
                sync.append((skill, row))
                report.builtins.append(name)

            # the library's own files
            found: dict[str, list[tuple[str, Path]]] = {}
            for category, path in _scan(self.root):
                found.setdefault(path.stem, []).append((category, path))
            for name, places in sorted(found.items()):
                m = meta.get(name)
                keep = places[0]
                if len(places) > 1 and m:
                    keep = next((p for p in places if p[0] == m.get("category")), places[0])
                for place in places:
                    if place is not keep:
                        self._quarantine(place[1], place[0], f"a second file for skill {name} "
                                         f"(kept {keep[1].relative_to(self.root)})", report)
                category, path = keep
                if name in builtin_names:
                    self._quarantine(path, category, f"the name {name} belongs to a built-in skill; "
                                     "model-written skills cannot replace built-ins", report)
                    continue
                try:
                    code, info, consts = _read_skill(path, name)
                except _Invalid as e:
                    self._quarantine(path, category, e.reason, report)
                    if name in rows and not rows[name]["retired"]:
                        sql.mark_retired(conn, name, f"quarantined: {_first_line(e.reason)}", now, touch=False)
                    continue
                if m and m.get("source") != "model":
                    m = None
                row = rows.get(name)
                if not info.docstring and not (m and m.get("description")):
                    report.warnings.append(f"{name} has no docstring (no description)")
                skill = Skill(
                    name=name, category=category,
                    description=(m.get("description") if m and m.get("description") else _first_line(info.docstring)),
                    triggers=self._known_triggers(
                        name, m["triggers"] if m and "triggers" in m else consts.get("TRIGGERS"), report),
                    parameters=_normalize_parameters(m["parameters"]) if m and m.get("parameters") is not None
                    else parameters_of(info),
                    code=code,
                    version=int((m or {}).get("version") or (row["version"] if row is not None else 1)),
                    source="model",
                    retired=bool(m["retired"]) if m and "retired" in m else bool(row["retired"]) if row is not None else False,
                    path=path,
                    retired_reason=(m.get("retired_reason") if m and "retired" in m
                                    else (row["retired_reason"] if row is not None else None)),
                    created_at=(m or {}).get("created_at") or (row["created_at"] if row is not None else None) or now,
                    updated_at=(m or {}).get("updated_at") or (row["updated_at"] if row is not None else None) or now,
                )
                skills[name] = skill
                sync.append((skill, row))
                report.loaded.append(name)

            for name in meta:
                if name not in skills and not any(q.path.stem == name for q in report.quarantined):
                    report.warnings.append(f"meta.json lists {name} but its file is gone; entry dropped")

            with transaction(conn):
                for skill, row in sync:
                    self._sync_row(skill, row, now)
            old = old_database(self.root, self.db_path)
            if old is not None:
                report.merged = self._merge_old_database(old, report)
            self._skills = skills
            self._others = {}
            self._loaded = True
            stats = self.all_stats()
            self._write_meta(stats)
            self._write_docs(stats)
        for q in report.quarantined:
            log.warning("skill file %s quarantined to %s: %s", q.path, q.moved_to, _first_line(q.reason))
        self.last_report = report
        return report

    def _merge_old_database(self, old: Path, report: LoadReport) -> MergedRuns:
        """Fold an old ``<root>/library.db`` into the run database (see the module docstring)."""
        merged = sql.merge_old_library_db(self.db, old)
        if merged.problem:
            report.warnings.append(merged.problem)
            log.warning("%s", merged.problem)
        else:
            log.info("merged %d runs of %d skills from %s into %s; the old file is now %s", merged.runs,
                     len(merged.skills), old, self.db_path, merged.moved_to)
        return merged

    @staticmethod
    def _known_triggers(name: str, triggers: Any, report: LoadReport) -> tuple[str, ...]:
        trig = normalize_triggers(triggers)
        bad = unknown_triggers(trig)
        if bad:
            report.warnings.append(f"{name}: unknown trigger(s) {', '.join(bad)} ignored "
                                   f"(triggers are {', '.join(TRIGGER_EVENTS)})")
        return tuple(t for t in trig if t not in bad)

    def _sync_row(self, skill: Skill, row: Optional[Any], now: str) -> None:
        """Make the ``skills`` row (and ``skill_versions``) match the file; code
        changed outside ``save`` (a built-in updated, a file edited) is a new version."""
        conn = self.db
        if row is not None and row["code"] is not None and row["code"] != skill.code:
            old_version = int(row["version"])
            sql.keep_version(conn, skill.name, old_version, row["code"], created_at=row["updated_at"],
                             description=row["description"], category=row["category"], source=row["source"])
            self._keep_old_file(skill.name, old_version, row["code"])
            skill.version = max(skill.version, old_version + 1)
            skill.updated_at = now
            window = self._max_execution_id()
        else:
            window = int(row["window_start"]) if row is not None else 0
        sql.keep_version(conn, skill.name, skill.version, skill.code, created_at=skill.updated_at,
                         description=skill.description, category=skill.category, source=skill.source)
        self._upsert(skill, window_start=window)

    def _upsert(self, skill: Skill, *, window_start: Optional[int] = None) -> None:
        sql.upsert_skill(
            self.db, name=skill.name, code=skill.code, description=skill.description, category=skill.category,
            created_at=skill.created_at, updated_at=skill.updated_at, version=skill.version, source=skill.source,
            triggers=skill.triggers, parameters=[p.to_dict() for p in skill.parameters], retired=skill.retired,
            retired_reason=skill.retired_reason, window_start=window_start,
        )

    def _keep_old_file(self, name: str, version: int, code: str) -> Path:
        p = self.versions_dir / name / f"v{version}.py"
        if not p.exists():
            _atomic_write(p, code)
        return p

    def _quarantine(self, path: Path, category: str, reason: str, report: LoadReport) -> None:
        qdir = self.quarantine_dir
        qdir.mkdir(parents=True, exist_ok=True)
        dest = qdir / f"{category}__{path.name}"
        if dest.exists():
            dest = qdir / f"{category}__{path.stem}.{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}"
            n = 1
            while dest.exists():
                n += 1
                dest = qdir / f"{category}__{path.stem}.{time.strftime('%Y%m%d-%H%M%S')}-{n}{path.suffix}"
        try:
            os.replace(path, dest)
        except OSError as e:  # pragma: no cover - e.g. a read-only library
            report.warnings.append(f"could not quarantine {path}: {e}")
            return
        _atomic_write(
            dest.with_name(dest.name + ".reason.txt"),
            f"{path.relative_to(self.root) if path.is_relative_to(self.root) else path} was quarantined "
            f"at {utc_now()}\n\n{reason.rstrip()}\n",
        )
        report.quarantined.append(QuarantinedFile(path=path, moved_to=dest, category=category, reason=reason))

    # ------------------------------------------------------------ reading
    def get(self, name: str) -> Skill:
        """The skill (retired ones too); :class:`SkillNotFoundError` (a KeyError) if unknown."""
        self._ensure_loaded()
        try:
            return self._skills[name]
        except KeyError:
            raise SkillNotFoundError(name) from None

    def __contains__(self, name: object) -> bool:
        self._ensure_loaded()
        return name in self._skills

    def all(self, include_retired: bool = False) -> list[Skill]:
        """Skills by category then name; retired ones only with ``include_retired``."""
        self._ensure_loaded()
        return sorted(
            (s for s in self._skills.values() if include_retired or not s.retired),
            key=lambda s: (s.category, s.name),
        )

    def categories(self) -> list[str]:
        self._ensure_loaded()
        return sorted({s.category for s in self._skills.values()})

    def versions(self, name: str) -> list[SkillVersion]:
        """Every known version of ``name``, oldest first (the last is the current one)."""
        self._ensure_loaded()
        out: dict[int, SkillVersion] = {}
        for r in sql.version_rows(self.db, name):
            p = self.versions_dir / name / f"v{r['version']}.py"
            out[int(r["version"])] = SkillVersion(
                name=name, version=int(r["version"]), code=r["code"], created_at=r["created_at"],
                description=r["description"], category=r["category"], source=r["source"],
                path=p if p.exists() else None,
            )
        vdir = self.versions_dir / name
        if vdir.is_dir():
            for f in vdir.glob("v*.py"):
                m = re.fullmatch(r"v(\d+)\.py", f.name)
                if m and int(m.group(1)) not in out:
                    out[int(m.group(1))] = SkillVersion(name=name, version=int(m.group(1)),
                                                        code=f.read_text(encoding="utf-8", errors="replace"), path=f)
        cur = self._skills.get(name)
        if cur is not None:
            v = out.get(cur.version)
            out[cur.version] = SkillVersion(
                name=name, version=cur.version, code=cur.code,
                created_at=v.created_at if v else cur.updated_at, description=cur.description,
                category=cur.category, source=cur.source, path=cur.path, current=True,
            )
        if not out:
            raise SkillNotFoundError(name)
        return [out[k] for k in sorted(out)]

    # ------------------------------------------------------------ saving
    def save(
        self,
        name: str,
        code: str,
        *,
        category: str,
        description: Optional[str] = None,
        triggers: Union[Sequence[str], str, None] = (),
        parameters: Any = None,
    ) -> Skill:
        """Validate and store a model-written skill as ``root/<category>/<name>.py``.

        Raises ``SkillSyntaxError`` / ``SkillValidationError`` (from the policy,
        or for a bad name/category or a missing description) and
        :class:`BuiltinConflictError` when ``name`` is a built-in's. Saving an
        existing name keeps the older code (``_versions/<name>/v<N>.py`` and a
        ``skill_versions`` row), increments the version and revives a retired
        skill; saving identical code only updates the metadata. ``triggers``
        default to the file's ``TRIGGERS``; ``parameters`` (a list of
        ``{"name", "type", "default"}`` or ``{name: type}``) to the entry
        point's signature.
        """
        if not isinstance(code, str):
            raise TypeError(f"code must be str, not {type(code).__name__}")
        self._ensure_loaded()
        _check_name(name)
        category = normalize_category(category)
        info = validate(code, entry=name)
        builtin_names = {p.stem for _, p in self._builtin_files()}
        existing = self._skills.get(name)
        if name in builtin_names or (existing is not None and existing.is_builtin):
            raise BuiltinConflictError(
                violations=[Violation(1, 1, f"`{name}` is the name of a built-in skill",
                                      f"choose another name (e.g. `{name}_v2`); built-in skills cannot be replaced")]
            )
        desc = _first_line(description) if description else _first_line(info.docstring)
        if not desc:
            raise _reject(
                f"`async def {name}` has no docstring",
                f'start the body of `{name}` with a one-line description: """What the skill does."""',
            )
        consts = _module_constants(code)
        trig = normalize_triggers(triggers) if triggers else normalize_triggers(consts.get("TRIGGERS"))
        bad = unknown_triggers(trig)
        if bad:
            raise _reject(
                f"unknown trigger(s): {', '.join(bad)}",
                f"triggers are events that stop the skill: use only {', '.join(TRIGGER_EVENTS)}",
            )
        params = _normalize_parameters(parameters) if parameters is not None else parameters_of(info)

        with self._lock():
            conn = self.db
            now = utc_now()
            meta = self._read_meta()
            m = meta.get(name) if (meta.get(name) or {}).get("source", "model") == "model" else None
            row = sql.skill_row(conn, name)
            old_path: Optional[Path] = None
            old_code: Optional[str] = None
            old_version = 0
            if m is not None:
                old_version = int(m.get("version") or 1)
                p = self.root / str(m.get("category")) / f"{name}.py"
                if p.is_file():
                    old_path = p
                    old_code = p.read_text(encoding="utf-8", errors="replace")
            if old_code is None and existing is not None and existing.path.is_file():
                old_path, old_code, old_version = existing.path, existing.code, existing.version
            if old_code is None and row is not None:
                old_code, old_version = row["code"], int(row["version"])
            if row is not None:
                old_version = max(old_version, int(row["version"]))

            new_path = self.root / category / f"{name}.py"
            same_code = old_code is not None and old_code == code
            if old_code is None:
                version = 1
            elif same_code:
                version = old_version
            else:
                version = old_version + 1
                self._keep_old_file(name, old_version, old_code)
            created = (m or {}).get("created_at") or (row["created_at"] if row is not None else None) or now
            was_retired = bool((m or {}).get("retired")) or (row is not None and bool(row["retired"]))
            revive = not same_code or old_code is None
            skill = Skill(
                name=name, category=category, description=desc, triggers=trig, parameters=params, code=code,
                version=version, source="model",
                retired=was_retired and not revive,
                retired_reason=((m or {}).get("retired_reason") or (row["retired_reason"] if row is not None else None))
                if was_retired and not revive else None,
                path=new_path, created_at=created, updated_at=now,
            )
            _atomic_write(new_path, code)
            if old_path is not None and old_path != new_path and old_path.exists():
                old_path.unlink()
            with transaction(conn):
                if old_code is not None and not same_code:
                    sql.keep_version(conn, name, old_version, old_code,
                                     created_at=row["updated_at"] if row is not None else None,
                                     description=row["description"] if row is not None else None,
                                     category=row["category"] if row is not None else (m or {}).get("category"),
                                     source="model")
                sql.keep_version(conn, name, version, code, created_at=now, description=desc, category=category,
                                 source="model", replace=True)
                window = None if same_code else (0 if old_code is None else self._max_execution_id())
                self._upsert(skill, window_start=window)
                if version == 1 and old_code is None:
                    sql.claim_draft_runs(conn, name)
            old_category = existing.category if existing is not None else (m or {}).get("category")
            self._skills[name] = skill
            self._merge_meta_and_write(meta)
            self._write_docs(categories={category, old_category} - {None})
        return skill

    def _merge_meta_and_write(self, fresh_meta: dict[str, dict]) -> None:
        """Write meta.json from this process's skills, keeping entries other
        processes added meanwhile (their files exist; SKILL.md lists them too)."""
        stats = self.all_stats()
        data = {}
        self._others = {}
        for n, e in fresh_meta.items():
            if n not in self._skills and (self.root / str(e.get("category")) / f"{n}.py").is_file():
                data[n] = e
                try:
                    self._others[n] = self._skill_from_meta(n, e)
                except (TypeError, ValueError):
                    pass
        for n, s in self._skills.items():
            e = fresh_meta.get(n)
            if (e and e.get("version") == s.version and e.get("source") == s.source
                    and str(e.get("updated_at") or "") > str(s.updated_at or "")):
                # another process retired / revived it after we read it: take its word
                s.retired = bool(e.get("retired"))
                s.retired_reason = e.get("retired_reason")
                s.updated_at = e.get("updated_at")
            data[n] = self._meta_entry(s, stats.get(n))
        _atomic_write(self.meta_path, json.dumps(dict(sorted(data.items())), indent=2, ensure_ascii=False) + "\n")

    def _skill_from_meta(self, name: str, e: Mapping[str, Any]) -> Skill:
        """A Skill (without code) from a meta.json entry another process wrote."""
        return Skill(
            name=name, category=str(e["category"]), description=str(e.get("description") or ""),
            triggers=normalize_triggers(e.get("triggers")), parameters=_normalize_parameters(e.get("parameters")),
            code="", version=int(e.get("version") or 1), source=str(e.get("source") or "model"),
            retired=bool(e.get("retired")), path=self.root / str(e["category"]) / f"{name}.py",
            retired_reason=e.get("retired_reason"), created_at=e.get("created_at"), updated_at=e.get("updated_at"),
        )

    # ------------------------------------------------------------ executions
    def record_execution(
        self,
        name: str,
        *,
        params: Optional[Mapping[str, Any]],
        result: Union[SkillResult, Mapping[str, Any], None],
        before: Any,
        after: Any,
        error: Union[str, BaseException, None] = None,
        episode_id: Optional[int] = None,
        died: Optional[bool] = None,
    ) -> ExecutionRecord:
        """Store one run of ``name`` (a library skill or a model's draft) and its value.

        ``before`` / ``after`` are the hero's ``Stats`` (or dicts of them) around
        the run. ``result`` may be None when the run failed with ``error``.
        ``died`` defaults to: ``after.hp <= 0`` or a stopped reason such as
        "died"/"game_over". Safe to call from several processes at once. The
        first run recorded by a library object also names its database in
        ``<root>/run-database.json``, which is how ``hackwright skills`` and a
        ``SkillLibrary`` made without ``db_path`` find these runs.
        """
        if result is None:
            res = SkillResult(stopped_reason="error" if error is not None else "no_result", success=False)
        else:
            res = SkillResult.coerce(dict(result) if isinstance(result, Mapping) else result)
        err = None if error is None else (_error_text(error) if isinstance(error, BaseException) else str(error))
        b, a = snapshot(before), snapshot(after)
        deltas = compute_deltas(b, a)
        if died is None:
            hp = number_of(a, "hp")
            died = (hp is not None and hp <= 0 and number_of(a, "max_hp") not in (None, 0.0)) or \
                str(res.stopped_reason).strip().lower() in DEATH_REASONS
        value = execution_value(deltas, success=bool(res.success), error=err is not None, died=bool(died),
                                weights=self.weights)
        ts = utc_now()
        p = dict(params or {})
        rid, version = sql.insert_execution(
            self.db, name, timestamp=ts, params=json_text(p), stopped_reason=str(res.stopped_reason),
            success=bool(res.success), actions_taken=int(res.actions_taken or 0),
            turns_elapsed=int(res.turns_elapsed or 0), before=json_text(b), after=json_text(a), episode_id=episode_id,
            error=err, deltas=json_text(deltas), value=value, died=bool(died), data=json_text(res.data or {}),
        )
        self._remember_database()
        return ExecutionRecord(
            id=rid, name=name, version=version, timestamp=ts, params=jsonable(p), stopped_reason=str(res.stopped_reason),
            success=bool(res.success), actions_taken=int(res.actions_taken or 0),
            turns_elapsed=int(res.turns_elapsed or 0), before=b, after=a, deltas=deltas, value=value,
            died=bool(died), error=err, episode_id=episode_id,
        )

    def executions(self, name: Optional[str] = None, *, limit: int = 50) -> list[ExecutionRecord]:
        """The latest recorded runs (of ``name``, or of every skill), newest first."""
        return [record_from_row(r) for r in sql.execution_rows(self.db, name, limit=limit)]

    def _remember_database(self) -> None:
        if self._remembered:
            return
        self._remembered = True
        try:
            remember_database(self.root, self.db_path)
        except OSError as e:  # a read-only library folder: the runs are recorded all the same
            log.warning("could not write %s: %s", self.root / "run-database.json", e)

    def stats(self, name: str) -> SkillStats:
        """What ``name``'s runs earned (zeros when it never ran)."""
        rows = sql.stats_rows(self.db, name)
        return stats_from_row(rows[0]) if rows else SkillStats(name=name)

    def all_stats(self) -> dict[str, SkillStats]:
        """Stats of every skill name that has runs."""
        return {r["name"]: stats_from_row(r) for r in sql.stats_rows(self.db)}

    # ------------------------------------------------------------ judging
    def should_save(
        self,
        result: Union[SkillResult, Mapping[str, Any], None],
        name: Optional[str] = None,
        min_success_rate_to_save: float = 0.3,
    ) -> bool:
        """Should the library keep this model-written skill (spec §9.3 ``skills``)?

        * new name (or none, or a retired skill being rewritten): save after a
          successful run — ``result.success``;
        * a built-in's name: False (model code cannot replace a built-in);
        * an existing model-written skill: it stays while the success rate of
          its judged runs (current version, since saved/revived) is ≥
          ``min_success_rate_to_save``; with fewer than ``MIN_RUNS_TO_JUDGE``
          runs it stays. Call it after ``record_execution`` of the run.
        """
        if result is None:
            res = None
        else:
            res = SkillResult.coerce(dict(result) if isinstance(result, Mapping) else result)
        if name is not None:
            self._ensure_loaded()
            if name in {p.stem for _, p in self._builtin_files()}:
                return False
            skill = self._skills.get(name)
            if skill is not None and skill.is_builtin:
                return False
            if skill is not None and not skill.retired:
                st = self.stats(name)
                if st.recent_executions < MIN_RUNS_TO_JUDGE:
                    return True
                return st.recent_success_rate >= min_success_rate_to_save
        return bool(res is not None and res.success)

    def retire(self, name: str, reason: str = "retired by hand") -> Skill:
        """Mark ``name`` retired (kept on disk; hidden from ``all()`` and ``relevant()``)."""
        return self._set_retired(name, True, reason)

    def revive(self, name: str) -> Skill:
        """Undo ``retire``; the skill's judged runs start afresh."""
        return self._set_retired(name, False, None)

    def _set_retired(self, name: str, retired: bool, reason: Optional[str], docs: bool = True) -> Skill:
        self._ensure_loaded()
        with self._lock():
            skill = self.get(name)
            now = utc_now()
            skill.retired = retired
            skill.retired_reason = reason if retired else None
            skill.updated_at = now
            if retired:
                sql.mark_retired(self.db, name, reason, now)
            else:
                sql.mark_revived(self.db, name, now)
            self._merge_meta_and_write(self._read_meta())
            if docs:
                self._write_docs(categories={skill.category})
        log.info("skill %s %s%s", name, "retired" if retired else "revived", f": {reason}" if reason else "")
        return skill

    def prune(self, min_runs: int = 5, threshold: float = 0.0, builtins: bool = False) -> list[str]:
        """Retire every model-written skill (built-ins too with ``builtins=True``) whose
        mean value is ≤ ``threshold`` over ≥ ``min_runs`` judged runs; return their
        names. Regenerates the docs. Built-ins are spared by default: the offline
        strategist is built on them, and their value depends on who calls them."""
        self._ensure_loaded()
        out = []
        with self._lock():
            stats = self.all_stats()
            for skill in self.all():
                if skill.source == "builtin" and not builtins:
                    continue
                st = stats.get(skill.name)
                if st is None or st.recent_executions < min_runs or st.recent_mean_value > threshold:
                    continue
                reason = (f"mean value {st.recent_mean_value:+.1f} ≤ {threshold:g} after "
                          f"{st.recent_executions} runs (success {st.recent_success_rate:.0%})")
                self._set_retired(skill.name, True, reason, docs=False)
                out.append(skill.name)
            self.regenerate_docs()
        return out

    # ------------------------------------------------------------ choosing
    def relevant(self, situation: Situation, k: int = 8) -> list[Skill]:
        """The ``k`` non-retired skills that fit ``situation`` best (see :func:`relevance`)."""
        if k <= 0:
            return []
        stats = self.all_stats()
        now = datetime.now(timezone.utc)
        scored = [(relevance(s, stats.get(s.name), situation, now), s.name, s) for s in self.all()]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [s for _, _, s in scored[:k]]

    def describe_for_prompt(self, skills: Iterable[Skill], stats: Optional[dict[str, SkillStats]] = None) -> str:
        """One line per skill: signature, description, triggers, track record."""
        stats = self.all_stats() if stats is None else stats
        lines = []
        for s in skills:
            st = stats.get(s.name)
            record = (f"{st.success_rate:.0%} of {st.executions} runs, value {st.mean_value:+.1f}"
                      if st and st.executions else "untried")
            trig = f" [stops on: {', '.join(s.triggers)}]" if s.triggers else ""
            lines.append(f"- {s.signature()} — {s.description}{trig} ({record})")
        return "\n".join(lines)

    # ------------------------------------------------------------ docs
    def regenerate_docs(self) -> list[Path]:
        """Rewrite every ``<category>/SKILL.md`` and meta.json from meta and stats."""
        self._ensure_loaded()
        with self._lock():
            stats = self.all_stats()
            self._merge_meta_and_write(self._read_meta())
            return self._write_docs(stats)

    def _write_docs(self, stats: Optional[dict[str, SkillStats]] = None,
                    categories: Optional[set[str]] = None) -> list[Path]:
        stats = self.all_stats() if stats is None else stats
        by_cat: dict[str, list[Skill]] = {}
        for s in list(self._skills.values()) + [o for n, o in self._others.items() if n not in self._skills]:
            by_cat.setdefault(s.category, []).append(s)
        cats = set(by_cat)
        if self.root.is_dir():  # folders whose skills are all gone get an empty page
            cats |= {d.name for d in self.root.iterdir() if d.is_dir() and not d.name.startswith(("_", "."))
                     and (d / "SKILL.md").exists()}
        if categories is not None:
            cats &= set(categories)
        written = []
        for cat in sorted(cats):
            p = self.root / cat / "SKILL.md"
            _atomic_write(p, render_skill_md(cat, by_cat.get(cat, []), stats))
            written.append(p)
        return written


# ---------------------------------------------------------------- SKILL.md
def _format_parameters(params: list[SkillParam]) -> str:
    if not params:
        return "none"
    parts = []
    for p in params:
        t = p.type or "any"
        if p.default is None:
            parts.append(f"{p.name} ({t}, required)")
        else:
            parts.append(f"{p.name} ({t}, default {p.default})")
    return ", ".join(parts)


def _format_success(st: Optional[SkillStats]) -> str:
    if st is None or st.executions == 0:
        return "no executions yet"
    n = st.executions
    return f"{round(st.success_rate * 100)}% (based on {n:,} execution{'s' if n != 1 else ''})"


def render_skill_md(category: str, skills: list[Skill], stats: Mapping[str, SkillStats]) -> str:
    """The spec's §6.4 SKILL.md page for one category."""
    title = category.replace("_", " ").title()
    out = [f"# {title} Skills", "", CATEGORY_DESCRIPTIONS.get(category, f"Skills of the {category} category."), ""]
    out += ["## Available Skills", ""]
    active = sorted((s for s in skills if not s.retired), key=lambda s: s.name)
    retired = sorted((s for s in skills if s.retired), key=lambda s: s.name)
    if not active:
        out += ["No skills yet.", ""]

    def block(s: Skill) -> list[str]:
        st = stats.get(s.name)
        lines = [f"### {s.name}" + (" (Retired)" if s.retired else "")]
        if s.description:
            lines.append(f"- **Description**: {s.description}")
        lines.append(f"- **Triggers**: {', '.join(s.triggers) if s.triggers else 'none'}")
        lines.append(f"- **Parameters**: {_format_parameters(s.parameters)}")
        lines.append(f"- **Success Rate**: {_format_success(st)}")
        if st is not None and st.executions:
            lines.append(f"- **Value**: {st.mean_value:+.1f} per run (total {st.total_value:+.1f})")
        lines.append(f"- **Source**: {'built-in' if s.is_builtin else 'model-written'}, version {s.version}")
        if s.retired:
            lines.append(f"- **Retired**: {s.retired_reason or 'yes'}")
        return lines + [""]

    for s in active:
        out += block(s)
    if retired:
        out += ["## Retired Skills", ""]
        for s in retired:
            out += block(s)
    return "\n".join(out).rstrip() + "\n"


__all__ = [
    "CATEGORIES", "CATEGORY_DESCRIPTIONS", "TRIGGER_EVENTS", "MIN_RUNS_TO_JUDGE",
    "SkillLibrary", "Skill", "SkillParam", "SkillStats", "SkillVersion", "ExecutionRecord", "LoadReport", "QuarantinedFile",
    "InvalidBuiltin", "Situation", "ValueWeights", "DEFAULT_WEIGHTS", "LibraryDatabase", "MergedRuns",
    "library_database",
    "SkillLibraryError", "SkillNotFoundError", "BuiltinConflictError",
    "builtin_dir", "default_library_path", "execution_value", "compute_deltas", "snapshot", "hunger_severity",
    "normalize_triggers", "normalize_category", "parameters_of", "relevance", "category_fit", "render_skill_md",
]

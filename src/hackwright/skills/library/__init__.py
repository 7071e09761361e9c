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
:mod:`hackwright.skills.stats`: progress in depth, level, score and explored squares
earns, turns spent without any progress cost). A run an event interrupted is neither a
success nor a failure: success rates count finished runs only. ``prune(min_runs=5)``
retires a model-written skill (built-ins only with ``builtins=True``) whose mean value is
≤ 0 over at least ``min_runs`` runs of its current version since it was saved, restored
or last revived; retired skills stay on disk and in the database, are marked in
meta.json, SKILL.md and the ``skills`` table, and are left out of ``all()`` and
``relevant()`` until ``revive``.

Keeping what works
------------------
``adopt`` decides what becomes of a skill the model created, after its first run: saved
and current, kept as a retired draft, or — a rewrite that failed while the skill in use
has worked — kept as a version that is not current, the working one staying current
(:mod:`hackwright.skills.library.adoption` has the rules). ``restore(name, version)``
makes a stored version current again.

What the agent loop calls
-------------------------
* ``lib.load()`` once at start (report quarantined files);
* ``lib.relevant(situation, k)`` to choose which skills the prompt lists;
* ``lib.get(name)`` to run one: ``runner.run(skill.code, params, entry=skill.name,
  triggers=skill.triggers)`` (pass the triggers: they are the library's
  normalised list, e.g. "hungry" → "hunger", which may differ from the file's);
* ``lib.record_execution(name, params=…, result=…, before=stats, after=stats,
  error=…, episode_id=…)`` after **every** skill run (model-written drafts too);
* ``lib.adopt(name, code, category=…, result=…, error=…)`` after the first run of a
  skill the model created (not for code that never ran: a syntax error or a policy
  violation is no run, so nothing is recorded or adopted); its ``message`` is for the model;
* ``lib.prune()`` (which also regenerates the docs) at the end of an episode.

The package
-----------
``vocabulary`` categories, triggers, names, ``builtin_dir()``; ``records`` the errors
and data types; ``skill_files`` reading and validating skill files; ``situation`` the
:class:`Situation` and :func:`relevance`; ``skill_md`` the SKILL.md page; ``folder``
the folder, its lock, meta.json and the database connection; ``loading``, ``saving``,
``history`` (runs, statistics, retiring, pruning) and ``adoption`` (``adopt``,
``restore``) the parts of the class, which ``skill_library`` puts together as
:class:`SkillLibrary`. Everything is importable from
``hackwright.skills.library``.
"""

from __future__ import annotations

# Everything hackwright.skills.library offered when it was one module stays importable
# from here; each name is the same object as in the module that defines it.
from ...sandbox.errors import SkillExecutionError, SkillValidationError, Violation
from ...sandbox.policy import SkillInfo, validate
from ...store import connect, transaction, utc_now
from ...store import skills as sql
from ...store.db import corrupt_path
from ...store.skills import MergedRuns
from ..database import LibraryDatabase, library_database, old_database, remember_database
from ..result import SkillResult
from ..stats import (
    DEATH_REASONS,
    DEFAULT_WEIGHTS,
    EXPLORED_KEY,
    ExecutionRecord,
    SkillStats,
    ValueWeights,
    VersionRecord,
    compute_deltas,
    execution_value,
    hunger_severity,
    is_interruption,
    json_text,
    jsonable,
    made_progress,
    number_of,
    record_from_row,
    snapshot,
    stats_from_row,
    track_record,
)
from .adoption import Adoption, run_outcome
from .folder import fcntl, log
from .records import (
    BuiltinConflictError,
    InvalidBuiltin,
    LoadReport,
    QuarantinedFile,
    Skill,
    SkillLibraryError,
    SkillNotFoundError,
    SkillParam,
    SkillVersion,
    _reject,
)
from .situation import (
    _NEED_WORDS,
    Situation,
    _needs,
    _parse_time,
    _recency_bonus,
    category_fit,
    relevance,
)
from .skill_files import (
    _atomic_write,
    _check_name,
    _error_text,
    _first_line,
    _Invalid,
    _module_constants,
    _normalize_parameters,
    _param_type,
    _read_skill,
    _scan,
    normalize_category,
    normalize_triggers,
    parameters_of,
    unknown_triggers,
)
from .skill_library import _PACKAGE_BUILTINS, SkillLibrary, _PackageBuiltins, default_library_path
from .skill_md import _format_parameters, _format_success, render_skill_md
from .vocabulary import (
    _CATEGORY_RE,
    _NAME_RE,
    CATEGORIES,
    CATEGORY_DESCRIPTIONS,
    MIN_RUNS_TO_JUDGE,
    SOURCES,
    TRIGGER_ALIASES,
    TRIGGER_EVENTS,
    builtin_dir,
)


__all__ = [
    "CATEGORIES", "CATEGORY_DESCRIPTIONS", "TRIGGER_EVENTS", "MIN_RUNS_TO_JUDGE",
    "SkillLibrary", "Skill", "SkillParam", "SkillStats", "SkillVersion", "ExecutionRecord", "LoadReport", "QuarantinedFile",
    "InvalidBuiltin", "Situation", "ValueWeights", "DEFAULT_WEIGHTS", "LibraryDatabase", "MergedRuns",
    "library_database", "Adoption", "VersionRecord", "run_outcome", "is_interruption", "made_progress",
    "track_record", "EXPLORED_KEY",
    "SkillLibraryError", "SkillNotFoundError", "BuiltinConflictError",
    "builtin_dir", "default_library_path", "execution_value", "compute_deltas", "snapshot", "hunger_severity",
    "normalize_triggers", "normalize_category", "parameters_of", "relevance", "category_fit", "render_skill_md",
]

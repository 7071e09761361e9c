"""What the library keeps of a skill the model wrote and ran once (``adopt``), and bringing
an older version back (``restore``).

The library keeps what works
----------------------------
A model creates a skill and it runs once; then :meth:`LibraryAdoption.adopt` looks at how
that first run ended — *succeeded*, *interrupted* (an event stopped it:
``stopped_reason`` ``"interrupted:<event>"``, see :func:`~hackwright.skills.stats.is_interruption`)
or *failed* (it returned without success, or raised) — and at what the library holds
under that name:

==========================  =====================  ======================================
the name in the library     first run              the code
==========================  =====================  ======================================
unknown, or a retired draft succeeded/interrupted  saved, current (a retired one revived)
unknown, or a retired draft failed                 saved as a version, retired: not
                                                   offered; its fix under the same name
                                                   is the next version
a skill in use, new code    succeeded/interrupted  saved, current (the old code kept)
a skill in use, new code    failed                 kept as a version that is not current
                                                   when the skill in use has worked (a
                                                   version of it succeeded, or the current
                                                   one never failed); else current
a skill in use, same code   any                    nothing changes (the run counted for it)
==========================  =====================  ======================================

An interruption is not a failure: the skill did what its triggers asked for. Code that
never ran (a syntax error, a policy violation, a wrong entry point) is not adopted and
its submission is no run at all: the agent loop records nothing for it.

``restore(name, version)`` makes a stored version current again (``hackwright skills
restore NAME VERSION``); the version it replaces stays stored, and the judged runs start
afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

from ...sandbox.errors import SkillExecutionError
from ...sandbox.policy import validate
from ...store import transaction, utc_now
from ...store import skills as sql
from ..result import SkillResult
from ..stats import VersionRecord, is_interruption
from .history import LibraryHistory
from .records import Skill, SkillLibraryError, _reject
from .saving import LibrarySaving
from .skill_files import (
    _atomic_write,
    _first_line,
    _module_constants,
    normalize_category,
    normalize_triggers,
    parameters_of,
)

SUCCEEDED, INTERRUPTED, FAILED = "succeeded", "interrupted", "failed"


def run_outcome(result: Union[SkillResult, Mapping[str, Any], None], error: Any = None) -> str:
    """How a run ended: ``"succeeded"``, ``"interrupted"`` (an event stopped it) or
    ``"failed"`` (no success, or an error)."""
    if error is not None or result is None:
        return FAILED
    res = SkillResult.coerce(dict(result) if isinstance(result, Mapping) else result)
    if res.success:
        return SUCCEEDED
    return INTERRUPTED if is_interruption(res.stopped_reason) else FAILED


@dataclass(frozen=True)
class Adoption:
    """What the library did with a skill the model created and ran once.

    ``state``: "saved" (the code is current now), "draft" (kept, retired: not offered),
    "kept_aside" (kept as a version that is not current: the working one stays),
    "unchanged" (the code already was the current version) or "refused" (not kept: the
    library refused it). ``outcome``: how the first run ended ("succeeded",
    "interrupted", "failed"). ``version``: the version number the code holds (None: not
    stored); ``current_version``: the version invoking ``name`` runs (None: nothing is
    offered under that name). ``message``: one line for the model, e.g. "not saved for
    use: version 3 of fight failed its first run; version 2, which has worked, stays
    current (version 3 is kept, not offered)".
    """

    name: str
    state: str
    outcome: str
    version: Optional[int]
    current_version: Optional[int]
    message: str

    @property
    def kept(self) -> bool:
        """The code is stored (current or not)."""
        return self.state != "refused"

    @property
    def current(self) -> bool:
        """The code is what invoking ``name`` runs now."""
        return self.state in ("saved", "unchanged")

    @property
    def worth_telling(self) -> bool:
        """Whether the message says more than "saved" or "kept as a draft": the code was
        refused, a working version stayed current, or a run that did not succeed (an
        interrupted one, or a failure when no version had worked) made the code current."""
        return self.state in ("refused", "kept_aside") or (self.state == "saved" and self.outcome != SUCCEEDED)


class LibraryAdoption(LibrarySaving, LibraryHistory):
    """``adopt()``, ``restore()`` and ``version_records()``."""

    def version_records(self, name: str) -> dict[int, VersionRecord]:
        """How the runs of each version of ``name`` ended (versions without runs left out)."""
        return {int(r["version"]): VersionRecord(int(r["version"]), int(r["n"]), int(r["s"]), int(r["i"] or 0))
                for r in sql.version_records(self.db, name)}

    def _has_worked(self, name: str, current: int) -> bool:
        """Whether the skill in use deserves to stay: a version of it succeeded, or the
        current version never failed."""
        records = self.version_records(name)
        if any(r.successes for r in records.values()):
            return True
        mine = records.get(current)
        return mine is None or mine.failures == 0

    def adopt(
        self,
        name: str,
        code: str,
        *,
        category: str,
        description: Optional[str] = None,
        triggers: Union[Sequence[str], str, None] = (),
        result: Union[SkillResult, Mapping[str, Any], None] = None,
        error: Any = None,
    ) -> Adoption:
        """Keep (or not) a skill the model created, after its first run (the rules are in
        this module's docstring); call it after ``record_execution`` of that run.

        ``result`` / ``error``: how the run ended (``error`` set: it raised). Returns an
        :class:`Adoption` whose ``message`` tells the model what became of its code. Code
        the library refuses (no docstring, a built-in's name, a bad category) is not kept:
        ``kept`` is False and ``message`` says why.
        """
        outcome = run_outcome(result, error)
        self._ensure_loaded()
        known = self._skills.get(name)
        in_use = known is not None and not known.is_builtin and not known.retired
        try:
            if in_use and known.code.strip() == code.strip():
                return Adoption(name, "unchanged", outcome, known.version, known.version,
                                f"unchanged: this is already version {known.version} of {name}")
            if in_use and outcome == FAILED and self._has_worked(name, known.version):
                return self._keep_aside(name, code, known, category=category, description=description)
            with self._lock():
                skill = self.save(name, code, category=category, description=description, triggers=triggers)
                if outcome == FAILED and not in_use:
                    skill = self._set_retired(name, True, "a draft whose first run failed")
                elif skill.retired:  # the same code as a retired draft, and this time it worked
                    skill = self._set_retired(name, False, None)
        except SkillExecutionError as e:  # the policy's refusals, a built-in's name
            violations = getattr(e, "violations", None) or []
            why = "; ".join(f"{v.what} ({v.instead})" if v.instead else v.what for v in violations[:2]) \
                or _first_line(str(e))
            return Adoption(name, "refused", outcome, None, known.version if in_use else None, f"not saved: {why}")
        if skill.retired:
            return Adoption(name, "draft", outcome, skill.version, None,
                            f"not saved for use: its run failed; the code is kept retired as version "
                            f"{skill.version} of {name} (create {name} again to fix it)")
        how = {SUCCEEDED: "", INTERRUPTED: ": an interruption by an event is not a failure",
               FAILED: " although its run failed: no earlier version had worked"}[outcome]
        return Adoption(name, "saved", outcome, skill.version, skill.version,
                        f"saved as version {skill.version} of {name}{how}")

    def _keep_aside(self, name: str, code: str, known: Skill, *, category: str,
                    description: Optional[str]) -> Adoption:
        """Store a failing rewrite as a version that is not current; the skill in use stays."""
        info = validate(code, entry=name)
        desc = _first_line(description) if description else _first_line(info.docstring)
        category = normalize_category(category)
        with self._lock():
            conn = self.db
            version = sql.max_version(conn, name) + 1
            self._keep_old_file(name, version, code)
            with transaction(conn):
                sql.keep_version(conn, name, version, code, created_at=utc_now(), description=desc or None,
                                 category=category, source="model")
                sql.claim_rewrite_run(conn, name, version)
        return Adoption(name, "kept_aside", FAILED, version, known.version,
                        f"not saved for use: version {version} of {name} failed its first run; version "
                        f"{known.version}, which has worked, stays current and is what invoking {name} runs "
                        f"(version {version} is kept, not offered)")

    def restore(self, name: str, version: int) -> Skill:
        """Make stored ``version`` of the model-written skill ``name`` its current code again
        (revived if it was retired); the code it replaces stays stored as its own version, and
        the judged runs start afresh. :class:`SkillNotFoundError` for an unknown name,
        :class:`SkillLibraryError` for an unknown version or a built-in (built-ins follow their
        files), the policy's errors when the stored code is no longer valid."""
        self._ensure_loaded()
        with self._lock():
            skill = self.get(name)
            if skill.is_builtin:
                raise SkillLibraryError(f"{name} is a built-in skill: its code is its file in {self.builtin_root}, "
                                        "not a stored version")
            stored = {v.version: v for v in self.versions(name)}
            if version not in stored:
                raise SkillLibraryError(f"{name} has no version {version}; its versions are "
                                        + ", ".join(f"v{v}" for v in sorted(stored)))
            if version == skill.version:
                return self._set_retired(name, False, None) if skill.retired else skill
            old = stored[version]
            info = validate(old.code, entry=name)
            desc = _first_line(old.description or "") or _first_line(info.docstring)
            if not desc:
                raise _reject(f"version {version} of {name} has no description", "restore another version")
            category = normalize_category(old.category or skill.category)
            now = utc_now()
            conn = self.db
            self._keep_old_file(name, skill.version, skill.code)
            restored = Skill(
                name=name, category=category, description=desc,
                triggers=normalize_triggers(_module_constants(old.code).get("TRIGGERS")) or skill.triggers,
                parameters=parameters_of(info), code=old.code, version=version, source="model", retired=False,
                path=self.root / category / f"{name}.py", created_at=skill.created_at, updated_at=now,
            )
            _atomic_write(restored.path, old.code)
            if skill.path != restored.path and skill.path.exists():
                skill.path.unlink()
            with transaction(conn):
                sql.keep_version(conn, name, skill.version, skill.code, created_at=skill.updated_at,
                                 description=skill.description, category=skill.category, source="model")
                self._upsert(restored, window_start=self._max_execution_id())
            self._skills[name] = restored
            self._merge_meta_and_write(self._read_meta())
            self._write_docs(categories={category, skill.category})
        return restored


__all__ = ["Adoption", "FAILED", "INTERRUPTED", "LibraryAdoption", "SUCCEEDED", "run_outcome"]

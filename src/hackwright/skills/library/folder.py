"""The library folder: its layout (meta.json, ``_versions``, ``_quarantine``), the lock
that serialises its writers, the database connection, and the generated meta.json and
SKILL.md. The base of :class:`~hackwright.skills.library.SkillLibrary`."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Optional

from ...store import connect
from ...store import skills as sql
from ...store.db import corrupt_path
from ..database import LibraryDatabase
from ..stats import SkillStats, ValueWeights
from .records import LoadReport, Skill
from .skill_files import _atomic_write, _normalize_parameters, _scan, normalize_triggers
from .skill_md import render_skill_md

if TYPE_CHECKING:
    from .skill_library import SkillLibrary

try:  # POSIX: serialise writers of the library folder across processes
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("hackwright.skills")


class LibraryFolder:
    """Files, lock and database of the library (attributes set by ``SkillLibrary.__init__``)."""

    root: Path
    database: LibraryDatabase
    db_path: Path
    builtin_root: Optional[Path]
    weights: ValueWeights
    _skills: dict[str, Skill]
    _others: dict[str, Skill]
    _loaded: bool
    db_recovered_from: Optional[Path]
    last_report: Optional[LoadReport]

    META = "meta.json"
    QUARANTINE = "_quarantine"
    VERSIONS = "_versions"
    LOCK = ".lock"

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
            e.update(executions=stats.executions, successes=stats.successes, interrupted=stats.interrupted,
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

"""``SkillLibrary.load``: read and validate every skill file, quarantine the bad ones,
sync the database with the files and merge an old ``library.db``."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any, Optional

from ...store import transaction, utc_now
from ...store import skills as sql
from ...store.skills import MergedRuns
from ..database import old_database
from .folder import LibraryFolder
from .records import InvalidBuiltin, LoadReport, QuarantinedFile, Skill
from .skill_files import (
    _first_line,
    _Invalid,
    _normalize_parameters,
    _read_skill,
    _scan,
    _atomic_write,
    normalize_triggers,
    parameters_of,
    unknown_triggers,
)
from .vocabulary import TRIGGER_EVENTS

log = logging.getLogger("hackwright.skills")


class LibraryLoading(LibraryFolder):
    """``load()`` and what it needs."""

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

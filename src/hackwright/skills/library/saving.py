"""``SkillLibrary.save``: validate a model-written skill and store it as a new version."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence, Union

from ...sandbox.errors import Violation
from ...sandbox.policy import validate
from ...store import transaction, utc_now
from ...store import skills as sql
from .folder import LibraryFolder
from .records import BuiltinConflictError, Skill, _reject
from .skill_files import (
    _atomic_write,
    _check_name,
    _first_line,
    _module_constants,
    _normalize_parameters,
    normalize_category,
    normalize_triggers,
    parameters_of,
    unknown_triggers,
)
from .vocabulary import TRIGGER_EVENTS


class LibrarySaving(LibraryFolder):
    """``save()``."""

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
        ``skill_versions`` row), makes the new code current under the next version
        number and revives a retired skill; saving identical code only updates the
        metadata. (:meth:`adopt` decides whether a model's new code should become
        current at all.) ``triggers``
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
            # A new version's number is above every version the name has had, those kept
            # aside (a rewrite whose first run failed) included.
            if old_code is None:
                version = sql.max_version(conn, name) + 1
            elif same_code:
                version = old_version
            else:
                version = max(old_version, sql.max_version(conn, name)) + 1
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
                elif not same_code:
                    sql.claim_rewrite_run(conn, name, version)
            old_category = existing.category if existing is not None else (m or {}).get("category")
            self._skills[name] = skill
            self._merge_meta_and_write(meta)
            self._write_docs(categories={category, old_category} - {None})
        return skill

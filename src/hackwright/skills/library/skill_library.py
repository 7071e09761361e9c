"""The :class:`SkillLibrary` itself: its construction, reading skills and choosing them
for the prompt; loading, saving, runs and the folder are its bases."""

from __future__ import annotations

import os
import re
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from ...store import skills as sql
from ..database import LibraryDatabase, library_database
from ..stats import DEFAULT_WEIGHTS, SkillStats, ValueWeights, track_record
from .adoption import LibraryAdoption
from .loading import LibraryLoading
from .records import LoadReport, Skill, SkillNotFoundError, SkillVersion
from .situation import Situation, relevance
from .vocabulary import builtin_dir


class _PackageBuiltins:
    def __repr__(self) -> str:
        return "builtin_dir()"


_PACKAGE_BUILTINS: Any = _PackageBuiltins()


def default_library_path() -> Path:
    """``$HACKWRIGHT_LIBRARY`` or ``./skills``."""
    return Path(os.environ.get("HACKWRIGHT_LIBRARY") or "skills")


class SkillLibrary(LibraryLoading, LibraryAdoption):
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
            record = track_record(st) or "untried"
            trig = f" [stops on: {', '.join(s.triggers)}]" if s.triggers else ""
            lines.append(f"- {s.signature()} — {s.description}{trig} ({record})")
        return "\n".join(lines)

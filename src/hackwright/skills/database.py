"""Which SQLite database holds a skill library's statistics.

A library's skills are files in its folder; their history (runs, versions, the ``skills``
table) lives in the **run database**, the one the agent loop records episodes in, so
that what ``hackwright skills`` shows and what ``prune`` judges are the runs episodes
recorded. Without an explicit database, :func:`library_database` chooses, in this order:

1. ``HACKWRIGHT_MEMORY_DATABASE_PATH`` when it is set (the setting, for this command);
2. the database the library's runs were last recorded in: ``record_execution`` writes it
   to ``<library>/run-database.json`` (so ``hackwright skills --library Y`` after
   ``hackwright play --db X --library Y`` reads X), when that file still exists;
3. ``runs.db`` beside the library folder, which is how ``hackwright eval`` lays out its
   output folder (``OUT/skills`` beside ``OUT/runs.db``), when it exists;
4. ``memory.database_path`` of the configuration (config.yaml; default
   ``./data/memory.db``), the database ``hackwright play`` uses.

An old ``<library>/library.db`` (where libraries kept their statistics before) is merged
into the chosen database when the library loads; see :mod:`hackwright.store.skills`.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Union

RECORD_FILE = "run-database.json"  # in the library folder: where its runs were last recorded
OLD_DATABASE = "library.db"  # in the library folder: the statistics of libraries before the run database
EVAL_DATABASE = "runs.db"  # beside an evaluation's library folder
ENV_VARIABLE = "HACKWRIGHT_MEMORY_DATABASE_PATH"


@dataclass(frozen=True)
class LibraryDatabase:
    """The database a library reads and writes its statistics in, and why that one."""

    path: Path
    reason: str  # e.g. "--db", "HACKWRIGHT_MEMORY_DATABASE_PATH", "memory.database_path of config.yaml"

    def describe(self) -> str:
        """``<path> (<reason>)``: one line for the command line."""
        return f"{self.path} ({self.reason})"


def library_database(
    root: Union[str, os.PathLike],
    db: Union[str, os.PathLike, None] = None,
    *,
    given_as: str = "given",
    config: Any = None,
    env: Optional[Mapping[str, str]] = None,
) -> LibraryDatabase:
    """The database of the library at ``root`` (the order is in the module docstring).

    ``db``: an explicit database, reported as ``given_as`` (a command passes "--db").
    ``config``: a loaded :class:`hackwright.config.Config` (loaded here, quietly, when
    needed and not given; a bad setting raises its ``ConfigError``). ``env``: the
    environment (default: the process's). Reads files only; creates nothing.
    """
    if db is not None:
        return LibraryDatabase(Path(db), given_as)
    env = os.environ if env is None else env
    root = Path(root)
    if env.get(ENV_VARIABLE):
        return LibraryDatabase(Path(_config(config, env).get("memory", "database_path")), ENV_VARIABLE)
    recorded = recorded_database(root)
    if recorded is not None:
        return LibraryDatabase(recorded, f"where this library's runs were last recorded, per {root / RECORD_FILE}")
    beside = root.parent / EVAL_DATABASE
    if beside.is_file():
        return LibraryDatabase(beside, "the evaluation's run database beside the library")
    cfg = _config(config, env)
    source = getattr(cfg, "source", None)
    reason = f"memory.database_path of {source}" if source else "the default memory.database_path"
    return LibraryDatabase(Path(cfg.get("memory", "database_path")), reason)


def _config(config: Any, env: Mapping[str, str]) -> Any:
    if config is not None:
        return config
    from ..config import load_config

    return load_config(env=dict(env), warn=None)


def recorded_database(root: Union[str, os.PathLike]) -> Optional[Path]:
    """The database ``<root>/run-database.json`` names, if that database exists.

    The file holds the path relative to the library (which survives moving the library
    together with its database, as when an evaluation folder is copied) and absolute
    (which survives moving the library alone); the first that exists wins."""
    root = Path(root)
    try:
        data = json.loads((root / RECORD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for key in ("relative", "absolute"):
        text = data.get(key)
        if isinstance(text, str) and text:
            p = Path(text) if key == "absolute" else root / text
            if p.is_file():
                return Path(os.path.normpath(p))
    return None


def remember_database(root: Union[str, os.PathLike], db_path: Union[str, os.PathLike]) -> None:
    """Write ``<root>/run-database.json`` naming ``db_path``, unless it names it already."""
    root, db = Path(root), Path(db_path)
    if str(db) == ":memory:":
        return
    absolute = os.path.abspath(db)
    data = {"relative": os.path.relpath(absolute, os.path.abspath(root)), "absolute": absolute}
    target = root / RECORD_FILE
    try:
        if json.loads(target.read_text(encoding="utf-8")) == data:
            return
    except (OSError, ValueError):
        pass
    root.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def old_database(root: Union[str, os.PathLike], db_path: Union[str, os.PathLike]) -> Optional[Path]:
    """``<root>/library.db`` when it exists and is not ``db_path`` itself: statistics to merge."""
    old = Path(root) / OLD_DATABASE
    if not old.is_file():
        return None
    try:
        if Path(db_path).exists() and os.path.samefile(old, db_path):
            return None
    except OSError:
        return None
    return old


__all__ = ["ENV_VARIABLE", "LibraryDatabase", "OLD_DATABASE", "RECORD_FILE", "library_database", "old_database",
           "recorded_database", "remember_database"]

"""One episode's rows and files as plain data, and back into another run database.

Episodes played on Ray (or in a worker with its own database) travel home as a
bundle: their rows in every episode table, the code of the skills they created, and
their record folder's files. ``import_episode`` inserts such a bundle under a new id.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Optional

_EPISODE_TABLES = ("decisions", "events", "model_calls", "skill_executions")


def export_episode(db_path: str, episode_id: int, record_dir: Optional[str] = None) -> dict:
    """The rows of one episode (episodes, decisions, events, model calls, skill runs), the
    code of the skills it created, and the files of its record folder, as plain data."""
    bundle: dict[str, Any] = {"tables": {}, "skills": [], "files": {}}
    if episode_id and Path(db_path).exists():
        conn = sqlite3.connect(db_path)
        conn.row_factory = sqlite3.Row
        try:
            rows = conn.execute("SELECT * FROM episodes WHERE id=?", (episode_id,)).fetchall()
            bundle["tables"]["episodes"] = [dict(r) for r in rows]
            for t in _EPISODE_TABLES:
                rows = conn.execute(f"SELECT * FROM {t} WHERE episode_id=?", (episode_id,)).fetchall()
                bundle["tables"][t] = [dict(r) for r in rows]
            eps = bundle["tables"]["episodes"]
            created = json.loads(eps[0].get("skills_created") or "[]") if eps else []
            for name in created:
                r = conn.execute("SELECT name, code, description, category, triggers FROM skills WHERE name=?",
                                 (name,)).fetchone()
                if r is not None:
                    bundle["skills"].append(dict(r))
        finally:
            conn.close()
    if record_dir and Path(record_dir).is_dir():
        for f in Path(record_dir).iterdir():
            if f.is_file() and f.stat().st_size < 64 * 2**20:
                bundle["files"][f.name] = f.read_bytes()
    return bundle


def import_episode(db_path: str, bundle: dict, record_dir: Optional[str] = None,
                   library_path: Optional[str] = None) -> int:
    """Insert an exported episode into ``db_path`` under a new id; return the id.

    The record folder's files are written to ``record_dir``, and skills the episode
    created are saved into the library at ``library_path``.
    """
    from ..store.db import connect, transaction

    tables = bundle.get("tables") or {}
    eps = tables.get("episodes") or []
    conn = connect(db_path, check=False)
    try:
        with transaction(conn):
            new_id = 0
            if eps:
                row = dict(eps[0])
                row.pop("id", None)
                if record_dir and row.get("ttyrec"):
                    row["ttyrec"] = str(Path(record_dir) / Path(row["ttyrec"]).name)
                cols = [c for c in row if c in _columns(conn, "episodes")]
                cur = conn.execute(f"INSERT INTO episodes ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                   [row[c] for c in cols])
                new_id = int(cur.lastrowid)
            for t in _EPISODE_TABLES:
                known = _columns(conn, t)
                for r in tables.get(t) or []:
                    r = dict(r)
                    r.pop("id", None)
                    r["episode_id"] = new_id
                    cols = [c for c in r if c in known]
                    conn.execute(f"INSERT INTO {t} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                 [r[c] for c in cols])
    finally:
        conn.close()
    if record_dir and bundle.get("files"):
        Path(record_dir).mkdir(parents=True, exist_ok=True)
        for name, data in bundle["files"].items():
            (Path(record_dir) / name).write_bytes(data)
    summary_file = Path(record_dir) / "summary.json" if record_dir else None
    if summary_file is not None and summary_file.exists() and new_id:
        # The folder's summary names the episode by its id in this database now (replays look it up).
        try:
            d = json.loads(summary_file.read_text())
            d["episode_id"] = new_id
            summary_file.write_text(json.dumps(d, indent=2))
        except (OSError, ValueError):
            pass
    if library_path and bundle.get("skills"):
        from ..skills.library import SkillLibrary

        lib = SkillLibrary(Path(library_path), db_path=Path(db_path))
        lib.load()
        for s in bundle["skills"]:
            try:
                lib.save(s["name"], s["code"], category=s.get("category") or "general",
                         description=s.get("description") or None,
                         triggers=tuple(json.loads(s.get("triggers") or "[]")))
            except Exception:  # noqa: BLE001 — a skill that no longer validates is just not kept
                pass
    return new_id


def _columns(conn, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}

"""The skill library's tables (spec §8.3: ``skills``, ``skill_executions``, ``skill_versions``).

Every query :class:`hackwright.skills.library.SkillLibrary` makes lives here, as functions
of an open store connection (:func:`hackwright.store.db.connect`). The library decides
what to write; these functions only say how. Group writes with
:func:`hackwright.store.db.transaction`; functions that write more than one row open it
themselves (joining the caller's when there is one).

Judged runs
-----------
``skills.window_start`` is an execution id: the runs of a skill's current version with a
larger id are the ones ``prune`` and ``should_save`` judge (the current version since it
was saved, restored or last revived). New runs get ids above every existing one and above
0. A run of another version (a rewrite kept aside because its first run failed) is never
judged for the current one.

Interrupted runs
----------------
A run whose ``stopped_reason`` is ``interrupted:<event>`` (and that neither succeeded nor
raised an error) was stopped by an event: the statistics count it apart (``i``, ``ri``),
as neither a success nor a failure (:mod:`hackwright.skills.stats`).

Runs merged from an old ``<library>/library.db``
------------------------------------------------
Before the library and the agent shared the run database, a library kept its own
``library.db`` beside its skills. :func:`merge_old_library_db` copies that file's runs and
versions into the run database once and renames the file to
``library.db.merged-<timestamp>`` (kept, never deleted). The runs count in every skill's
record (runs, success rate, value, last use) but get ids below 1, under every judging
window: they were never part of what the agent judged, and judging goes on from the runs
the run database already holds. Their ``episode_id`` is cleared, because it named
episodes of another database.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from .db import aside_path, move_sidecars, transaction

_VERSION_COLUMNS = "name, version, code, created_at, description, category, source"
_EXECUTION_COLUMNS = ("timestamp", "skill_name", "params", "stopped_reason", "success", "actions_taken",
                      "turns_elapsed", "game_state_before", "game_state_after", "episode_id", "version", "error",
                      "deltas", "value", "died", "data")


# ---------------------------------------------------------------- skills
def skill_rows(conn: sqlite3.Connection) -> dict[str, sqlite3.Row]:
    """Every ``skills`` row by name."""
    return {r["name"]: r for r in conn.execute("SELECT * FROM skills")}


def skill_row(conn: sqlite3.Connection, name: str) -> Optional[sqlite3.Row]:
    return conn.execute("SELECT * FROM skills WHERE name = ?", (name,)).fetchone()


def upsert_skill(
    conn: sqlite3.Connection,
    *,
    name: str,
    code: str,
    description: str,
    category: str,
    created_at: Optional[str],
    updated_at: Optional[str],
    version: int,
    source: str,
    triggers: Sequence[str],
    parameters: Sequence[dict],
    retired: bool,
    retired_reason: Optional[str],
    window_start: Optional[int] = None,
) -> None:
    """Insert or update a skill's row; ``window_start=None`` keeps the row's window (0 for a new row).
    The run counters are left alone (see :func:`recount`)."""
    conn.execute(
        """INSERT INTO skills (name, code, description, category, created_at, updated_at, version, source,
                               triggers, parameters, retired, retired_reason, window_start)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 0))
           ON CONFLICT(name) DO UPDATE SET
               code = excluded.code, description = excluded.description, category = excluded.category,
               updated_at = excluded.updated_at, version = excluded.version, source = excluded.source,
               triggers = excluded.triggers, parameters = excluded.parameters, retired = excluded.retired,
               retired_reason = excluded.retired_reason,
               window_start = COALESCE(?, skills.window_start)""",
        (name, code, description, category, created_at, updated_at, version, source, json.dumps(list(triggers)),
         json.dumps(list(parameters)), int(bool(retired)), retired_reason, window_start, window_start),
    )


def mark_retired(conn: sqlite3.Connection, name: str, reason: Optional[str], now: str, *, touch: bool = True) -> None:
    """Retire ``name``; ``touch`` also sets ``updated_at`` (a retirement by hand or by prune)."""
    if touch:
        conn.execute("UPDATE skills SET retired = 1, retired_reason = ?, retired_at = ?, updated_at = ? WHERE name = ?",
                     (reason, now, now, name))
    else:
        conn.execute("UPDATE skills SET retired = 1, retired_reason = ?, retired_at = ? WHERE name = ?",
                     (reason, now, name))


def mark_revived(conn: sqlite3.Connection, name: str, now: str) -> None:
    """Revive ``name``: its judged runs start after the latest run recorded so far."""
    conn.execute("UPDATE skills SET retired = 0, retired_reason = NULL, retired_at = NULL, updated_at = ?, "
                 "window_start = (SELECT COALESCE(MAX(id), 0) FROM skill_executions) WHERE name = ?", (now, name))


def recount(conn: sqlite3.Connection, name: str) -> None:
    """Recompute the run counters of ``name``'s row from ``skill_executions``."""
    conn.execute(
        """UPDATE skills SET
               execution_count = (SELECT COUNT(*) FROM skill_executions WHERE skill_name = :n),
               success_count = (SELECT COALESCE(SUM(success), 0) FROM skill_executions WHERE skill_name = :n),
               value_sum = (SELECT COALESCE(SUM(value), 0) FROM skill_executions WHERE skill_name = :n),
               value = (SELECT AVG(value) FROM skill_executions WHERE skill_name = :n),
               last_used = (SELECT MAX(timestamp) FROM skill_executions WHERE skill_name = :n)
           WHERE name = :n""",
        {"n": name},
    )


def claim_draft_runs(conn: sqlite3.Connection, name: str) -> None:
    """Runs of ``name`` recorded before its first save (the draft that earned it) become
    runs of version 1, and its counters include them."""
    with transaction(conn):
        conn.execute("UPDATE skill_executions SET version = 1 WHERE skill_name = ? AND version IS NULL", (name,))
        recount(conn, name)


def claim_rewrite_run(conn: sqlite3.Connection, name: str, version: int) -> None:
    """The run that earned a rewrite its save (``name``'s newest run, recorded as a draft
    without a version) becomes a run of the new ``version``."""
    conn.execute("""UPDATE skill_executions SET version = ?
                    WHERE id = (SELECT MAX(id) FROM skill_executions WHERE skill_name = ?) AND version IS NULL""",
                 (version, name))


# ---------------------------------------------------------------- versions
def keep_version(conn: sqlite3.Connection, name: str, version: int, code: str, *, created_at: Optional[str],
                 description: Optional[str], category: Optional[str], source: Optional[str],
                 replace: bool = False) -> None:
    """Store one version's code; an existing (name, version) is kept unless ``replace``."""
    verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
    conn.execute(f"{verb} INTO skill_versions ({_VERSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (name, version, code, created_at, description, category, source))


def version_rows(conn: sqlite3.Connection, name: str) -> list[sqlite3.Row]:
    """``name``'s stored versions, oldest first."""
    return conn.execute("SELECT * FROM skill_versions WHERE name = ? ORDER BY version", (name,)).fetchall()


# ---------------------------------------------------------------- executions
def max_execution_id(conn: sqlite3.Connection) -> int:
    """The id of the latest run (0 when there is none): the window a new version starts from."""
    return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM skill_executions").fetchone()[0])


def insert_execution(conn: sqlite3.Connection, name: str, *, timestamp: str, params: str, stopped_reason: str,
                     success: bool, actions_taken: int, turns_elapsed: int, before: str, after: str,
                     episode_id: Optional[int], error: Optional[str], deltas: str, value: float, died: bool,
                     data: str, draft: bool = False) -> tuple[int, Optional[int]]:
    """Record one run of ``name`` (JSON already encoded) and update its row's counters;
    return ``(execution id, version that ran)`` (version None: not in the library). A
    ``draft`` is code not in the library under that name (a model's rewrite): its run
    has no version and leaves the stored version's counters alone."""
    with transaction(conn):
        row = None if draft else conn.execute("SELECT version FROM skills WHERE name = ?", (name,)).fetchone()
        version = int(row["version"]) if row is not None else None
        # An explicit id above 0: merged runs have ids below 1, and SQLite's own choice
        # (largest id + 1) would give 0 to the first run after them in a fresh database.
        cur = conn.execute(
            f"""INSERT INTO skill_executions (id, {', '.join(_EXECUTION_COLUMNS)})
                VALUES ((SELECT MAX(COALESCE(MAX(id), 0), 0) + 1 FROM skill_executions),
                        ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (timestamp, name, params, stopped_reason, int(bool(success)), int(actions_taken), int(turns_elapsed),
             before, after, episode_id, version, error, deltas, value, int(bool(died)), data),
        )
        rid = int(cur.lastrowid)
        if row is not None:
            conn.execute(
                """UPDATE skills SET execution_count = execution_count + 1,
                       success_count = success_count + ?, value_sum = value_sum + ?,
                       value = (value_sum + ?) / (execution_count + 1), last_used = ?
                   WHERE name = ?""",
                (int(bool(success)), value, value, timestamp, name),
            )
    return rid, version


def execution_rows(conn: sqlite3.Connection, name: Optional[str] = None, *, limit: int = 50) -> list[sqlite3.Row]:
    """The latest runs (of ``name``, or of every skill), newest first."""
    q = "SELECT * FROM skill_executions"
    args: tuple = ()
    if name is not None:
        q += " WHERE skill_name = ?"
        args = (name,)
    return conn.execute(q + " ORDER BY id DESC LIMIT ?", args + (int(limit),)).fetchall()


def episodes_with_run(conn: sqlite3.Connection, name: str, stopped_reason: Optional[str] = None,
                      data_contains: str = "") -> list[int]:
    """The episode ids in which ``name`` ran and ended with ``stopped_reason`` (any, if
    None), its data holding ``data_contains`` (e.g. a "why" the skill gave), sorted."""
    q = "SELECT DISTINCT episode_id FROM skill_executions WHERE skill_name = ? AND episode_id IS NOT NULL"
    args: list = [name]
    if stopped_reason is not None:
        q += " AND stopped_reason = ?"
        args.append(stopped_reason)
    if data_contains:
        q += " AND INSTR(COALESCE(data, ''), ?) > 0"
        args.append(data_contains)
    return sorted(int(r[0]) for r in conn.execute(q, args))


# A run an event stopped (see "Interrupted runs" above), as an SQL condition on `e`.
_INTERRUPTED = ("(COALESCE(e.success, 0) = 0 AND e.error IS NULL AND (LOWER(e.stopped_reason) = 'interrupted' "
                "OR LOWER(e.stopped_reason) LIKE 'interrupted:%'))")
_JUDGED = "(e.id > COALESCE(k.window_start, 0) AND e.version IS k.version)"

_STATS_SQL = f"""
    SELECT e.skill_name AS name, COUNT(*) AS n, COALESCE(SUM(e.success), 0) AS s,
           COALESCE(SUM(e.value), 0) AS v, MAX(e.timestamp) AS last,
           SUM(CASE WHEN e.error IS NOT NULL THEN 1 ELSE 0 END) AS errors, COALESCE(SUM(e.died), 0) AS deaths,
           SUM(CASE WHEN {_INTERRUPTED} THEN 1 ELSE 0 END) AS i,
           -- the game turns measured around the run (deltas), else the skill's own count
           COALESCE(SUM(COALESCE(json_extract(e.deltas, '$.turns'), e.turns_elapsed)), 0) AS t,
           SUM(CASE WHEN {_JUDGED} THEN 1 ELSE 0 END) AS rn,
           SUM(CASE WHEN {_JUDGED} THEN e.success ELSE 0 END) AS rs,
           SUM(CASE WHEN {_JUDGED} THEN e.value ELSE 0 END) AS rv,
           SUM(CASE WHEN {_JUDGED} AND {_INTERRUPTED} THEN 1 ELSE 0 END) AS ri
    FROM skill_executions e LEFT JOIN skills k ON k.name = e.skill_name
"""


def stats_rows(conn: sqlite3.Connection, name: Optional[str] = None) -> list[sqlite3.Row]:
    """Per skill name with runs (only ``name``'s when given): ``n`` runs, ``s`` successes,
    ``v`` total value, ``last`` timestamp, ``errors``, ``deaths``, ``i`` interrupted runs,
    ``t`` game turns (measured around each run when the snapshots allow), and the judged runs' ``rn`` count, ``rs`` successes, ``rv`` total value
    and ``ri`` interrupted runs."""
    if name is not None:
        return conn.execute(_STATS_SQL + " WHERE e.skill_name = ? GROUP BY e.skill_name", (name,)).fetchall()
    return conn.execute(_STATS_SQL + " GROUP BY e.skill_name").fetchall()


def version_records(conn: sqlite3.Connection, name: str) -> list[sqlite3.Row]:
    """Per version of ``name`` with runs (runs of no version left out): ``version``,
    ``n`` runs, ``s`` successes, ``i`` interrupted runs."""
    return conn.execute(
        f"""SELECT e.version AS version, COUNT(*) AS n, COALESCE(SUM(e.success), 0) AS s,
                   SUM(CASE WHEN {_INTERRUPTED} THEN 1 ELSE 0 END) AS i
            FROM skill_executions e WHERE e.skill_name = ? AND e.version IS NOT NULL
            GROUP BY e.version ORDER BY e.version""", (name,)).fetchall()


def max_version(conn: sqlite3.Connection, name: str) -> int:
    """The highest version number ``name`` has had (stored or current; 0: none)."""
    row = conn.execute("""SELECT MAX(v) FROM (SELECT MAX(version) AS v FROM skill_versions WHERE name = :n
                                              UNION ALL SELECT version FROM skills WHERE name = :n)""",
                       {"n": name}).fetchone()
    return int(row[0] or 0)


# ---------------------------------------------------------------- an old library.db
@dataclass
class MergedRuns:
    """What :func:`merge_old_library_db` did with an old ``library.db``."""

    path: Path  # the old file
    runs: int = 0  # runs copied into the run database
    versions: int = 0  # skill versions copied
    skills: list[str] = field(default_factory=list)  # names whose runs were copied
    moved_to: Optional[Path] = None  # the old file's new name (None: left where it was)
    problem: Optional[str] = None  # why nothing was merged (the file is left alone)


def merge_old_library_db(conn: sqlite3.Connection, old: Path) -> MergedRuns:
    """Copy the runs and versions of an old library database into ``conn``'s database,
    then rename the old file to ``<name>.merged-<timestamp>`` (see the module docstring).
    Runs already present (same skill, time and parameters) are not copied twice. An
    unreadable file is left where it is and ``problem`` says why."""
    out = MergedRuns(path=Path(old))
    try:
        runs, versions = _read_old(out.path)
    except sqlite3.DatabaseError as e:
        out.problem = f"could not read {out.path} ({e}); it is left where it is"
        return out
    with transaction(conn):
        fresh = [r for r in runs if conn.execute(
            "SELECT 1 FROM skill_executions WHERE skill_name = ? AND timestamp IS ? AND params IS ?",
            (r.get("skill_name"), r.get("timestamp"), r.get("params"))).fetchone() is None]
        lowest = int(conn.execute("SELECT MIN(COALESCE(MIN(id), 1), 1) FROM skill_executions").fetchone()[0])
        first_id = lowest - len(fresh)  # oldest lowest, all below 1
        for i, r in enumerate(fresh):
            values = [r.get(c) for c in _EXECUTION_COLUMNS]
            values[_EXECUTION_COLUMNS.index("episode_id")] = None
            values[_EXECUTION_COLUMNS.index("died")] = int(r.get("died") or 0)
            conn.execute(f"INSERT INTO skill_executions (id, {', '.join(_EXECUTION_COLUMNS)}) "
                         f"VALUES ({', '.join('?' * (len(_EXECUTION_COLUMNS) + 1))})", [first_id + i, *values])
        for v in versions:
            before = conn.total_changes
            keep_version(conn, v.get("name"), v.get("version"), v.get("code"), created_at=v.get("created_at"),
                         description=v.get("description"), category=v.get("category"), source=v.get("source"))
            out.versions += conn.total_changes - before
        out.skills = sorted({str(r.get("skill_name")) for r in fresh})
        for name in out.skills:
            recount(conn, name)
    out.runs = len(fresh)
    out.moved_to = _rename_merged(out.path)
    return out


def _read_old(path: Path) -> tuple[list[dict], list[dict]]:
    old = sqlite3.connect(str(path), timeout=30)
    try:
        old.row_factory = sqlite3.Row
        tables = {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        runs = [dict(r) for r in old.execute("SELECT * FROM skill_executions ORDER BY id")] \
            if "skill_executions" in tables else []
        versions = [dict(r) for r in old.execute("SELECT * FROM skill_versions")] \
            if "skill_versions" in tables else []
        if "skill_executions" in tables or "skill_versions" in tables:
            # fold the write-ahead log into the file, so the renamed file is whole on its own
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        old.close()
    return runs, versions


def _rename_merged(path: Path) -> Optional[Path]:
    target = aside_path(path, "merged")
    try:
        os.replace(path, target)
    except FileNotFoundError:  # another process merged it first
        return None
    move_sidecars(path, target)
    return target


__all__ = [
    "MergedRuns", "claim_draft_runs", "execution_rows", "insert_execution", "keep_version", "mark_retired",
    "mark_revived", "max_execution_id", "max_version", "merge_old_library_db", "recount", "skill_row", "skill_rows",
    "stats_rows", "upsert_skill", "version_records", "version_rows",
]

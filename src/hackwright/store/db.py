"""The SQLite store (spec §8.3): one file, several processes, ordered migrations.

``connect(path)`` opens (or creates) the database and returns a
:class:`StoreConnection` (a ``sqlite3.Connection``) that is

* in WAL mode with a ``busy_timeout``, so several processes (parallel
  episodes, the CLI) read and write the same file at once without losing rows;
  writers wait for each other instead of failing with "database is locked";
* in autocommit mode (``isolation_level=None``): group writes with
  :func:`transaction` (``BEGIN IMMEDIATE`` … ``COMMIT``);
* with foreign keys on and ``sqlite3.Row`` rows;
* migrated: :data:`MIGRATIONS` is an ordered list of ``(version, sql)``; each
  version above the one recorded in ``schema_version`` is applied once, inside
  one ``BEGIN IMMEDIATE`` transaction, so processes that open a fresh file at
  the same moment apply it exactly once.

Adding tables (episodes, model calls, events …): append ``(next_version, sql)``
to :data:`MIGRATIONS`. Never edit or reorder a migration that has shipped;
write a new one (``ALTER TABLE … ADD COLUMN …``) instead. A database written by
a newer program (a version this one does not know) is opened as it is, with a
warning.

Corrupt files
-------------
A file that is not SQLite (wrong header) or fails ``PRAGMA quick_check`` is
never overwritten and never silently replaced: it is moved aside to
``<path>.corrupt-<YYYYmmdd-HHMMSS>`` (its ``-wal`` / ``-shm`` files with it)
and a warning is logged on the ``hackwright.store`` logger. Then, with
``on_corrupt="recover"`` (the default), a fresh database is created at
``path`` and the returned connection's ``recovered_from`` names the moved
file; with ``on_corrupt="raise"`` :class:`CorruptDatabaseError` is raised
(``.moved_to`` is the moved file, ``.reason`` what was wrong) and calling
``connect`` again creates the fresh database.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Literal, Optional, Sequence, Union

log = logging.getLogger("hackwright.store")

DEFAULT_BUSY_TIMEOUT_MS = 30_000

# ---------------------------------------------------------------- migrations
# Version 1: the skill library. The spec's columns first (§8.3), then ours.
_V1_SKILLS = """
CREATE TABLE skills (
    -- spec §8.3
    name TEXT PRIMARY KEY,
    code TEXT,
    description TEXT,
    category TEXT,
    created_at TEXT,
    updated_at TEXT,
    execution_count INTEGER NOT NULL DEFAULT 0,   -- every recorded run, all versions
    success_count INTEGER NOT NULL DEFAULT 0,
    -- beyond the spec
    version INTEGER NOT NULL DEFAULT 1,           -- current version (skill_versions has them all)
    source TEXT NOT NULL DEFAULT 'model' CHECK (source IN ('builtin', 'model')),
    triggers TEXT NOT NULL DEFAULT '[]',          -- JSON list of event names
    parameters TEXT NOT NULL DEFAULT '[]',        -- JSON list of {name, type, default}
    retired INTEGER NOT NULL DEFAULT 0,
    retired_reason TEXT,
    retired_at TEXT,
    value_sum REAL NOT NULL DEFAULT 0,            -- sum of skill_executions.value, all versions
    value REAL,                                   -- mean value per run (NULL before the first run)
    last_used TEXT,
    window_start INTEGER NOT NULL DEFAULT 0       -- runs with skill_executions.id > this are judged
                                                  -- (moved on a new version and on revive)
);

CREATE TABLE skill_executions (
    -- spec §8.3
    id INTEGER PRIMARY KEY,
    timestamp TEXT,
    skill_name TEXT,
    params TEXT,                -- JSON
    stopped_reason TEXT,
    success INTEGER,
    actions_taken INTEGER,
    turns_elapsed INTEGER,
    game_state_before TEXT,     -- JSON snapshot
    game_state_after TEXT,      -- JSON snapshot
    -- beyond the spec
    episode_id INTEGER,         -- the agent loop's episode (no foreign key: episodes come later)
    version INTEGER,            -- skill version that ran (NULL: not in the library at the time)
    error TEXT,                 -- the error's text when the run failed with one
    deltas TEXT,                -- JSON: score, depth, xp_level, hp, hp_fraction, hunger, turns, gold
    value REAL,                 -- scalar value of the run (see hackwright.skills.library)
    died INTEGER NOT NULL DEFAULT 0,
    data TEXT                   -- JSON: SkillResult.data
);
CREATE INDEX skill_executions_by_skill ON skill_executions (skill_name, id);
CREATE INDEX skill_executions_by_episode ON skill_executions (episode_id);

CREATE TABLE skill_versions (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    code TEXT NOT NULL,
    created_at TEXT,
    description TEXT,
    category TEXT,
    source TEXT,
    PRIMARY KEY (name, version)
);
"""

# Episodes (spec §8.3 columns first), model exchanges and game events.
_V2_EPISODES = """
CREATE TABLE IF NOT EXISTS episodes (
    id INTEGER PRIMARY KEY,
    started_at TEXT,
    ended_at TEXT,
    final_score INTEGER,
    final_dlvl INTEGER,
    death_reason TEXT,
    total_turns INTEGER,
    skills_used TEXT,
    seed INTEGER,
    env_id TEXT,
    role TEXT,
    strategist TEXT,
    end_reason TEXT,
    max_depth INTEGER,
    max_xp_level INTEGER,
    progression REAL,
    decisions INTEGER DEFAULT 0,
    model_calls INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    cost_usd REAL DEFAULT 0,
    skills_created TEXT,
    ttyrec TEXT,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS model_calls (
    id INTEGER PRIMARY KEY,
    episode_id INTEGER,
    step INTEGER,
    timestamp TEXT,
    backend TEXT,
    model TEXT,
    prompt TEXT,
    reply TEXT,
    tool_input TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    latency_s REAL,
    cost_usd REAL,
    error TEXT
);
CREATE INDEX IF NOT EXISTS model_calls_episode ON model_calls (episode_id, id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    episode_id INTEGER,
    step INTEGER,
    turn INTEGER,
    kind TEXT,
    message TEXT,
    data TEXT
);
CREATE INDEX IF NOT EXISTS events_episode ON events (episode_id, id);
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY,
    episode_id INTEGER,
    step INTEGER,
    turn INTEGER,
    type TEXT,
    skill_name TEXT,
    params TEXT,
    code TEXT,
    reasoning TEXT,
    stopped_reason TEXT,
    success INTEGER,
    error TEXT
);
CREATE INDEX IF NOT EXISTS decisions_episode ON decisions (episode_id, id);
"""

# Who made each decision: the named strategist ("strategist"), the same after an unusable
# reply was sent back ("retry"), the fallback strategist standing in for a failed model
# ("fallback"), or the autopilot breaking a loop ("loop_break"); the episode counts both
# kinds of stand-in, so no table shows a model's figures without them.
_V3_DECIDED_BY = """
ALTER TABLE decisions ADD COLUMN decided_by TEXT;
ALTER TABLE episodes ADD COLUMN fallback_decisions INTEGER DEFAULT 0;
ALTER TABLE episodes ADD COLUMN loop_break_decisions INTEGER DEFAULT 0;
"""

# A MiniHack task's own verdict (env/task.py): success 1/0 and its summed reward; NULL
# when no task was tracked (the challenge environment, custom levels).
_V4_TASK = """
ALTER TABLE episodes ADD COLUMN task_success INTEGER;
ALTER TABLE episodes ADD COLUMN task_reward REAL;
"""

MIGRATIONS: list[tuple[int, str]] = [
    (1, _V1_SKILLS),
    (2, _V2_EPISODES),
    (3, _V3_DECIDED_BY),
    (4, _V4_TASK),
]


class StoreError(Exception):
    """Base of the store's errors."""


class CorruptDatabaseError(StoreError):
    """The database file was corrupt and has been moved aside to ``moved_to``."""

    def __init__(self, path: Path, moved_to: Path, reason: str):
        self.path = Path(path)
        self.moved_to = Path(moved_to)
        self.reason = reason
        super().__init__(f"corrupt database {self.path} ({reason}); moved aside to {self.moved_to}")


class StoreConnection(sqlite3.Connection):
    """A ``sqlite3.Connection`` that knows its file and whether it replaced a corrupt one."""

    path: Optional[Path] = None
    recovered_from: Optional[Path] = None  # where a corrupt file at ``path`` was moved
    corrupt_reason: Optional[str] = None


def utc_now() -> str:
    """ISO 8601 UTC time with milliseconds: sortable as text."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


# ---------------------------------------------------------------- connect
def connect(
    path: Union[str, os.PathLike],
    *,
    migrations: Optional[Sequence[tuple[int, str]]] = None,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    check: bool = True,
    on_corrupt: Literal["recover", "raise"] = "recover",
) -> StoreConnection:
    """Open the database at ``path`` (created with its folder when missing), migrated.

    ``migrations`` defaults to :data:`MIGRATIONS`. ``check=False`` skips the
    integrity check (``PRAGMA quick_check`` reads the whole file). See the
    module docstring for what happens to a corrupt file.
    """
    if on_corrupt not in ("recover", "raise"):
        raise ValueError("on_corrupt must be 'recover' or 'raise'")
    steps = list(MIGRATIONS if migrations is None else migrations)
    _check_migrations(steps)
    memory = str(path) == ":memory:"
    p = Path(path)
    if not memory:
        p.parent.mkdir(parents=True, exist_ok=True)
    recovered: Optional[tuple[Path, str]] = None
    if not memory and check:
        conn = _open(p, busy_timeout_ms)
        reason = _integrity_problem(conn)
        if reason is None:
            return _finish(conn, p, steps, None)
        conn.close()
        moved = _move_aside(p, reason)
        if on_corrupt == "raise":
            raise CorruptDatabaseError(p, moved, reason)
        recovered = (moved, reason)
    for attempt in range(5):
        conn = _open(p if not memory else ":memory:", busy_timeout_ms)
        try:
            return _finish(conn, None if memory else p, steps, recovered)
        except sqlite3.OperationalError as e:
            # Seen once under load with several processes opening the same WAL database:
            # a transient "disk I/O error" on the journal-mode pragma. Open again.
            if "disk I/O error" not in str(e) or attempt == 4:
                raise
            time.sleep(0.1 * (attempt + 1))
    raise AssertionError("unreachable")


def _open(p: Union[Path, str], busy_timeout_ms: int) -> StoreConnection:
    conn = sqlite3.connect(
        str(p), timeout=busy_timeout_ms / 1000, isolation_level=None, factory=StoreConnection
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    return conn  # type: ignore[return-value]


def _finish(
    conn: StoreConnection, p: Optional[Path], steps: list[tuple[int, str]], recovered: Optional[tuple[Path, str]]
) -> StoreConnection:
    try:
        if p is not None:
            _retry_locked(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn, steps)
    except BaseException:
        conn.close()
        raise
    conn.path = p
    if recovered is not None:
        conn.recovered_from, conn.corrupt_reason = recovered
    return conn


def _retry_io(fn, attempts: int = 5):
    """Run ``fn``, retrying a few times while SQLite says "disk I/O error" (transient
    under load with several processes on one WAL database)."""
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as e:
            if "disk I/O error" not in str(e) or i == attempts - 1:
                raise
            time.sleep(0.1 * (i + 1))


def _retry_locked(fn, attempts: int = 50, delay: float = 0.05):
    """Run ``fn``, retrying while SQLite says the database is locked (a few
    pragmas do not wait on busy_timeout)."""
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or i == attempts - 1:
                raise
            time.sleep(delay)


# ---------------------------------------------------------------- corruption
# The file is read through SQLite only, never opened by hand: closing any descriptor of
# a database file drops every POSIX lock this process holds on it (the store's other
# connections' too), and another process's reader that then closes believes itself the
# last one and deletes the -wal and -shm files under them ("disk I/O error" from then on).
def _integrity_problem(conn: sqlite3.Connection) -> Optional[str]:
    try:
        rows = _retry_io(lambda: conn.execute("PRAGMA quick_check").fetchall())
    except sqlite3.DatabaseError as e:
        text = str(e)
        # Locked, busy or a disk I/O error that outlived its retries: the disk or another
        # process, not the file, and never a reason to move aside a file in use.
        if isinstance(e, sqlite3.OperationalError) and any(
                w in text for w in ("locked", "busy", "disk I/O error")):
            raise
        if "file is not a database" in text:
            return "not an SQLite database (wrong file header)"
        return f"unreadable: {e}"
    problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
    if problems:
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        return "integrity check failed: " + "; ".join(problems[:3]) + more
    return None


def aside_path(p: Path, label: str) -> Path:
    """A free ``<name>.<label>-<timestamp>[-n]`` beside ``p``, for moving a file aside."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = p.with_name(f"{p.name}.{label}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = p.with_name(f"{p.name}.{label}-{stamp}-{n}")
    return target


def corrupt_path(p: Path) -> Path:
    """A free ``<name>.corrupt-<timestamp>[-n]`` beside ``p``, for moving a bad file aside."""
    return aside_path(p, "corrupt")


def move_sidecars(p: Path, target: Path) -> None:
    """Move a database's -wal, -shm and -journal files after the database moved to ``target``
    (best effort: a left-over side file only costs disk)."""
    for suffix in ("-wal", "-shm", "-journal"):
        side = p.with_name(p.name + suffix)
        if side.exists():
            try:
                os.replace(side, target.with_name(target.name + suffix))
            except OSError:  # pragma: no cover - best effort
                pass


def _move_aside(p: Path, reason: str) -> Path:
    target = corrupt_path(p)
    try:
        os.replace(p, target)
    except FileNotFoundError:
        # another process moved it first; report the file it is (probably) at
        log.warning("corrupt database %s was already moved aside by another process", p)
        return target
    move_sidecars(p, target)
    log.warning("corrupt database %s (%s): moved aside to %s; starting a new one", p, reason, target)
    return target


# ---------------------------------------------------------------- migrations
def _check_migrations(steps: Sequence[tuple[int, str]]) -> None:
    last = 0
    for version, sql in steps:
        if not isinstance(version, int) or version <= last:
            raise ValueError(f"migrations must have strictly increasing positive versions (got {version} after {last})")
        if not isinstance(sql, str):
            raise ValueError(f"migration {version}: sql must be a string")
        last = version


def split_statements(sql: str) -> list[str]:
    """Split a script into complete SQL statements (triggers kept whole)."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        # strip comment-only tails
        rest = "\n".join(ln for ln in buf.splitlines() if not ln.strip().startswith("--")).strip()
        if rest:
            out.append(rest)
    return out


def schema_version(conn: sqlite3.Connection) -> int:
    """The highest migration applied (0 for a new database)."""
    try:
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    except sqlite3.OperationalError:
        return 0
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, migrations: Optional[Sequence[tuple[int, str]]] = None) -> list[int]:
    """Apply the migrations the database lacks, in order; return the versions applied.

    Safe to call any number of times and from several processes at once: the
    check and the changes happen in one ``BEGIN IMMEDIATE`` transaction.
    """
    steps = list(MIGRATIONS if migrations is None else migrations)
    _check_migrations(steps)
    last = steps[-1][0] if steps else 0
    if schema_version(conn) >= last:  # the common case, without taking the write lock
        if schema_version(conn) > last:
            log.warning("database schema version %d is newer than this program knows (%d); opening it as it is",
                        schema_version(conn), last)
        return []
    applied: list[int] = []
    with transaction(conn):
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        current = schema_version(conn)
        for version, sql in steps:
            if version <= current:
                continue
            for stmt in split_statements(sql):
                conn.execute(stmt)
            conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, utc_now()))
            applied.append(version)
    return applied


# ---------------------------------------------------------------- transactions
@contextmanager
def transaction(conn: sqlite3.Connection, mode: Literal["IMMEDIATE", "DEFERRED", "EXCLUSIVE"] = "IMMEDIATE") -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error).

    IMMEDIATE takes the write lock at the start, so a read-then-write inside
    the block sees no other writer in between (and waits busy_timeout for one
    that is writing). Nested use joins the outer transaction.
    """
    if conn.in_transaction:
        yield conn
        return
    _retry_locked(lambda: conn.execute(f"BEGIN {mode}"))
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        _retry_locked(lambda: conn.execute("COMMIT"))

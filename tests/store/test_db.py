"""The SQLite store: WAL, migrations, several writers, corrupt files."""

from __future__ import annotations

import logging
import multiprocessing
import sqlite3

import pytest

from hackwright.store import MIGRATIONS, CorruptDatabaseError, connect, migrate, schema_version, transaction

SPEC_SKILLS = ["name", "code", "description", "category", "created_at", "updated_at", "execution_count",
               "success_count"]
SPEC_EXECUTIONS = ["id", "timestamp", "skill_name", "params", "stopped_reason", "success", "actions_taken",
                   "turns_elapsed", "game_state_before", "game_state_after"]


def columns(conn, table):
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def test_a_new_database_is_in_wal_mode_and_has_the_spec_tables(tmp_path):
    conn = connect(tmp_path / "sub" / "run.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    # the spec's columns come first, in the spec's order; ours follow
    assert columns(conn, "skills")[: len(SPEC_SKILLS)] == SPEC_SKILLS
    assert columns(conn, "skill_executions")[: len(SPEC_EXECUTIONS)] == SPEC_EXECUTIONS
    for extra in ("version", "retired", "source", "triggers", "parameters", "value"):
        assert extra in columns(conn, "skills")
    for extra in ("episode_id", "version", "error", "deltas", "value"):
        assert extra in columns(conn, "skill_executions")
    assert {"name", "version", "code", "created_at"} <= set(columns(conn, "skill_versions"))
    assert schema_version(conn) == MIGRATIONS[-1][0]
    conn.close()


def test_migrations_are_applied_once_and_new_ones_appended_later(tmp_path):
    path = tmp_path / "m.db"
    connect(path).close()
    conn = connect(path)
    assert [r[0] for r in conn.execute("SELECT version FROM schema_version")] == [v for v, _ in MIGRATIONS]
    assert migrate(conn) == []
    conn.close()
    nxt = MIGRATIONS[-1][0] + 1
    more = MIGRATIONS + [
        (nxt, "CREATE TABLE future_things (id INTEGER PRIMARY KEY, started_at TEXT);\n"
              "-- a comment between statements\n"
              "CREATE INDEX future_things_by_start ON future_things (started_at);"),
    ]
    conn = connect(path, migrations=more)
    assert schema_version(conn) == nxt
    assert "started_at" in columns(conn, "future_things")
    assert migrate(conn, more) == []
    conn.close()
    # an older program opens the newer database as it is
    conn = connect(path)
    assert schema_version(conn) == nxt
    conn.close()


def test_migrations_must_be_in_order(tmp_path):
    with pytest.raises(ValueError):
        connect(tmp_path / "x.db", migrations=[(2, "SELECT 1"), (1, "SELECT 1")])


def test_a_failed_transaction_leaves_nothing(tmp_path):
    conn = connect(tmp_path / "t.db")
    with pytest.raises(RuntimeError):
        with transaction(conn):
            conn.execute("INSERT INTO skill_executions (skill_name) VALUES ('a')")
            raise RuntimeError("boom")
    assert conn.execute("SELECT COUNT(*) FROM skill_executions").fetchone()[0] == 0


def _insert_rows(path: str, worker: int, n: int) -> None:
    conn = connect(path)
    for i in range(n):
        with transaction(conn):
            conn.execute("INSERT INTO skill_executions (skill_name, params) VALUES (?, ?)", (f"w{worker}", str(i)))
    conn.close()


def test_four_processes_inserting_at_once_lose_no_rows(tmp_path):
    path = str(tmp_path / "shared.db")  # fresh: the processes also race to create and migrate it
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_insert_rows, args=(path, w, 100)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    conn = connect(path)
    assert conn.execute("SELECT COUNT(*) FROM skill_executions").fetchone()[0] == 400
    per = dict(conn.execute("SELECT skill_name, COUNT(*) FROM skill_executions GROUP BY skill_name").fetchall())
    assert per == {"w0": 100, "w1": 100, "w2": 100, "w3": 100}
    assert [r[0] for r in conn.execute("SELECT version FROM schema_version")] == [v for v, _ in MIGRATIONS]


def test_a_corrupt_database_file_is_moved_aside_and_reported(tmp_path, caplog):
    path = tmp_path / "memory.db"
    path.write_bytes(b"this is not a database, but someone's notes\n" * 20)
    with caplog.at_level(logging.WARNING, logger="hackwright.store"):
        conn = connect(path)
    moved = conn.recovered_from
    assert moved is not None and moved.name.startswith("memory.db.corrupt-")
    assert moved.read_bytes().startswith(b"this is not a database")  # kept, not overwritten
    assert "corrupt" in caplog.text and str(moved) in caplog.text
    conn.execute("INSERT INTO skill_executions (skill_name) VALUES ('x')")  # a fresh, working database
    assert conn.execute("SELECT COUNT(*) FROM skill_executions").fetchone()[0] == 1
    conn.close()
    assert connect(path).recovered_from is None  # the new file is fine


def test_a_damaged_sqlite_file_fails_the_check_and_can_raise(tmp_path):
    path = tmp_path / "damaged.db"
    conn = connect(path)
    for i in range(3000):
        conn.execute("INSERT INTO skill_executions (skill_name, params) VALUES (?, ?)", ("s", "x" * 100))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with open(path, "r+b") as f:  # wipe a few b-tree pages (past the header page)
        f.seek(4096 * 3)
        f.write(b"\xff" * 4096 * 4)
    original = path.read_bytes()
    with pytest.raises(CorruptDatabaseError) as info:
        connect(path, on_corrupt="raise")
    err = info.value
    assert err.moved_to.exists() and err.moved_to.read_bytes() == original
    assert not path.exists()
    assert "moved aside" in str(err)
    conn = connect(path)  # now a new one
    assert conn.recovered_from is None
    assert conn.execute("SELECT COUNT(*) FROM skill_executions").fetchone()[0] == 0


def test_rows_are_sqlite_rows(tmp_path):
    conn = connect(tmp_path / "r.db")
    row = conn.execute("SELECT 1 AS one").fetchone()
    assert isinstance(row, sqlite3.Row) and row["one"] == 1


def _read_and_close(path: str) -> None:
    """Another program's reader: opens the database, reads, closes."""
    conn = sqlite3.connect(path)
    conn.execute("SELECT COUNT(*) FROM skill_executions").fetchone()
    conn.close()


def test_a_reader_in_another_process_never_pulls_the_journal_from_under_this_one(tmp_path):
    """An eval writes its run database for minutes while a researcher looks into it with
    sqlite3. The checked open that the skill library makes beside the run's own connection
    must leave this process's locks alone: when the reader closed, believing itself the
    last user, it deleted the -wal and -shm files, the eval's writes failed with "disk
    I/O error" and the next checked open moved the whole run database aside."""
    path = tmp_path / "runs.db"
    run = connect(path, check=False)
    run.execute("INSERT INTO skill_executions (skill_name) VALUES ('before')")
    library = connect(path)  # checked, in the same process, while the run's connection is open
    ctx = multiprocessing.get_context("spawn")
    for _ in range(2):
        reader = ctx.Process(target=_read_and_close, args=(str(path),))
        reader.start()
        reader.join(60)
        assert reader.exitcode == 0
        assert (tmp_path / "runs.db-wal").exists(), "the reader deleted the journal of a database in use"
        run.execute("INSERT INTO skill_executions (skill_name) VALUES ('run')")
        library.execute("INSERT INTO skill_executions (skill_name) VALUES ('library')")
        again = connect(path)
        assert again.recovered_from is None, "a database in use was moved aside as corrupt"
        again.close()
    assert run.execute("SELECT COUNT(*) FROM skill_executions").fetchone()[0] == 5
    assert not list(tmp_path.glob("runs.db.corrupt-*"))

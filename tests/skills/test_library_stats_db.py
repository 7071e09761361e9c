"""One database for runs and skill statistics: what episodes record is what `hackwright
skills` shows and what prune judges (real episodes, the real CLI, real SQLite files)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hackwright.cli import app
from hackwright.skills.library import SkillLibrary
from hackwright.skills.result import SkillResult
from tests.agent.fake_model_server import FakeModelServer, Reply

runner = CliRunner()

# A model-written skill that never works: it spends a turn, then fails with an error.
BUMP = '''\
async def bump_the_wall(nh):
    """Search once, then fail: the wall it wants to bump is never there."""
    await nh.search()
    raise ValueError("no wall to bump here")
'''


@pytest.fixture(autouse=True)
def own_folder(tmp_path, monkeypatch):
    """Each test in its own folder (./data/memory.db and ./skills are its defaults), with
    no settings from outside and wide tables."""
    monkeypatch.chdir(tmp_path)
    for name in ("HACKWRIGHT_CONFIG", "HACKWRIGHT_MEMORY_DATABASE_PATH", "HACKWRIGHT_LIBRARY",
                 "HACKWRIGHT_SKILLS_LIBRARY_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "200")


def invoke(*args: str, env: dict | None = None):
    r = runner.invoke(app, list(args), env=env)
    assert r.exit_code == 0, r.output
    return r


def play(*args: str) -> dict:
    """`hackwright play … --json`: the episode's summary."""
    r = invoke("play", "--no-record", "--json", *args)
    return json.loads(r.output[r.output.index("{"):])


def table_row(output: str, name: str, column: int = 0) -> list[str]:
    """The cells of the table row whose cell ``column`` is ``name``."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip().strip("│┃").split("│")]
        if len(cells) > column and cells[column] == name:
            return cells
    raise AssertionError(f"no row for {name} in:\n{output}")


def runs_in(db: Path, name: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM skill_executions WHERE skill_name = ?", (name,)).fetchone()[0]


def database_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("database: "))


# ---------------------------------------------------------------- episodes, then the CLI
def test_skills_stats_after_play_with_db_and_library_flags_reads_the_database_the_episode_used(tmp_path):
    db, lib = tmp_path / "runs" / "x.db", tmp_path / "lib"
    summary = play("--seed", "0", "--max-steps", "3", "--db", str(db), "--library", str(lib))
    used = summary["skills_used"]
    assert used and sum(used.values()) == 3
    out = invoke("skills", "stats", "--library", str(lib)).output
    assert database_line(out) == (f"database: {db} (where this library's runs were last recorded, "
                                  f"per {lib / 'run-database.json'})")
    for name, count in used.items():
        assert table_row(out, name)[1] == str(count) == str(runs_in(db, name))
    # `list` and `show` read the same numbers
    listed = invoke("skills", "list", "--library", str(lib)).output
    name, count = next(iter(used.items()))
    cell = table_row(listed, name, column=1)[3]  # "R% of F": F finished runs, "(+I int.)" if I were interrupted
    finished, _, interrupted = cell.partition(" of ")[2].partition(" (+")
    assert int(finished) + int(interrupted.split()[0] if interrupted else 0) == count
    assert f"statistics from {db}" in listed
    shown = invoke("skills", "show", name, "--library", str(lib)).output
    assert table_row(shown, "runs")[1].startswith(f"{count} (")
    # a library made in code without db_path finds them too
    with SkillLibrary(lib) as same:
        assert same.db_path == db and same.stats(name).executions == count


def test_the_memory_database_variable_and_the_db_flag_choose_the_database_and_path_says_which(tmp_path):
    db, lib = tmp_path / "x.db", tmp_path / "lib"
    summary = play("--seed", "1", "--max-steps", "3", "--db", str(db), "--library", str(lib))
    name, count = next(iter(summary["skills_used"].items()))
    (lib / "run-database.json").unlink()  # nothing left in the library says where its runs are
    out = invoke("skills", "stats", env={"HACKWRIGHT_MEMORY_DATABASE_PATH": str(db),
                                         "HACKWRIGHT_LIBRARY": str(lib)}).output
    assert database_line(out) == f"database: {db} (HACKWRIGHT_MEMORY_DATABASE_PATH)"
    assert table_row(out, name)[1] == str(count)
    out = invoke("skills", "stats", "--library", str(lib), "--db", str(db)).output
    assert database_line(out) == f"database: {db} (--db)" and table_row(out, name)[1] == str(count)
    # without either: the run database of the configuration, where this episode did not play
    out = invoke("skills", "stats", "--library", str(lib)).output
    assert database_line(out) == "database: data/memory.db (the default memory.database_path)"
    assert table_row(out, name)[1] == "0"
    path = invoke("skills", "path", "--library", str(lib), "--db", str(db)).output
    assert table_row(path, "database")[1] == str(db.resolve()) and table_row(path, "chosen by")[1] == "--db"


def test_skills_stats_of_an_evaluation_folder_shows_the_runs_of_its_episodes(tmp_path):
    out_dir = tmp_path / "OUT"
    invoke("eval", "--agent", "autopilot", "--seeds", "0-1", "--max-steps", "3", "--out", str(out_dir),
           "--no-report", "--no-record")
    runs_db, lib = out_dir / "runs.db", out_dir / "skills"
    counts: dict[str, int] = {}
    for line in (out_dir / "episodes.jsonl").read_text().splitlines():
        for name, n in json.loads(line)["skills_used"].items():
            counts[name] = counts.get(name, 0) + n
    assert counts and all(runs_in(runs_db, name) == n for name, n in counts.items())
    out = invoke("skills", "stats", "--library", str(lib)).output
    assert database_line(out).startswith(f"database: {runs_db} (where this library's runs were last recorded")
    for name, count in counts.items():
        assert table_row(out, name)[1] == str(count)
    out = invoke("skills", "stats", "--library", str(lib), "--db", str(runs_db)).output
    assert all(table_row(out, name)[1] == str(count) for name, count in counts.items())
    # an evaluation folder written before libraries named their database: runs.db beside the library
    (lib / "run-database.json").unlink()
    out = invoke("skills", "stats", "--library", str(lib)).output
    assert database_line(out) == f"database: {runs_db} (the evaluation's run database beside the library)"
    assert all(table_row(out, name)[1] == str(count) for name, count in counts.items())


# ---------------------------------------------------------------- pruning judges the episodes' runs
@pytest.fixture
def model():
    with FakeModelServer() as server:
        server.script(*[Reply(tool_input={"action": "invoke", "skill": "bump_the_wall", "params": {},
                                          "reasoning": "scripted"}) for _ in range(8)])
        yield f"openai:scripted@{server.openai_base_url}"


def save_bump(lib: Path, db: Path) -> None:
    with SkillLibrary(lib, db_path=db) as library:
        library.save("bump_the_wall", BUMP, category="navigation")


def test_a_library_made_without_db_path_prunes_a_skill_that_failed_in_every_episode_run(tmp_path, model):
    db, lib = tmp_path / "x.db", tmp_path / "lib"
    save_bump(lib, db)
    summary = play("--llm", model, "--seed", "2", "--max-steps", "3", "--db", str(db), "--library", str(lib))
    assert summary["skills_used"] == {"bump_the_wall": 3}
    with SkillLibrary(lib) as library:  # no db_path: the database the episode recorded in
        st = library.stats("bump_the_wall")
        assert (st.executions, st.successes, st.errors, st.recent_executions) == (3, 0, 3, 3)
        assert library.prune(min_runs=3) == ["bump_the_wall"]
        assert library.get("bump_the_wall").retired_reason.startswith("mean value -100.0 ≤ 0 after 3 runs")
    out = invoke("skills", "stats", "--library", str(lib)).output
    assert table_row(out, "bump_the_wall")[1:3] == ["3", "0%"] and table_row(out, "bump_the_wall")[-1] == "retired"


def test_a_skill_failing_in_two_episodes_is_retired_by_the_episodes_own_prune(tmp_path, model):
    db, lib = tmp_path / "x.db", tmp_path / "lib"
    save_bump(lib, db)
    args = ("--llm", model, "--max-steps", "3", "--db", str(db), "--library", str(lib))
    play("--seed", "3", *args)
    out = invoke("skills", "list", "--library", str(lib)).output
    assert table_row(out, "bump_the_wall", column=1)[3] == "0% of 3"  # three runs: too few to judge (prune wants 5)
    play("--seed", "4", *args)
    assert "bump_the_wall" not in invoke("skills", "list", "--library", str(lib)).output
    out = invoke("skills", "list", "--all", "--library", str(lib)).output
    assert table_row(out, "bump_the_wall (retired)", column=1)[3] == "0% of 6"
    shown = invoke("skills", "show", "bump_the_wall", "--library", str(lib)).output
    assert "mean value -100.0 ≤ 0 after 6 runs" in shown


# ---------------------------------------------------------------- an old <library>/library.db
def old_library_with_runs(root: Path, runs: int) -> None:
    """A library as older versions left it: statistics in <library>/library.db, nothing
    naming a run database."""
    with SkillLibrary(root, db_path=root / "library.db", builtin_root=None) as old:
        old.save("go_east", 'async def go_east(nh):\n    """Walk east."""\n    return SkillResult("x")\n',
                 category="navigation")
        for _ in range(runs):
            old.record_execution("go_east", params={}, result=SkillResult("blocked", success=False),
                                 before={"hp": 10, "max_hp": 10}, after={"hp": 5, "max_hp": 10}, episode_id=1)
    (root / "run-database.json").unlink()


def test_an_old_library_db_is_merged_into_the_run_database_once_and_kept_renamed(tmp_path):
    root, db = tmp_path / "lib", tmp_path / "x.db"
    old_library_with_runs(root, 5)
    out = invoke("skills", "stats", "--library", str(root), "--db", str(db)).output
    assert f"merged 5 runs from the old {root / 'library.db'} into {db}" in out
    assert table_row(out, "go_east")[1:5] == ["5", "0%", "-5.0", "0 @ +0.0"]  # counted, not judged
    assert not (root / "library.db").exists()
    [kept] = root.glob("library.db.merged-*")
    with sqlite3.connect(kept) as conn:  # the old file is whole on its own
        assert conn.execute("SELECT COUNT(*) FROM skill_executions").fetchone()[0] == 5
    out = invoke("skills", "stats", "--library", str(root), "--db", str(db)).output
    assert "merged" not in out and table_row(out, "go_east")[1] == "5"
    with SkillLibrary(root, db_path=db, builtin_root=None) as lib:
        assert lib.prune(min_runs=5) == []  # the merged runs are history, not judged
        assert all(r.episode_id is None for r in lib.executions("go_east"))
        rec = lib.record_execution("go_east", params={}, result=SkillResult("ok", success=True), before={}, after={})
        assert rec.id == 1
        st = lib.stats("go_east")
        assert (st.executions, st.recent_executions, st.recent_successes) == (6, 1, 1)


def test_the_same_old_runs_are_not_merged_twice(tmp_path):
    root, db = tmp_path / "lib", tmp_path / "x.db"
    old_library_with_runs(root, 2)
    copy = tmp_path / "library.db.copy"
    copy.write_bytes((root / "library.db").read_bytes())
    with SkillLibrary(root, db_path=db, builtin_root=None) as lib:
        assert lib.load().merged.runs == 2
        copy.rename(root / "library.db")  # the same file back again
        report = lib.load()
        assert report.merged.runs == 0 and report.merged.moved_to is not None
        assert lib.stats("go_east").executions == 2


def test_an_unreadable_old_library_db_is_left_alone_and_reported(tmp_path):
    root, db = tmp_path / "lib", tmp_path / "x.db"
    root.mkdir()
    (root / "library.db").write_bytes(b"garbage" * 100)
    with SkillLibrary(root, db_path=db, builtin_root=None) as lib:
        report = lib.load()
    assert report.merged.problem.startswith(f"could not read {root / 'library.db'} (file is not a database)")
    assert report.merged.problem in report.warnings
    assert (root / "library.db").read_bytes() == b"garbage" * 100
    out = invoke("skills", "list", "--library", str(root), "--db", str(db)).output
    assert f"old database not merged: could not read {root / 'library.db'}" in " ".join(out.split())

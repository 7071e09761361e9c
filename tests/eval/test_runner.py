"""The evaluation runner: real episodes in parallel processes (and on a local Ray), resumable,
with tables and a report at the end."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hackwright.cli import app
from hackwright.eval.runner import EpisodeJob, EvalConfig, EvalError, EvalRunner, parse_seeds, run_episode_job

cli = CliRunner()


def _rows(out):
    with (out / "episodes.csv").open() as f:
        return list(csv.DictReader(f))


def test_seed_lists_read_like_the_issue_writes_them():
    assert parse_seeds("0-3") == [0, 1, 2, 3]
    assert parse_seeds("1,5,9") == [1, 5, 9]
    assert parse_seeds("0-2,10,1") == [0, 1, 2, 10]
    for bad in ("", "3-1", "a-b", "1;2"):
        with pytest.raises(EvalError):
            parse_seeds(bad)


def test_random_and_autopilot_on_seeds_0_to_3_give_tables_and_a_report(tmp_path):
    out = tmp_path / "eval"
    r = cli.invoke(app, ["eval", "--agent", "random", "--seeds", "0-3", "--workers", "2", "--max-steps", "150",
                         "--out", str(out)])
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["eval", "--agent", "autopilot", "--seeds", "0-3", "--workers", "2", "--max-turns", "300",
                         "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "game turns per second per worker" in r.output
    assert "all 4 played; writing report.md and report.html" in r.output, r.output  # not a silent wait
    rows = _rows(out)
    assert sorted((x["agent"], int(x["seed"])) for x in rows) == [(a, s) for a in ("autopilot", "random")
                                                                   for s in range(4)]
    for x in rows:
        assert not x["end_reason"].startswith("error"), x
        assert int(x["max_depth"]) >= 1 and int(x["max_xp_level"]) >= 1 and int(x["score"]) >= 0
    auto = [x for x in rows if x["agent"] == "autopilot"]
    # The autopilot plays a few hundred turns per seed, each decision covering many of them.
    assert all(int(x["turns"]) >= 300 for x in auto)
    assert all(float(x["decisions_per_1000_turns"]) < 100 for x in auto)
    assert all(0.0 <= float(x["progression"]) <= 1.0 for x in rows)
    # Every episode keeps its record folder: ttyrec and frames for replays.
    for x in auto:
        files = {p.name for p in Path(x["record_dir"]).iterdir()}
        assert "frames.bin" in files and any("ttyrec" in f for f in files), files
    for name in ("report.md", "report.html", "episodes.jsonl"):
        assert (out / name).stat().st_size > 0
    pngs = list((out / "plots").glob("*.png"))
    assert len(pngs) >= 5 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    html = (out / "report.html").read_text()
    assert "autopilot" in html and "random" in html and "data:image/png;base64" in html
    # A parallel worker's episode replays from its folder with its decisions (ids agree).
    r = cli.invoke(app, ["replay", auto[0]["record_dir"], "--db", str(out / "runs.db"), "--final", "--no-color"])
    assert r.exit_code == 0 and "decisions not shown" not in r.output and "step " in r.output, r.output
    # The run database has the episodes and their decisions.
    db = sqlite3.connect(out / "runs.db")
    assert db.execute("SELECT COUNT(*) FROM episodes WHERE ended_at IS NOT NULL").fetchone()[0] == 8
    assert db.execute("SELECT COUNT(*) FROM decisions").fetchone()[0] > 8


def test_an_interrupted_evaluation_resumes_without_replaying_finished_seeds(tmp_path):
    out = tmp_path / "eval"
    first = EvalRunner(EvalConfig(agent="autopilot", seeds=[0], max_turns=150, out_dir=str(out), record=False,
                                  report=False)).run()
    assert first.played == 1
    again = EvalRunner(EvalConfig(agent="autopilot", seeds=[0, 1], max_turns=150, out_dir=str(out), record=False,
                                  report=False)).run()
    assert again.skipped == [0] and again.played == 1
    assert [s["seed"] for s in again.summaries] == [0, 1]
    lines = (out / "episodes.jsonl").read_text().splitlines()
    assert len(lines) == 2


def test_an_episode_that_cannot_start_is_a_harness_error_not_a_crash(tmp_path):
    s = run_episode_job(EpisodeJob(agent="autopilot", seed=0, role="plumber", db_path=str(tmp_path / "r.db"),
                                   library_path=str(tmp_path / "skills")))
    assert s["end_reason"].startswith("error:") and "plumber" in s["end_reason"]
    assert s["error"] and s["turns"] == 0


def test_the_handcrafted_baseline_plays_by_its_rules(tmp_path):
    s = run_episode_job(EpisodeJob(agent="handcrafted", seed=1, max_turns=400, db_path=str(tmp_path / "r.db"),
                                   library_path=str(tmp_path / "skills")))
    assert s["error"] is None and s["strategist"] == "handcrafted"
    assert s["turns"] >= 300 and s["fallback_steps"] == 0
    assert set(s["skills_used"]) <= {"melee_fight", "pray_when_safe", "eat_when_hungry", "pickup_useful",
                                     "descend", "explore_level", "direct_action"}


def test_the_same_evaluation_runs_on_a_local_ray_and_lands_in_the_drivers_database(tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "eval"
    result = EvalRunner(EvalConfig(agent="autopilot", seeds=[0, 1], workers=2, max_turns=150, out_dir=str(out),
                                   backend="ray", report=False)).run()
    assert result.played == 2
    db = sqlite3.connect(out / "runs.db")
    ids = [r[0] for r in db.execute("SELECT id FROM episodes ORDER BY id")]
    assert len(ids) == 2
    for eid in ids:
        assert db.execute("SELECT COUNT(*) FROM decisions WHERE episode_id=?", (eid,)).fetchone()[0] >= 1
    summaries = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    assert sorted(s["episode_id"] for s in summaries) == sorted(ids)
    for s in summaries:  # the worker's record folder came back with the result
        assert (out / "episodes" / f"autopilot-seed{s['seed']}" / "frames.bin").exists()


def test_the_scenario_suite_prints_success_rates_per_scenario(tmp_path):
    r = cli.invoke(app, ["eval", "--suite", "scenarios", "--agent", "autopilot", "--scenario", "boulder_corridor",
                         "--scenario", "pickup_pile", "--out", str(tmp_path / "suite")])
    assert r.exit_code == 0, r.output
    assert "boulder_corridor" in r.output and "pickup_pile" in r.output and "success rate" in r.output
    bad = cli.invoke(app, ["eval", "--suite", "olympics", "--agent", "autopilot"])
    assert bad.exit_code == 2 and "unknown suite" in bad.output


def test_a_harness_error_is_played_again_on_resume_and_replaces_its_row(tmp_path):
    out = tmp_path / "eval"
    out.mkdir()
    broken = {"agent": "autopilot", "seed": 0, "end_reason": "error: OperationalError: disk I/O error", "turns": 0,
              "score": 0, "max_depth": 0, "max_xp_level": 0}
    (out / "episodes.jsonl").write_text(json.dumps(broken) + "\n")
    result = EvalRunner(EvalConfig(agent="autopilot", seeds=[0], max_turns=100, out_dir=str(out), record=False,
                                   report=False)).run()
    assert result.played == 1 and result.skipped == []
    rows = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and not rows[0]["end_reason"].startswith("error")

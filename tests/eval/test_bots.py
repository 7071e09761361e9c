"""Bots under `hackwright eval`: AutoAscend and any folder with a bot.py (the NetHackers bot
contract), on Hackwright's seeds and caps, recorded and reported like any agent."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hackwright.agent.loop import EpisodeSummary
from hackwright.cli import app
from hackwright.eval.bots import AUTOASCEND_MODULES
from hackwright.eval.runner import EpisodeJob, run_episode_job
from hackwright.replay.frames import load_frames

cli = CliRunner()
BOTS = Path(__file__).parent / "bots"


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines() if line.strip()]


def _episodes(db: Path) -> list[dict]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute("SELECT * FROM episodes ORDER BY id")]
    finally:
        conn.close()


def _job(tmp_path: Path, bot: str, seed: int, **kw) -> EpisodeJob:
    return EpisodeJob(agent=f"bot:{BOTS / bot}", seed=seed, db_path=str(tmp_path / "runs.db"),
                      record_dir=str(tmp_path / f"{bot}-seed{seed}"), **kw)


def test_a_bot_folder_plays_seeds_0_and_1_like_the_autopilot_into_tables_database_records_and_report(tmp_path):
    out = tmp_path / "eval"
    agent = f"bot:{BOTS / 'tinybot'}"
    r = cli.invoke(app, ["eval", "--agent", agent, "--seeds", "0-1", "--max-turns", "300", "--out", str(out)])
    assert r.exit_code == 0, r.output
    rows = {x["seed"]: x for x in _rows(out)}
    assert sorted(rows) == [0, 1]
    summary_fields = {f.name for f in fields(EpisodeSummary)}
    episodes = {e["seed"]: e for e in _episodes(out / "runs.db")}
    for seed, x in rows.items():
        assert summary_fields <= set(x), summary_fields - set(x)
        assert x["agent"] == agent and x["strategist"] == "bot:tinybot"
        assert x["end_reason"] == "turn cap" and x["death_reason"] is None and "error" not in x
        assert x["turns"] >= 300 and x["decisions"] > 0
        assert x["decisions_per_1000_turns"] == round(1000 * x["decisions"] / x["turns"], 2)
        assert x["max_depth"] >= 1 and x["max_xp_level"] >= 1 and 0.0 <= x["progression"] <= 1.0
        assert x["model_calls"] == 0 and x["skills_used"] == {} and x["role"] != "?"
        # The run database: one finished row per episode, with the summary's figures.
        e = episodes[seed]
        assert (e["id"], e["strategist"], e["role"]) == (x["episode_id"], "bot:tinybot", x["role"])
        assert e["ended_at"] and e["end_reason"] == "turn cap"
        assert (e["total_turns"], e["decisions"], e["final_score"]) == (x["turns"], x["decisions"], x["score"])
        # The record folder: the ttyrec and one frame per action (plus the first screen).
        record = Path(x["record_dir"])
        assert Path(x["ttyrec"]).parent == record and Path(x["ttyrec"]).stat().st_size > 0
        frames = load_frames(record / "frames.bin")
        assert len(frames) == x["decisions"] + 1
        # The cap is checked before every action: the last one started below turn 300.
        assert frames[-1].stat("turn") == x["turns"] and frames[-2].stat("turn") < 300
        assert json.loads((record / "summary.json").read_text())["episode_id"] == x["episode_id"]
    # `hackwright replay` finds the episode by its id and shows its last screen.
    r = cli.invoke(app, ["replay", str(rows[1]["episode_id"]), "--db", str(out / "runs.db"), "--final",
                         "--no-color"])
    assert r.exit_code == 0, r.output
    assert f"T:{rows[1]['turns']}" in r.output
    # The autopilot on the same seeds gets the same heroes, and the report shows both agents.
    r = cli.invoke(app, ["eval", "--agent", "autopilot", "--seeds", "0-1", "--max-steps", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    auto = {x["seed"]: x for x in _rows(out) if x["agent"] == "autopilot"}
    assert {s: auto[s]["role"] for s in (0, 1)} == {s: rows[s]["role"] for s in (0, 1)}
    report = (out / "report.md").read_text()
    assert agent in report and "autopilot" in report


def test_a_bot_that_raises_ends_its_episode_as_an_error_row_and_the_evaluation_goes_on(tmp_path):
    out = tmp_path / "eval"
    r = cli.invoke(app, ["eval", "--agent", f"bot:{BOTS / 'raising_bot'}", "--seeds", "0-1", "--out", str(out),
                         "--no-report"])
    assert r.exit_code == 0, r.output
    rows = _rows(out)
    assert [x["seed"] for x in rows] == [0, 1]
    for x in rows:
        assert x["end_reason"] == "error: bot raised RuntimeError: the raising bot lost its map in act()"
        assert "bot.py" in x["error"] and "lost its map" in x["error"]  # the bot's own traceback
        assert x["decisions"] == 5 and x["turns"] >= 1
    assert [e["end_reason"] for e in _episodes(out / "runs.db")] == [rows[0]["end_reason"]] * 2


def test_a_bot_that_returns_an_index_outside_nles_action_set_ends_as_an_error_row(tmp_path):
    x = run_episode_job(_job(tmp_path, "bad_action_bot", 0))
    assert x["end_reason"] == ("error: bot returned a bad action index 999: act() must return an index into "
                               "nle.nethack.ACTIONS (0-120)")
    assert x["decisions"] == 0 and x["strategist"] == "bot:bad_action_bot"


def test_a_bot_that_only_searches_is_killed_and_the_row_has_nethacks_cause_of_death(tmp_path):
    x = run_episode_job(_job(tmp_path, "idle_bot", 3, max_steps=20000))
    assert (x["end_reason"], x["death_reason"]) == ("death", "killed by a kobold zombie")
    assert x["turns"] > 0 and x["score"] == 0  # NLE zeroes the final status line: the last living one counts
    assert _episodes(tmp_path / "runs.db")[0]["death_reason"] == "killed by a kobold zombie"


def test_the_step_cap_counts_bot_actions_also_in_parallel_workers(tmp_path):
    out = tmp_path / "eval"
    r = cli.invoke(app, ["eval", "--agent", f"bot:{BOTS / 'tinybot'}", "--seeds", "4-5", "--max-steps", "50",
                         "--workers", "2", "--out", str(out), "--no-report"])
    assert r.exit_code == 0, r.output
    rows = _rows(out)
    assert sorted(x["seed"] for x in rows) == [4, 5]
    assert all((x["end_reason"], x["decisions"]) == ("step cap", 50) for x in rows), rows
    # Each worker played into a private database; the driver imported both episodes.
    assert sorted((e["seed"], e["decisions"]) for e in _episodes(out / "runs.db")) == [(4, 50), (5, 50)]


@pytest.mark.parametrize("folder, says", [
    (BOTS / "no_such_bot", "bot:PATH names a folder with a bot.py"),
    (BOTS, "has no bot.py (it must define make_agent())"),
])
def test_a_bot_path_without_a_bot_is_refused_with_one_line(tmp_path, folder, says):
    r = cli.invoke(app, ["eval", "--agent", f"bot:{folder}", "--seeds", "0", "--out", str(tmp_path / "eval")])
    assert r.exit_code == 2
    assert says in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output


def test_autoascend_without_nethackers_says_which_extra_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "nethackers", None)  # imports of it fail as if it were not installed
    r = cli.invoke(app, ["eval", "--agent", "autoascend", "--seeds", "0", "--out", str(tmp_path / "eval")])
    assert r.exit_code == 2
    assert "pip install 'hackwright[autoascend]'" in r.output and "nethackers" in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output


@pytest.mark.skipif(sys.version_info < (3, 11), reason="nethackers (AutoAscend) needs Python 3.11 or newer")
@pytest.mark.skipif(not all(importlib.util.find_spec(m) for m in AUTOASCEND_MODULES),
                    reason="nethackers with AutoAscend is not installed: pip install 'hackwright[autoascend]'")
def test_autoascend_plays_seed_1_as_the_same_hero_as_the_autopilot_until_the_turn_cap(tmp_path):
    from hackwright.api import NetHackAPI
    from hackwright.env import GameConfig

    out = tmp_path / "eval"
    r = cli.invoke(app, ["eval", "--agent", "autoascend", "--seeds", "1", "--max-turns", "150", "--out", str(out),
                         "--no-report"])
    assert r.exit_code == 0, r.output
    [x] = _rows(out)
    assert "error" not in x, x["error"]
    assert (x["strategist"], x["end_reason"]) == ("autoascend", "turn cap") and x["turns"] >= 150
    assert x["decisions"] > 0 and x["max_depth"] >= 1
    api = NetHackAPI.new_game(GameConfig(seed=1))
    try:
        assert x["role"] == api.hero_role
    finally:
        api.close()
    frames = load_frames(Path(x["record_dir"]) / "frames.bin")
    assert len(frames) == x["decisions"] + 1 and frames[-2].stat("turn") < 150 <= frames[-1].stat("turn")
    assert _episodes(out / "runs.db")[0]["strategist"] == "autoascend"

"""Episodes on MiniHack's own tasks end and are scored as MiniHack says: in the summary, the run
database, `play`, and `eval`'s tables."""

from __future__ import annotations

import csv
import json
import sqlite3

from typer.testing import CliRunner

from hackwright.agent.episode import EpisodeConfig
from hackwright.agent.loop import Agent
from hackwright.cli import app
from hackwright.api import NetHackAPI
from hackwright.env.make import GameConfig
from tests.env.test_minihack_task import ROOM, down_stairs, hero, keys_to

from .fake_model_server import FakeModelServer, Reply

SEARCH_ON = '''
async def search_on(nh):
    """Search in place until the game stops answering."""
    for _ in range(300):
        result = await nh.search()
        if not result.success:
            break
    return SkillResult("searched", {}, 0, 0, True)
'''


def config(tmp_path, **kw) -> EpisodeConfig:
    kw.setdefault("env_id", ROOM)
    return EpisodeConfig(seed=kw.pop("seed", 0), max_steps=kw.pop("max_steps", 30), db_path=str(tmp_path / "m.db"),
                         library_path=str(tmp_path / "skills"), record_dir=str(tmp_path / "rec"), **kw)


def row(tmp_path, episode_id: int) -> tuple:
    with sqlite3.connect(tmp_path / "m.db") as db:
        return db.execute("SELECT end_reason, task_success, task_reward, max_depth FROM episodes WHERE id=?",
                          (episode_id,)).fetchone()


async def test_the_autopilot_on_room_5x5_ends_task_solved_without_going_down(tmp_path):
    summary = await Agent(config(tmp_path, llm="autopilot")).run()
    assert summary.end_reason == "task solved"
    assert summary.task_success is True and summary.task_end == "task solved"
    assert 0.9 < summary.task_reward <= 1.0 and 0 < summary.task_steps < 100
    assert summary.max_depth == 1 and summary.death_reason is None  # no Dlvl 2, no starving on Dlvl 3
    end, success, reward, depth = row(tmp_path, summary.episode_id)
    assert (end, success, depth) == ("task solved", 1, 1) and reward == summary.task_reward
    kept = json.loads((tmp_path / "rec" / "summary.json").read_text())
    assert kept["task_success"] is True and kept["task_reward"] == summary.task_reward


async def test_a_model_walking_to_the_stairs_key_by_key_solves_the_task_and_is_asked_no_more(tmp_path):
    probe = NetHackAPI.new_game(GameConfig(env_id=ROOM, seed=1))
    opening = probe.game.steps  # keys the API sent to settle the first screen: MiniHack steps too
    keys = keys_to(hero(probe.game), down_stairs(probe.game))
    probe.close()
    with FakeModelServer() as server:
        server.script(*[Reply(text=json.dumps({"action": "direct", "key": k, "reasoning": "to the stairs"}))
                        for k in keys], Reply(text=json.dumps({"action": "direct", "key": ">"})))
        summary = await Agent(config(tmp_path, seed=1, llm=f"openai:scripted@{server.openai_base_url}",
                                     backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"})).run()
        asked = len(server.requests)
    assert summary.end_reason == "task solved" and summary.task_success
    assert summary.decisions == len(keys) and asked == len(keys)  # the last key ended it: no '>' asked for
    assert summary.task_steps == opening + len(keys) and summary.max_depth == 1


async def test_a_skill_that_searches_past_minihacks_step_limit_fails_the_task(tmp_path):
    create = {"action": "create", "name": "search_on", "category": "exploration", "triggers": [],
              "description": "search in place", "params": {}, "code": SEARCH_ON}
    with FakeModelServer() as server:
        server.script(Reply(text=json.dumps(create)))
        summary = await Agent(config(tmp_path, llm=f"openai:scripted@{server.openai_base_url}",
                                     backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"})).run()
    assert summary.end_reason == "task failed: time limit (100 steps)"
    assert summary.task_success is False and summary.task_end == "time limit" and summary.task_steps == 100
    assert summary.decisions == 1 and summary.death_reason is None
    assert row(tmp_path, summary.episode_id)[:2] == ("task failed: time limit (100 steps)", 0)


async def test_a_challenge_episode_records_no_task(tmp_path):
    summary = await Agent(config(tmp_path, env_id="NetHackChallenge-v0", llm="autopilot", max_steps=1)).run()
    assert summary.task_success is None and summary.task_reward is None and summary.task_end is None
    assert row(tmp_path, summary.episode_id)[1:3] == (None, None)


def test_play_on_a_minihack_task_prints_the_task_and_its_json_summary_carries_it(tmp_path):
    runner = CliRunner()
    args = ["play", "--env", ROOM, "--seed", "0", "--db", str(tmp_path / "m.db"), "--library",
            str(tmp_path / "skills"), "--no-record"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "task solved" in r.output and "MiniHack task" in r.output and "reward" in r.output
    r = runner.invoke(app, args + ["--json"])
    summary = json.loads(r.output[r.output.index("{"):])
    assert summary["end_reason"] == "task solved" and summary["task_success"] is True


def test_eval_on_a_minihack_environment_reports_its_success_rate(tmp_path):
    out = tmp_path / "ev"
    r = CliRunner().invoke(app, ["eval", "--env", ROOM, "--seeds", "0-1", "--out", str(out), "--no-record"])
    assert r.exit_code == 0, r.output
    header = next(ln for ln in r.output.splitlines() if ln.startswith("agent"))
    assert "task success" in header and "task reward" in header
    line = next(ln for ln in r.output.splitlines() if ln.startswith("autopilot"))
    assert "100%" in line.split()[-4:]  # the task-success column: both seeds solved
    with open(out / "episodes.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(x["seed"], x["end_reason"], x["task_success"]) for x in rows] == \
        [("0", "task solved", "True"), ("1", "task solved", "True")]
    report = (out / "report.md").read_text()
    assert "Task success" in report and "100%" in report

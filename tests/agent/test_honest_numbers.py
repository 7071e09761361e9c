"""A result labelled with a model was made by that model: a model that cannot be reached
ends the episode with an error (unless a fallback was asked for, and then every step it
played is counted), unknown agent names are refused, and every decision records who made it.

The command line runs as a real subprocess; models are a local server speaking the real
wire formats (or a port where nothing listens)."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig

from .fake_model_server import FakeModelServer, HTTPError, Reply


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hackwright(*args: str, cwd: Path, env: dict | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    full_env.pop("HACKWRIGHT_LLM", None)
    return subprocess.run([sys.executable, "-m", "hackwright", *args], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, proc.stderr
    return lines[0]


def invoke(skill: str) -> dict:
    return {"action": "invoke", "skill": skill, "params": {}, "reasoning": "scripted"}


# ------------------------------------------------------------------ a model that cannot be reached
def test_play_with_nothing_listening_ends_with_one_error_line_and_exit_1_and_the_autopilot_never_played(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    proc = hackwright("play", "--llm", f"openai:x@{url}", "--max-steps", "5", "--no-record", "--db", "m.db",
                      "--library", "skills", "--json", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    line = one_line_error(proc)
    assert "could not reach" in line and "--fallback autopilot" in line
    summary = json.loads(proc.stdout)
    assert summary["strategist"] == "openai:x" and summary["end_reason"].startswith("model error: could not reach")
    assert summary["decisions"] == 0 and summary["fallback_steps"] == 0 and summary["skills_used"] == {}
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT end_reason FROM episodes").fetchone()[0].startswith("model error")
    # the one step recorded is the model's failure; nothing was played in its name
    assert db.execute("SELECT type, decided_by FROM decisions").fetchall() == [("none", "none")]


def test_a_refused_key_ends_the_episode_with_the_servers_own_message(tmp_path):
    with FakeModelServer() as server:
        server.script(HTTPError(401, "invalid x-api-key", error_type="authentication_error"))
        proc = hackwright("play", "--llm", f"anthropic:claude-sonnet-5-5@{server.url}", "--max-steps", "5",
                          "--no-record", "--db", "m.db", "--library", "skills", cwd=tmp_path,
                          env={"ANTHROPIC_API_KEY": "sk-test-refused"})
    assert proc.returncode == 1
    line = one_line_error(proc)
    assert "HTTP 401" in line and "invalid x-api-key" in line and "sk-test-refused" not in proc.stdout + proc.stderr
    assert len(server.requests) == 1  # a 401 is not retried


def test_with_fallback_autopilot_every_step_it_played_is_counted_in_the_summary_and_runs_show(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    proc = hackwright("play", "--llm", f"openai:x@{url}", "--fallback", "autopilot", "--max-steps", "3",
                      "--no-record", "--db", "m.db", "--library", "skills", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["decisions"] == 3 and summary["decided_by"] == {"fallback": 3}
    assert summary["fallback_steps"] == 3 and summary["model_error"] is None
    shown = hackwright("runs", "show", "1", "--db", "m.db", cwd=tmp_path)
    assert shown.returncode == 0
    assert "fallback (autopilot) 3 (100%)" in shown.stdout
    assert shown.stdout.count("fallback") >= 4  # the summary line and each decision's row
    listed = hackwright("runs", "list", "--db", "m.db", cwd=tmp_path)
    assert "3/3" in listed.stdout  # fallback decisions of all decisions, beside the score


async def test_unusable_replies_play_nothing_and_three_in_a_row_end_the_episode(tmp_path):
    with FakeModelServer() as server:
        server.script(*[Reply(text="I refuse to use JSON.") for _ in range(9)])
        cfg = EpisodeConfig(seed=5, llm=f"anthropic:claude-haiku-4-5@{server.url}", max_steps=10,
                            db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                            backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"})
        summary = await Agent(cfg).run()
        bodies = server.bodies("/v1/messages")
    assert summary.decisions == 0 and summary.fallback_steps == 0 and summary.failed_decisions == 3
    assert summary.end_reason.startswith("model error: 3 steps in a row without a usable decision")
    assert summary.model_calls == 9 and summary.turns <= 1
    # the model was told what was wrong, in the retry and in the next step's prompt
    assert "could not be used" in bodies[1]["messages"][-1]["content"]
    assert "no usable decision" in json.dumps(bodies[3]["messages"])


async def test_a_decision_after_a_retry_and_a_loop_break_are_recorded_as_such(tmp_path):
    with FakeModelServer() as server:
        # one unusable reply, then the same search again and again: the agent warns, then
        # the autopilot takes one step to break the loop
        server.script(Reply(text="thinking, no JSON"),
                      *[Reply(tool_input=invoke("rest_until_healed")) for _ in range(8)])
        cfg = EpisodeConfig(seed=5, llm=f"anthropic:claude-haiku-4-5@{server.url}", max_steps=7,
                            db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                            backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"})
        agent = Agent(cfg)
        summary = await agent.run()
    assert summary.decided_by.get("retry") == 1
    db = sqlite3.connect(tmp_path / "m.db")
    who = [r[0] for r in db.execute("SELECT decided_by FROM decisions ORDER BY id")]
    assert who[0] == "retry" and len(who) == 7
    if summary.loop_break_steps:  # resting in place at full health does not move the clock
        assert who.count("loop_break") == summary.loop_break_steps == summary.fallback_steps
        assert summary.decided_by["loop_break"] == summary.loop_break_steps
    assert sum(summary.decided_by.values()) == summary.decisions == 7


# ------------------------------------------------------------------ names are checked, never guessed
@pytest.mark.parametrize("args, expected", [
    (("eval", "--agent", "gpt4", "--seeds", "0"), "did you mean openai:gpt4?"),
    (("eval", "--agent", "autopilott", "--seeds", "0"), "did you mean autopilot?"),
    (("play", "--llm", "claude-sonnet-5-5", "--no-record"), "did you mean anthropic:claude-sonnet-5-5?"),
    (("play", "--llm", "openai:", "--no-record"), "names no model"),
    (("play", "--llm", "replay:missing.jsonl", "--no-record"), "no transcript file at missing.jsonl"),
    (("play", "--llm", "autopilot", "--fallback", "random", "--no-record"), "the fallback is autopilot"),
    (("play", "--llm", "autoascend", "--no-record"), "bots play under `hackwright eval"),
])
def test_unknown_agent_names_are_refused_with_the_valid_choices(tmp_path, args, expected):
    proc = hackwright(*args, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    line = one_line_error(proc)
    assert expected in line
    assert not (tmp_path / "data").exists() and not (tmp_path / "eval").exists()  # nothing was played


def test_a_missing_api_key_is_one_line_before_any_game_starts(tmp_path):
    env = {"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": ""}
    proc = hackwright("eval", "--agent", "anthropic:claude-sonnet-5-5", "--seeds", "0-3", "--out", "ev",
                      cwd=tmp_path, env=env, timeout=60)
    assert proc.returncode == 2
    assert "no Anthropic API key: set ANTHROPIC_API_KEY" in one_line_error(proc)
    assert not (tmp_path / "ev" / "episodes.jsonl").exists()


def test_eval_stops_at_the_first_episode_whose_model_cannot_be_reached(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    proc = hackwright("eval", "--agent", f"openai:x@{url}", "--seeds", "0-5", "--out", "ev", "--no-report",
                      "--no-record", cwd=tmp_path)
    assert proc.returncode == 1
    assert "could not reach" in one_line_error(proc)
    rows = [json.loads(ln) for ln in (tmp_path / "ev" / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["end_reason"].startswith("model error") and rows[0]["decisions"] == 0
    header = (tmp_path / "ev" / "episodes.csv").read_text().splitlines()[0].split(",")
    assert {"fallback_steps", "loop_break_steps", "model_error"} <= set(header)

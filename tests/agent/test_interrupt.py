"""Ctrl-C: a real SIGINT sent to the process group of `hackwright play` and `hackwright eval`
(as a terminal sends it) stops at the next action, records the episode as interrupted,
prints the summary and exits 130 with no traceback; `eval` plays interrupted seeds again."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from .fake_model_server import FakeModelServer, Reply

SEARCH_FOREVER = '''
async def search_forever(nh):
    """Search in place until something stops the skill."""
    while True:
        await nh.search()
'''


def start(*args: str, cwd: Path, env: dict | None = None) -> subprocess.Popen:
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    full_env.pop("HACKWRIGHT_LLM", None)
    # a session of its own, so that the signal reaches the whole group as a terminal's Ctrl-C does
    return subprocess.Popen([sys.executable, "-m", "hackwright", *args], cwd=cwd, env=full_env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def wait_for(check, timeout: float, what: str, proc: subprocess.Popen) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the command ended (exit {proc.returncode}) before {what}: {err[-2000:]}")
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def decisions_in(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        return sqlite3.connect(db).execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
    except sqlite3.Error:
        return 0


def ctrl_c(proc: subprocess.Popen) -> tuple[int, str, str]:
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=90)
    return proc.returncode, out, err


def test_ctrl_c_during_play_records_the_episode_as_interrupted_and_exits_130(tmp_path):
    proc = start("play", "--seed", "3", "--max-steps", "5000", "--db", "m.db", "--library", "skills",
                 "--record", "rec", "--json", cwd=tmp_path)
    try:
        wait_for(lambda: decisions_in(tmp_path / "m.db") >= 2, 120, "two decisions", proc)
        code, out, err = ctrl_c(proc)
    finally:
        proc.kill()
    assert code == 130, err
    assert "Traceback" not in out + err
    summary = json.loads(out)
    assert summary["end_reason"] == "interrupted" and summary["decisions"] >= 2
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT end_reason FROM episodes").fetchone()[0] == "interrupted"
    assert json.loads((tmp_path / "rec" / "summary.json").read_text())["end_reason"] == "interrupted"


def test_ctrl_c_stops_a_model_written_skill_at_its_next_action(tmp_path):
    decision = {"action": "create", "name": "search_forever", "category": "exploration",
                "description": "search until stopped", "params": {}, "code": SEARCH_FOREVER}
    with FakeModelServer() as server:
        server.script(Reply(text=json.dumps(decision)), *[Reply(text="(unused)") for _ in range(5)])
        # the full game: a MiniHack task would end the episode at its own step limit
        proc = start("play", "--llm", f"anthropic:claude-haiku-4-5@{server.url}",
                     "--max-steps", "5",
                     "--db", "m.db", "--library", "skills", "--record", "rec", "--json", cwd=tmp_path,
                     env={"ANTHROPIC_API_KEY": "k", "HACKWRIGHT_SANDBOX_MAX_ACTIONS": "1000000",
                          "HACKWRIGHT_SANDBOX_TIMEOUT_SECONDS": "600"})
        try:
            wait_for(lambda: len(server.requests) >= 1, 60, "the model call", proc)
            frames = tmp_path / "rec" / "frames.bin"
            size = frames.stat().st_size
            # every key the skill's searches send is a recorded frame: the skill is running
            wait_for(lambda: frames.stat().st_size > size + 20_000, 60, "the skill's searches", proc)
            code, out, err = ctrl_c(proc)
        finally:
            proc.kill()
    assert code == 130, err
    assert "Traceback" not in out + err
    summary = json.loads(out)
    assert summary["end_reason"] == "interrupted" and summary["turns"] > 3
    db = sqlite3.connect(tmp_path / "m.db")
    stopped, error = db.execute("SELECT stopped_reason, error FROM decisions").fetchone()
    assert stopped == "interrupted:user_stop" and error is None  # stopped, not crashed


def test_ctrl_c_during_eval_records_the_episodes_in_flight_and_resume_plays_them(tmp_path):
    # (Seeds whose games last thousands of turns: none may end, and a third begin, before
    # the signal. Seed 0's Priestess dies at turn 404 since boxes are opened.)
    args = ("eval", "--agent", "autopilot", "--seeds", "1-4", "--workers", "2", "--out", "ev", "--no-report")
    proc = start(*args, "--max-turns", "20000", cwd=tmp_path)
    started = tmp_path / "ev" / "episodes"
    try:
        wait_for(lambda: started.exists() and len(list(started.glob("*/frames.bin"))) >= 2, 180,
                 "two episodes in flight", proc)
        time.sleep(1)
        code, out, err = ctrl_c(proc)  # only a hang outlasts communicate()'s limit
    finally:
        proc.kill()
    assert code == 130, err
    assert "Traceback" not in out + err
    assert "interrupted" in out
    rows = [json.loads(ln) for ln in (tmp_path / "ev" / "episodes.jsonl").read_text().splitlines()]
    interrupted = sorted(r["seed"] for r in rows if r["end_reason"] == "interrupted")
    assert interrupted, rows
    assert len(rows) <= 2  # no new episode started after Ctrl-C
    # the same command again plays the interrupted seeds and the rest (short games this time)
    again = subprocess.run([sys.executable, "-m", "hackwright", *args, "--max-turns", "150", "--json"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["played"] == 4 - (len(rows) - len(interrupted))
    final = {r["seed"]: r for r in map(json.loads, (tmp_path / "ev" / "episodes.jsonl").read_text().splitlines())}
    assert sorted(final) == [1, 2, 3, 4]
    assert all(final[s]["end_reason"] != "interrupted" for s in interrupted)


def test_ctrl_c_during_a_bot_evaluation_stops_each_bot_before_its_next_action(tmp_path):
    bot = Path(__file__).resolve().parents[1] / "eval" / "bots" / "escape_bot"  # lives until a cap
    proc = start("eval", "--agent", f"bot:{bot}", "--seeds", "0-3", "--workers", "2", "--out", "ev", "--no-report",
                 "--max-turns", "100000", cwd=tmp_path)
    started = tmp_path / "ev" / "episodes"
    try:
        wait_for(lambda: started.exists() and len(list(started.glob("*/frames.bin"))) >= 2, 180,
                 "two bot episodes in flight", proc)
        # Every key a bot sends is a recorded frame: wait until both have acted (a fixed
        # pause was too short on a loaded machine, where a bot had not yet decided).
        frames = sorted(started.glob("*/frames.bin"))[:2]
        sizes = [f.stat().st_size for f in frames]
        wait_for(lambda: all(f.stat().st_size > n for f, n in zip(frames, sizes)), 120, "both bots acting", proc)
        code, out, err = ctrl_c(proc)
    finally:
        proc.kill()
    assert code == 130, err
    assert "Traceback" not in out + err
    rows = [json.loads(ln) for ln in (tmp_path / "ev" / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) <= 2 and any(r["end_reason"] == "interrupted" for r in rows), [r["end_reason"] for r in rows]
    for r in rows:
        if r["end_reason"] == "interrupted":
            assert r["decisions"] > 0  # the bot played, then stopped

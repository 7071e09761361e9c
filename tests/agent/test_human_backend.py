"""Be the model: a script (or a person) plays the model's part through `human:DIR` request and
reply files, or on the terminal with `--llm human`, seeing exactly what a model is sent.

Real games (a MiniHack room, NetHack for the command line), the real sandbox for a created
skill, real SQLite files, the real command line as a subprocess with stdin piped."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hackwright.agent.backends import BackendError, make_backend
from hackwright.agent.loop import Agent, EpisodeConfig
from tests.conftest import room_des

ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]
LEVEL = room_des(ROOM, "STAIR:(5,3),down", hero=(1, 1))

SEARCH = {"action": "direct", "key": "s", "reasoning": "look around first"}
LOOK_AROUND = '''async def look_around(nh, times: int = 2):
    """Search a few times and say how many turns went by."""
    before = await nh.get_stats()
    for _ in range(times):
        await nh.send_keys("s")
    after = await nh.get_stats()
    return SkillResult("searched", {"turns": after.turn - before.turn}, times, after.turn - before.turn, True)
'''
CREATE = (json.dumps({"action": "create", "name": "look_around", "category": "explore", "params": {"times": 2},
                      "reasoning": "a skill of my own"}) + "\n```python\n" + LOOK_AROUND + "```\n")


class ScriptedPlayer(threading.Thread):
    """Waits for each DIR/req-N.txt and answers it with the next reply, written whole
    (a temporary file renamed), as a script playing the model would."""

    def __init__(self, folder: Path, replies: list[str], give_up_s: float = 600):
        super().__init__(daemon=True)
        self.folder, self.replies, self.give_up_s = folder, replies, give_up_s
        self.requests: list[str] = []

    def run(self) -> None:
        deadline = time.monotonic() + self.give_up_s
        for n, reply in enumerate(self.replies, 1):
            request = self.folder / f"req-{n}.txt"
            while not request.exists():
                if time.monotonic() > deadline:
                    return
                time.sleep(0.05)
            self.requests.append(request.read_text(encoding="utf-8"))
            temporary = self.folder / f"rep-{n}.txt.tmp"
            temporary.write_text(reply, encoding="utf-8")
            os.replace(temporary, self.folder / f"rep-{n}.txt")


def human_episode(tmp_path: Path, folder: Path, steps: int) -> EpisodeConfig:
    return EpisodeConfig(llm=f"human:{folder}", max_steps=steps, seed=1, env_id="MiniHack-Navigation-Custom-v0",
                         des_file=LEVEL, db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                         backend_options={"poll_s": 0.05})


async def test_a_script_plays_the_model_through_request_and_reply_files(tmp_path):
    folder = tmp_path / "me"
    player = ScriptedPlayer(folder, [json.dumps(SEARCH), CREATE, "I would rather not say.", json.dumps(SEARCH)])
    player.start()
    summary = await Agent(human_episode(tmp_path, folder, steps=3)).run()
    player.join(timeout=5)
    requests = player.requests

    assert len(requests) == 4 and not (folder / "req-5.txt").exists()
    # the system prompt once, in the first request; each later one says it is unchanged
    assert "===== SYSTEM PROMPT (" in requests[0] and "DECISION FORMAT" in requests[0]
    assert all("===== SYSTEM PROMPT: unchanged since req-1.txt =====" in r for r in requests[1:])
    system = requests[0].split(" characters) =====\n", 1)[1].split("\n===== USER (", 1)[0]
    assert len(system) > 10_000 and not any(system[:2000] in r for r in requests[1:])
    # each decision's user part: the game as the model sees it
    for r in requests[:3]:
        assert "===== USER (" in r and "Answer with one JSON decision" in r
    # the created skill ran in the sandbox, and its outcome is in the next request
    assert "look_around" in requests[2] and "searched" in requests[2]
    # the unusable reply came back with the parser's one-line error, as a model gets it
    assert "(this call continues req-3.txt: only what is new is shown)" in requests[3]
    assert "I would rather not say." in requests[3]
    assert "That decision could not be used: no JSON object found in the reply" in requests[3]

    assert summary.strategist == f"human:{folder}" and summary.end_reason == "step cap"
    assert summary.decisions == 3 and summary.model_calls == 4 and summary.cost_usd == 0
    assert summary.decided_by == {"strategist": 2, "retry": 1} and summary.fallback_steps == 0
    assert summary.skills_created == ["look_around"]
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT strategist, end_reason FROM episodes").fetchall() == [(f"human:{folder}", "step cap")]
    assert db.execute("SELECT type, decided_by, skill_name, success FROM decisions ORDER BY id").fetchall() == [
        ("direct_action", "strategist", None, 1), ("create_skill", "strategist", "look_around", 1),
        ("direct_action", "retry", None, 1)]
    assert db.execute("SELECT skill_name, success FROM skill_executions").fetchall() == [("look_around", 1)]
    assert db.execute("SELECT COUNT(*) FROM model_calls").fetchone()[0] == 4


async def test_an_empty_reply_file_ends_the_game_as_an_interruption_that_is_recorded(tmp_path):
    folder = tmp_path / "me"
    player = ScriptedPlayer(folder, [json.dumps(SEARCH), ""])
    player.start()
    agent = Agent(human_episode(tmp_path, folder, steps=5))
    agent.config.backend_options["on_end"] = agent.request_stop  # as `hackwright play` wires it
    summary = await agent.run()
    player.join(timeout=5)

    assert summary.end_reason == "interrupted" and summary.model_error is None
    assert summary.decisions == 1 and summary.model_calls == 1 and not (folder / "req-3.txt").exists()
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT end_reason FROM episodes").fetchone()[0] == "interrupted"


def test_a_folder_holding_an_earlier_games_files_is_refused(tmp_path):
    (tmp_path / "rep-1.txt").write_text('{"action": "direct", "key": "s"}')
    with pytest.raises(BackendError, match="already holds rep-1.txt of an earlier game"):
        make_backend(f"human:{tmp_path}")


# ------------------------------------------------------------------ the terminal
def test_play_llm_human_reads_decisions_from_stdin_and_ends_at_end_of_input(tmp_path):
    typed = "\n".join([json.dumps(SEARCH), ".", "hmm, let me think", ".", json.dumps(SEARCH), "."]) + "\n"
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("HACKWRIGHT_LLM", None)
    proc = subprocess.run([sys.executable, "-m", "hackwright", "play", "--llm", "human", "--max-steps", "5",
                           "--seed", "3", "--no-record", "--db", "m.db", "--library", "skills", "--json"],
                          cwd=tmp_path, env=env, input=typed, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    shown = proc.stderr
    assert "End each reply with a line holding only '.'" in shown and "End of input before any reply" in shown
    assert shown.count("===== SYSTEM PROMPT (") == 1 and shown.count("unchanged since request 1") == 3
    assert "That decision could not be used" in shown.split("===== END OF REQUEST 2 =====")[1]
    assert "human: end of input: the player ended the game" in shown and "Traceback" not in shown
    summary = json.loads(proc.stdout)
    assert summary["strategist"] == "human" and summary["end_reason"] == "interrupted"
    assert summary["decisions"] == 2 and summary["decided_by"] == {"strategist": 1, "retry": 1}
    assert summary["model_calls"] == 3 and summary["model_error"] is None
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT strategist, end_reason FROM episodes").fetchall() == [("human", "interrupted")]

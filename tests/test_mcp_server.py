"""`hackwright mcp` as a coding agent meets it: the MCP SDK's own client launches the server
as a subprocess and talks to it over stdio, playing real seeded games."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from hackwright.mcp_server import INSTALL_HINT, mcp_available

needs_mcp = pytest.mark.skipif(not mcp_available(), reason=INSTALL_HINT)
if mcp_available():
    from mcp import ClientSession, StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[1]

SEARCH_SKILL = '''async def search_twice(nh, times=2):
    """Search the squares around the hero a few times."""
    result = await nh.search(times)
    return SkillResult("searched", {"times": times}, 1, times, result.success)
'''


@asynccontextmanager
async def hackwright_mcp(tmp_path: Path):
    """A client session with `python -m hackwright mcp`, recording under ``tmp_path``."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hackwright", "mcp", "--db", str(tmp_path / "runs.db"), "--library", str(tmp_path / "skills"),
              "--runs", str(tmp_path / "runs")],
        cwd=str(REPO))
    with open(tmp_path / "server-stderr.txt", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            # generous: only a hung server would ever reach it
            async with ClientSession(read, write, read_timeout_seconds=240) as session:
                await session.initialize()
                yield Player(session)


class Player:
    def __init__(self, session: "ClientSession"):
        self.session = session

    async def call(self, tool: str, **arguments) -> tuple[bool, str]:
        """(ok, the result's text)."""
        result = await self.session.call_tool(tool, arguments)
        text = "\n".join(c.text for c in result.content if getattr(c, "text", None))
        return not result.is_error, text

    async def ok(self, tool: str, **arguments) -> str:
        ok, text = await self.call(tool, **arguments)
        assert ok, f"{tool} failed: {text}"
        return text


def one_line_error(text: str) -> str:
    assert "\n" not in text.strip() and "Traceback" not in text, text
    return text


@needs_mcp
async def test_a_coding_agent_plays_a_seeded_game_over_stdio_and_the_episode_is_recorded(tmp_path):
    async with hackwright_mcp(tmp_path) as me:
        tools = {t.name for t in (await me.session.list_tools()).tools}
        assert {"start_game", "get_state", "get_prompt", "get_system_prompt", "invoke_skill", "create_skill",
                "show_skill", "lookup", "send_key", "end_game"} <= tools

        started = await me.ok("start_game", seed=3, max_steps=30)
        assert "Started episode" in started and "seed 3" in started and "at most 30 decisions" in started

        state = await me.ok("get_state")
        assert "Dlvl:1" in state and "@" in state and "decision 0 of 30" in state
        prompt = await me.ok("get_prompt")
        assert "MAP:" in prompt and "AVAILABLE SKILLS:" in prompt and "explore_level" in prompt
        system = await me.ok("get_system_prompt")
        assert "THE NETHACK API" in system and "Answer with one JSON object" in system

        explored = await me.ok("invoke_skill", skill="explore_level", reasoning="see the level")
        assert explored.startswith("T") and "explore_level()" in explored and "decision 1 of 30" in explored

        created = await me.ok("create_skill", name="search_twice", code=SEARCH_SKILL, params={"times": 2},
                              description="search a little")
        assert "search_twice(times=2) -> searched (ok" in created and "decision 2 of 30" in created
        assert (tmp_path / "skills").is_dir() and "search_twice" in (await me.ok("get_prompt"))

        shown = await me.ok("show_skill", skill="search_twice")
        assert 'async def search_twice(nh, times=2):' in shown and "-> shown" in shown

        answer = await me.ok("lookup", query="floating eye")
        assert answer.startswith("Answer:") and "floating eye" in answer.lower()

        key = await me.ok("send_key", key="s", reasoning="search once")
        assert "direct_action() -> direct (ok" in key and "decision 5 of 30" in key

        ok, text = await me.call("invoke_skill", skill="explore_levle")
        assert not ok and "no skill named 'explore_levle'" in one_line_error(text) and "explore_level" in text
        assert "decision 5 of 30" in await me.ok("get_state")  # nothing was played, the server lives on

        ended = await me.ok("end_game")
        assert ended.startswith("GAME OVER: interrupted") and "ttyrec" in ended
        ok, text = await me.call("get_state")
        assert not ok and "call start_game" in one_line_error(text)

    db = sqlite3.connect(tmp_path / "runs.db")
    episode = db.execute("SELECT id, strategist, end_reason, ttyrec, seed FROM episodes").fetchall()
    assert len(episode) == 1
    episode_id, strategist, end_reason, ttyrec, seed = episode[0]
    assert (strategist, end_reason, seed) == ("mcp", "interrupted", 3)
    assert Path(ttyrec).is_file() and Path(ttyrec).parent.parent == tmp_path / "runs"
    decisions = db.execute("SELECT type, skill_name, decided_by, reasoning FROM decisions WHERE episode_id = ? "
                           "ORDER BY step", (episode_id,)).fetchall()
    assert [d[0] for d in decisions] == ["invoke_skill", "create_skill", "show_skill", "lookup", "direct_action"]
    assert {d[2] for d in decisions} == {"strategist"}  # the named strategist, "mcp", made every one
    assert decisions[0][3] == "see the level"
    summary = json.loads((Path(ttyrec).parent / "summary.json").read_text())
    assert summary["strategist"] == "mcp" and summary["decisions"] == 5
    assert summary["skills_created"] == ["search_twice"]


@needs_mcp
async def test_budgets_integrity_and_the_sandbox_hold_and_bad_calls_never_end_the_server(tmp_path):
    async with hackwright_mcp(tmp_path) as me:
        ok, text = await me.call("send_key", key="s")
        assert not ok and "start_game" in one_line_error(text)
        ok, text = await me.call("start_game", seed=1, max_steps=0)
        assert not ok and "max_steps must be" in one_line_error(text)
        ok, text = await me.call("start_game", seed=1, role="plumber")
        assert not ok and "could not start" in one_line_error(text)

        await me.ok("start_game", seed=1, max_steps=3)
        ok, text = await me.call("start_game", seed=2)
        assert not ok and "end_game first" in one_line_error(text)

        refused = await me.ok("send_key", key="S")  # play's game-integrity rules: no saving
        assert "ERROR" in refused and "refuses" in refused and "decision 1 of 3" in refused

        escaping = await me.ok("create_skill", name="peek", code="```python\nimport os\n\nasync def peek(nh):\n"
                               '    """Look around."""\n    return SkillResult("seen", {}, 0, 0, True)\n```')
        assert "ERROR" in escaping and "os" in escaping and "decision 2 of 3" in escaping
        prompt = await me.ok("get_prompt")
        skills = prompt.split("AVAILABLE SKILLS:")[1].split("LAST SKILL EXECUTIONS:")[0]
        assert "explore_level" in skills and "peek" not in skills  # refused code is never adopted

        ok, text = await me.call("create_skill", name="not a name", code="async def x(nh): pass")
        assert not ok and "snake_case" in one_line_error(text)

        last = await me.ok("send_key", key="s")
        assert "GAME OVER: step cap" in last
        ok, text = await me.call("invoke_skill", skill="explore_level")
        assert not ok and "the game has ended (step cap)" in one_line_error(text)

        again = await me.ok("start_game", seed=2, max_steps=5)  # the server serves the next game
        assert "Started episode 2" in again
        await me.ok("end_game")

    rows = sqlite3.connect(tmp_path / "runs.db").execute(
        "SELECT id, end_reason, decisions FROM episodes ORDER BY id").fetchall()
    assert rows == [(1, "step cap", 3), (2, "interrupted", 0)]


def test_without_the_mcp_package_the_command_says_how_to_install_it():
    hide_mcp = ("import sys; sys.modules['mcp'] = None; sys.argv = ['hackwright', 'mcp']; "
                "from hackwright.cli import main; main()")
    r = subprocess.run([sys.executable, "-c", hide_mcp], cwd=REPO, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip() == f"error: {INSTALL_HINT}"

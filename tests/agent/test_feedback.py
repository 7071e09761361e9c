"""Feedback a model can act on, in whole episodes: a model (a scripted server on 127.0.0.1
speaking the OpenAI wire format) writes a skill's code in a python fence, gets the failing
line of its own code back in the next prompt, fixes the skill under the same name, and the
library keeps both versions; it reads a built-in's code with ``show``; the run database
records every decision."""

from __future__ import annotations

import json
import sqlite3

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.skills.library import SkillLibrary

from .fake_model_server import FakeModelServer, Reply

BROKEN = '''async def check_hp(nh):
    """Say whether hit points are fine."""
    stats = await nh.get_stats()
    if stats.hitpoints < 5:
        return SkillResult("low", {"hp": stats.hp}, 0, 0, False)
    return SkillResult("fine", {"hp": stats.hp}, 0, 0, True)
'''
FIXED = BROKEN.replace("stats.hitpoints", "stats.hp")


def create_in_a_fence(code: str, why: str) -> str:
    """A create decision as the prompt asks for it: the JSON, then the code in a python fence."""
    decision = {"action": "create", "name": "check_hp", "category": "survival",
                "description": "Say whether hit points are fine", "params": {}, "reasoning": why}
    return f"{why}\n{json.dumps(decision)}\n```python\n{code}```\n"


def user_prompt(body: dict) -> str:
    return body["messages"][-1]["content"]


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


def episode(tmp_path, server: FakeModelServer, steps: int) -> EpisodeConfig:
    return EpisodeConfig(seed=5, llm=f"openai:scripted@{server.openai_base_url}", max_steps=steps,
                         db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                         backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"})


async def test_a_skill_that_fails_shows_its_line_in_the_next_prompt_and_its_fix_is_the_next_version(tmp_path, server):
    server.script(
        Reply(text=create_in_a_fence(BROKEN, "I will check my hit points.")),
        Reply(text=create_in_a_fence(FIXED, "The attribute is hp, not hitpoints.")),
        Reply(tool_input={"action": "invoke", "skill": "check_hp", "params": {}}),
    )
    summary = await Agent(episode(tmp_path, server, steps=3)).run()
    bodies = server.bodies("/v1/chat/completions")
    assert len(bodies) == 3 and summary.decisions == 3

    # the prompt after the failure: the error, the skill's own line number and that line's code
    after_failure = user_prompt(bodies[1])
    assert "AttributeError" in after_failure and "hitpoints" in after_failure
    assert "check_hp, line 4" in after_failure
    assert "> 4 |     if stats.hitpoints < 5:" in after_failure
    assert "    stats = await nh.get_stats()" in after_failure  # the code around it
    assert "worker.py" not in after_failure and "runner.py" not in after_failure  # no harness frames
    assert "check_hp, line" not in user_prompt(bodies[0])

    # the fix ran and worked, and was reused by name
    after_fix = user_prompt(bodies[2])
    assert "check_hp() -> fine (ok" in after_fix
    assert summary.skills_created == ["check_hp"] and summary.skills_used["check_hp"] == 3

    # the library keeps both versions: the failing one and the fix, which is current
    library = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db")
    versions = library.versions("check_hp")
    assert [(v.version, v.code, v.current) for v in versions] == [(1, BROKEN, False), (2, FIXED, True)]
    assert not library.get("check_hp").retired and library.get("check_hp").code == FIXED

    db = sqlite3.connect(tmp_path / "m.db")
    rows = db.execute("SELECT type, skill_name, error IS NOT NULL, code FROM decisions ORDER BY id").fetchall()
    assert rows == [("create_skill", "check_hp", 1, BROKEN), ("create_skill", "check_hp", 0, FIXED),
                    ("invoke_skill", "check_hp", 0, None)]
    # each run counts for the code that ran: the failing draft's for version 1, the fix's
    # (recorded before it was stored) and the invoked run for version 2
    runs = db.execute("SELECT version, success FROM skill_executions WHERE skill_name = 'check_hp' "
                      "ORDER BY id").fetchall()
    assert runs == [(1, 0), (2, 1), (2, 1)]


async def test_a_skill_that_fails_again_is_kept_as_another_retired_version_never_offered(tmp_path, server):
    again = BROKEN.replace("stats.hitpoints", "stats.hit_points")
    server.script(Reply(text=create_in_a_fence(BROKEN, "First try.")),
                  Reply(text=create_in_a_fence(again, "Second try.")),
                  Reply(text='{"action": "invoke", "skill": "rest_until_healed", "params": {}}'))
    await Agent(episode(tmp_path, server, steps=3)).run()
    library = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db")
    assert [v.code for v in library.versions("check_hp")] == [BROKEN, again]
    assert library.get("check_hp").retired and "check_hp" not in {s.name for s in library.all()}
    third = user_prompt(server.bodies("/v1/chat/completions")[2])
    assert "> 4 |     if stats.hit_points < 5:" in third  # the newest failure's line


async def test_show_puts_a_builtins_code_in_the_next_prompt_without_game_time(tmp_path, server):
    server.script(
        Reply(tool_input={"action": "show", "skill": "go_to"}),  # a native tool call
        Reply(text='{"action": "show", "skill": "go_too"}'),  # a misspelt name
        Reply(tool_input={"action": "invoke", "skill": "rest_until_healed", "params": {}}),
    )
    agent = Agent(episode(tmp_path, server, steps=3))
    summary = await agent.run()
    bodies = server.bodies("/v1/chat/completions")
    assert len(bodies) == 3
    tools = bodies[0]["tools"][0]["function"]["parameters"]["properties"]["action"]["enum"]
    assert "show" in tools

    go_to = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db").get("go_to").code
    first_line = next(line for line in go_to.splitlines() if line.startswith("async def go_to("))
    assert first_line not in user_prompt(bodies[0])
    assert first_line in user_prompt(bodies[1])  # the code is there to adapt
    assert "there is no skill named 'go_too'; close names: go_to" in user_prompt(bodies[2])
    assert [name for name, _ in agent.memory.shown] == ["go_to"]

    db = sqlite3.connect(tmp_path / "m.db")
    rows = db.execute("SELECT type, skill_name, stopped_reason, turn FROM decisions ORDER BY id").fetchall()
    assert [r[:3] for r in rows[:2]] == [("show_skill", "go_to", "shown"), ("show_skill", "go_too", "show_failed")]
    assert rows[0][3] == rows[1][3]  # no game time passed
    assert "go_to" not in summary.skills_used and summary.decisions == 3


async def test_shows_are_capped_per_episode(tmp_path, server):
    server.script(*[Reply(text='{"action": "show", "skill": "descend"}') for _ in range(4)])
    agent = Agent(episode(tmp_path, server, steps=4))
    agent.MAX_SHOWS = 2
    agent.LOOP_WARN = agent.LOOP_FALLBACK = 99  # the same decision again must reach the cap, not the loop guard
    await agent.run()
    db = sqlite3.connect(tmp_path / "m.db")
    reasons = [r[0] for r in db.execute("SELECT stopped_reason FROM decisions ORDER BY id")]
    assert reasons == ["shown", "shown", "show_refused", "show_refused"]
    assert "no more shows this episode (at most 2)" in user_prompt(server.bodies("/v1/chat/completions")[3])

"""Whole episodes driven through the real SDKs by a local server speaking their wire formats."""

from __future__ import annotations

import json
import sqlite3

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig

from .fake_model_server import Delay, FakeModelServer, HTTPError, Reply

SEARCHER = '''
async def search_a_while(nh, times: int = 2):
    """Search in place a few times (a skill the model writes)."""
    stats = await nh.get_stats()
    for _ in range(times):
        await nh.search()
    after = await nh.get_stats()
    return SkillResult("searched", {"times": times}, times, after.turn - stats.turn, True)
'''


def invoke(skill: str, **params) -> dict:
    return {"action": "invoke", "skill": skill, "params": params, "reasoning": "scripted"}


def create() -> str:
    decision = {"action": "create", "name": "search_a_while", "category": "exploration",
                "description": "Search in place a few times", "triggers": [],
                "params": {"times": 2}, "code": SEARCHER}
    return "I will write a small skill.\n```json\n" + json.dumps(decision) + "\n```"


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


# The client waits this long per attempt: far more than a loaded machine needs to answer on
# 127.0.0.1, so only a reply the server withholds (a Delay of NEVER_S) times out.
CLIENT_TIMEOUT_S = 5.0
NEVER_S = 3600.0  # the fake server drops a delayed reply when it stops


def episode(tmp_path, llm: str, steps: int, **kw) -> EpisodeConfig:
    return EpisodeConfig(seed=5, llm=llm, max_steps=steps, db_path=str(tmp_path / "m.db"),
                         library_path=str(tmp_path / "skills"), record_dir=str(tmp_path / kw.pop("rec", "rec")),
                         backend_options={"timeout": CLIENT_TIMEOUT_S, "max_retries": 2, **kw})


async def test_an_anthropic_episode_creates_a_skill_reuses_it_and_survives_bad_replies(tmp_path, server):
    server.script(
        Reply(tool_input=invoke("rest_until_healed")),  # a native tool call
        Reply(text=create()),  # a new skill, in a fenced JSON block
        HTTPError(429, "slow down", retry_after=0.01),  # the SDK retries …
        Reply(text=json.dumps(invoke("search_a_while", times=3))),  # … and reuses the saved skill
        Reply(text="Let me think about the stairs. No JSON here at all."),  # malformed: sent back with a fix
        Reply(text=json.dumps(invoke("search_a_while"))),
        Delay(NEVER_S),  # no reply until the client's timeout ends the attempt: the SDK retries
        Reply(tool_input=invoke("search_a_while", times=1)),
    )
    cfg = episode(tmp_path, f"anthropic:claude-sonnet-5-5@{server.url}", steps=5)
    summary = await Agent(cfg).run()
    assert summary.end_reason == "step cap" and summary.decisions == 5
    assert summary.skills_created == ["search_a_while"]
    assert summary.skills_used.get("search_a_while", 0) >= 3  # created once, then reused
    assert summary.fallback_steps == 0
    assert summary.model_calls >= 6 and summary.input_tokens > 0
    assert (tmp_path / "skills" / "exploration" / "search_a_while.py").exists()
    # the static part of the prompt is marked for caching, and the decision tool was offered
    body = server.bodies("/v1/messages")[0]
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["tools"][0]["name"] == "decide"
    # everything is in the run database
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT COUNT(*) FROM model_calls").fetchone()[0] == summary.model_calls
    assert db.execute("SELECT COUNT(*) FROM decisions").fetchone()[0] == 5
    assert db.execute("SELECT end_reason FROM episodes").fetchone()[0] == "step cap"


async def test_an_openai_compatible_server_drives_an_episode_and_its_replay_reproduces_the_game(tmp_path, server):
    server.script(
        Reply(tool_input=invoke("explore_level")),
        Reply(text=json.dumps(invoke("rest_until_healed"))),
        Reply(tool_input=invoke("explore_level")),
        HTTPError(500, "upstream hiccup"),
        Reply(text="```json\n" + json.dumps(invoke("explore_level")) + "\n```"),
    )
    first = await Agent(episode(tmp_path, f"openai:qwen2.5-7b@{server.openai_base_url}", steps=4, rec="a")).run()
    assert first.model_calls == 4 and first.decisions == 4
    transcript = tmp_path / "a" / "transcript.jsonl"
    assert transcript.exists()
    again = await Agent(episode(tmp_path, f"replay:{transcript}", steps=4, rec="b")).run()
    same = ("turns", "score", "max_depth", "max_xp_level", "skills_used", "decisions")
    assert {k: getattr(again, k) for k in same} == {k: getattr(first, k) for k in same}


async def test_with_a_fallback_a_model_that_never_answers_usably_hands_each_step_to_the_autopilot(tmp_path, server):
    server.script(*[Reply(text="I refuse to use JSON.") for _ in range(6)])
    cfg = episode(tmp_path, f"anthropic:claude-haiku-4-5@{server.url}", steps=2)
    cfg.fallback = "autopilot"
    summary = await Agent(cfg).run()
    assert summary.decisions == 2 and summary.fallback_steps == 2 and summary.decided_by == {"fallback": 2}
    assert summary.model_calls == 6  # three tries per decision


async def test_the_budget_ends_an_episode_cleanly(tmp_path, server):
    server.script(*[Reply(tool_input=invoke("search_a_while"), input_tokens=5000) for _ in range(5)])
    cfg = episode(tmp_path, f"anthropic:claude-sonnet-5-5@{server.url}", steps=10)
    cfg.max_tokens = 9000
    summary = await Agent(cfg).run()
    assert summary.end_reason.startswith("budget")
    assert summary.model_calls == 2


async def test_a_lookup_is_answered_from_the_knowledge_base_and_summarised_into_the_next_prompt(tmp_path, server):
    server.script(
        Reply(text=json.dumps({"action": "lookup", "query": "what happens if I hit a floating eye"})),
        Reply(text="Hitting a floating eye in melee can paralyse you for a long time: never melee it."),
        Reply(tool_input=invoke("search_a_while_missing")),  # an unknown skill: error back to the model
        Reply(tool_input=invoke("rest_until_healed")),
    )
    cfg = episode(tmp_path, f"anthropic:claude-sonnet-5-5@{server.url}", steps=3)
    summary = await Agent(cfg).run()
    assert summary.decisions == 3 and summary.model_calls == 4
    bodies = server.bodies("/v1/messages")
    # the summary call saw the retrieved passages, without the decision tool
    summary_call = bodies[1]
    assert "Passages:" in summary_call["messages"][0]["content"] and "floating eye" in \
        summary_call["messages"][0]["content"].lower() and "tools" not in summary_call
    # the next decision's prompt carries the answer
    nxt = json.dumps(bodies[2]["messages"])
    assert "KNOWLEDGE" in nxt and "never melee it" in nxt
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT stopped_reason FROM decisions WHERE type='lookup'").fetchone()[0] == "looked_up"

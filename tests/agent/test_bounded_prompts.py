"""What a model wrote never comes back unbounded, every skill stays in view, and the
timeline dates each happening on its own turn — whole episodes on real games, the model
a scripted server on 127.0.0.1 speaking the OpenAI wire format."""

from __future__ import annotations

import json
import re

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.skills.library import SkillLibrary

from tests.conftest import room_des
from .fake_model_server import FakeModelServer, Reply

SEARCH = Reply(tool_input={"action": "direct", "key": "s", "reasoning": "wait a turn"})


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


def episode(tmp_path, server: FakeModelServer, steps: int, **kw) -> EpisodeConfig:
    return EpisodeConfig(seed=5, llm=f"openai:scripted@{server.openai_base_url}", max_steps=steps,
                         db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                         backend_options={"timeout": 30.0, "max_retries": 0, "api_key": "k"}, **kw)


def size(body: dict) -> int:
    return len(json.dumps(body, ensure_ascii=False))


def user_prompt(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


async def test_a_900000_character_reply_is_refused_and_the_model_told_the_limit(tmp_path, server):
    query = "is a floating eye corpse safe to eat " * 25_000  # 900,000 characters
    server.script(Reply(tool_input={"action": "lookup", "query": query}), SEARCH)
    summary = await Agent(episode(tmp_path, server, steps=1)).run()
    bodies = server.bodies("/v1/chat/completions")
    assert summary.decisions == 1 and len(bodies) == 2
    first, retry = bodies
    told = retry["messages"][-1]["content"]
    assert "200,000" in told and "could not be used" in told, told[:500]
    assert size(retry) < size(first) + 3_000


async def test_a_180000_character_lookup_leaves_every_later_request_small(tmp_path, server):
    query = "is a floating eye corpse safe to eat " * 5_000  # 180,000 characters: under the reply cap
    assert len(query) >= 180_000
    server.script(Reply(tool_input={"action": "lookup", "query": query}),
                  Reply(text="Eating a floating eye corpse grants telepathy; it is safe."),  # the summary
                  SEARCH, SEARCH)
    summary = await Agent(episode(tmp_path, server, steps=3)).run()
    bodies = server.bodies("/v1/chat/completions")
    assert summary.decisions == 3 and len(bodies) == 4
    first, summarise, after, later = bodies
    # the summary request carries a cut question, not the whole of it
    assert size(summarise) < 40_000 and "characters cut" in user_prompt(summarise)
    # the next prompts keep the lookup as knowledge, cut, within a few hundred characters
    for body in (after, later):
        prompt = user_prompt(body)
        assert "KNOWLEDGE" in prompt and "grants telepathy" in prompt and "characters cut" in prompt
        assert prompt.count("floating eye corpse") < 20
        assert size(body) < size(first) + 3_000 < 108_100  # the API reference is ~90,000 of it, the skill list most of the rest


async def test_a_3_megabyte_unreadable_reply_is_not_echoed_whole_into_the_retry(tmp_path, server):
    garbage = "<html>" + "gateway trouble " * 187_500  # 3 MB without a JSON object
    server.script(Reply(text=garbage), SEARCH)
    summary = await Agent(episode(tmp_path, server, steps=1)).run()
    bodies = server.bodies("/v1/chat/completions")
    assert len(bodies) == 2 and summary.decisions == 1
    first, retry = bodies
    echoed = [m["content"] for m in retry["messages"] if m["role"] == "assistant"]
    assert len(echoed) == 1 and echoed[0].startswith("<html>gateway trouble")
    assert len(echoed[0]) < 600 and re.search(r"\(… \d+ characters cut\)", echoed[0])
    assert "could not be used" in retry["messages"][-1]["content"]  # and it is told what was wrong
    assert size(retry) < size(first) + 2_000


FINE = '''async def check_hp(nh):
    """Say whether hit points are fine."""
    stats = await nh.get_stats()
    return SkillResult("fine", {"hp": stats.hp}, 0, 0, True)
'''


async def test_every_skill_is_listed_and_a_skill_just_saved_stays_in_the_next_prompt(tmp_path, server):
    create = {"action": "create", "name": "check_hp", "category": "survival",
              "description": "Say whether hit points are fine", "params": {}, "reasoning": "check"}
    server.script(Reply(text=f"{json.dumps(create)}\n```python\n{FINE}```\n"), SEARCH, SEARCH)
    summary = await Agent(episode(tmp_path, server, steps=3)).run()
    assert summary.skills_created == ["check_hp"]
    first, second, third = (user_prompt(b) for b in server.bodies("/v1/chat/completions"))
    skills = [s.name for s in SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db").all()]
    assert len(skills) > 20
    listed = first.split("AVAILABLE SKILLS:", 1)[1].split("\n\n", 1)[0]
    for name in skills:
        if name == "check_hp":
            assert f"- {name}(" not in listed
            continue
        assert f"- {name}(" in listed, name
    for name in ("descend", "eat_when_hungry", "pray_when_safe", "retreat_upstairs", "wear_better_armor"):
        assert re.search(rf"^- {name}\([^)]*\) — \S", listed, re.M), name
    for later in (second, third):  # saved, and still listed a step after
        assert "- check_hp(" in later.split("AVAILABLE SKILLS:", 1)[1].split("\n\n", 1)[0]


SHELF = ["------------------------------",
         "|............................|",
         "------------------------------"]
FOODS = ["apple", "carrot", "orange", "melon", "banana", "pear", "kelp frond", "egg"]
WALK = '''async def walk_east(nh, steps=26):
    """Walk east along the shelf, one square at a time, waiting a little on the way."""
    before = await nh.get_stats()
    actions = 0
    for i in range(steps):
        result = await nh.move("e")
        actions += 1
        if not result.success:
            break
        if i % 3 == 2:
            await nh.search(2)
            actions += 1
    after = await nh.get_stats()
    return SkillResult("walked", {}, actions, after.turn - before.turn, True)
'''


async def test_a_long_skill_run_dates_each_message_on_the_turn_it_happened(tmp_path, server):
    objects = "\n".join(f"OBJECT:('%',\"{food}\"),({3 + 3 * i},1)" for i, food in enumerate(FOODS))
    create = {"action": "create", "name": "walk_east", "category": "exploration",
              "description": "Walk east along the shelf", "params": {}, "reasoning": "see what lies there"}
    server.script(Reply(text=f"{json.dumps(create)}\n```python\n{WALK}```\n"), SEARCH)
    agent = Agent(episode(tmp_path, server, steps=2, env_id="MiniHack-Navigation-Custom-v0",
                          des_file=room_des(SHELF, objects)))
    summary = await agent.run()
    assert summary.decisions == 2
    seen = [(e.turn, e.text) for e in agent.memory.short_term.entries if e.text.startswith("You see here")]
    assert len(seen) >= 5, seen
    turns = [t for t, _ in seen]
    assert turns == sorted(turns) and len(set(turns)) == len(turns), seen
    assert turns[-1] - turns[0] >= 10
    # the skill's own line comes after its messages, on the turn it ended
    run = next(e for e in agent.memory.short_term.entries if e.text.startswith("skill walk_east"))
    assert run.turn >= turns[-1]
    # and the next prompt shows the messages on their turns
    timeline = user_prompt(server.bodies("/v1/chat/completions")[1]).split("RECENT TIMELINE:", 1)[1]
    shown = [int(t) for t in re.findall(r"^T(\d+): You see here", timeline, re.M)]
    assert len(set(shown)) >= 5 and shown == sorted(shown)

"""A 40-decision scripted game that gives the prompt everything a model can make long.

The model is a :class:`~tests.agent.fake_model_server.FakeModelServer` on 127.0.0.1
speaking the OpenAI wire format; the game is NLE's challenge on a real seed. The script:
lookups of 180,000 characters (under the reply cap), 30 skills created with
5,000-character docstrings, 3,000-character defaults, huge printed output and data,
skills that fail deep in a recursion with long messages, shows (one of a name 50,000
characters long), an invoke of a skill that does not exist, and unusable replies of
150,000 characters (one decision needs every retry the strategist allows).

Used by ``test_request_budget.py`` and ``scripts/request_sizes.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.agent.episode import EpisodeSummary

from .fake_model_server import FakeModelServer, Reply

DECISIONS = 40
SEED = 5
DOCSTRING = ("Probe the hero's state and report it at great length, " * 92)[:5000]  # one line: the description
QUERY = "is a floating eye corpse safe to eat " * 5_000  # 185,000 characters
GARBAGE = "Let me think about what to do next in this dungeon. " * 2_900  # 150,800 characters, no JSON
SUMMARY = Reply(text="Eating a floating eye corpse grants telepathy; it is safe unless you are blind.")


def probe(name: str) -> str:
    return f'''async def {name}(nh, note="{"z" * 3000}"):
    """{DOCSTRING}"""
    stats = await nh.get_stats()
    await nh.search(1)
    print("a line of very chatty output from {name} " * 3000)
    return SkillResult("probed", {{"blob": "y" * 50000, "hp": stats.hp}}, 1, 1, True)
'''


def crash(name: str) -> str:
    return f'''async def {name}(nh, depth=40):
    """Recurse deep, then fail with a long message."""
    if depth > 0:
        return await {name}(nh, depth - 1)
    raise ValueError("the wall is not where it should be, " * 2000)
'''


def create(name: str, code: str) -> Reply:
    decision = {"action": "create", "name": name, "category": "utility", "description": DOCSTRING,
                "params": {"note": "w" * 20_000}, "reasoning": "see what happens " * 100}
    return Reply(text=f"{json.dumps(decision)}\n```python\n{code}```\n")


def decide(**d) -> Reply:
    return Reply(tool_input=d)


def script() -> list:
    """The replies of the 40 decisions, in order (summaries and retries included)."""
    steps: list = [decide(action="lookup", query=QUERY), SUMMARY]
    probes = [f"probe_{i:02d}" for i in range(1, 31)]
    extras = {
        3: [Reply(text=GARBAGE), create("crash_a", crash("crash_a"))],
        6: [decide(action="show", skill="probe_01")],
        9: [Reply(text=GARBAGE), Reply(text=GARBAGE), decide(action="show", skill="probe_02")],
        12: [create("crash_b", crash("crash_b"))],
        15: [decide(action="show", skill="x" * 50_000)],
        18: [decide(action="lookup", query=QUERY.upper()), SUMMARY],
        21: [Reply(text=GARBAGE), decide(action="invoke", skill="no_such_skill_" + "q" * 3000, params={"a": 1})],
        24: [decide(action="show", skill="crash_a")],
        27: [create("crash_c", crash("crash_c"))],
    }
    made = 0
    for n in range(2, DECISIONS + 1):
        if n in extras:
            steps += extras[n]
        else:
            steps.append(create(probes[made], probe(probes[made])))
            made += 1
    assert made == len(probes), made
    return steps


def config(tmp: Path, server: FakeModelServer, max_prompt_tokens: Optional[int]) -> EpisodeConfig:
    return EpisodeConfig(seed=SEED, llm=f"openai:scripted@{server.openai_base_url}", max_steps=DECISIONS,
                         db_path=str(tmp / "m.db"), library_path=str(tmp / "skills"),
                         max_prompt_tokens=max_prompt_tokens,
                         backend_options={"timeout": 60.0, "max_retries": 0, "api_key": "k"})


def request_chars(body: dict) -> int:
    """Characters of a request that the model reads as tokens: every message's text and
    the tools' definitions (JSON framing and escapes are no tokens)."""
    text = sum(len(m.get("content") or "") for m in body.get("messages", []))
    return text + sum(len(json.dumps(t, ensure_ascii=False)) for t in body.get("tools") or [])


@dataclass
class Played:
    summary: EpisodeSummary
    bodies: list[dict]  # every request body the server received, in order
    leftover: int  # scripted replies never asked for

    @property
    def sizes(self) -> list[int]:
        return [request_chars(b) for b in self.bodies]

    def report(self) -> str:
        sizes = self.sizes
        return f"largest request {max(sizes):,} chars, total {sum(sizes):,} chars over {len(sizes)} requests"


async def play(tmp: Path, max_prompt_tokens: Optional[int]) -> Played:
    """Play the scripted game in ``tmp`` (a fresh folder) under ``max_prompt_tokens``."""
    tmp.mkdir(parents=True, exist_ok=True)
    with FakeModelServer() as server:
        server.script(*script())
        summary = await Agent(config(tmp, server, max_prompt_tokens)).run()
        return Played(summary, server.bodies("/v1/chat/completions"), server.pending)

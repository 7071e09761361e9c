"""When the model's call fails and the autopilot plays the step in its place
(``--fallback autopilot``), the next prompt shows that step's own outcome, and the failed
call as a line of its own: the step is never reported as failing for the model's fault.

Real games, a real run database; the model is a local server speaking the real wire
formats (tests/agent/fake_model_server.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig

from .fake_model_server import FakeModelServer, HTTPError, Reply

SEARCH = {"action": "direct", "key": "s", "reasoning": "search a turn"}
PATHS = {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}


def llm(api: str, server: FakeModelServer) -> str:
    return f"anthropic:claude-haiku-4-5@{server.url}" if api == "anthropic" else f"openai:x@{server.url}/v1"


def prompt_text(body: dict) -> str:
    """The user prompt of one request, whatever the wire format."""
    content = body["messages"][-1]["content"]
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return content


def section(prompt: str, head: str) -> list[str]:
    """The lines of one prompt section, up to the next blank line."""
    lines = prompt.split("\n")
    start = lines.index(head) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_the_autopilots_step_after_a_failed_model_call_shows_its_own_outcome_and_the_failure_apart(
        tmp_path, api):
    with FakeModelServer() as server:
        server.script(HTTPError(500, "the model is on fire"), Reply(tool_input=SEARCH))
        cfg = EpisodeConfig(seed=5, llm=llm(api, server), max_steps=2, fallback="autopilot",
                            db_path=str(tmp_path / "runs.db"), library_path=str(tmp_path / "skills"),
                            backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"})
        summary = await Agent(cfg).run()
        bodies = server.bodies(PATHS[api])
    assert summary.decided_by == {"fallback": 1, "strategist": 1} and summary.model_error is None
    assert len(bodies) == 2

    db = sqlite3.connect(tmp_path / "runs.db")
    skill, stopped, success, recorded_error = db.execute(
        "SELECT skill_name, stopped_reason, success, error FROM decisions WHERE decided_by = 'fallback'").fetchone()
    db.close()
    assert skill and stopped and "HTTP 500" in recorded_error  # the database keeps why the autopilot played

    executions = section(prompt_text(bodies[1]), "LAST SKILL EXECUTIONS:")
    outcome = executions[0]
    assert outcome.startswith("- T") and f" {skill}(" in outcome
    # the autopilot's step, as it went: its stopped reason, no error of the model's
    assert f"-> {stopped} ({'ok' if success else 'not ok'}," in outcome
    assert "ERROR" not in outcome and "model backend failed" not in outcome
    failure = [ln.strip() for ln in executions[1:] if "the autopilot played this step" in ln]
    assert len(failure) == 1
    assert failure[0].startswith("model backend failed (") and "HTTP 500" in failure[0]
    assert "the model is on fire" in failure[0]
    assert "ERROR" not in json.dumps(executions)

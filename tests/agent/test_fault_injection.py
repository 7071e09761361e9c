"""Any reply is survived: whatever a model server, a model or a model-written skill does
wrong, the episode ends normally and is recorded, a call that cannot be read counts as a
failed model call, and where the model asks again it is told what was wrong.

Each case of ``faults.py`` plays one short real game (NLE, seed 5) through the public
entry point (``Agent(config).run()``, as ``hackwright play`` and ``eval`` do), against a
real HTTP server on 127.0.0.1 speaking the Anthropic or OpenAI wire format, with model
skills in the real sandbox and the run database a real SQLite file."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.config import ConfigError, load_config

from .fake_model_server import Delay, FakeModelServer, Raw
from .faults import HTML, NEVER_S, Fault, cases

PATHS = {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}


def spec(api: str, server: FakeModelServer) -> str:
    if api == "anthropic":
        return f"anthropic:claude-haiku-4-5@{server.url}"
    return f"openai:gpt-4o-mini@{server.openai_base_url}"


def request_text(body: dict) -> str:
    """Everything a request tells the model: system prompt and every message's text."""
    parts: list[str] = []
    system = body.get("system")
    if isinstance(system, list):
        parts += [b.get("text", "") for b in system if isinstance(b, dict)]
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [b.get("text", "") for b in content if isinstance(b, dict)]
    return "\n".join(parts)


def recorded(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    db = sqlite3.connect(db_path)
    try:
        return (db.execute("SELECT id, end_reason FROM episodes").fetchall(),
                db.execute("SELECT type, decided_by, error FROM decisions ORDER BY id").fetchall())
    finally:
        db.close()


@pytest.mark.parametrize("fault,api", cases(), ids=[f"{f.name}-{api}" for f, api in cases()])
async def test_a_fault_ends_no_episode_by_an_exception_and_the_model_hears_of_its_own(tmp_path, fault: Fault, api):
    with FakeModelServer() as server:
        server.script(*fault.script(api))
        cfg = EpisodeConfig(seed=5, llm=spec(api, server), max_steps=fault.max_steps,
                            db_path=str(tmp_path / "runs.db"), library_path=str(tmp_path / "skills"),
                            skill_limits=fault.limits, fallback=fault.fallback,
                            backend_options={"timeout": fault.timeout, "max_retries": fault.retries,
                                             "api_key": "k"})
        summary = await Agent(cfg).run()  # any exception fails the case
        bodies = server.bodies(PATHS[api])
        left = server.pending

    assert left == 0, "the script was not played to its end"
    if fault.requests is not None:
        assert len(bodies) == fault.requests
    assert summary.end_reason.startswith(fault.ends), summary.end_reason
    if fault.ends == "model error":
        for piece in fault.error_has:
            assert piece in summary.model_error, summary.model_error
    else:
        assert summary.model_error is None
    if fault.decisions is not None:
        assert summary.decisions == fault.decisions
    if fault.fallback:
        assert summary.fallback_steps == summary.decided_by.get("fallback", 0) >= 1

    episodes, decisions = recorded(tmp_path / "runs.db")
    assert episodes == [(summary.episode_id, summary.end_reason)]
    assert len(decisions) == summary.decisions + summary.failed_decisions
    if fault.ends == "model error":
        assert decisions[-1][:2] == ("none", "none")  # the failed call, and nothing played in the model's name

    if fault.told:
        said = request_text(bodies[fault.told_in])
        for piece in fault.told:
            assert piece in said, f"request {fault.told_in} does not say {piece!r}"
        assert len(json.dumps(bodies[fault.told_in])) < 300_000  # what went wrong comes back cut, not whole
    if fault.name.endswith("os-system"):
        assert not os.path.exists("/tmp/hackwright-fault")


# ------------------------------------------------------------------ timeout and retries from the config
def test_model_timeout_and_retries_are_checked_settings():
    cfg = load_config(env={"HACKWRIGHT_AGENT_MODEL_TIMEOUT_SECONDS": "300", "HACKWRIGHT_AGENT_MODEL_RETRIES": "0"},
                      warn=None)
    options = cfg.episode().backend_options
    assert (options["timeout"], options["max_retries"]) == (300.0, 0)
    defaults = load_config(env={}, warn=None).episode().backend_options
    assert (defaults["timeout"], defaults["max_retries"]) == (120.0, 3)
    with pytest.raises(ConfigError, match="MODEL_RETRIES is '-1'; write a whole number of at least 0"):
        load_config(env={"HACKWRIGHT_AGENT_MODEL_RETRIES": "-1"}, warn=None)
    with pytest.raises(ConfigError, match="MODEL_TIMEOUT_SECONDS is '0'; write a number above 0"):
        load_config(env={"HACKWRIGHT_AGENT_MODEL_TIMEOUT_SECONDS": "0"}, warn=None)


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_a_server_slower_than_the_configured_timeout_is_a_failed_call_after_exactly_the_configured_retries(
        tmp_path, api):
    (tmp_path / "config.yaml").write_text("agent:\n  model_timeout_seconds: 1.5\n  model_retries: 2\n")
    with FakeModelServer() as server:
        server.script(*[Delay(NEVER_S)] * 4)
        cfg = load_config(str(tmp_path / "config.yaml"), env={}, warn=None)
        episode = cfg.episode(llm=spec(api, server), seed=5, max_steps=3, db_path=str(tmp_path / "runs.db"),
                              library_path=str(tmp_path / "skills"))
        episode.backend_options["api_key"] = "k"
        summary = await Agent(episode).run()
        requests = len(server.bodies(PATHS[api]))
    assert requests == 3  # the first attempt and exactly two retries, then the call has failed
    assert summary.end_reason.startswith("model error") and "timed out" in summary.model_error
    assert "timeout 1.5s" in summary.model_error and "3 attempts" in summary.model_error
    assert summary.decisions == 0 and summary.failed_decisions == 1


# ------------------------------------------------------------------ the command line
def hackwright(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "COLUMNS": "200", **env}
    full_env.pop("HACKWRIGHT_LLM", None)
    return subprocess.run([sys.executable, "-m", "hackwright", *args], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=240)


@pytest.mark.parametrize("body, says", [
    (Raw(200, HTML, content_type="text/html"), "not JSON"),
    (Raw(200, b'{"id": "chatcmpl-1", "choices": [{"message": {"content": "Unterminated'), "cut off or broken"),
])
def test_play_given_an_unreadable_reply_exits_1_with_one_error_line_and_records_the_episode(tmp_path, body, says):
    with FakeModelServer() as server:
        server.script(body, body)
        proc = hackwright("play", "--llm", f"openai:x@{server.openai_base_url}", "--max-steps", "3", "--no-record",
                          "--db", "m.db", "--library", "skills", "--json", cwd=tmp_path,
                          env={"HACKWRIGHT_AGENT_MODEL_RETRIES": "1"})
        requests = len(server.requests)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 1, proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and says in errors[0] and "2 attempts" in errors[0]
    assert requests == 2
    summary = json.loads(proc.stdout)
    assert summary["end_reason"].startswith("model error") and summary["decisions"] == 0
    episodes, decisions = recorded(tmp_path / "m.db")
    assert len(episodes) == 1 and episodes[0][1].startswith("model error")
    assert decisions == [("none", "none", decisions[0][2])] and says in decisions[0][2]

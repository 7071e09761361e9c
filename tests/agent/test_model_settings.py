"""Model call settings per backend: config.yaml's openai/anthropic sections, HACKWRIGHT_*
variables and the flags of play and eval reach the request each backend sends (seen in the
body a local server speaking the real wire format receives), in the documented order, and a
bad value stops the command with one line naming the setting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hackwright.agent.backends import Message, make_backend
from hackwright.agent.backends.base import BackendError
from hackwright.config import ConfigError, ModelOverrides, load_config

from .fake_model_server import FakeModelServer, HTTPError, Reply

PATHS = {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}
CONFIG = """agent:
  temperature: 0.7
  max_tokens: 4096
openai:
  temperature: 0.25
  max_tokens: 321
  retries: 1
  extra_body: {top_p: 0.5, seed: 7}
anthropic:
  temperature: 0.1
  max_tokens: 654
  retries: 0
  timeout_seconds: 45
  extra_body: {top_k: 20}
"""
SEARCH = {"action": "direct", "key": "s", "reasoning": "look"}


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


def spec(api: str, server: FakeModelServer) -> str:
    model = "claude-haiku-4-5" if api == "anthropic" else "scripted"
    return f"{api}:{model}@{server.url if api == 'anthropic' else server.openai_base_url}"


def config(tmp_path: Path, text: str = CONFIG) -> str:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    return str(path)


async def ask(api: str, server: FakeModelServer, options: dict) -> dict:
    """One real call through the backend made with ``options``; the body the server got."""
    backend = make_backend(spec(api, server), api_key="k", **options)
    try:
        await backend.complete("system", [Message("user", "what now?")])
    finally:
        await backend.aclose()
    return server.bodies(PATHS[api])[-1]


# ------------------------------------------------------------------ each backend its own settings
@pytest.mark.parametrize("api, expected", [
    ("openai", {"temperature": 0.25, "max_tokens": 321, "top_p": 0.5, "seed": 7}),
    ("anthropic", {"temperature": 0.1, "max_tokens": 654, "top_k": 20}),
])
async def test_each_backend_sends_the_settings_of_its_own_config_section(tmp_path, server, api, expected):
    server.script(Reply(tool_input=SEARCH))
    cfg = load_config(config(tmp_path), env={}, warn=None)
    body = await ask(api, server, cfg.episode(llm=spec(api, server)).backend_options)
    assert {k: body.get(k) for k in expected} == expected
    other = {"openai": "top_k", "anthropic": "top_p"}[api]
    assert other not in body  # the other backend's section stays its own


async def test_a_backend_without_a_section_sends_the_agent_defaults(tmp_path, server):
    server.script(Reply(tool_input=SEARCH))
    cfg = load_config(config(tmp_path, "agent:\n  temperature: 0.9\n  max_tokens: 1000\n"), env={}, warn=None)
    body = await ask("openai", server, cfg.episode(llm=spec("openai", server)).backend_options)
    assert (body["temperature"], body["max_tokens"]) == (0.9, 1000) and "top_p" not in body


@pytest.mark.parametrize("api, attempts", [("openai", 2), ("anthropic", 1)])
async def test_retries_and_timeout_are_per_backend(tmp_path, server, api, attempts):
    server.script(*[HTTPError(500, "overloaded")] * 3)
    cfg = load_config(config(tmp_path), env={}, warn=None)
    options = cfg.episode(llm=spec(api, server)).backend_options
    assert options["timeout"] == (45.0 if api == "anthropic" else 120.0)
    with pytest.raises(BackendError, match="HTTP 500"):
        await ask(api, server, options)
    assert len(server.bodies(PATHS[api])) == attempts  # 1 + the section's retries


# ------------------------------------------------------------------ precedence
def test_precedence_is_flag_then_provider_variable_then_any_backend_variable_then_section_then_agent(tmp_path):
    path = config(tmp_path)
    env = {"HACKWRIGHT_OPENAI_TEMPERATURE": "0.6", "HACKWRIGHT_MODEL_TEMPERATURE": "0.5",
           "HACKWRIGHT_MODEL_MAX_TOKENS": "777", "HACKWRIGHT_AGENT_MODEL_RETRIES": "5"}
    cfg = load_config(path, env=env, warn=None)
    flags = ModelOverrides.from_flags(temperature="1.5")

    def temperature(spec: str, flags=None) -> tuple:
        s = cfg.model_settings(spec, flags)
        return s.temperature, s.sources["temperature"]

    assert temperature("openai:m", flags) == (1.5, "flag --temperature")
    assert temperature("openai:m") == (0.6, "HACKWRIGHT_OPENAI_TEMPERATURE")
    assert temperature("anthropic:m") == (0.5, "HACKWRIGHT_MODEL_TEMPERATURE")
    without_env = load_config(path, env={}, warn=None)
    assert without_env.model_settings("anthropic:m").temperature == 0.1  # the section
    assert without_env.model_settings("human").temperature == 0.7  # the agent default
    # any backend's variable beats a section; an agent variable is only a default
    openai = cfg.model_settings("openai:m")
    assert openai.max_tokens == 777 and openai.retries == 1 and cfg.model_settings("human").retries == 5


def hackwright(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, "COLUMNS": "200", **(env or {})}
    for name in ("HACKWRIGHT_LLM", "HACKWRIGHT_MODEL_FLAGS"):
        full.pop(name, None)
    return subprocess.run([sys.executable, "-m", "hackwright", *args], cwd=cwd, env=full, capture_output=True,
                          text=True, timeout=300)


def test_play_flags_beat_the_environment_and_the_config_file_in_the_request_sent(tmp_path, server):
    server.script(Reply(tool_input=SEARCH))
    proc = hackwright("play", "--llm", spec("openai", server), "--max-steps", "1", "--no-record", "--db", "m.db",
                      "--library", "skills", "--config", config(tmp_path), "--json", "--temperature", "1.2",
                      "--max-tokens", "99", "--extra-body", '{"top_p": 0.3}', "--model-retries", "0",
                      cwd=tmp_path, env={"HACKWRIGHT_OPENAI_TEMPERATURE": "0.6", "HACKWRIGHT_MODEL_MAX_TOKENS": "5"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    body = server.bodies(PATHS["openai"])[0]
    assert (body["temperature"], body["max_tokens"], body["top_p"]) == (1.2, 99, 0.3)
    assert "seed" not in body  # --extra-body replaces the section's object, it is not merged with it


def test_eval_hands_its_model_flags_to_every_episode(tmp_path, server):
    server.script(Reply(tool_input=SEARCH))
    proc = hackwright("eval", "--agent", spec("anthropic", server), "--seeds", "0", "--max-steps", "1",
                      "--out", "ev", "--no-report", "--no-record", "--temperature", "0.35",
                      "--extra-body", '{"top_k": 3}', "--model-retries", "0", cwd=tmp_path,
                      env={"ANTHROPIC_API_KEY": "k"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    body = server.bodies(PATHS["anthropic"])[0]
    assert (body["temperature"], body["top_k"]) == (0.35, 3)


# ------------------------------------------------------------------ bad values
@pytest.mark.parametrize("args, env, expected", [
    (("--temperature", "5"), {}, "error: --temperature is '5'; write a number from 0 to 2"),
    (("--extra-body", "[1, 2]"), {}, "error: --extra-body is '[1, 2]'; write a JSON object such as"),
    (("--model-timeout", "soon"), {}, "error: --model-timeout is 'soon'; write a number above 0"),
    ((), {"HACKWRIGHT_OPENAI_MAX_TOKENS": "0"},
     "error: HACKWRIGHT_OPENAI_MAX_TOKENS is '0'; write a whole number of at least 1 (or null for the agent default)"),
    ((), {"HACKWRIGHT_MODEL_RETRIES": "-2"}, "error: HACKWRIGHT_MODEL_RETRIES is '-2'; write a whole number of at "
                                             "least 0"),
])
def test_a_bad_value_is_one_error_line_naming_the_setting_and_nothing_is_played(tmp_path, args, env, expected):
    proc = hackwright("play", "--llm", "openai:x@http://127.0.0.1:9/v1", "--no-record", "--db", "m.db", *args,
                      cwd=tmp_path, env=env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and lines[0].startswith(expected), proc.stderr
    assert not (tmp_path / "m.db").exists()


def test_a_bad_section_value_in_the_config_file_names_the_file_and_key(tmp_path):
    path = config(tmp_path, "anthropic:\n  extra_body: [top_k]\n")
    with pytest.raises(ConfigError, match=r"config.yaml: anthropic.extra_body is \['top_k'\]; write a JSON object"):
        load_config(path, env={}, warn=None)

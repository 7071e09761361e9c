"""The backends through the real SDKs against a local server speaking each API's wire format."""

from __future__ import annotations

import importlib
import json
import logging

import anthropic
import openai
import pytest

from hackwright.agent.backends import (
    BackendError,
    Message,
    ModelBackend,
    Price,
    ReplayBackend,
    TranscriptWriter,
    make_backend,
    parse_spec,
    price_for,
)
from hackwright.agent.backends import anthropic as anthropic_module
from hackwright.agent.backends import openai as openai_module
from hackwright.agent.backends.anthropic import AnthropicBackend
from hackwright.agent.backends.openai import OpenAIBackend
from hackwright.agent.budget import Budget

from .fake_model_server import Delay, FakeModelServer, HTTPError, Raw, Reply

KEY = "sk-test-0123456789"
# Every client waits this long for a reply: far more than a loaded machine needs to answer
# on 127.0.0.1, so only a reply the server withholds (a Delay of NEVER_S) times out.
CLIENT_TIMEOUT_S = 5.0
NEVER_S = 3600.0  # the fake server drops a delayed reply when it stops
SYSTEM = "You are playing NetHack. Answer with one JSON decision."
ASK = [Message("user", "HP 12/12. What do you do?")]
INVOKE_TEXT = 'Exploring.\n```json\n{"action": "invoke", "skill": "explore_level", "params": {"max_steps": 40}}\n```'
TOOL_INPUT = {"action": "direct", "key": "s", "reasoning": "search for a hidden door"}


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


def anthropic_backend(server, **kw) -> AnthropicBackend:
    kw.setdefault("api_key", KEY)
    kw.setdefault("max_retries", 2)
    kw.setdefault("timeout", CLIENT_TIMEOUT_S)
    return AnthropicBackend(kw.pop("model", "claude-sonnet-5-5"), base_url=server.url, **kw)


def openai_backend(server, **kw) -> OpenAIBackend:
    kw.setdefault("api_key", KEY)
    kw.setdefault("max_retries", 2)
    kw.setdefault("timeout", CLIENT_TIMEOUT_S)
    return OpenAIBackend(kw.pop("model", "gpt-4.1"), base_url=server.openai_base_url, **kw)


def sent_key(headers: dict) -> str:
    """The API key a request carried (x-api-key, or a bearer token as the SDKs now send it)."""
    if "x-api-key" in headers:
        return headers["x-api-key"]
    auth = headers.get("authorization", "")
    return auth[len("Bearer "):] if auth.startswith("Bearer ") else auth


BACKENDS = {"anthropic": anthropic_backend, "openai": openai_backend}
PATHS = {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_text_decision(server, api):
    server.script(Reply(text=INVOKE_TEXT))
    backend = BACKENDS[api](server)
    assert isinstance(backend, ModelBackend)
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert reply.tool_input is None
    assert reply.text == INVOKE_TEXT
    d = reply.decision()
    assert (d.type, d.skill_name, d.params) == ("invoke_skill", "explore_level", {"max_steps": 40})
    assert reply.attempts == 1 and reply.latency_s > 0
    assert reply.raw["id"]  # the response body as sent
    [req] = server.requests
    assert req.path == PATHS[api]


async def test_anthropic_request_carries_cached_system_block_and_the_tool(server):
    server.script(Reply(text="ok", tool_input=TOOL_INPUT), Reply(text=INVOKE_TEXT))
    backend = anthropic_backend(server)
    await backend.complete(SYSTEM, ASK)
    await backend.complete(SYSTEM, ASK, use_tools=False)
    await backend.aclose()
    first, second = server.requests
    body = first.body
    assert body["system"] == [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}]
    assert body["messages"] == [{"role": "user", "content": ASK[0].content}]
    assert body["model"] == "claude-sonnet-5-5" and body["max_tokens"] == 4096
    [tool] = body["tools"]
    assert tool["name"] == "decide" and tool["input_schema"]["properties"]["action"]["enum"] == \
        ["invoke", "create", "direct", "lookup", "show"]
    assert body["tool_choice"] == {"type": "auto"}
    assert "temperature" not in body
    assert sent_key(first.headers) == KEY and "anthropic-version" in first.headers
    assert "tools" not in second.body and "tool_choice" not in second.body


async def test_openai_request_carries_system_message_and_the_function(server):
    server.script(Reply(text=INVOKE_TEXT))
    backend = openai_backend(server, temperature=0.2)
    await backend.complete(SYSTEM, ASK + [Message("assistant", "{}"), Message("user", "again")])
    await backend.aclose()
    [req] = server.requests
    body = req.body
    assert body["messages"][0] == {"role": "system", "content": SYSTEM}
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    [tool] = body["tools"]
    assert tool["type"] == "function" and tool["function"]["name"] == "decide"
    assert tool["function"]["parameters"]["required"] == ["action"]
    assert body["tool_choice"] == "auto"
    assert body["max_tokens"] == 4096 and body["temperature"] == 0.2  # a local server gets max_tokens
    assert sent_key(req.headers) == KEY


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_native_tool_call(server, api):
    server.script(Reply(text="There may be a hidden door.", tool_input=TOOL_INPUT))
    backend = BACKENDS[api](server)
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert reply.tool_input == TOOL_INPUT
    assert reply.stop_reason == ("tool_use" if api == "anthropic" else "tool_calls")
    d = reply.decision()
    assert (d.type, d.action, d.reasoning) == ("direct_action", "s", "search for a hidden door")
    # as history, the call becomes its canonical JSON
    assert reply.as_message().content.endswith('{"action": "direct", "key": "s", "reasoning": "search for a hidden door"}')


async def test_openai_tool_arguments_that_are_not_strict_json(server):
    server.script(Reply(tool_arguments="{'action': 'direct', 'key': 'k',}"),
                  Reply(tool_arguments="not json at all"))
    backend = openai_backend(server)
    first = await backend.complete(SYSTEM, ASK)
    second = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert first.tool_input == {"action": "direct", "key": "k"}
    assert second.tool_input is None and "not json at all" in second.text
    with pytest.raises(Exception):
        second.decision()


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_429_then_success_is_retried_by_the_sdk(server, api):
    server.script(HTTPError(429, "rate limited", retry_after=0.05), Reply(text=INVOKE_TEXT))
    backend = BACKENDS[api](server)
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 2
    assert [r.headers.get("x-stainless-retry-count") for r in server.requests] == ["0", "1"]
    assert server.requests[0].body == server.requests[1].body
    assert reply.attempts == 2
    assert reply.decision().skill_name == "explore_level"


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_500_then_success(server, api):
    server.script(HTTPError(500, "internal error"), Reply(text=INVOKE_TEXT))
    backend = BACKENDS[api](server)
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 2 and reply.attempts == 2


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_timeout_then_success(server, api):
    # The first reply never comes while the server runs: only the client's timeout ends that attempt.
    server.script(Delay(NEVER_S, Reply(text="too late")), Reply(text=INVOKE_TEXT))
    backend = BACKENDS[api](server, timeout=CLIENT_TIMEOUT_S)
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 2 and reply.attempts == 2
    assert reply.text == INVOKE_TEXT


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_retries_run_out(server, api):
    server.script(HTTPError(529 if api == "anthropic" else 503, "overloaded", retry_after=0.01),
                  HTTPError(503, "overloaded", retry_after=0.01), HTTPError(503, "overloaded", retry_after=0.01))
    backend = BACKENDS[api](server, max_retries=2)
    with pytest.raises(BackendError) as e:
        await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 3
    assert e.value.retryable and e.value.status == 503 and e.value.attempts == 3
    assert "overloaded" in str(e.value)


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_timeouts_run_out(server, api):
    server.script(Delay(NEVER_S), Delay(NEVER_S))
    backend = BACKENDS[api](server, max_retries=1, timeout=CLIENT_TIMEOUT_S)
    with pytest.raises(BackendError) as e:
        await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 2
    assert e.value.retryable and "timed out" in str(e.value) and e.value.attempts == 2


@pytest.mark.parametrize("api,env_var", [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY")])
async def test_auth_error_is_not_retried_and_the_key_is_not_in_the_message(server, api, env_var):
    server.script(HTTPError(401, f"invalid x-api-key {KEY}"))
    backend = BACKENDS[api](server)
    with pytest.raises(BackendError) as e:
        await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 1
    assert e.value.status == 401 and not e.value.retryable
    assert env_var in str(e.value) and KEY not in str(e.value)


async def test_anthropic_usage_gives_tokens_and_cost(server):
    server.script(Reply(text=INVOKE_TEXT, input_tokens=1000, output_tokens=200, cache_read=5000, cache_write=300))
    backend = anthropic_backend(server, model="claude-haiku-4-5-20251001")  # priced as claude-haiku-4-5
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert (reply.input_tokens, reply.output_tokens, reply.cache_read_tokens, reply.cache_write_tokens) == \
        (1000, 200, 5000, 300)
    assert reply.total_tokens == 6500
    assert reply.model == "claude-haiku-4-5-20251001"
    assert reply.cost_usd == pytest.approx((1000 * 1.00 + 200 * 5.00 + 5000 * 0.10 + 300 * 1.25) / 1e6)


async def test_openai_usage_gives_tokens_and_cost(server):
    server.script(Reply(text=INVOKE_TEXT, input_tokens=800, output_tokens=100, cache_read=1200))
    backend = openai_backend(server, model="gpt-4.1-2025-04-14")
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert server.requests  # the wire said prompt_tokens=2000 of which 1200 cached
    assert (reply.input_tokens, reply.cache_read_tokens, reply.output_tokens) == (800, 1200, 100)
    assert reply.cost_usd == pytest.approx((800 * 2.00 + 1200 * 0.50 + 100 * 8.00) / 1e6)


async def test_price_override_and_unknown_model_warning(server, caplog):
    server.script(Reply(text=INVOKE_TEXT, input_tokens=1_000_000), Reply(text=INVOKE_TEXT),
                  Reply(text=INVOKE_TEXT, input_tokens=1_000_000))
    backend = openai_backend(server, model="local-llama-unpriced")
    with caplog.at_level(logging.WARNING):
        first = await backend.complete(SYSTEM, ASK)
        await backend.complete(SYSTEM, ASK)
    assert first.cost_usd == 0.0
    assert sum("local-llama-unpriced" in r.getMessage() for r in caplog.records) == 1  # warned once
    await backend.aclose()
    priced = openai_backend(server, model="local-llama-unpriced", price=Price(0.5, 1.0, 0.5, 0.1))
    third = await priced.complete(SYSTEM, ASK)
    await priced.aclose()
    assert third.cost_usd == pytest.approx(0.5 + 7 * 1.0 / 1e6)


async def test_openai_base_url_in_the_spec(server):
    server.script(Reply(tool_input={"action": "invoke", "skill": "pray"}))
    backend = make_backend(f"openai:some-model@{server.openai_base_url}", max_retries=0)
    assert isinstance(backend, OpenAIBackend) and backend.model == "some-model"
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    [req] = server.requests
    assert req.path == "/v1/chat/completions" and req.body["model"] == "some-model"
    assert sent_key(req.headers) == "EMPTY"  # no key needed for a local server
    assert reply.decision().skill_name == "pray"


async def test_environment_key_is_not_sent_to_another_server(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-real-secret-key")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-real-secret-key")
    server.script(Reply(text=INVOKE_TEXT), Reply(text=INVOKE_TEXT))
    for backend in (OpenAIBackend("m", base_url=server.openai_base_url), AnthropicBackend("m", base_url=server.url)):
        await backend.complete(SYSTEM, ASK)
        await backend.aclose()
    assert "real-secret" not in json.dumps([r.headers for r in server.requests])


def test_missing_key_for_the_real_api(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(BackendError, match="ANTHROPIC_API_KEY"):
        make_backend("anthropic:claude-sonnet-5-5")
    with pytest.raises(BackendError, match="OPENAI_API_KEY"):
        make_backend("openai:gpt-4.1")


def test_specs():
    assert parse_spec("anthropic:claude-opus-4-5") == ("anthropic", "claude-opus-4-5", None)
    assert parse_spec("openai:qwen3@http://127.0.0.1:8000/v1") == ("openai", "qwen3", "http://127.0.0.1:8000/v1")
    assert parse_spec("openai:org/model@v2@https://h.example/v1") == ("openai", "org/model@v2", "https://h.example/v1")
    assert parse_spec("replay:runs/t.jsonl") == ("replay", "runs/t.jsonl", None)
    for bad in ("gemini:x", "anthropic:", "claude"):
        with pytest.raises(BackendError, match="anthropic:MODEL"):
            parse_spec(bad)
    assert price_for("claude-haiku-4-5-20251001") == price_for("claude-haiku-4-5")
    assert price_for("gpt-4o-mini-2024-07-18") == price_for("gpt-4o-mini")
    assert price_for("claude-opus-4-0") == price_for("claude-opus-4")
    assert price_for("no-such-model") is None


async def test_openai_server_without_tools(caplog):
    with FakeModelServer(reject_tools=True) as server:
        server.script(Reply(text=INVOKE_TEXT), Reply(text='{"action": "direct", "key": "h"}'))
        backend = openai_backend(server)
        with caplog.at_level(logging.WARNING):
            first = await backend.complete(SYSTEM, ASK)
        second = await backend.complete(SYSTEM, ASK)
        await backend.aclose()
    assert first.decision().skill_name == "explore_level" and second.decision().action == "h"
    assert ["tools" in r.body for r in server.requests] == [True, False, False]
    assert backend.supports_tools is False
    assert any("rejected tools" in r.getMessage() for r in caplog.records)


async def test_a_400_about_something_else_is_an_error(server):
    server.script(HTTPError(400, "messages: roles must alternate"))
    backend = openai_backend(server)
    with pytest.raises(BackendError, match="roles must alternate") as e:
        await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert len(server.requests) == 1 and e.value.status == 400 and backend.supports_tools is None


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_transcript_then_replay_returns_the_same_replies(server, tmp_path, api):
    url = server.url if api == "anthropic" else server.openai_base_url
    spec = f"{api}:{'claude-haiku-4-5' if api == 'anthropic' else 'gpt-4o-mini'}@{url}"
    path = tmp_path / "run" / "transcript.jsonl"
    server.script(Reply(text=INVOKE_TEXT, input_tokens=100, output_tokens=20, cache_write=900),
                  Reply(text="hidden door?", tool_input=TOOL_INPUT, input_tokens=100, cache_read=900),
                  HTTPError(400, "bad request"))
    backend = make_backend(spec, transcript=path, api_key=KEY, max_retries=0)
    asked = [[Message("user", "first")], [Message("user", "first"), Message("assistant", "x"),
                                          Message("user", "second")]]
    live = [await backend.complete(SYSTEM, asked[0]), await backend.complete(SYSTEM, asked[1])]
    with pytest.raises(BackendError):
        await backend.complete(SYSTEM, [Message("user", "third")])
    await backend.aclose()

    text = path.read_text()
    assert KEY not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 3
    assert lines[0]["backend"] == api and lines[0]["system"] == SYSTEM and "system" not in lines[1]
    assert lines[0]["system_sha256"] == lines[1]["system_sha256"]
    assert lines[1]["messages"][-1] == {"role": "user", "content": "second"}
    assert lines[1]["reply"]["tool_input"] == TOOL_INPUT and lines[0]["reply"]["cost_usd"] > 0
    assert "error" in lines[2] and lines[2]["retryable"] is False

    replay = make_backend(f"replay:{path}")
    assert isinstance(replay, ReplayBackend) and replay.remaining == 3
    again = [await replay.complete(SYSTEM, asked[0]), await replay.complete("another prompt", [])]
    for a, b in zip(live, again):
        assert (a.text, a.tool_input, a.input_tokens, a.output_tokens, a.cache_read_tokens, a.cache_write_tokens,
                a.cost_usd, a.model, a.attempts) == \
               (b.text, b.tool_input, b.input_tokens, b.output_tokens, b.cache_read_tokens, b.cache_write_tokens,
                b.cost_usd, b.model, b.attempts)
        assert a.decision() == b.decision()
    with pytest.raises(BackendError, match="bad request"):
        await replay.complete(SYSTEM, ASK)
    with pytest.raises(BackendError, match="transcript exhausted"):
        await replay.complete(SYSTEM, ASK)


async def test_strict_replay_notices_divergence(tmp_path):
    path = tmp_path / "t.jsonl"
    from hackwright.agent.backends import ModelReply

    with TranscriptWriter(path) as w:
        w.write(backend="anthropic", model="m", system=SYSTEM, messages=ASK, reply=ModelReply(text="a"))
        w.write(backend="anthropic", model="m", system=SYSTEM, messages=ASK, reply=ModelReply(text="b"))
    replay = ReplayBackend(path, strict=True)
    assert (await replay.complete(SYSTEM, ASK)).text == "a"
    with pytest.raises(BackendError, match="system prompt differs"):
        await replay.complete("changed", ASK)


async def test_budget_stops_a_loop(server):
    server.script(*[Reply(text=INVOKE_TEXT, input_tokens=400, output_tokens=100) for _ in range(10)])
    backend = anthropic_backend(server, model="claude-opus-4-1")  # $15 / $75 per million
    budget = Budget(max_calls=8, max_usd=0.04)
    made = 0
    while budget.exhausted() is None:
        budget.charge(await backend.complete(SYSTEM, ASK))
        made += 1
    await backend.aclose()
    # each call costs 400*15e-6 + 100*75e-6 = $0.0135: the third one crosses $0.04
    assert made == 3 and len(server.requests) == 3
    assert budget.calls == 3 and budget.tokens == 1500
    assert budget.usd == pytest.approx(0.0405)
    assert budget.exhausted().startswith("cost budget exhausted")


def test_budget_limits():
    now = [100.0]
    b = Budget(max_calls=2, clock=lambda: now[0])
    assert b.exhausted() is None
    from hackwright.agent.backends import ModelReply

    b.charge(ModelReply(text="", input_tokens=5, output_tokens=5))
    b.charge(ModelReply(text="", input_tokens=5, output_tokens=5))
    assert "2 of 2 calls" in b.exhausted()
    t = Budget(max_tokens=100)
    t.charge(ModelReply(text="", input_tokens=50, output_tokens=20, cache_read_tokens=20, cache_write_tokens=10))
    assert "100 of 100 tokens" in t.exhausted()
    w = Budget(max_wall_s=60, clock=lambda: now[0])
    assert w.exhausted() is None
    now[0] += 61
    assert w.exhausted().startswith("time budget exhausted")
    assert Budget().exhausted() is None
    assert w.summary()["limits"]["max_wall_s"] == 60


@pytest.mark.parametrize("sdk,backend_module", [(anthropic, anthropic_module), (openai, openai_module)],
                         ids=["anthropic", "openai"])
def test_the_retry_schedule_each_backend_documents_is_the_one_its_installed_sdk_follows(sdk, backend_module):
    # pyproject.toml sets only lower bounds: a newer SDK that retries differently fails here,
    # and the backend's docstring (what a reader trusts) gets corrected.
    constants = importlib.import_module(f"{sdk.__name__}._constants")
    doc = " ".join(backend_module.__doc__.split())
    assert f"exponential backoff from {constants.INITIAL_RETRY_DELAY:g} s" in doc
    assert f"at most {constants.MAX_RETRY_DELAY:g} s" in doc
    if hasattr(constants, "MAX_RETRY_AFTER_DELAY"):  # the longest retry-after the SDK honours
        assert f"``retry-after`` (up to {constants.MAX_RETRY_AFTER_DELAY:g} s)" in doc


async def test_anthropic_thinking_blocks_are_not_part_of_the_text(server):
    server.script(Raw(200, {
        "id": "msg_raw", "type": "message", "role": "assistant", "model": "claude-sonnet-5-5",
        "content": [{"type": "thinking", "thinking": '{"action": "direct", "key": "q"}', "signature": "sig"},
                    {"type": "text", "text": INVOKE_TEXT}],
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 3, "output_tokens": 4},  # no cache fields at all
    }))
    backend = anthropic_backend(server, model="claude-sonnet-5-5")
    reply = await backend.complete(SYSTEM, ASK)
    await backend.aclose()
    assert reply.text == INVOKE_TEXT and reply.decision().skill_name == "explore_level"
    assert (reply.cache_read_tokens, reply.cache_write_tokens) == (0, 0)
    assert reply.raw["content"][0]["type"] == "thinking"


def test_request_bodies_for_the_official_apis_and_lookup_offers():
    from hackwright.agent.decisions import ALL_ACTIONS

    o = OpenAIBackend("gpt-5.4", api_key=KEY, allowed_actions=ALL_ACTIONS)
    body = o.request_body(SYSTEM, ASK)
    assert body["max_completion_tokens"] == 4096 and "max_tokens" not in body  # reasoning models need this
    assert "lookup" in body["tools"][0]["function"]["parameters"]["properties"]["action"]["enum"]
    a = AnthropicBackend("claude-opus-5-5", api_key=KEY, cache_system=False, temperature=0.5)
    body = a.request_body(SYSTEM, ASK, use_tools=False)
    assert body["system"] == [{"type": "text", "text": SYSTEM}]
    assert body["extra_body"] == {"temperature": 0.5} and "tools" not in body
    assert "system" not in a.request_body("", ASK)  # the API rejects empty text blocks
    with pytest.raises(BackendError, match="at least one message"):
        a.request_body(SYSTEM, [])

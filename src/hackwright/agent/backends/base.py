"""What every model backend shares: messages, replies, errors, prices and ``make_backend``.

A backend turns (system prompt, conversation) into a :class:`ModelReply`: the reply's text,
the input of the native ``decide`` tool when the model called it, token counts, latency and
cost. Backends:

=========================================  ====================================================
``anthropic:MODEL[@BASE_URL]``             Anthropic Messages API (official ``anthropic`` SDK)
``openai:MODEL[@BASE_URL]``                OpenAI Chat Completions or any server speaking it
                                           (vLLM, llama.cpp, Ollama …; official ``openai`` SDK)
``replay:FILE``                            the replies recorded in a transcript, in order
``human`` / ``human:DIR``                  a person or a script as the model: on the terminal,
                                           or through ``DIR/req-N.txt`` and ``DIR/rep-N.txt``
                                           (see ``human.py``)
=========================================  ====================================================

Options common to the API backends: ``api_key`` (else ``ANTHROPIC_API_KEY`` /
``OPENAI_API_KEY``; a local ``base_url`` needs none), ``base_url``, ``max_retries`` (default
3; the SDK retries 408/409/429/5xx and connection errors and timeouts with exponential
backoff, honouring ``retry-after``), ``timeout`` (seconds per attempt, default 120),
``max_tokens`` (default 4096), ``temperature``, ``extra_body`` (an object merged into the request
body), ``price`` (a :class:`Price` for a model the table lacks).
``make_backend(..., transcript=PATH)`` records every exchange (see ``transcript.py``).

Any reply is survived: a body the harness cannot read as its API's reply (an HTML page from
a proxy, JSON cut off, the wrong shape, an empty or binary body, nesting deeper than
:data:`MAX_BODY_DEPTH`) is an :class:`UnreadableReplyError`. It is retried like a 5xx, within
the same ``max_retries`` (the SDK's retries and these share one count, so a call makes at
most ``max_retries + 1`` HTTP attempts), after 0.5 s, 1 s, 2 s … (at most 8 s, less up to
25 % jitter); then it is a failed model call like any other :class:`BackendError`. A body
whose JSON is right but whose content-type is not is read all the same. The configuration
sets ``timeout`` and ``max_retries`` as ``agent.model_timeout_seconds`` and
``agent.model_retries``, and each of these settings per backend (``Config.model_settings``).

Tokens: ``input_tokens`` are the prompt tokens billed at the full input rate (OpenAI's
``prompt_tokens`` minus the cached ones; Anthropic's ``input_tokens``, which already
exclude the cache), ``cache_read_tokens`` / ``cache_write_tokens`` the cached ones,
``output_tokens`` the generated ones (thinking included). API keys are never logged,
never written to transcripts and never put in error messages.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, NamedTuple, Optional, Protocol, TypeVar, \
    runtime_checkable

from ..decisions import DEFAULT_ACTIONS, AgentDecision, DecisionError, clip_echo, decision_from_dict, \
    format_decision, parse_decision
from ..lenient_json import json_shape

log = logging.getLogger(__name__)

DEFAULT_MAX_RETRIES = 3
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MAX_TOKENS = 4096


@dataclass
class Message:
    role: str  # "user" or "assistant"
    content: str


@dataclass
class ModelReply:
    text: str
    tool_input: Optional[dict] = None  # the ``decide`` tool's input when the model called it
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float = 0.0
    model: str = ""
    raw: dict = field(default_factory=dict)  # the response body as the API sent it
    attempts: int = 1  # HTTP attempts the SDK made (1 + retries taken)
    stop_reason: Optional[str] = None

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens

    def decision(self, *, allowed: Iterable[str] = DEFAULT_ACTIONS) -> AgentDecision:
        """The decision in this reply: the tool input when there is one (the text serves as
        reasoning and as a fallback), else parsed from the text; raises DecisionError."""
        if self.tool_input is not None:
            try:
                return decision_from_dict(self.tool_input, allowed=allowed, reasoning=self.text.strip()[:2000])
            except DecisionError as tool_error:
                if self.text.strip():
                    try:
                        return parse_decision(self.text, allowed=allowed)
                    except DecisionError:
                        pass
                raise tool_error
        return parse_decision(self.text, allowed=allowed)

    def as_message(self) -> Message:
        """This reply as an assistant turn of a text-only history (a tool call is written
        out as its canonical JSON, so the history needs no tool_result turns)."""
        if self.tool_input is None:
            return Message("assistant", self.text)
        try:
            call = format_decision(decision_from_dict(self.tool_input, allowed=("invoke", "create", "direct", "lookup")))
        except DecisionError:
            try:
                call = json.dumps(self.tool_input, ensure_ascii=False, default=str)
            except (ValueError, TypeError, RecursionError, MemoryError):
                call = "(a decide call whose input could not be written out)"
        return Message("assistant", (self.text.strip() + "\n" + call).strip())


class BackendError(RuntimeError):
    """A model call failed for good (after the SDK's retries, where it retries)."""

    def __init__(self, message: str, *, retryable: bool = False, status: Optional[int] = None,
                 attempts: Optional[int] = None):
        super().__init__(message)
        self.retryable = retryable  # worth trying again later (rate limit, overload, timeout)
        self.status = status  # HTTP status, when there was a response
        self.attempts = attempts  # HTTP attempts made, when known


class UnreadableReplyError(BackendError):
    """The server answered, but with a body that is not a reply of its API (an HTML page,
    JSON cut off or of the wrong shape, nothing at all). Retryable: the backends retry it
    like a 5xx, then raise it as a failed call."""

    def __init__(self, message: str, *, attempts: Optional[int] = None, status: Optional[int] = None):
        super().__init__(message, retryable=True, status=status, attempts=attempts)


@runtime_checkable
class ModelBackend(Protocol):
    name: str

    async def complete(self, system: str, messages: list[Message], *, use_tools: bool = True) -> ModelReply:
        ...


# ---------------------------------------------------------------------------------------------
# Prices


class Price(NamedTuple):
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float  # Anthropic: 5-minute cache write; OpenAI: same as input (no surcharge)
    cache_read: float


# Standard (non-batch, short-context) list prices, USD per million tokens, as published on
# https://platform.claude.com/docs/en/about-claude/pricing (and the model overview pages) and
# https://developers.openai.com/api/docs/pricing; read on 2026-11-21. Prices change: pass
# ``price=Price(...)`` to a backend to override, and check before trusting a total.
PRICES: dict[str, Price] = {
    # Anthropic                      input  output  5m write  cache read
    "claude-fable-5-1": Price(10.00, 50.00, 12.50, 0.25),
    "claude-mythos-5-1": Price(10.00, 50.00, 12.50, 0.25),
    "claude-fable-5": Price(10.00, 50.00, 12.50, 1.00),
    "claude-mythos-5": Price(10.00, 50.00, 12.50, 1.00),
    "claude-opus-5-5": Price(4.00, 20.00, 5.00, 0.20),
    "claude-opus-5": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-8": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-7": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-6": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-5": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-1": Price(15.00, 75.00, 18.75, 1.50),
    "claude-opus-4": Price(15.00, 75.00, 18.75, 1.50),
    "claude-sonnet-5-5": Price(2.00, 10.00, 2.50, 0.20),
    "claude-sonnet-5": Price(2.00, 10.00, 2.50, 0.20),
    "claude-sonnet-4-6": Price(3.00, 15.00, 3.75, 0.30),
    "claude-sonnet-4-5": Price(3.00, 15.00, 3.75, 0.30),
    "claude-sonnet-4": Price(3.00, 15.00, 3.75, 0.30),
    "claude-3-7-sonnet": Price(3.00, 15.00, 3.75, 0.30),
    "claude-haiku-5-5": Price(0.10, 0.50, 0.125, 0.01),  # prompts up to 100k tokens
    "claude-haiku-4-5": Price(1.00, 5.00, 1.25, 0.10),
    "claude-3-5-haiku": Price(0.80, 4.00, 1.00, 0.08),
    "claude-3-haiku": Price(0.25, 1.25, 0.30, 0.03),
    # OpenAI                         input  output  (write)   cached input
    "gpt-5.5": Price(5.00, 30.00, 5.00, 0.50),
    "gpt-5.4": Price(2.50, 15.00, 2.50, 0.25),
    "gpt-5.4-mini": Price(0.75, 4.50, 0.75, 0.075),
    "gpt-5.4-nano": Price(0.20, 1.25, 0.20, 0.02),
    "gpt-5.2": Price(1.75, 14.00, 1.75, 0.175),
    "gpt-5.1": Price(1.25, 10.00, 1.25, 0.125),
    "gpt-5": Price(1.25, 10.00, 1.25, 0.125),
    "gpt-5-mini": Price(0.25, 2.00, 0.25, 0.025),
    "gpt-5-nano": Price(0.05, 0.40, 0.05, 0.005),
    "gpt-4.1": Price(2.00, 8.00, 2.00, 0.50),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.40, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.10, 0.025),
    "gpt-4o": Price(2.50, 10.00, 2.50, 1.25),
    "gpt-4o-mini": Price(0.15, 0.60, 0.15, 0.075),
    "o3": Price(2.00, 8.00, 2.00, 0.50),
    "o4-mini": Price(1.10, 4.40, 1.10, 0.275),
}
_ALIASES = {"claude-opus-4-0": "claude-opus-4", "claude-sonnet-4-0": "claude-sonnet-4",
            "claude-4-opus": "claude-opus-4", "claude-4-sonnet": "claude-sonnet-4"}
_DATE_SUFFIX = re.compile(r"(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)$")
_warned_unpriced: set[str] = set()


def price_for(model: str) -> Optional[Price]:
    """The table's price of ``model`` (dated snapshots such as ``-20250929`` or
    ``-2025-04-14`` fall back to their alias), or None."""
    name = model.strip().lower()
    for candidate in (name, _DATE_SUFFIX.sub("", name)):
        candidate = _ALIASES.get(candidate, candidate)
        if candidate in PRICES:
            return PRICES[candidate]
    return None


def estimate_cost(model: str, *, input_tokens: int = 0, output_tokens: int = 0, cache_read_tokens: int = 0,
                  cache_write_tokens: int = 0, price: Optional[Price] = None) -> float:
    """USD for one call; 0.0 (with one warning per model) when the model has no price."""
    p = price or price_for(model)
    if p is None:
        if model not in _warned_unpriced:
            _warned_unpriced.add(model)
            log.warning("no price known for model %r: its cost is counted as $0 (pass price=Price(...))", model)
        return 0.0
    return (input_tokens * p.input + output_tokens * p.output + cache_read_tokens * p.cache_read
            + cache_write_tokens * p.cache_write) / 1_000_000


def settle(reply: "ModelReply", *, model: str, price: Optional[Price], attempts: int,
           started: float) -> "ModelReply":
    """``reply`` with its latency (since ``started``, a perf_counter), its attempts and its
    cost: priced by the requested model when its price is known, else by the model the
    server says answered."""
    reply.latency_s = time.perf_counter() - started
    reply.attempts = attempts
    priced = model if price_for(model) else reply.model
    reply.cost_usd = estimate_cost(priced, input_tokens=reply.input_tokens, output_tokens=reply.output_tokens,
                                   cache_read_tokens=reply.cache_read_tokens,
                                   cache_write_tokens=reply.cache_write_tokens, price=price)
    return reply


# ---------------------------------------------------------------------------------------------
# Backend specs


_WITH_URL = re.compile(r"^(?P<model>.+?)@(?P<url>https?://\S+)$")


def parse_spec(spec: str) -> tuple[str, str, Optional[str]]:
    """``"openai:m@http://h/v1"`` → ("openai", "m", "http://h/v1"); ``"human"`` → ("human", "", None)."""
    if spec.strip().lower() == "human":
        return "human", "", None
    kind, sep, rest = spec.partition(":")
    kind = kind.strip().lower()
    if not sep or not rest.strip() or kind not in ("anthropic", "openai", "replay", "human"):
        raise BackendError(f"bad backend spec {spec!r}: use anthropic:MODEL, openai:MODEL[@BASE_URL], "
                           "replay:FILE, human or human:DIR")
    rest = rest.strip()
    if kind in ("replay", "human"):
        return kind, rest, None
    m = _WITH_URL.match(rest)
    if m:
        return kind, m.group("model"), m.group("url")
    return kind, rest, None


def make_backend(spec: str, **options: Any) -> ModelBackend:
    """A backend from ``anthropic:MODEL[@BASE_URL]``, ``openai:MODEL[@BASE_URL]``,
    ``replay:FILE``, ``human`` or ``human:DIR``; ``options`` go to its constructor (those that
    apply to it), except ``transcript`` (a path or a TranscriptWriter), which wraps the backend
    so that every exchange is recorded."""
    transcript = options.pop("transcript", None)
    kind, model, url = parse_spec(spec)
    if url is not None:
        options.setdefault("base_url", url)
    backend: ModelBackend
    if kind == "anthropic":
        from .anthropic import AnthropicBackend

        backend = AnthropicBackend(model, **options)
    elif kind == "openai":
        from .openai import OpenAIBackend

        backend = OpenAIBackend(model, **options)
    elif kind == "human":
        from .human import HUMAN_OPTIONS, HumanBackend

        backend = HumanBackend(model or None, **{k: v for k, v in options.items() if k in HUMAN_OPTIONS})
    else:
        from .replay import ReplayBackend

        backend = ReplayBackend(model, strict=bool(options.get("strict", False)))  # API options do not apply
    if transcript is not None:
        from .transcript import RecordingBackend, TranscriptWriter

        writer = transcript if isinstance(transcript, TranscriptWriter) else TranscriptWriter(transcript)
        backend = RecordingBackend(backend, writer)
    return backend


def redact(text: str, *secrets: Optional[str]) -> str:
    """``text`` with every secret replaced by ``***``."""
    for s in secrets:
        if s and len(s) >= 4:
            text = text.replace(s, "***")
    return text


def sdk_error(err: BaseException, sdk: Any, *, provider: str, max_retries: int, timeout: Optional[float],
              secret: Optional[str], env_var: str) -> BackendError:
    """A BackendError for an exception of the official SDK ``sdk`` (both are Stainless SDKs
    with the same error classes). When the error is one the SDK retries, it has already
    made ``max_retries + 1`` attempts."""
    attempts_if_retried = max_retries + 1
    if isinstance(err, sdk.APITimeoutError):
        return BackendError(redact(f"{provider} request timed out (timeout {timeout}s per attempt, "
                                   f"{attempts_if_retried} attempts)", secret),
                            retryable=True, attempts=attempts_if_retried)
    if isinstance(err, sdk.APIConnectionError):
        cause = err.__cause__ or err
        return BackendError(redact(f"could not reach {provider} after {attempts_if_retried} attempts: {cause}", secret),
                            retryable=True, attempts=attempts_if_retried)
    if isinstance(err, sdk.APIStatusError):
        status = err.status_code
        retryable = status in (408, 409, 429) or status >= 500
        text = status_error_message(status, getattr(err, "body", None), getattr(err, "message", str(err)))
        if status in (401, 403):
            text += f" (check {env_var} or the api_key option)"
        return BackendError(redact(f"{provider} HTTP {status}: {text}", secret), retryable=retryable, status=status,
                            attempts=attempts_if_retried if retryable else 1)
    return BackendError(redact(f"{provider} call failed: {type(err).__name__}: {err}", secret))


def is_official(base_url: Optional[str], official_domain: str) -> bool:
    """Whether ``base_url`` (None: the SDK's default) is the provider's own server."""
    from urllib.parse import urlparse

    if base_url is None:
        return True
    host = (urlparse(str(base_url)).hostname or "").lower()
    return host == official_domain or host.endswith("." + official_domain)


def env_key(env_var: str, base_url: Optional[str], official_domain: str) -> Optional[str]:
    """The key from ``env_var``, but only for the provider's own servers: a key from the
    environment is never sent to some other ``base_url`` (pass ``api_key=`` for that)."""
    import os

    if not is_official(base_url, official_domain):
        return None
    return os.environ.get(env_var) or None


def status_error_message(status: Optional[int], body: Any, fallback: str) -> str:
    """The API's own error message from an error body (both APIs nest it in ``error``)."""
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and isinstance(err.get("message"), str):
            kind = err.get("type") or err.get("code")
            return f"{err['message']}" + (f" ({kind})" if kind else "")
        if isinstance(err, str):
            return err
    return fallback


# ---------------------------------------------------------------------------------------------
# Reading replies; retrying the unreadable ones

MAX_BODY_DEPTH = 200  # far beyond any real reply; keeps every later json.dumps of it safe
RETRY_DELAY_S = 0.5  # the first wait before retrying an unreadable reply, doubled each time
MAX_RETRY_DELAY_S = 8.0
T = TypeVar("T")


def snippet(data: Any, limit: int = 80) -> str:
    """The start of a body on one line, quoted, for an error message."""
    text = data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) else str(data)
    return repr(clip_echo(" ".join(text.split()), limit))


def read_body(response: Any, *, provider: str) -> dict:
    """The JSON object in an HTTP response (an ``httpx.Response``), or
    :class:`UnreadableReplyError` saying what came instead."""
    status = getattr(response, "status_code", None)
    ctype = (response.headers.get("content-type") or "none").split(";")[0].strip()
    data = response.content
    if not data or not data.strip():
        raise UnreadableReplyError(f"{provider} sent an empty reply (HTTP {status}, content-type {ctype})",
                                   status=status)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableReplyError(f"{provider} sent {len(data):,} bytes that are not text (content-type {ctype}): "
                                   f"{snippet(data)}", status=status) from None
    try:
        body = json.loads(text)
    except (RecursionError, MemoryError):
        raise UnreadableReplyError(f"{provider} sent JSON that nests too deeply or is too large to read "
                                   f"({len(data):,} bytes)", status=status) from None
    except ValueError as e:
        if text.lstrip()[:1] == "<":  # a proxy's or gateway's error page
            raise UnreadableReplyError(f"{provider} sent an HTML page, not JSON (HTTP {status}, content-type "
                                       f"{ctype}): {snippet(text)}", status=status) from None
        if "json" not in ctype.lower():
            raise UnreadableReplyError(f"{provider} sent a reply that is not JSON (HTTP {status}, content-type "
                                       f"{ctype}): {snippet(text)}", status=status) from None
        raise UnreadableReplyError(f"{provider} sent JSON that is cut off or broken ({e}; {len(data):,} bytes): "
                                   f"{snippet(text)}", status=status) from None
    if not isinstance(body, dict):
        raise UnreadableReplyError(f"{provider} sent JSON that is {_kind(body)}, not an object: {snippet(text)}",
                                   status=status)
    depth, _ = json_shape(body, max_depth=MAX_BODY_DEPTH)
    if depth > MAX_BODY_DEPTH:
        raise UnreadableReplyError(f"{provider} sent JSON nesting more than {MAX_BODY_DEPTH} levels deep",
                                   status=status)
    return body


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return f"a {type(value).__name__}"


def count(obj: Any, key: str) -> int:
    """A token count from a usage object: 0 when it is missing or not a whole number."""
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def text_of(obj: dict, key: str) -> Optional[str]:
    """``obj[key]`` when it is text (None when missing or of another type)."""
    value = obj.get(key)
    return value if isinstance(value, str) else None


async def with_retries(send: Callable[[int], Awaitable[Any]], read: Callable[[Any], T], *, max_retries: int,
                       provider: str) -> tuple[T, int]:
    """Send a request and read its reply, retrying replies that cannot be read; returns
    (what ``read`` made of it, HTTP attempts made).

    ``send(retries)`` makes the request with the SDK allowed ``retries`` retries of its own
    and returns its raw response (whose ``retries_taken`` says how many it took); the SDK's
    errors pass through. ``read(raw)`` raises :class:`UnreadableReplyError` for a body that is
    not a reply (any other exception it raises counts as one too). All attempts share
    ``max_retries``, so an SDK error after unreadable replies has used the whole count."""
    used = 0
    while True:
        raw = await send(max(0, max_retries - used))
        used += int(getattr(raw, "retries_taken", 0) or 0) + 1
        try:
            return read(raw), used
        except UnreadableReplyError as e:
            error: BackendError = e
        except Exception as e:  # noqa: BLE001 — a reply the harness cannot read is a failed call, never a crash
            error = UnreadableReplyError(f"{provider} sent a reply that could not be read "
                                         f"({type(e).__name__}: {clip_echo(str(e), 200)})")
        if used > max_retries:
            plural = "s" if used > 1 else ""
            raise UnreadableReplyError(f"{error} ({used} attempt{plural})", attempts=used,
                                       status=error.status) from None
        delay = min(MAX_RETRY_DELAY_S, RETRY_DELAY_S * 2 ** (used - 1)) * random.uniform(0.75, 1.0)
        log.warning("%s; retrying in %.1f s", error, delay)
        await asyncio.sleep(delay)


def client_with_retries(client: Any, retries: int, default: int) -> Any:
    """``client`` allowed ``retries`` SDK retries (a copy sharing its connections, when that
    differs from the ``default`` it was made with)."""
    if retries == default or not hasattr(client, "with_options"):
        return client
    return client.with_options(max_retries=retries)

"""What every model backend shares: messages, replies, errors, prices and ``make_backend``.

A backend turns (system prompt, conversation) into a :class:`ModelReply`: the reply's text,
the input of the native ``decide`` tool when the model called it, token counts, latency and
cost. Backends:

=========================================  ====================================================
``anthropic:MODEL[@BASE_URL]``             Anthropic Messages API (official ``anthropic`` SDK)
``openai:MODEL[@BASE_URL]``                OpenAI Chat Completions or any server speaking it
                                           (vLLM, llama.cpp, Ollama …; official ``openai`` SDK)
``replay:FILE``                            the replies recorded in a transcript, in order
=========================================  ====================================================

Options common to the API backends: ``api_key`` (else ``ANTHROPIC_API_KEY`` /
``OPENAI_API_KEY``; a local ``base_url`` needs none), ``base_url``, ``max_retries`` (default
3; the SDK retries 408/409/429/5xx and connection errors and timeouts with exponential
backoff, honouring ``retry-after``), ``timeout`` (seconds per attempt, default 120),
``max_tokens`` (default 4096), ``price`` (a :class:`Price` for a model the table lacks).
``make_backend(..., transcript=PATH)`` records every exchange (see ``transcript.py``).

Tokens: ``input_tokens`` are the prompt tokens billed at the full input rate (OpenAI's
``prompt_tokens`` minus the cached ones; Anthropic's ``input_tokens``, which already
exclude the cache), ``cache_read_tokens`` / ``cache_write_tokens`` the cached ones,
``output_tokens`` the generated ones (thinking included). API keys are never logged,
never written to transcripts and never put in error messages.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple, Optional, Protocol, runtime_checkable

from ..decisions import DEFAULT_ACTIONS, AgentDecision, DecisionError, decision_from_dict, format_decision, \
    parse_decision

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
            import json

            call = json.dumps(self.tool_input, ensure_ascii=False, default=str)
        return Message("assistant", (self.text.strip() + "\n" + call).strip())


class BackendError(RuntimeError):
    """A model call failed for good (after the SDK's retries, where it retries)."""

    def __init__(self, message: str, *, retryable: bool = False, status: Optional[int] = None,
                 attempts: Optional[int] = None):
        super().__init__(message)
        self.retryable = retryable  # worth trying again later (rate limit, overload, timeout)
        self.status = status  # HTTP status, when there was a response
        self.attempts = attempts  # HTTP attempts made, when known


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


# ---------------------------------------------------------------------------------------------
# Backend specs


_WITH_URL = re.compile(r"^(?P<model>.+?)@(?P<url>https?://\S+)$")


def parse_spec(spec: str) -> tuple[str, str, Optional[str]]:
    """``"openai:m@http://h/v1"`` → ("openai", "m", "http://h/v1")."""
    kind, sep, rest = spec.partition(":")
    kind = kind.strip().lower()
    if not sep or not rest.strip() or kind not in ("anthropic", "openai", "replay"):
        raise BackendError(f"bad backend spec {spec!r}: use anthropic:MODEL, openai:MODEL[@BASE_URL] "
                           "or replay:FILE")
    rest = rest.strip()
    if kind == "replay":
        return kind, rest, None
    m = _WITH_URL.match(rest)
    if m:
        return kind, m.group("model"), m.group("url")
    return kind, rest, None


def make_backend(spec: str, **options: Any) -> ModelBackend:
    """A backend from ``anthropic:MODEL[@BASE_URL]``, ``openai:MODEL[@BASE_URL]`` or
    ``replay:FILE``; ``options`` go to its constructor, except ``transcript`` (a path or a
    TranscriptWriter), which wraps the backend so that every exchange is recorded."""
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

"""Anthropic Messages API through the official SDK (``anthropic.AsyncAnthropic``).

* The system prompt goes as one text block with ``cache_control: {"type": "ephemeral"}``:
  the tools and the system prompt (the static part: role, API, formats, advice) form the
  cached prefix, so later calls pay the cache-read rate for it. Prompts shorter than the
  model's minimum cacheable length are simply not cached (the API says so in ``usage``).
* Native tool use: the ``decide`` tool with ``tool_choice: {"type": "auto"}``; the reply's
  ``tool_input`` is its input. A model that answers in text instead is parsed from text
  (:meth:`ModelReply.decision`). Tool choice stays ``auto`` since newer models refuse
  forced tool use when thinking.
* Retries: the SDK's own (``max_retries``, default 3 here): 408, 409, 429, 5xx (529
  overloaded included), connection errors and timeouts, exponential backoff from 0.5 s
  (×2 per retry, at most 8 s, up to 25 % jitter) unless the response's ``retry-after-ms`` /
  ``retry-after`` says how long to wait. ``timeout`` bounds each attempt. The reply
  records the attempts made (``retries_taken + 1`` from the raw response).
* Replies are read from the response body as sent (not through the SDK's parsed object):
  a body that is not a Messages reply — HTML, cut-off JSON, an error object, no
  ``content`` list, a text block without text — is retried within ``max_retries``, then
  raised as :class:`UnreadableReplyError` (see ``base.py``).
* No sampling parameters are sent by default (recent models reject non-default
  ``temperature``); ``temperature=`` sends one through ``extra_body``.
"""

from __future__ import annotations

import time
from typing import Any, Iterable, Optional

import anthropic

from ..decisions import DEFAULT_ACTIONS, decision_tool, loads_lenient
from .base import DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_S, BackendError, Message, ModelReply, \
    Price, UnreadableReplyError, client_with_retries, count, env_key, read_body, settle, \
    sdk_error, status_error_message, text_of, with_retries


class AnthropicBackend:
    name = "anthropic"

    def __init__(self, model: str, *, api_key: Optional[str] = None, base_url: Optional[str] = None,
                 max_retries: int = DEFAULT_MAX_RETRIES, timeout: float = DEFAULT_TIMEOUT_S,
                 max_tokens: int = DEFAULT_MAX_TOKENS, temperature: Optional[float] = None,
                 cache_system: bool = True, price: Optional[Price] = None,
                 allowed_actions: Iterable[str] = DEFAULT_ACTIONS, extra_body: Optional[dict] = None,
                 client: Any = None):
        self.model = model
        self.base_url = base_url
        self.max_retries = max_retries
        self.timeout = timeout
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.cache_system = cache_system
        self.price = price
        self.extra_body = dict(extra_body or {})
        self.tool = decision_tool(allowed_actions)
        key = api_key or env_key("ANTHROPIC_API_KEY", base_url, "anthropic.com")
        if not key:
            if base_url is None:
                raise BackendError("no Anthropic API key: set ANTHROPIC_API_KEY or pass api_key=")
            key = "EMPTY"  # a local test or proxy server
        self._secret = key
        self.client = client or anthropic.AsyncAnthropic(api_key=key, base_url=base_url, max_retries=max_retries,
                                                         timeout=timeout)

    def request_body(self, system: str, messages: list[Message], *, use_tools: bool = True) -> dict:
        """The keyword arguments of ``messages.create`` for this call."""
        if not messages:
            raise BackendError("a model call needs at least one message")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if system:
            block: dict[str, Any] = {"type": "text", "text": system}
            if self.cache_system:
                block["cache_control"] = {"type": "ephemeral"}
            body["system"] = [block]
        if use_tools:
            body["tools"] = [self.tool]
            body["tool_choice"] = {"type": "auto"}
        extra = dict(self.extra_body)
        if self.temperature is not None:
            extra["temperature"] = self.temperature
        if extra:
            body["extra_body"] = extra
        return body

    @property
    def _provider(self) -> str:
        return "Anthropic" if self.base_url is None else f"Anthropic API at {self.base_url}"

    async def _send(self, body: dict, retries: int) -> Any:
        client = client_with_retries(self.client, retries, self.max_retries)
        return await client.messages.with_raw_response.create(**body)

    async def complete(self, system: str, messages: list[Message], *, use_tools: bool = True) -> ModelReply:
        body = self.request_body(system, messages, use_tools=use_tools)
        start = time.perf_counter()
        try:
            reply, attempts = await with_retries(lambda retries: self._send(body, retries), self._read,
                                                 max_retries=self.max_retries, provider=self._provider)
        except anthropic.APIError as e:
            raise sdk_error(e, anthropic, provider=self._provider, max_retries=self.max_retries,
                            timeout=self.timeout, secret=self._secret, env_var="ANTHROPIC_API_KEY") from e
        return settle(reply, model=self.model, price=self.price, attempts=attempts, started=start)

    def _read(self, raw: Any) -> ModelReply:
        """The reply in a raw response, read from its body; UnreadableReplyError when the body
        is not a Messages reply."""
        provider = self._provider
        body = read_body(raw.http_response, provider=provider)
        if body.get("type") == "error":
            raise UnreadableReplyError(f"{provider} sent an error with HTTP "
                                       f"{getattr(raw.http_response, 'status_code', '?')}: "
                                       f"{status_error_message(None, body, 'no message')}")
        content = body.get("content")
        if not isinstance(content, list):
            raise UnreadableReplyError(f"{provider} sent a reply without a content list")
        texts, tool_input = [], None
        for block in content:
            if not isinstance(block, dict):
                raise UnreadableReplyError(f"{provider} sent a content block that is not an object")
            kind = block.get("type")
            if kind == "text":
                if not isinstance(block.get("text"), str):
                    raise UnreadableReplyError(f"{provider} sent a text block without text")
                texts.append(block["text"])
            elif kind == "tool_use" and tool_input is None:
                given = block.get("input")
                if isinstance(given, str):  # some proxies pass the input on as a JSON string
                    try:
                        given = loads_lenient(given)
                    except ValueError:
                        pass
                tool_input = dict(given) if isinstance(given, dict) else {"input": given}
        usage = body.get("usage")
        return ModelReply(
            text="\n".join(texts),
            tool_input=tool_input,
            input_tokens=count(usage, "input_tokens"),
            output_tokens=count(usage, "output_tokens"),
            cache_read_tokens=count(usage, "cache_read_input_tokens"),
            cache_write_tokens=count(usage, "cache_creation_input_tokens"),
            model=text_of(body, "model") or self.model,
            raw=body,
            stop_reason=text_of(body, "stop_reason"),
        )

    async def aclose(self) -> None:
        await self.client.close()

"""OpenAI Chat Completions through the official SDK (``openai.AsyncOpenAI``), for OpenAI's
own models and for any server that speaks the same wire format (vLLM, llama.cpp server,
Ollama, LM Studio …) via ``base_url`` (``openai:MODEL@http://127.0.0.1:8000/v1``).

* The system prompt is the first message (role ``system``). OpenAI caches long prompt
  prefixes by itself; ``usage.prompt_tokens_details.cached_tokens`` reports the hits.
* Native tool use: ``tools=[{"type": "function", "function": decide}]``,
  ``tool_choice="auto"``; the first tool call's JSON arguments become ``tool_input``.
  A server that rejects tools (HTTP 400/422 whose message mentions tools or functions, as
  servers started without tool support answer) gets the same request once more without
  them, and the backend remembers not to send tools again; decisions then come from text.
* Retries: the SDK's own (``max_retries``, default 3 here): 408, 409, 429, 5xx, connection
  errors and timeouts, exponential backoff from 0.5 s (×2, at most 8 s, jitter) unless
  ``retry-after-ms`` / ``retry-after`` (up to 120 s) says otherwise; ``timeout`` bounds
  each attempt. The reply records the attempts made (``retries_taken + 1``).
* Replies are read from the response body as sent (not through the SDK's parsed object):
  a body that is not a Chat Completions reply — HTML, cut-off JSON, no ``choices``, a
  ``content`` that is neither text nor text parts — is retried within ``max_retries``,
  then raised as :class:`UnreadableReplyError` (see ``base.py``).
* Keys: ``api_key=``, else ``OPENAI_API_KEY`` for OpenAI's own servers only; other servers
  get ``"EMPTY"`` (local servers ignore it) so that a real key never leaves for them.
* ``max_tokens``: sent as ``max_completion_tokens`` to OpenAI (its reasoning models reject
  ``max_tokens``) and as ``max_tokens`` to other servers; ``max_tokens_param=`` overrides.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Iterable, Optional

import openai

from ..decisions import DEFAULT_ACTIONS, decision_tool, loads_lenient
from .base import DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_S, BackendError, Message, ModelReply, \
    Price, UnreadableReplyError, client_with_retries, count, env_key, is_official, settle, \
    read_body, sdk_error, status_error_message, text_of, with_retries

log = logging.getLogger(__name__)


class OpenAIBackend:
    name = "openai"

    def __init__(self, model: str, *, api_key: Optional[str] = None, base_url: Optional[str] = None,
                 max_retries: int = DEFAULT_MAX_RETRIES, timeout: float = DEFAULT_TIMEOUT_S,
                 max_tokens: int = DEFAULT_MAX_TOKENS, temperature: Optional[float] = None,
                 supports_tools: Optional[bool] = None, max_tokens_param: Optional[str] = None,
                 price: Optional[Price] = None, allowed_actions: Iterable[str] = DEFAULT_ACTIONS,
                 extra_body: Optional[dict] = None, client: Any = None):
        self.model = model
        self.base_url = base_url
        self.max_retries = max_retries
        self.timeout = timeout
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.supports_tools = supports_tools  # None: not known yet; False: never send tools
        self.price = price
        self.extra_body = dict(extra_body or {})
        self.max_tokens_param = max_tokens_param or (
            "max_completion_tokens" if is_official(base_url, "openai.com") else "max_tokens")
        spec = decision_tool(allowed_actions)
        self.tool = {"type": "function", "function": {"name": spec["name"], "description": spec["description"],
                                                      "parameters": spec["input_schema"]}}
        key = api_key or env_key("OPENAI_API_KEY", base_url, "openai.com")
        if not key:
            if base_url is None:
                raise BackendError("no OpenAI API key: set OPENAI_API_KEY or pass api_key=")
            key = "EMPTY"  # local servers want some key and ignore it
        self._secret = key
        self.client = client or openai.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=max_retries,
                                                   timeout=timeout)

    def request_body(self, system: str, messages: list[Message], *, use_tools: bool = True) -> dict:
        if not messages:
            raise BackendError("a model call needs at least one message")
        msgs = [{"role": "system", "content": system}] if system else []
        msgs += [{"role": m.role, "content": m.content} for m in messages]
        body: dict[str, Any] = {"model": self.model, "messages": msgs, self.max_tokens_param: self.max_tokens}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if use_tools and self.supports_tools is not False:
            body["tools"] = [self.tool]
            body["tool_choice"] = "auto"
        if self.extra_body:
            body["extra_body"] = dict(self.extra_body)
        return body

    @property
    def _provider(self) -> str:
        return "OpenAI" if self.base_url is None else f"server {self.base_url}"

    async def _send(self, body: dict, retries: int) -> Any:
        """The raw response to ``body``; a server that rejects tools is asked again without."""
        create = client_with_retries(self.client, retries, self.max_retries).chat.completions.with_raw_response.create
        try:
            return await create(**body)
        except (openai.BadRequestError, openai.UnprocessableEntityError) as e:
            if "tools" not in body or not _mentions_tools(e):
                raise
            log.warning("%s rejected tools (%s); asking without tools from now on", self.base_url or "OpenAI",
                        getattr(e, "message", e))
            self.supports_tools = False
            body.pop("tools", None)
            body.pop("tool_choice", None)
            return await create(**body)

    def _error(self, e: BaseException) -> BackendError:
        return sdk_error(e, openai, provider=self._provider, max_retries=self.max_retries, timeout=self.timeout,
                         secret=self._secret, env_var="OPENAI_API_KEY")

    async def complete(self, system: str, messages: list[Message], *, use_tools: bool = True) -> ModelReply:
        body = self.request_body(system, messages, use_tools=use_tools)
        start = time.perf_counter()
        try:
            reply, attempts = await with_retries(lambda retries: self._send(body, retries), self._read,
                                                 max_retries=self.max_retries, provider=self._provider)
        except openai.APIError as e:
            raise self._error(e) from e
        return settle(reply, model=self.model, price=self.price, attempts=attempts, started=start)

    def _read(self, raw: Any) -> ModelReply:
        """The reply in a raw response, read from its body; UnreadableReplyError when the body
        is not a Chat Completions reply."""
        provider = self._provider
        body = read_body(raw.http_response, provider=provider)
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices:
            said = f": {status_error_message(None, body, '')}" if "error" in body else ""
            raise UnreadableReplyError(f"{provider} sent a reply without choices{said}".rstrip(": "))
        first = choices[0]
        message = first.get("message") if isinstance(first, dict) else None
        if not isinstance(message, dict):
            raise UnreadableReplyError(f"{provider} sent a reply whose choices[0] has no message object")
        text = _content_text(message.get("content"), provider)
        tool_input = None
        calls = message.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise UnreadableReplyError(f"{provider} sent tool_calls that are not a list")
        for call in calls or []:
            fn = call.get("function") if isinstance(call, dict) else None
            if not isinstance(fn, dict):
                continue
            args = fn.get("arguments")
            if args is None:
                args = "{}"
            if isinstance(args, dict):
                tool_input = args
            else:
                try:
                    parsed = loads_lenient(args or "{}") if isinstance(args, str) else args
                except ValueError:
                    parsed = None
                if isinstance(parsed, dict):
                    tool_input = parsed
                else:  # unreadable arguments: leave them to the text parser (and its error message)
                    shown = args if isinstance(args, str) else json.dumps(args, default=str)
                    text = (text + "\n" + shown).strip()
            break
        usage = body.get("usage")
        prompt = count(usage, "prompt_tokens")
        details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else None
        cached, written = count(details, "cached_tokens"), count(details, "cache_write_tokens")
        return ModelReply(
            text=text,
            tool_input=tool_input,
            input_tokens=max(0, prompt - cached - written),
            output_tokens=count(usage, "completion_tokens"),
            cache_read_tokens=cached,
            cache_write_tokens=written,
            model=text_of(body, "model") or self.model,
            raw=body,
            stop_reason=text_of(first, "finish_reason"),
        )

    async def aclose(self) -> None:
        await self.client.close()


def _mentions_tools(err: BaseException) -> bool:
    text = str(getattr(err, "message", "")) + " " + json.dumps(getattr(err, "body", None), default=str)
    text = text.lower()
    return "tool" in text or "function" in text


def _content_text(content: Any, provider: str) -> str:
    """A message's ``content``: text, null, or a list of text parts (as some servers send)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(part, dict) for part in content):
        return "".join(part["text"] for part in content if isinstance(part.get("text"), str))
    raise UnreadableReplyError(f"{provider} sent a message whose content is {type(content).__name__}, not text")

"""A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages and OpenAI Chat
Completions wire formats and serves a scripted queue of replies.

Endpoints: ``POST /v1/messages`` (Anthropic: ``content`` blocks of type ``text`` and
``tool_use``, ``stop_reason``, ``usage`` with ``input_tokens``, ``output_tokens``,
``cache_creation_input_tokens``, ``cache_read_input_tokens``; errors as
``{"type": "error", "error": {"type", "message"}}``) and ``POST /v1/chat/completions``
(OpenAI: ``choices[0].message`` with ``content`` and ``tool_calls`` of type ``function``,
``finish_reason``, ``usage`` with ``prompt_tokens``, ``completion_tokens``,
``total_tokens``, ``prompt_tokens_details.cached_tokens``; errors as ``{"error": {...}}``).

Script steps, rendered in the format of whichever endpoint is hit:

* :class:`Reply` — text and/or a ``decide`` tool call, with token counts
  (``input_tokens`` are the uncached ones; OpenAI's ``prompt_tokens`` adds the cached);
* :class:`HTTPError` — a status (429, 500, 529 …) with the API's error body and, when
  given, ``retry-after`` / ``retry-after-ms`` headers;
* :class:`Delay` — wait (longer than the client's timeout, say) and then serve a step:
  the client gives up, and its retry gets the *next* step of the queue;
* :class:`Raw` — any status, body and headers (``content_type`` replaces the JSON one; a
  ``bytes`` body is sent as it is);
* :class:`Disconnect` — announce a body, send only its first bytes and close the connection.

``reject_tools=True`` makes the chat endpoint answer every request that carries ``tools``
with HTTP 400 (as servers without tool support do) without using a step. Every request is
recorded (path, lower-cased headers, JSON body) in :attr:`FakeModelServer.requests`. When
the queue is empty the server answers 400 with ``x-should-retry: false``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional, Union


@dataclass
class Reply:
    text: str = ""
    tool_input: Optional[dict] = None
    input_tokens: int = 12
    output_tokens: int = 7
    cache_read: int = 0
    cache_write: int = 0
    model: Optional[str] = None  # default: the requested model
    stop_reason: Optional[str] = None
    tool_arguments: Optional[str] = None  # OpenAI: the raw arguments string (default: json of tool_input)


@dataclass
class HTTPError:
    status: int
    message: str = "scripted error"
    retry_after: Optional[float] = None  # seconds
    error_type: Optional[str] = None


@dataclass
class Raw:
    status: int
    body: Any
    headers: dict = field(default_factory=dict)
    content_type: Optional[str] = None  # default: application/json


@dataclass
class Disconnect:
    """A reply cut off in transit: headers announce all of ``body``, ``sent`` bytes of it
    arrive, then the connection closes."""

    body: bytes = b'{"id": "cut", "choices": [{"message": {"content": "a reply cut off in tran'
    sent: int = 20
    status: int = 200


@dataclass
class Delay:
    seconds: float
    then: "Step" = field(default_factory=lambda: Reply(text="(too late)"))


Step = Union[Reply, HTTPError, Raw, Delay, Disconnect]


@dataclass
class RecordedRequest:
    path: str
    headers: dict
    body: Any
    time: float


_ANTHROPIC_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                          404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
                          500: "api_error", 503: "api_error", 529: "overloaded_error"}
_OPENAI_ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 429: "rate_limit_exceeded",
                       500: "server_error", 503: "server_error"}


class FakeModelServer:
    def __init__(self, *, reject_tools: bool = False):
        self.reject_tools = reject_tools
        self.requests: list[RecordedRequest] = []
        self._queue: deque[Step] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._counter = 0
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> "FakeModelServer":
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        httpd.daemon_threads = True
        httpd.owner = self  # type: ignore[attr-defined]
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-model-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeModelServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "start the server first"
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """Base URL for the Anthropic SDK (it appends /v1/messages)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        """Base URL for the OpenAI SDK (it appends /chat/completions)."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- script and records ----------------------------------------------------------------

    def script(self, *steps: Step) -> None:
        with self._lock:
            self._queue.extend(steps)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def bodies(self, path: Optional[str] = None) -> list:
        return [r.body for r in self.requests if path is None or r.path == path]

    def _next(self) -> tuple[Optional[Step], int]:
        with self._lock:
            self._counter += 1
            return (self._queue.popleft() if self._queue else None), self._counter

    def _record(self, req: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(req)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeModelServer/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        owner: FakeModelServer = self.server.owner  # type: ignore[attr-defined]
        length = int(self.headers.get("content-length") or 0)
        data = self.rfile.read(length) if length else b""
        try:
            body = json.loads(data) if data else None
        except ValueError:
            body = {"_unparsed": data.decode("utf-8", "replace")}
        path = self.path.split("?", 1)[0]
        owner._record(RecordedRequest(path, {k.lower(): v for k, v in self.headers.items()}, body, time.time()))
        if path == "/v1/messages":
            api = "anthropic"
        elif path == "/v1/chat/completions":
            api = "openai"
        else:
            self._send(404, {"error": {"message": f"no route {path}", "type": "not_found_error"}})
            return
        if api == "openai" and owner.reject_tools and isinstance(body, dict) and body.get("tools"):
            self._send(400, {"error": {"message": "tools are not supported by this server (start it with tool "
                                                  "calling enabled)", "type": "invalid_request_error",
                                       "param": "tools", "code": None}})
            return
        step, n = owner._next()
        while isinstance(step, Delay):
            if owner._stopping.wait(step.seconds):
                return
            step = step.then
        if step is None:
            self._send(400, _error_body(api, 400, "fake server: no scripted reply left", None),
                       {"x-should-retry": "false"})
        elif isinstance(step, Raw):
            self._send(step.status, step.body, step.headers, content_type=step.content_type)
        elif isinstance(step, Disconnect):
            self._cut_off(step)
        elif isinstance(step, HTTPError):
            headers = {}
            if step.retry_after is not None:
                headers["retry-after"] = f"{step.retry_after:g}"
                headers["retry-after-ms"] = str(int(step.retry_after * 1000))
            if api == "anthropic":
                headers["request-id"] = f"req_fake{n:04d}"
            self._send(step.status, _error_body(api, step.status, step.message, step.error_type), headers)
        else:
            model = step.model or (body or {}).get("model") or "fake-model"
            out = _anthropic_reply(step, model, n) if api == "anthropic" else _openai_reply(step, model, n)
            self._send(200, out, {"request-id": f"req_fake{n:04d}"} if api == "anthropic" else {})

    def _cut_off(self, step: Disconnect) -> None:
        try:
            self.send_response(step.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(step.body)))
            self.end_headers()
            self.wfile.write(step.body[:step.sent])
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass
        self.close_connection = True

    def _send(self, status: int, body: Any, headers: Optional[dict] = None, *,
              content_type: Optional[str] = None) -> None:
        payload = body if isinstance(body, (bytes, bytearray)) else json.dumps(body).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("content-type", content_type or "application/json")
            self.send_header("content-length", str(len(payload)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True  # the client gave up (timeout)


def _error_body(api: str, status: int, message: str, error_type: Optional[str]) -> dict:
    if api == "anthropic":
        return {"type": "error", "error": {"type": error_type or _ANTHROPIC_ERROR_TYPES.get(status, "api_error"),
                                           "message": message}}
    return {"error": {"message": message, "type": error_type or _OPENAI_ERROR_TYPES.get(status, "server_error"),
                      "param": None, "code": None}}


def _anthropic_reply(step: Reply, model: str, n: int) -> dict:
    content: list[dict] = []
    if step.text:
        content.append({"type": "text", "text": step.text})
    if step.tool_input is not None:
        content.append({"type": "tool_use", "id": f"toolu_fake{n:04d}", "name": "decide", "input": step.tool_input})
    return {
        "id": f"msg_fake{n:04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": step.stop_reason or ("tool_use" if step.tool_input is not None else "end_turn"),
        "stop_sequence": None,
        "usage": {
            "input_tokens": step.input_tokens,
            "output_tokens": step.output_tokens,
            "cache_creation_input_tokens": step.cache_write,
            "cache_read_input_tokens": step.cache_read,
        },
    }


def _openai_reply(step: Reply, model: str, n: int) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": step.text or None, "refusal": None}
    if step.tool_input is not None or step.tool_arguments is not None:
        args = step.tool_arguments if step.tool_arguments is not None else json.dumps(step.tool_input)
        message["tool_calls"] = [{"id": f"call_fake{n:04d}", "type": "function",
                                  "function": {"name": "decide", "arguments": args}}]
    prompt = step.input_tokens + step.cache_read + step.cache_write
    details = {"cached_tokens": step.cache_read, "audio_tokens": 0}
    if step.cache_write:
        details["cache_write_tokens"] = step.cache_write
    return {
        "id": f"chatcmpl-fake{n:04d}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{
            "index": 0,
            "message": message,
            "logprobs": None,
            "finish_reason": step.stop_reason or ("tool_calls" if "tool_calls" in message else "stop"),
        }],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": step.output_tokens,
            "total_tokens": prompt + step.output_tokens,
            "prompt_tokens_details": details,
            "completion_tokens_details": {"reasoning_tokens": 0},
        },
    }

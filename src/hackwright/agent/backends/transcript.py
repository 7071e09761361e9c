"""Transcripts: one JSON line per model exchange, replayable by :class:`ReplayBackend`.

A line (``"v": 1``)::

    {"v": 1, "time": "2026-11-21T23:40:01.123456+00:00", "backend": "anthropic",
     "model": "claude-sonnet-5-5", "system_sha256": "…", "system": "…",
     "messages": [{"role": "user", "content": "…"}],
     "reply": {"text": "…", "tool_input": {…} | null, "input_tokens": 0, "output_tokens": 0,
               "cache_read_tokens": 0, "cache_write_tokens": 0, "latency_s": 0.0,
               "cost_usd": 0.0, "model": "…", "attempts": 1, "stop_reason": "…"}}

``system`` (the full text) appears only on the first line with that hash, so a transcript
holds each distinct system prompt once. A failed call is a line with ``"error"`` (and
``"retryable"``) instead of ``"reply"``; a replay raises it again. API keys are never
written (nothing here sees them).
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timezone
from typing import Any, Optional, Union

from .base import BackendError, Message, ModelBackend, ModelReply

TRANSCRIPT_VERSION = 1
REPLY_FIELDS = ("text", "tool_input", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
                "latency_s", "cost_usd", "model", "attempts", "stop_reason")


def system_hash(system: str) -> str:
    return hashlib.sha256(system.encode("utf-8")).hexdigest()


class TranscriptWriter:
    """Appends exchanges to a JSONL file (flushed after every line)."""

    def __init__(self, path: Union[str, "os.PathLike[str]"], *, include_raw: bool = False):
        self.path = os.fspath(path)
        self.include_raw = include_raw
        parent = os.path.dirname(self.path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")
        self._seen_systems: set[str] = set()
        self.lines = 0

    def _head(self, backend: str, model: str, system: str, messages: list[Message]) -> dict[str, Any]:
        digest = system_hash(system)
        head: dict[str, Any] = {
            "v": TRANSCRIPT_VERSION,
            "time": datetime.now(timezone.utc).isoformat(),
            "backend": backend,
            "model": model,
            "system_sha256": digest,
        }
        if digest not in self._seen_systems:
            self._seen_systems.add(digest)
            head["system"] = system
        head["messages"] = [{"role": m.role, "content": m.content} for m in messages]
        return head

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._file.flush()
        self.lines += 1

    def write(self, *, backend: str, model: str, system: str, messages: list[Message], reply: ModelReply) -> None:
        record = self._head(backend, model, system, messages)
        rep = {k: getattr(reply, k) for k in REPLY_FIELDS}
        if self.include_raw:
            rep["raw"] = reply.raw
        record["reply"] = rep
        self._write(record)

    def write_error(self, *, backend: str, model: str, system: str, messages: list[Message],
                    error: BaseException) -> None:
        record = self._head(backend, model, system, messages)
        record["error"] = str(error)
        record["retryable"] = bool(getattr(error, "retryable", False))
        self._write(record)

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> "TranscriptWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class RecordingBackend:
    """Wraps a backend and writes every exchange (and failure) to a transcript."""

    def __init__(self, inner: ModelBackend, writer: TranscriptWriter):
        self.inner = inner
        self.writer = writer
        self.name = inner.name

    @property
    def model(self) -> str:
        return getattr(self.inner, "model", "")

    async def complete(self, system: str, messages: list[Message], *, use_tools: bool = True) -> ModelReply:
        try:
            reply = await self.inner.complete(system, messages, use_tools=use_tools)
        except BackendError as e:
            self.writer.write_error(backend=self.name, model=self.model, system=system, messages=messages, error=e)
            raise
        self.writer.write(backend=self.name, model=self.model, system=system, messages=messages, reply=reply)
        return reply

    async def aclose(self) -> None:
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()
        self.writer.close()


def read_transcript(path: Union[str, "os.PathLike[str]"]) -> list[dict]:
    """The records of a transcript, with each line's ``system`` filled in from its hash."""
    records: list[dict] = []
    systems: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError as e:
                raise BackendError(f"{path}:{n}: not a transcript line ({e})") from e
            digest: Optional[str] = rec.get("system_sha256")
            if "system" in rec and digest:
                systems[digest] = rec["system"]
            elif digest in systems:
                rec["system"] = systems[digest]
            records.append(rec)
    return records

"""Replay of a recorded transcript: the same replies, in the same order, without a model.

``ReplayBackend(path)`` returns the replies of a transcript written by
:class:`~hackwright.agent.backends.transcript.TranscriptWriter` one per call, whatever is
asked (``strict=True`` instead raises when the system prompt or the last message differs
from the recording, to catch a run that diverged). Recorded failures are raised again as
:class:`BackendError`; past the last record it raises ``BackendError("transcript
exhausted …")``.
"""

from __future__ import annotations

import os
from typing import Union

from .base import BackendError, Message, ModelReply
from .transcript import REPLY_FIELDS, read_transcript, system_hash


class ReplayBackend:
    name = "replay"

    def __init__(self, path: Union[str, "os.PathLike[str]"], *, strict: bool = False):
        self.path = os.fspath(path)
        if not os.path.exists(self.path):
            raise BackendError(f"no transcript at {self.path}")
        self.records = read_transcript(self.path)
        self.strict = strict
        self.position = 0
        models = {r.get("model") for r in self.records if r.get("model")}
        self.model = models.pop() if len(models) == 1 else "replay"

    @property
    def remaining(self) -> int:
        return len(self.records) - self.position

    async def complete(self, system: str, messages: list[Message], *, use_tools: bool = True) -> ModelReply:
        if self.position >= len(self.records):
            raise BackendError(f"transcript exhausted: all {len(self.records)} recorded replies of {self.path} "
                               "were used")
        rec = self.records[self.position]
        self.position += 1
        if self.strict:
            self._check(rec, system, messages)
        if "reply" not in rec:
            raise BackendError(f"(replayed) {rec.get('error', 'recorded failure')}",
                               retryable=bool(rec.get("retryable")))
        data = rec["reply"]
        fields = {k: data[k] for k in REPLY_FIELDS if k in data and data[k] is not None}
        fields.setdefault("text", "")
        if "tool_input" in data:
            fields["tool_input"] = data["tool_input"]
        reply = ModelReply(**fields)
        reply.raw = data.get("raw") or {}
        if not reply.model:
            reply.model = rec.get("model", "")
        return reply

    def _check(self, rec: dict, system: str, messages: list[Message]) -> None:
        n = self.position
        if rec.get("system_sha256") and rec["system_sha256"] != system_hash(system):
            raise BackendError(f"replay diverged at exchange {n}: the system prompt differs from the recording")
        recorded = rec.get("messages") or []
        if recorded and messages and recorded[-1].get("content") != messages[-1].content:
            raise BackendError(f"replay diverged at exchange {n}: the last message differs from the recording")

    async def aclose(self) -> None:
        return None

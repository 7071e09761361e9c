"""A strategist that asks a language model (any backend of ``agent.backends``)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..backends.base import BackendError, Message, ModelBackend, ModelReply
from ..decisions import AgentDecision, DecisionError, clip_echo, decision_from_reply


class ModelStrategist:
    """Builds the prompt, asks the model, parses its decision (a ``decide`` tool call or
    text; a create's code may come in a ```python block either way).

    An unusable reply goes back to the model with what to fix, at most
    ``max_invalid`` times per decision (the reply echoed back cut to its first few
    hundred characters); then ``DecisionError`` reaches the loop,
    which skips the step (or lets the fallback strategist take it, when the user
    asked for one) and counts it.
    """

    def __init__(self, backend: ModelBackend, *, max_invalid: int = 2):
        self.backend = backend
        self.max_invalid = max_invalid
        kind, model = getattr(backend, "name", "model"), getattr(backend, "model", "")
        self.name = f"{kind}:{model}" if model else kind  # "human" plays without a model name

    async def decide(self, ctx) -> AgentDecision:
        prompt = ctx.prompt()
        messages = [Message("user", prompt.user)]
        last_error: Optional[Exception] = None
        for attempt in range(self.max_invalid + 1):
            reply: ModelReply = await self.backend.complete(prompt.system, messages)
            ctx.record_reply(reply, prompt, messages)
            ctx.retries = attempt  # the loop records a decision made after a retry as such
            try:
                return decision_from_reply(reply.text, reply.tool_input)
            except DecisionError as e:
                last_error = e
                # Only the start of the unusable reply goes back: it may be megabytes long.
                echo = reply.as_message()
                messages = messages + [
                    Message(echo.role, clip_echo(echo.content)),
                    Message("user", f"That decision could not be used: {e} Answer again with one JSON decision."),
                ]
        raise DecisionError(f"no usable decision after {self.max_invalid + 1} replies: {last_error}")

    SUMMARY_SYSTEM = ("You answer questions about NetHack 3.6 for a player, from the passages given "
                      "(NetHack's own texts and tables). Answer in at most 80 words, plainly, with the "
                      "numbers that matter; say so if the passages do not answer the question.")

    async def summarise(self, question: str, passages: str, record: Optional[Callable] = None) -> str:
        """Condense retrieved passages into a short answer (seed 000: summaries of the
        retrieved pages helped its agent more than the whole pages)."""
        from ..prompt import PromptParts

        messages = [Message("user", f"Question: {question}\n\nPassages:\n{passages}\n\nShort answer:")]
        reply: ModelReply = await self.backend.complete(self.SUMMARY_SYSTEM, messages, use_tools=False)
        if record is not None:
            record(reply, PromptParts(self.SUMMARY_SYSTEM, messages[0].content), messages)
        return (reply.text or "").strip()

    async def aclose(self) -> None:
        close = getattr(self.backend, "aclose", None)
        if close is not None:
            await close()

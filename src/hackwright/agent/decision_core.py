"""The decision itself: :class:`AgentDecision` (spec §7.3), its wire format, the action words,
the error a reply that is no decision raises (:class:`DecisionError`), and the limits on what
is echoed back to the model and on how big a decision may be.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Optional

# action word -> AgentDecision.type
ACTION_TYPES = {
    "invoke": "invoke_skill",
    "create": "create_skill",
    "direct": "direct_action",
    "lookup": "lookup",
    "show": "show_skill",
}
TYPE_ACTIONS = {v: k for k, v in ACTION_TYPES.items()}
ALL_ACTIONS: tuple[str, ...] = ("invoke", "create", "direct", "lookup", "show")
# What the model is offered unless the caller says otherwise: everything, lookups in the
# knowledge base included (a caller without one leaves "lookup" out of ``allowed``).
DEFAULT_ACTIONS: tuple[str, ...] = ALL_ACTIONS


ECHO_CHARS = 400  # of anything the model wrote that is echoed back to it
# A decision is one small object (a create's code included): far bigger or deeper is a
# broken reply, and refusing it early keeps the parsers linear and their recursion bounded.
MAX_REPLY_CHARS = 200_000
MAX_DECISION_DEPTH = 32


def clip_echo(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` as echoed back to the model: at most ``limit`` characters of its start, and
    how many were cut ("(… 2999600 characters cut)"); a reply of megabytes must not come
    back whole in the next request."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]} (… {len(text) - limit} characters cut)"


class DecisionError(ValueError):
    """The reply could not be turned into a decision; the message says what to fix
    (bounded: a message quoting the reply keeps only the start of each quote)."""

    MAX_CHARS = 1200

    def __init__(self, message: str = "", *args):
        super().__init__(clip_echo(message, self.MAX_CHARS), *args)


@dataclass
class AgentDecision:
    """One decision (spec §7.3). ``type`` is "invoke_skill", "create_skill", "direct_action",
    "lookup" or "show_skill" (a library skill's code shown to the model; no game time);
    ``action`` is the key of a direct action."""

    type: str
    skill_name: Optional[str] = None
    code: Optional[str] = None
    params: dict = field(default_factory=dict)
    action: Optional[str] = None
    reasoning: str = ""
    category: Optional[str] = None
    description: str = ""
    triggers: tuple[str, ...] = ()
    query: Optional[str] = None  # a question for the knowledge base

    def to_dict(self) -> dict:
        """The decision in the wire format the model writes (canonical key order)."""
        d: dict[str, Any] = {"action": TYPE_ACTIONS.get(self.type, self.type)}
        if self.type == "invoke_skill":
            d["skill"] = self.skill_name
            d["params"] = self.params
        elif self.type == "create_skill":
            d["name"] = self.skill_name
            if self.category:
                d["category"] = self.category
            if self.description:
                d["description"] = self.description
            if self.triggers:
                d["triggers"] = list(self.triggers)
            if self.params:
                d["params"] = self.params
            d["code"] = self.code
        elif self.type == "direct_action":
            d["key"] = self.action
        elif self.type == "lookup":
            d["query"] = self.query
        elif self.type == "show_skill":
            d["skill"] = self.skill_name
        if self.reasoning:
            d["reasoning"] = self.reasoning
        return d

    def signature(self) -> str:
        """A key that is equal for decisions that would do the same thing (loop detection):
        reasoning, descriptions and code formatting do not count."""
        if self.type == "invoke_skill":
            return f"invoke_skill|{self.skill_name}|{_canonical(self.params)}"
        if self.type == "create_skill":
            code = "\n".join(line.rstrip() for line in (self.code or "").strip().splitlines() if line.strip())
            digest = hashlib.sha1(code.encode("utf-8")).hexdigest()[:12]
            return f"create_skill|{self.skill_name}|{digest}|{_canonical(self.params)}"
        if self.type == "direct_action":
            return f"direct_action|{self.action!r}"
        if self.type == "lookup":
            return f"lookup|{' '.join((self.query or '').lower().split())}"
        if self.type == "show_skill":
            return f"show_skill|{self.skill_name}"
        return f"{self.type}|{self.skill_name}|{self.action}"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def format_decision(decision: AgentDecision) -> str:
    """Canonical one-line JSON of a decision (transcripts, conversation history)."""
    return json.dumps(decision.to_dict(), ensure_ascii=False)

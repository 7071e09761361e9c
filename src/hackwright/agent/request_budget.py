"""Holding every model request within the prompt budget (``agent.max_prompt_tokens``).

A request is more than the prompt: the system part, the user part, the turns a retry
adds after an unusable reply (the reply's start echoed back and what to fix), and the
``decide`` tool's definition. The budget, in ≈ tokens (characters / 4, see
:func:`~hackwright.agent.prompt.estimate_tokens`), holds all of it:

1. room is set aside first for the tool's definition and for the retries the
   strategist may send (:func:`request_reserve`), so a retry is never over budget;
2. the system part, the same every turn so that backends can cache it, keeps to what
   the budget leaves after that room and the user part's own room (half of what is
   left, at most :data:`USER_ROOM_CHARS`): over it, its sections are cut from their end
   in :data:`SYSTEM_CUT_ORDER`, least needed first, each with a marker saying so. How
   much is cut depends only on the budget, never on the turn;
3. the user part drops items in ``prompt.TRIM_ORDER`` (oldest timeline lines, other
   levels, older messages, older answers, older executions, least relevant skills);
4. last resort: whole sections are cut from their end, with a marker, in
   :data:`LAST_RESORT` order (the user part's less needed ones, then the rest of the
   system part, then what is left of the user part);
5. never cut: the role, the decision format, the task, the current state, the map and
   the decision request. A budget smaller than those and the reserved room is
   refused with :class:`RequestBudgetError` (no request is sent over budget).

A lookup's summary request (no tool, no retries) is fitted by :func:`summary_passages`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from .backends.base import BackendError
from .decisions import DEFAULT_ACTIONS, ECHO_CHARS, DecisionError, decision_tool
from .memory import CHARS_PER_TOKEN
from .prompt import Section, cut_to, fit_to_budget, render_sections

# The user part's room before the system part is cut: enough for a full turn's state,
# map, memory and skills; a budget too small for both gives each half.
USER_ROOM_CHARS = 16_000
# A retry adds the unusable reply's start (decisions.clip_echo) and what to fix (a
# DecisionError, bounded), each with a few words around it.
RETRY_TURN_CHARS = ECHO_CHARS + DecisionError.MAX_CHARS + 200
# The summary request's system prompt and wording around the question and passages.
SUMMARY_OVERHEAD_CHARS = 600

# System sections, least needed first: the example and the types can be inferred from
# the method reference; what a skill may do and the standing advice go last.
SYSTEM_CUT_ORDER = ("EXAMPLE SKILL", "API TYPES", "API: READING", "API: ACTING", "API: CALLING SKILLS",
                    "API CONVENTIONS", "SKILL RULES", "ADVICE", "SYSTEM")  # SYSTEM: a caller's own system part
# Last resort, first to last: ("user" | "system", section name).
LAST_RESORT = (
    ("user", "SKILL CODE YOU ASKED FOR"), ("user", "KNOWLEDGE"), ("user", "LAST SKILL EXECUTIONS"),
    ("user", "RECENT TIMELINE"), ("user", "DUNGEON MEMORY"),
    *(("system", name) for name in SYSTEM_CUT_ORDER),
    ("user", "AVAILABLE SKILLS"), ("user", "RECENT MESSAGES"), ("user", "INVENTORY"), ("user", "SURROUNDINGS"),
    ("user", "WARNINGS"),
)


class RequestBudgetError(BackendError):
    """The prompt budget is smaller than what no request can do without: no request is
    sent, and the episode ends saying which setting to raise."""


@lru_cache(maxsize=1)
def tool_chars() -> int:
    """Characters of the ``decide`` tool's definition as the larger of the two wire
    formats sends it (every action offered: an upper bound)."""
    spec = decision_tool(DEFAULT_ACTIONS)
    wrapped = {"type": "function", "function": {"name": spec["name"], "description": spec["description"],
                                                "parameters": spec["input_schema"]}}
    return len(json.dumps(wrapped, ensure_ascii=False))


def request_reserve(retries: int, tools: bool = True) -> int:
    """Characters a decision's requests may add to its prompt: the tool's definition
    and ``retries`` retry turns."""
    return (tool_chars() if tools else 0) + max(0, int(retries)) * RETRY_TURN_CHARS


@dataclass
class RequestFit:
    """The system part as it is sent, and what was cut to keep the request in budget."""

    system: str
    trimmed: list[str] = field(default_factory=list)


def _joined(parts: list[list[str]]) -> int:
    return sum(len(text) for _, text in parts) + 2 * max(0, len(parts) - 1)


def fit_request(system: list[tuple[str, str]], user: list[Section], max_tokens: int,
                reserve_chars: int = 0) -> RequestFit:
    """Cut ``system`` (name, text) sections and ``user`` sections (in place) until the
    system part, the user part and ``reserve_chars`` are within ``max_tokens`` ≈ tokens,
    in the order of the module's docstring. Raises :class:`RequestBudgetError` when even
    what is never cut does not fit."""
    room = max_tokens * CHARS_PER_TOKEN - reserve_chars
    parts = [[name, text] for name, text in system]
    whole = {name: len(text) for name, text in system}
    by_name = {s.name: s for s in user}

    def over() -> int:
        return _joined(parts) + len(render_sections(user)) - room

    def cut_system(name: str, excess: int) -> None:
        for p in parts:
            if p[0] == name and excess > 0:
                p[1] = cut_to(name, p[1], len(p[1]) - excess)

    # 2. the system part within its share (depends on the budget alone: cache-stable)
    system_room = room - min(max(room, 0) // 2, USER_ROOM_CHARS)
    for name in SYSTEM_CUT_ORDER:
        excess = _joined(parts) - system_room
        if excess <= 0:
            break
        cut_system(name, excess)
    # 3. the user part's items
    trimmed = fit_to_budget(user, max(0, room - _joined(parts)) // CHARS_PER_TOKEN)
    # 4. last resort: whole sections, cut from their end
    for where, name in LAST_RESORT:
        excess = over()
        if excess <= 0:
            break
        if where == "system":
            cut_system(name, excess)
            continue
        sec = by_name.get(name)
        if sec is not None:
            sec.limit = max(0, len(sec.text()) - excess)
    cut = [f"{name} (system part): {whole[name] - len(text):,} of {whole[name]:,} characters"
           for name, text in parts if len(text) != whole[name]]
    cut += [f"{s.name}: cut to {s.limit:,} characters" for s in user if s.limit is not None]
    if over() > 0:
        least = room + over() + reserve_chars
        raise RequestBudgetError(
            f"agent.max_prompt_tokens is {max_tokens:,} ≈ tokens, but a request needs at least about "
            f"{-(-least // CHARS_PER_TOKEN):,} (the role, the decision format, the state, the map, the decision "
            "request, the decide tool and room for retries): raise it")
    return RequestFit("\n\n".join(text for _, text in parts), trimmed + cut)


def summary_passages(question: str, passages: str, max_tokens: Optional[int]) -> Optional[str]:
    """The retrieved ``passages`` as a lookup's summary request may carry them within
    ``max_tokens`` (None: no budget, all of them): cut from the end with a marker; None
    when the budget leaves no room for any (the passages are then kept unsummarised)."""
    if not max_tokens:
        return passages
    room = max_tokens * CHARS_PER_TOKEN - SUMMARY_OVERHEAD_CHARS - len(question)
    if room < 200:
        return None
    return cut_to("the passages", passages, room)


__all__ = ["LAST_RESORT", "RETRY_TURN_CHARS", "SYSTEM_CUT_ORDER", "USER_ROOM_CHARS", "RequestBudgetError",
           "RequestFit", "fit_request", "request_reserve", "summary_passages", "tool_chars"]

"""The model's decision each turn (spec §7.3) and a parser robust to real model output.

The model answers with one JSON object (spec §7.2)::

    {"action": "invoke", "skill": "name", "params": {...}}
    {"action": "create", "name": "...", "category": "...", "description": "...",
     "triggers": [...], "params": {...}}        and the code in a ```python block after it
    {"action": "direct", "key": "h"}
    {"action": "lookup", "query": "..."}          (only where lookups are offered)
    {"action": "show", "skill": "name"}           (a library skill's code, for the next prompt)

either as text (:func:`parse_decision`) or as the input of the native ``decide`` tool
(:data:`DECISION_TOOL`, :func:`decision_from_dict`). Text parsing copes with what models
actually write: the JSON inside a ```json fence or inside prose, several objects (the last
with an ``"action"`` wins), single quotes, Python literals and trailing commas, raw
newlines or stray backslashes inside strings, code given as an (even doubly) escaped JSON
string or as a list of lines, and code given in a separate ```python fence (before or after
the JSON) when the JSON's ``"code"`` is missing or a placeholder (``"see below"``); of several
fences, the one defining the named function wins. A native tool call may carry the code in
its ``code`` argument or leave it to a fence in the reply's text
(:func:`decision_from_reply`). ``"skill"``, ``"name"`` and ``"skill_name"`` are synonyms; a
missing ``"params"`` is ``{}``.

Whatever cannot be understood raises :class:`DecisionError`, whose message tells the model
exactly what to change, ready to be sent back to it. That includes what is too big to be a
decision: a text reply over :data:`MAX_REPLY_CHARS` characters, or a decision nesting deeper
than :data:`MAX_DECISION_DEPTH` levels; no reply makes these functions raise anything else.

The parts live in their own modules: the decision, its errors and limits in
:mod:`.decision_core`, the ``decide`` tool in :mod:`.decision_tool`, a decision from a dict in
:mod:`.decision_dict` and from a text reply in :mod:`.decision_text`; every name is importable
from here.
"""

from __future__ import annotations

from .decision_core import (
    ACTION_TYPES,
    ALL_ACTIONS,
    DEFAULT_ACTIONS,
    ECHO_CHARS,
    MAX_DECISION_DEPTH,
    MAX_REPLY_CHARS,
    TYPE_ACTIONS,
    AgentDecision,
    DecisionError,
    clip_echo,
    format_decision,
)
from .decision_dict import decision_from_dict
from .decision_text import decision_from_reply, parse_decision
from .decision_tool import DECISION_TOOL, decision_tool
from .lenient_json import json_shape, loads_lenient

__all__ = [
    "ACTION_TYPES", "ALL_ACTIONS", "DECISION_TOOL", "DEFAULT_ACTIONS", "ECHO_CHARS", "MAX_DECISION_DEPTH",
    "MAX_REPLY_CHARS", "TYPE_ACTIONS", "AgentDecision", "DecisionError", "clip_echo", "decision_from_dict",
    "decision_from_reply", "decision_tool", "format_decision", "json_shape", "loads_lenient", "parse_decision",
]

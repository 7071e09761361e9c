"""The native ``decide`` tool: the JSON schema offered to backends that call tools, listing
only the actions allowed this turn."""

from __future__ import annotations

from typing import Any, Iterable

from .decision_core import DEFAULT_ACTIONS


def decision_tool(allowed: Iterable[str] = DEFAULT_ACTIONS) -> dict:
    """The ``decide`` tool (name, description, JSON schema) offering the ``allowed`` actions.
    Backends translate it into their API's tool format."""
    allowed = tuple(allowed)
    props: dict[str, Any] = {
        "action": {
            "type": "string",
            "enum": list(allowed),
            "description": "invoke = run a library skill; create = write a new skill and run it; "
            "direct = press one key" + ("; lookup = ask the knowledge base" if "lookup" in allowed else "")
            + ("; show = read a library skill's code (shown in the next prompt, takes no game time)"
               if "show" in allowed else ""),
        },
        "skill": {"type": "string", "description": "invoke: the name of the library skill to run"
                  + ("; show: the skill whose code to read" if "show" in allowed else "")},
        "name": {"type": "string", "description": "create: snake_case name of the new skill"},
        "code": {
            "type": "string",
            "description": "create: the complete Python source of the skill (an async def whose first parameter "
            "is nh), as plain text with real newlines",
        },
        "params": {"type": "object", "description": "invoke/create: keyword arguments for the skill"},
        "category": {"type": "string", "description": "create: skill category, e.g. exploration, combat"},
        "description": {"type": "string", "description": "create: one line saying what the skill does"},
        "triggers": {
            "type": "array",
            "items": {"type": "string"},
            "description": "create: events that stop the skill (monster, low_hp, very_low_hp, deadly, hunger, level_change, "
            "teleport, items, engulfed, message)",
        },
        "key": {"type": "string", "description": "direct: the one key to press, e.g. \"h\""},
        "reasoning": {"type": "string", "description": "a short reason for this decision"},
    }
    if "lookup" in allowed:
        props["query"] = {"type": "string", "description": "lookup: what to look up"}
    return {
        "name": "decide",
        "description": "Make this turn's decision. Call it exactly once.",
        "input_schema": {"type": "object", "properties": props, "required": ["action"]},
    }


DECISION_TOOL: dict = decision_tool()

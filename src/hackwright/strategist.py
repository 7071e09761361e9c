"""Bring your own strategist: everything a plug-in needs, in one import.

A strategist decides what the hero does next. Write a class with a ``name`` and an
``async def decide(self, ctx)`` that returns a decision, then play it::

    hackwright play --agent path/to/mine.py:MyStrategist --seed 3
    hackwright eval --agent mypackage.agents:MyStrategist --seeds 0-9

or register it as an entry point of the ``hackwright.strategists`` group and name it
by that (``--agent mine``). ``ctx`` (a :class:`DecisionContext`) carries the game API,
the state read for this step, the library's skills and, through ``ctx.prompt()``,
the exact prompt a model would be sent; :class:`Strategist` documents every field and
the optional hooks. Decisions are built with :func:`invoke_skill`,
:func:`create_skill`, :func:`direct_action`, :func:`lookup` and :func:`show_skill`.
Results are recorded under the name the strategist was loaded by. The whole guide is
``docs/strategists.md``; ``examples/cautious_strategist.py`` is a complete example.
"""

from __future__ import annotations

from .agent.backends.base import BackendError
from .agent.decisions import AgentDecision, DecisionError
from .agent.loop import DecisionContext
from .agent.prompt import PromptParts
from .agent.strategists.plugins import ENTRY_POINT_GROUP
from .agent.strategists.protocol import (Strategist, as_decision, create_skill, direct_action, invoke_skill,
                                         lookup, show_skill)

__all__ = ["Strategist", "DecisionContext", "PromptParts", "AgentDecision", "DecisionError", "BackendError",
           "invoke_skill", "create_skill", "direct_action", "lookup", "show_skill", "as_decision",
           "ENTRY_POINT_GROUP"]

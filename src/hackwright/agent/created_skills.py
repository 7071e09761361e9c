"""Between the agent loop and the library for a skill the model writes: which triggers
its first run stops on, how much of the dungeon is explored around a run (the value of a
run counts squares gained as progress), which errors mean the code never ran, and what
the library keeps of it afterwards (:meth:`~hackwright.skills.library.SkillLibrary.adopt`)."""

from __future__ import annotations

from typing import Optional

from ..sandbox import errors as skill_errors
from ..skills.library import Adoption, SkillLibrary, normalize_triggers
from ..skills.result import SkillResult
from ..skills.triggers import declared_triggers
from .decisions import AgentDecision

# Refused before a line of the skill ran: no run to record, nothing to judge or keep.
NEVER_RAN = (skill_errors.SkillSyntaxError, skill_errors.SkillValidationError, skill_errors.SandboxUnavailableError)


def created_triggers(d: AgentDecision) -> tuple[str, ...]:
    """The events that stop a created skill's first run: the decision's "triggers", else the
    ``TRIGGERS`` its code declares — the ones the library will keep with it."""
    return normalize_triggers(tuple(d.triggers) or declared_triggers(d.code or ""))


def known_squares(api) -> Optional[int]:
    """Squares of every visited level the hero knows to walk on (None when the map cannot
    be read, e.g. after the game ended)."""
    try:
        if api.game_over:
            return None
        api.level_memory()  # folds the current display into the remembered map
        return sum(int(level.passable_mask().sum()) for level in api.level_maps)
    except Exception:  # noqa: BLE001 — a statistic must never end an episode
        return None


def adopt_created(library: SkillLibrary, d: AgentDecision, result: Optional[SkillResult],
                  error: Optional[str]) -> Optional[Adoption]:
    """What the library keeps of the skill ``d`` created, after its first run (None: the
    decision named no skill, or the library failed; the episode goes on either way)."""
    if not d.skill_name:
        return None
    try:
        return library.adopt(d.skill_name, d.code or "", category=d.category or "general",
                             description=d.description or None, triggers=created_triggers(d),
                             result=result, error=error)
    except Exception:  # noqa: BLE001 — the library must never end an episode
        return None


__all__ = ["NEVER_RAN", "adopt_created", "created_triggers", "known_squares"]

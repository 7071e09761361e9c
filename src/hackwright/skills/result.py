"""SkillResult: what every skill returns (spec §6.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SkillResult:
    stopped_reason: str  # Why the skill terminated
    data: dict = field(default_factory=dict)  # Relevant data for the agent
    actions_taken: int = 0  # Number of game actions executed
    turns_elapsed: int = 0  # Number of game turns elapsed
    success: bool = False  # Whether the skill achieved its goal

    @classmethod
    def coerce(cls, value: Any) -> "SkillResult":
        """Accept a SkillResult, or a dict with its fields (models sometimes return one)."""
        if isinstance(value, SkillResult):
            return value
        names = ("stopped_reason", "data", "actions_taken", "turns_elapsed", "success")
        if isinstance(value, dict) and "stopped_reason" in value:
            return cls(**{k: value[k] for k in names if k in value})
        if hasattr(value, "stopped_reason"):  # a skill's own SkillResult class of the same shape
            return cls(**{k: getattr(value, k) for k in names if hasattr(value, k)})
        raise TypeError(
            f"a skill must return SkillResult(stopped_reason=..., data={{...}}, actions_taken=..., "
            f"turns_elapsed=..., success=...), not {type(value).__name__}"
        )

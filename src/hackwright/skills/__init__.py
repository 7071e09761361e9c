"""The skill layer: the result type skills return (and, later, the library)."""

from .result import SkillResult

__all__ = ["SkillResult"]

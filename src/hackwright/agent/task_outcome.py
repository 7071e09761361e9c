"""What a MiniHack task's own verdict (``hackwright.env.task``) means for an episode:
when it ends the episode, and the fields it adds to the summary.

On ``MiniHack-Room-5x5-v0`` the episode ends "task solved" the moment MiniHack says
so (the hero on the goal stairs), not at some later death in the dungeon below. A
task that fails by its step limit ends "task failed: time limit (N steps)"; a hero
who dies ends "death" as anywhere else, with ``task_success`` False.
"""

from __future__ import annotations

from typing import Any, Optional

from ..env.task import TaskOutcome


def outcome_of(api: Any) -> Optional[TaskOutcome]:
    """The tracked MiniHack task of the API's game, or None (no task: the challenge
    environment, or a custom level)."""
    game = getattr(api, "game", None) if api is not None else None
    return getattr(game, "task_outcome", None) if game is not None else None


def task_end_reason(api: Any) -> Optional[str]:
    """The episode's end reason when the task has ended it; None otherwise (also for a
    death, which the loop reports as "death")."""
    outcome = outcome_of(api)
    if outcome is None or not outcome.done or outcome.end == "death":
        return None
    return outcome.end_reason


def task_summary(api: Any) -> dict[str, Any]:
    """``EpisodeSummary``'s task fields: success (False unless MiniHack said solved, also
    when the episode ended first), MiniHack's summed reward, and how the task ended
    ("task solved", "death", "time limit"; None when the episode ended before the task).
    Empty when no task was tracked."""
    outcome = outcome_of(api)
    if outcome is None:
        return {}
    return {"task_success": outcome.success, "task_reward": outcome.reward, "task_end": outcome.end,
            "task_steps": outcome.steps}

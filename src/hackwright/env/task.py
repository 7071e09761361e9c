"""A MiniHack task's own outcome: its reward, its success and when it ends.

Hackwright sends keys straight to NetHack (``Game.step_key``), past the gymnasium
``step`` in which MiniHack decides whether its task is over and what it earned. Without
this module a hero on ``MiniHack-Room-5x5-v0`` walks down the goal stairs into an
ordinary dungeon and plays on. :class:`TaskTracker` asks the environment's own rules
after every key, as its ``step`` would: the reward manager or stairs check
(``_is_episode_end``), the step limit (``_check_abort`` over ``max_episode_steps``),
the reward function with its time penalty (``_reward_fn``). When the task says the
episode is over, the game is over too.

A MiniHack step is one action; here it is one key sent to NetHack, which is what
MiniHack counts when every question and menu is left to the agent (our settings).

Custom levels (a des-file of the *-Custom-v0 environments, used by the tests and the
scenario suite) are level loaders with checks of their own, so they are not tracked
unless asked for (``GameConfig.minihack_task``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

# MiniHack's StepStatus values (nle.env.base.NLE.StepStatus and tasks'): a custom
# status of a task keeps its own name.
_ABORTED, _RUNNING, _DEATH, _SOLVED = -1, 0, 1, 2

SOLVED = "task solved"
FAILED = "task failed"


@dataclass(frozen=True)
class TaskOutcome:
    """Where a MiniHack task stands: MiniHack's own verdict, reward and step count.

    ``status`` is "running", "solved" or "failed". ``end`` says how a finished task
    ended: "task solved", "death" (the hero died) or "time limit" (MiniHack's
    ``max_episode_steps`` ran out: gymnasium's truncation). ``reward`` is the sum of
    MiniHack's rewards over every key so far, time penalties included.
    """

    env_id: str
    status: str
    end: Optional[str]
    reward: float
    steps: int
    max_steps: Optional[int]

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def success(self) -> bool:
        return self.status == "solved"

    @property
    def end_reason(self) -> Optional[str]:
        """The episode's end reason this outcome gives: "task solved", "death", "task
        failed: time limit (100 steps)" (or "task failed: …" for a status of the task's
        own); None while the task runs."""
        if not self.done:
            return None
        if self.success:
            return SOLVED
        if self.end == "death":
            return "death"
        if self.end == "time limit":
            return f"{FAILED}: time limit ({self.max_steps} steps)"
        return f"{FAILED}: {self.end}"


class TaskTracker:
    """MiniHack's termination and reward rules, applied to every key a ``Game`` sends."""

    def __init__(self, env, env_id: str):
        self.env = env
        self.env_id = env_id
        limit = getattr(env, "_max_episode_steps", None)
        self.max_steps: Optional[int] = int(limit) if limit else None
        self._actions: dict[int, int] = {}
        for i, a in enumerate(env.actions):
            self._actions.setdefault(int(a), i)
        self.reset()

    def reset(self) -> None:
        """A new episode (after the environment's reset, which resets its reward manager)."""
        self.reward = 0.0
        self.steps = 0
        self.status = "running"
        self.end: Optional[str] = None
        if hasattr(self.env, "_frozen_steps"):
            self.env._frozen_steps = 0  # the time penalty's count of keys without a game turn
        self._previous: Optional[tuple] = None

    def before_key(self, observation: tuple) -> None:
        """Keep the observation the next key starts from (NLE overwrites it in place)."""
        self._previous = tuple(np.array(a, copy=True) for a in observation)

    def after_key(self, key: int, observation: tuple, game_done: bool) -> bool:
        """Judge the observation one key led to, as MiniHack's ``step`` would; True when
        the task has just ended."""
        if self.status != "running" or self._previous is None:
            return False
        env = self.env
        action = self._action_index(key)
        env._previous_obs, env._previous_action = self._previous, action
        self.steps += 1
        env._steps = self.steps  # what the environment's step limit counts
        status = env._get_end_status(observation, game_done)  # may collect the reward manager's reward
        self.reward += float(env._reward_fn(self._previous, action, observation, status))
        self._previous = None
        code = int(status)
        if code == _RUNNING:
            return False
        if code == _SOLVED:
            self.status, self.end = "solved", SOLVED
        elif code == _ABORTED:
            self.status, self.end = "failed", "time limit"
        elif code == _DEATH:
            self.status, self.end = "failed", "death"
        else:
            self.status, self.end = "failed", getattr(status, "name", str(code)).lower().replace("_", " ")
        return True

    def _action_index(self, key: int) -> Optional[int]:
        # Reward-manager events compare env.actions[action]; a key outside the action set
        # (a menu letter) is no action, which MiniHack's events read as None.
        return self._actions.get(key)

    def outcome(self) -> TaskOutcome:
        return TaskOutcome(self.env_id, self.status, self.end, round(self.reward, 4), self.steps, self.max_steps)

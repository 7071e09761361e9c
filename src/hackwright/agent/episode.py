"""What an episode is given and what it gives back: its configuration, its summary, and
the report of each step (for progress displays)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from ..env.make import CHALLENGE_ENV
from ..sandbox.runner import SandboxLimits
from ..skills.result import SkillResult
from .decisions import AgentDecision


@dataclass
class EpisodeConfig:
    """What an episode plays and under which limits (config.yaml / env / flags)."""

    seed: Optional[int] = 0
    env_id: str = CHALLENGE_ENV
    role: Optional[str] = None
    llm: str = "autopilot"
    max_steps: int = 500  # strategist decisions
    max_turns: Optional[int] = None  # game turns
    max_model_calls: Optional[int] = None
    max_tokens: Optional[int] = None
    budget_usd: Optional[float] = None
    max_wall_s: Optional[float] = None
    db_path: str = "data/memory.db"
    library_path: str = "skills"
    record_dir: Optional[str] = None  # ttyrec, transcript and summary go here
    des_file: Optional[str] = None  # a MiniHack level (scenario suite)
    task: Optional[str] = None  # a task text shown at the top of every prompt (scenario suite)
    goal: Optional[Callable[[NetHackAPI], bool]] = None  # checked after every step: True ends the episode
    skill_limits: SandboxLimits = field(default_factory=SandboxLimits)
    allow_weak_sandbox: bool = False
    min_success_rate_to_save: float = 0.3
    auto_save: bool = True
    prompt_skills: int = 8
    short_term_tokens: int = 600
    max_prompt_tokens: Optional[int] = None  # every whole request (system, user, retries, tool), ≈ tokens; None: no limit
    backend_options: dict = field(default_factory=dict)
    # Who plays a step the model could not decide: None ends the episode when the model
    # cannot be reached (and skips steps without a usable reply); "autopilot" stands in,
    # and every step it takes is counted in the summary beside the model's figures.
    fallback: Optional[str] = None
    max_failed_decisions: int = 3  # steps in a row without a usable reply before the episode ends


@dataclass
class EpisodeSummary:
    episode_id: int
    seed: Optional[int]
    role: str
    strategist: str
    end_reason: str
    death_reason: Optional[str]
    score: int
    depth: int
    max_depth: int
    xp_level: int
    max_xp_level: int
    turns: int
    progression: float  # BALROG progression, 0..1
    decisions: int
    decisions_per_1000_turns: float
    model_calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    skills_used: dict[str, int]
    skills_created: list[str]
    fallback_steps: int  # decisions another strategist made: fallback + loop-break steps
    wall_s: float
    ttyrec: Optional[str] = None
    # decisions by who made them: strategist, retry (after an unusable reply went back),
    # fallback (standing in for a failed model), loop_break (the autopilot breaking a loop)
    decided_by: dict[str, int] = field(default_factory=dict)
    loop_break_steps: int = 0
    failed_decisions: int = 0  # steps in which the model gave no usable decision and nothing was played
    model_error: Optional[str] = None  # why the model ended the episode, when it did
    goal_reached: Optional[bool] = None  # None: the episode had no goal
    # A MiniHack task's own verdict (env/task.py); all None when no task was tracked.
    task_success: Optional[bool] = None  # MiniHack said solved (False also when the episode ended first)
    task_reward: Optional[float] = None  # MiniHack's rewards summed over every key, time penalties included
    task_end: Optional[str] = None  # "task solved", "death", "time limit"; None: the episode ended first
    task_steps: Optional[int] = None  # keys counted against MiniHack's max_episode_steps
    # the game turn a digging tool (pick-axe, mattock, wand of digging) was first carried; None: never
    digging_tool_turn: Optional[int] = None
    # (turn, depth, experience level, score) after every step, for progression-over-turns plots
    timeline: list[tuple[int, int, int, int]] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


@dataclass
class StepReport:
    """What one step did (for progress displays)."""

    step: int
    decision: AgentDecision
    result: Optional[SkillResult]
    error: Optional[str]
    stats: Any

"""Strategists: who makes the decisions. ``make_strategist("autopilot" | "handcrafted" |
"random" | "anthropic:MODEL" | "openai:MODEL[@BASE_URL]" | "replay:FILE")``."""

from __future__ import annotations

from typing import Any, Optional

from .autopilot import Autopilot
from .baselines import Handcrafted, RandomAgent
from .model import ModelStrategist

BUILTIN = ("autopilot", "handcrafted", "random")


def make_strategist(spec: str, *, transcript: Optional[str] = None, seed: Optional[int] = 0,
                    **backend_options: Any):
    """The strategist for an ``--llm``/``--agent`` spec; model exchanges are written to
    ``transcript``; ``seed`` seeds the random agent."""
    spec = (spec or "autopilot").strip()
    if spec in ("autopilot", "offline", "none"):
        return Autopilot()
    if spec == "handcrafted":
        return Handcrafted()
    if spec == "random":
        return RandomAgent(seed)
    from ..backends.base import make_backend

    if spec.startswith("replay:"):
        backend_options = {k: v for k, v in backend_options.items() if k == "strict"}
    elif transcript:
        backend_options["transcript"] = transcript
    return ModelStrategist(make_backend(spec, **backend_options))


def default_llm_spec(env: Optional[dict] = None) -> str:
    """The model to use when none is given: autopilot unless a key is configured."""
    import os

    env = env if env is not None else dict(os.environ)
    if env.get("HACKWRIGHT_LLM"):
        return env["HACKWRIGHT_LLM"]
    return "autopilot"


__all__ = ["Autopilot", "Handcrafted", "ModelStrategist", "RandomAgent", "BUILTIN", "make_strategist",
           "default_llm_spec"]

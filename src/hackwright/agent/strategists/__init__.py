"""Strategists: who makes the decisions. ``make_strategist("autopilot" | "handcrafted" |
"random" | "anthropic:MODEL" | "openai:MODEL[@BASE_URL]" | "replay:FILE" | "human" |
"human:DIR")``.

A plug-in strategist is named ``module:Class``, ``path/to/file.py:Class`` or by its
entry point in the ``hackwright.strategists`` group (``plugins.py``; the protocol is
``protocol.py``, published as ``hackwright.strategist``).

Names are checked, never guessed: ``check_spec`` refuses anything else with the valid
choices (a typo such as ``gpt4`` must not quietly become a model of that name)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Optional

from .autopilot import Autopilot
from .baselines import Handcrafted, RandomAgent
from .model import ModelStrategist

BUILTIN = ("autopilot", "handcrafted", "random")
MODEL_KINDS = ("anthropic", "openai", "replay")
# Bots play whole games on their own (the NetHackers contract), under `hackwright eval` only.
BOTS = ("autoascend",)
CHOICES = ("autopilot, handcrafted, random, anthropic:MODEL[@BASE_URL], openai:MODEL[@BASE_URL], replay:FILE, "
           "human, human:DIR")
BOT_CHOICES = "autoascend, bot:PATH"
FALLBACKS = ("autopilot",)


class UnknownAgentError(ValueError):
    """An ``--agent``/``--llm`` name that names no strategist; the message lists the valid ones."""


def check_spec(spec: Optional[str], *, bots: bool = False, flag: str = "--llm") -> str:
    """``spec`` stripped, if it names a strategist (or, with ``bots``, a bot); else
    :class:`UnknownAgentError` with the choices and the closest one."""
    spec = (spec or "autopilot").strip()
    choices = CHOICES + (", " + BOT_CHOICES if bots else "")
    if spec in BUILTIN or spec in ("offline", "none", "human"):
        return spec
    if spec.startswith("human:"):  # a person or a script plays the model (agent/backends/human.py)
        if not spec[6:].strip():
            raise UnknownAgentError(f"{flag} human:DIR needs a folder for the req-N.txt / rep-N.txt files, "
                                    "e.g. human:runs/me; plain human plays on the terminal")
        return spec
    if spec in BOTS or spec.startswith("bot:"):
        if not bots:
            raise UnknownAgentError(f"{flag} {spec}: bots play under `hackwright eval --agent {spec}` only; "
                                    f"here choose {CHOICES}")
        if spec.startswith("bot:") and not spec[4:].strip():
            raise UnknownAgentError(f"{flag} bot:PATH needs the bot's folder (one with a bot.py), e.g. bot:bots/mine")
        return spec
    kind, sep, rest = spec.partition(":")
    if sep and kind.strip().lower() in MODEL_KINDS:
        rest = rest.strip()
        if not rest or rest.startswith("@"):
            raise UnknownAgentError(f"{flag} {spec} names no model: write {kind}:MODEL, e.g. "
                                    f"{'anthropic:claude-sonnet-5-5' if kind == 'anthropic' else 'openai:gpt-4o'}")
        if kind == "replay" and not Path(rest).is_file():
            raise UnknownAgentError(f"{flag} {spec}: no transcript file at {rest} "
                                    "(runs/<run>/transcript.jsonl is where play records one)")
        if "@" in rest and kind != "replay" and not re.search(r"@https?://\S+$", rest):
            raise UnknownAgentError(f"{flag} {spec}: the server goes after @ as http(s)://HOST[:PORT]/PATH, "
                                    f"e.g. {kind}:MODEL@http://localhost:8000/v1")
        return spec
    from .plugins import PluginError, entry_point_names, resolve_plugin

    try:
        if resolve_plugin(spec, flag) is not None:  # imported and checked; made by make_strategist
            return spec
    except PluginError as e:
        hint = _closest(spec) if e.missing_module else None
        raise PluginError(str(e) + (f" (did you mean {hint}?)" if hint else "")) from None
    hint = _closest(spec)
    installed = ", ".join(entry_point_names())
    choices += ", module:Class, path/to/file.py:Class" + (f", or an installed plug-in: {installed}" if installed
                                                          else "")
    raise UnknownAgentError(f"unknown {flag} {spec!r}: choose {choices}" + (f" (did you mean {hint}?)" if hint else ""))


def _closest(spec: str) -> Optional[str]:
    low = spec.lower()
    if low.startswith(("claude", "anthropic")):
        return f"anthropic:{spec}"
    if low.startswith(("gpt", "o1", "o3", "o4", "chatgpt", "qwen", "llama", "mistral", "deepseek")):
        return f"openai:{spec}"
    near = difflib.get_close_matches(low, list(BUILTIN) + list(BOTS) + ["human"], n=1, cutoff=0.6)
    return near[0] if near else None


def make_strategist(spec: str, *, transcript: Optional[str] = None, seed: Optional[int] = 0,
                    **backend_options: Any):
    """The strategist for an ``--llm``/``--agent`` spec; model exchanges are written to
    ``transcript``; ``seed`` seeds the random agent."""
    spec = check_spec(spec)
    if spec in ("autopilot", "offline", "none"):
        return Autopilot()
    if spec == "handcrafted":
        return Handcrafted()
    if spec == "random":
        return RandomAgent(seed)
    if spec.partition(":")[0].strip().lower() not in (*MODEL_KINDS, "human"):
        from .plugins import make_plugin, resolve_plugin

        target = resolve_plugin(spec)
        if target is not None:
            return make_plugin(target, seed=seed)
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


__all__ = ["Autopilot", "Handcrafted", "ModelStrategist", "RandomAgent", "BUILTIN", "BOTS", "CHOICES", "FALLBACKS",
           "UnknownAgentError", "check_spec", "make_strategist", "default_llm_spec"]

"""Configuration: defaults < config.yaml < HACKWRIGHT_* environment variables < flags.

The file has the sections of spec §9.3 (agent, environment, sandbox, skills,
memory). ``agent.model`` is a strategist spec: ``autopilot`` (offline, the
default), ``anthropic:MODEL``, ``openai:MODEL[@BASE_URL]`` or ``replay:FILE``; a
bare Claude or GPT model name is read as ``anthropic:``/``openai:`` of it.
Environment variables are ``HACKWRIGHT_<SECTION>_<KEY>``, e.g.
``HACKWRIGHT_AGENT_MODEL=openai:qwen@http://localhost:8000/v1``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

DEFAULTS: dict[str, dict[str, Any]] = {
    "agent": {"model": "autopilot", "max_tokens": 4096, "temperature": 0.7, "max_steps": 500,
              "max_model_calls": None, "max_total_tokens": None, "budget_usd": None, "max_wall_seconds": None},
    "environment": {"name": "NetHackChallenge-v0", "max_episode_steps": 1_000_000, "max_turns": None,
                    "render_mode": None},
    "sandbox": {"type": "local", "image": None, "runtime": None, "memory_limit": "256m", "cpu_limit": 0.5,
                "cpu_seconds": 10, "timeout_seconds": 30, "max_actions": 1000, "allow_weak": False},
    "skills": {"library_path": "./skills", "auto_save": True, "min_success_rate_to_save": 0.3},
    "memory": {"database_path": "./data/memory.db", "max_short_term_items": 100, "short_term_tokens": 600,
               "dungeon_map_resolution": [21, 79]},
}


class ConfigError(ValueError):
    """A configuration value that cannot work; the message names the key."""


def _size(value: Any) -> int:
    if isinstance(value, int):
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgKMG]?)i?[bB]?\s*", str(value))
    if not m:
        raise ConfigError(f"sandbox.memory_limit {value!r} is not a size like 256m or 1g")
    return int(float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()])


def _coerce(text: str, like: Any) -> Any:
    if isinstance(like, bool):
        return text.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(like, int) and not isinstance(like, bool):
        return int(text)
    if isinstance(like, float):
        return float(text)
    if like is None:
        for cast in (int, float):
            try:
                return cast(text)
            except ValueError:
                pass
    return text


def normalize_llm(spec: str) -> str:
    spec = (spec or "autopilot").strip()
    if ":" in spec.split("@")[0] or spec in ("autopilot", "offline"):
        return spec
    if spec.startswith("claude"):
        return f"anthropic:{spec}"
    if spec.startswith(("gpt", "o1", "o3", "o4")):
        return f"openai:{spec}"
    return spec


@dataclass
class Config:
    data: dict[str, dict[str, Any]] = field(default_factory=lambda: {k: dict(v) for k, v in DEFAULTS.items()})
    source: Optional[str] = None

    def get(self, section: str, key: str) -> Any:
        return self.data[section][key]

    def set(self, section: str, key: str, value: Any) -> None:
        if value is not None:
            self.data.setdefault(section, {})[key] = value

    def episode(self, **flags: Any):
        """An EpisodeConfig from this configuration, with flags (None = not given) on top."""
        from .agent.loop import EpisodeConfig
        from .sandbox.runner import SandboxLimits

        a, e, sb, sk, m = (self.data[k] for k in ("agent", "environment", "sandbox", "skills", "memory"))
        limits = SandboxLimits(wall_seconds=float(sb["timeout_seconds"]), cpu_seconds=int(sb["cpu_seconds"]),
                               memory_bytes=_size(sb["memory_limit"]), max_actions=int(sb["max_actions"]))
        cfg = EpisodeConfig(
            env_id=e["name"],
            llm=normalize_llm(a["model"]),
            max_steps=int(a["max_steps"]),
            max_turns=e.get("max_turns"),
            max_model_calls=a.get("max_model_calls"),
            max_tokens=a.get("max_total_tokens"),
            budget_usd=a.get("budget_usd"),
            max_wall_s=a.get("max_wall_seconds"),
            db_path=str(m["database_path"]),
            library_path=str(sk["library_path"]),
            skill_limits=limits,
            allow_weak_sandbox=bool(sb["allow_weak"]),
            min_success_rate_to_save=float(sk["min_success_rate_to_save"]),
            auto_save=bool(sk["auto_save"]),
            short_term_tokens=int(m["short_term_tokens"]),
            backend_options={"max_tokens": int(a["max_tokens"]), "temperature": float(a["temperature"])},
        )
        for k, v in flags.items():
            if v is not None:
                if k == "llm":
                    v = normalize_llm(v)
                setattr(cfg, k, v)
        return cfg


def load_config(path: Optional[str] = None, env: Optional[dict] = None) -> Config:
    """Defaults, then the YAML file (``path``, $HACKWRIGHT_CONFIG or ./config.yaml), then env vars."""
    cfg = Config()
    env = dict(os.environ if env is None else env)
    path = path or env.get("HACKWRIGHT_CONFIG") or ("config.yaml" if Path("config.yaml").exists() else None)
    if path:
        import yaml

        try:
            loaded = yaml.safe_load(Path(path).read_text()) or {}
        except FileNotFoundError:
            raise ConfigError(f"config file {path} does not exist") from None
        except yaml.YAMLError as e:
            raise ConfigError(f"config file {path} is not valid YAML: {e}") from None
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {path} must map sections (agent, environment, …) to settings")
        for section, values in loaded.items():
            if section not in DEFAULTS:
                raise ConfigError(f"unknown section {section!r} in {path}; sections: {', '.join(DEFAULTS)}")
            if not isinstance(values, dict):
                raise ConfigError(f"section {section!r} in {path} must hold key: value settings")
            for k, v in values.items():
                if k not in DEFAULTS[section]:
                    raise ConfigError(f"unknown setting {section}.{k} in {path}; "
                                      f"{section} has: {', '.join(DEFAULTS[section])}")
                cfg.set(section, k, v)
        cfg.source = str(path)
    for section, keys in DEFAULTS.items():
        for k, default in keys.items():
            name = f"HACKWRIGHT_{section.upper()}_{k.upper()}"
            if name in env:
                cfg.set(section, k, _coerce(env[name], default))
    if env.get("HACKWRIGHT_LLM"):
        cfg.set("agent", "model", env["HACKWRIGHT_LLM"])
    return cfg

"""Model call settings per backend: which providers and keys there are, the flags and
``HACKWRIGHT_MODEL_*`` variables that set them (:class:`ModelOverrides`), and what one backend
is made with (:class:`ModelSettings`); :meth:`hackwright.config.Config.model_settings` resolves
them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from .config_settings import BY_NAME, ConfigError, _checked, _shown

PROVIDERS: tuple[str, ...] = ("openai", "anthropic")
MODEL_KEYS: tuple[str, ...] = ("timeout_seconds", "retries", "max_tokens", "temperature", "extra_body")
# The agent's defaults behind each per-backend key (extra_body has none: {}).
AGENT_MODEL_DEFAULTS = {"timeout_seconds": "model_timeout_seconds", "retries": "model_retries",
                        "max_tokens": "max_tokens", "temperature": "temperature"}
# Variables that set a model call setting of whichever backend plays, and the flags above them.
MODEL_VARIABLES: dict[str, str] = {"HACKWRIGHT_MODEL_TIMEOUT": "timeout_seconds",
                                   "HACKWRIGHT_MODEL_RETRIES": "retries",
                                   "HACKWRIGHT_MODEL_MAX_TOKENS": "max_tokens",
                                   "HACKWRIGHT_MODEL_TEMPERATURE": "temperature",
                                   "HACKWRIGHT_MODEL_EXTRA_BODY": "extra_body"}
MODEL_FLAGS: dict[str, str] = {"timeout_seconds": "--model-timeout", "retries": "--model-retries",
                               "max_tokens": "--max-tokens", "temperature": "--temperature",
                               "extra_body": "--extra-body"}
FLAGS_VARIABLE = "HACKWRIGHT_MODEL_FLAGS"


def normalize_llm(spec: str) -> str:
    spec = (spec or "autopilot").strip()
    if ":" in spec.split("@")[0] or spec in ("autopilot", "offline"):
        return spec
    if spec.startswith("claude"):
        return f"anthropic:{spec}"
    if spec.startswith(("gpt", "o1", "o3", "o4")):
        return f"openai:{spec}"
    return spec


@dataclass(frozen=True)
class ModelOverrides:
    """Model call settings given as flags (None: not given); :meth:`from_flags` checks them."""

    timeout_seconds: Optional[float] = None
    retries: Optional[int] = None
    max_tokens: Optional[int] = None
    temperature: Optional[float] = None
    extra_body: Optional[dict] = None

    @classmethod
    def from_flags(cls, **given: Any) -> "ModelOverrides":
        """Checked flags by key (``timeout_seconds=``, ``retries=``, ``max_tokens=``,
        ``temperature=``, ``extra_body=``; text as typed, or values; None: not given).
        A value the setting does not take is a :class:`ConfigError` naming the flag."""
        checked: dict[str, Any] = {}
        for key, value in given.items():
            if value is None:
                continue
            if key not in MODEL_FLAGS:
                raise ConfigError(f"{key} is not a model call setting; the settings are {', '.join(MODEL_KEYS)}")
            # the same rules for every provider; a flag given is a value, never null
            setting = replace(BY_NAME[f"openai.{key}"], nullable=False)
            checked[key] = _checked(setting, value, MODEL_FLAGS[key], from_text=isinstance(value, str))
        return cls(**checked)

    def given(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in MODEL_KEYS if getattr(self, k) is not None}

    def to_variable(self) -> str:
        """These flags as the value of ``HACKWRIGHT_MODEL_FLAGS`` (for worker processes)."""
        return json.dumps(self.given())


@dataclass(frozen=True)
class ModelSettings:
    """The model call settings one backend is made with, and where each came from."""

    timeout_seconds: float
    retries: int
    max_tokens: int
    temperature: Optional[float]
    extra_body: dict
    sources: dict[str, str] = field(default_factory=dict)  # key -> flag, variable or config key

    def backend_options(self) -> dict[str, Any]:
        """The keyword arguments of the backend's constructor."""
        return {"timeout": self.timeout_seconds, "max_retries": self.retries, "max_tokens": self.max_tokens,
                "temperature": self.temperature, "extra_body": dict(self.extra_body)}


def provider_of(spec: Optional[str]) -> Optional[str]:
    """``openai`` or ``anthropic`` for a model spec of that backend, else None."""
    kind = normalize_llm(spec or "").partition(":")[0].strip().lower()
    return kind if kind in PROVIDERS else None


def _flags_variable(text: str) -> ModelOverrides:
    try:
        given = json.loads(text)
    except ValueError:
        given = None
    if not isinstance(given, dict) or not set(given) <= set(MODEL_KEYS):
        raise ConfigError(f"{FLAGS_VARIABLE} is {_shown(text)}; write a JSON object with some of the keys "
                          f"{', '.join(MODEL_KEYS)} (hackwright eval sets it from its flags)")
    return ModelOverrides.from_flags(**given)

"""The settings of config.yaml (:data:`SETTINGS`): each one's section, key, default and the
values it takes (:class:`Setting`), and the checks that turn a wrong value into a
:class:`ConfigError` saying what to write instead."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Optional

class ConfigError(ValueError):
    """A configuration value that cannot work; the one-line message names the file or
    variable, the key, the value and what to write instead."""


class _Invalid(Exception):
    """A value a setting does not take; the message says what to write instead."""


@dataclass(frozen=True)
class Setting:
    """One setting of config.yaml: its default and what it takes.

    ``kind`` is one of count (a whole number >= 1, or >= ``low``), number (``low``..``high``), flag
    (true/false), text, path, choice (one of ``choices``), size (bytes like 256m) or
    grid (two counts, rows and columns). ``nullable`` settings also take null.
    """

    section: str
    key: str
    default: Any
    kind: str
    nullable: bool = False
    low: Optional[float] = None
    high: Optional[float] = None
    above: bool = False  # the number must be greater than ``low``, not equal to it
    choices: tuple[str, ...] = ()
    null_means: str = "none"  # what null stands for, in the words of ``valid()``

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"

    @property
    def variable(self) -> str:
        return f"HACKWRIGHT_{self.section.upper()}_{self.key.upper()}"

    def valid(self) -> str:
        """What to write, e.g. "write a number from 0 to 2"."""
        if self.kind == "count":
            text = f"a whole number of at least {1 if self.low is None else _num(self.low)}"
        elif self.kind == "number":
            if self.low is not None and self.high is not None:
                text = f"a number from {_num(self.low)} to {_num(self.high)}"
            elif self.low == 0 and self.above:
                text = "a number above 0"
            else:
                text = "a number"
        elif self.kind == "flag":
            text = "true or false"
        elif self.kind == "choice":
            text = " or ".join(self.choices)
        elif self.kind == "size":
            text = "a size like 256m or 1g"
        elif self.kind == "grid":
            text = "two whole numbers (rows, columns) like [21, 79]"
        elif self.kind == "path":
            text = "a path such as " + repr(self.default or "./data")
        elif self.kind == "object":
            text = 'a JSON object such as {"top_p": 0.9}'

        else:
            text = "a name" if self.default is None else f"a name such as {self.default!r}"
        return "write " + text + (f" (or null for {self.null_means})" if self.nullable else "")

    def check(self, value: Any, *, from_text: bool = False) -> Any:
        """``value`` as this setting stores it; :class:`_Invalid` if it does not fit.
        ``from_text``: the value is an environment variable's text."""
        if value is None or (from_text and value.strip().lower() in ("", "null", "none", "~")):
            if self.nullable:
                return None
            raise _Invalid(self.valid())
        check = getattr(self, "_" + self.kind)
        return check(value.strip() if from_text and self.kind not in ("text", "path") else value)

    def _count(self, value: Any) -> int:
        if isinstance(value, str) and re.fullmatch(r"\+?\d+", value.strip()):
            value = int(value)
        least = 1 if self.low is None else int(self.low)  # a count may start at 0 (retries)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise _Invalid(self.valid())
        return value

    def _number(self, value: Any) -> float:
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise _Invalid(self.valid()) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise _Invalid(self.valid())
        too_low = self.low is not None and (value <= self.low if self.above else value < self.low)
        if too_low or (self.high is not None and value > self.high):
            raise _Invalid(self.valid())
        return float(value)

    def _flag(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower() if isinstance(value, (str, int)) else ""
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise _Invalid(self.valid())

    def _choice(self, value: Any) -> str:
        if isinstance(value, str) and value.strip() in self.choices:
            return value.strip()
        raise _Invalid(self.valid())

    def _text(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise _Invalid(self.valid())
        return value

    _path = _text

    def _object(self, value: Any) -> dict:
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise _Invalid(self.valid()) from None
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise _Invalid(self.valid())
        return dict(value)

    def _size(self, value: Any) -> Any:
        try:
            if _size(value) >= 1:
                return value
        except ConfigError:
            pass
        raise _Invalid(self.valid())

    def _grid(self, value: Any) -> list[int]:
        if isinstance(value, str):
            value = [v for v in re.split(r"[\s,x\[\]()]+", value) if v]
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise _Invalid(self.valid())
        try:
            return [self._count(v) for v in value]
        except _Invalid:
            raise _Invalid(self.valid()) from None


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _s(section: str, key: str, default: Any, kind: str, **kw: Any) -> Setting:
    return Setting(section, key, default, kind, **kw)


SETTINGS: tuple[Setting, ...] = (
    _s("agent", "model", "autopilot", "text"),
    _s("agent", "max_tokens", 4096, "count"),
    _s("agent", "temperature", 0.7, "number", low=0, high=2),
    _s("agent", "model_timeout_seconds", 120, "number", low=0, above=True),
    _s("agent", "model_retries", 3, "count", low=0),
    _s("agent", "max_steps", 500, "count"),
    _s("agent", "max_model_calls", None, "count", nullable=True),
    _s("agent", "max_total_tokens", None, "count", nullable=True),
    _s("agent", "max_prompt_tokens", None, "count", nullable=True),
    _s("agent", "budget_usd", None, "number", nullable=True, low=0, above=True),
    _s("agent", "max_wall_seconds", None, "number", nullable=True, low=0, above=True),
    _s("environment", "name", "NetHackChallenge-v0", "text"),
    _s("environment", "max_episode_steps", 1_000_000, "count"),
    _s("environment", "max_turns", None, "count", nullable=True),
    _s("environment", "render_mode", None, "choice", nullable=True, choices=("human", "ansi", "full", "pixel")),
    _s("sandbox", "type", "local", "choice", choices=("local", "docker")),
    _s("sandbox", "image", None, "text", nullable=True),
    _s("sandbox", "runtime", None, "text", nullable=True),
    _s("sandbox", "memory_limit", "256m", "size"),
    _s("sandbox", "cpu_limit", 0.5, "number", low=0, above=True),
    _s("sandbox", "cpu_seconds", 10, "count"),
    _s("sandbox", "timeout_seconds", 30, "number", low=0, above=True),
    _s("sandbox", "max_actions", 1000, "count"),
    _s("sandbox", "allow_weak", False, "flag"),
    _s("skills", "library_path", "./skills", "path"),
    _s("skills", "auto_save", True, "flag"),
    _s("skills", "min_success_rate_to_save", 0.3, "number", low=0, high=1),
    _s("memory", "database_path", "./data/memory.db", "path"),
    _s("memory", "max_short_term_items", 100, "count"),
    _s("memory", "short_term_tokens", 600, "count"),
    _s("memory", "dungeon_map_resolution", [21, 79], "grid"),
    # Per-backend model call settings: null (the default) falls back to the agent's.
    *(_s(provider, key, None, kind, nullable=True, null_means="the agent default", **kw)
      for provider in ("openai", "anthropic")
      for key, kind, kw in (("timeout_seconds", "number", {"low": 0, "above": True}),
                            ("retries", "count", {"low": 0}),
                            ("max_tokens", "count", {}),
                            ("temperature", "number", {"low": 0, "high": 2}),
                            ("extra_body", "object", {}))),
)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
BY_VARIABLE: dict[str, Setting] = {s.variable: s for s in SETTINGS}
DEFAULTS: dict[str, dict[str, Any]] = {}
for _setting in SETTINGS:
    DEFAULTS.setdefault(_setting.section, {})[_setting.key] = _setting.default


def _size(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgKMG]?)i?[bB]?\s*", str(value))
    if isinstance(value, bool) or not m:
        raise ConfigError(f"sandbox.memory_limit is {value!r}; write a size like 256m or 1g")
    return int(float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()])


def _checked(setting: Setting, value: Any, label: str, *, from_text: bool = False) -> Any:
    try:
        return setting.check(value, from_text=from_text)
    except _Invalid as e:
        raise ConfigError(f"{label} is {_shown(value)}; {e}") from None


def _shown(value: Any) -> str:
    """A value as the message shows it, in YAML's words for null and booleans: quoted, on
    one line, not too long."""
    text = "null" if value is None else str(value).lower() if isinstance(value, bool) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

"""Configuration: defaults < config.yaml < HACKWRIGHT_* environment variables < flags.

The file has the sections of spec §9.3 (agent, environment, sandbox, skills,
memory). ``agent.model`` is a strategist spec: ``autopilot`` (offline, the
default), ``anthropic:MODEL``, ``openai:MODEL[@BASE_URL]``, ``replay:FILE``, ``human`` or
``human:DIR`` (a person or a script as the model); a
bare Claude or GPT model name is read as ``anthropic:``/``openai:`` of it.
Environment variables are ``HACKWRIGHT_<SECTION>_<KEY>``, e.g.
``HACKWRIGHT_AGENT_MODEL=openai:qwen@http://localhost:8000/v1``. The model backend's
``agent.model_timeout_seconds`` (per HTTP attempt) and ``agent.model_retries`` (retries of a
call that timed out, failed with 408/409/429/5xx, lost its connection or came back
unreadable; 0 for none) go to whichever backend ``agent.model`` names.

Model call settings per backend: the sections ``openai`` and ``anthropic`` take
``timeout_seconds``, ``retries``, ``max_tokens``, ``temperature`` and ``extra_body`` (an
object merged into the request body); a key left out (or null) falls back to the agent's
default. :meth:`Config.model_settings` resolves them, highest first: a flag
(``--model-timeout``, ``--model-retries``, ``--max-tokens``, ``--temperature``,
``--extra-body``; ``eval`` hands its flags to its workers as ``HACKWRIGHT_MODEL_FLAGS``), then
``HACKWRIGHT_<PROVIDER>_<KEY>`` (e.g. ``HACKWRIGHT_OPENAI_TEMPERATURE``), then
``HACKWRIGHT_MODEL_<KEY>`` for any backend (``HACKWRIGHT_MODEL_TIMEOUT``, ``_RETRIES``,
``_MAX_TOKENS``, ``_TEMPERATURE``, ``_EXTRA_BODY``), then the provider's section of the
file, then the agent's defaults (``agent.model_timeout_seconds``, ``agent.model_retries``,
``agent.max_tokens``, ``agent.temperature``, as the file or ``HACKWRIGHT_AGENT_*`` set them).

Every setting is checked when the configuration loads: a value of the wrong type
or out of range raises :class:`ConfigError` with one line naming the file (or the
variable), the key, the value and what would be valid. Keys and variables that
name no setting are ignored with a one-line warning that names the closest one.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Optional


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
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
BY_VARIABLE: dict[str, Setting] = {s.variable: s for s in SETTINGS}
DEFAULTS: dict[str, dict[str, Any]] = {}
for _setting in SETTINGS:
    DEFAULTS.setdefault(_setting.section, {})[_setting.key] = _setting.default

# HACKWRIGHT_* variables that other parts of Hackwright read for their own purposes:
# they name no config.yaml setting and must not be warned about.
OTHER_VARIABLES: dict[str, str] = {
    "HACKWRIGHT_CONFIG": "the config file to load",
    "HACKWRIGHT_LLM": "the strategist when none is given (overrides agent.model)",
    "HACKWRIGHT_LIBRARY": "the skill library folder of `hackwright skills`",
    "HACKWRIGHT_KB": "the knowledge base file",
    "HACKWRIGHT_NETHACKDIR": "NLE's nethackdir for the knowledge base",
    "HACKWRIGHT_GUIDEBOOK": "a plain-text Guidebook for the knowledge base",
    "HACKWRIGHT_MINILM_DIR": "the MiniLM files of the dense index",
    "HACKWRIGHT_KEEP_FDS": "file descriptors a sandbox worker keeps",
    FLAGS_VARIABLE: "the model flags `hackwright eval` hands its workers (a JSON object)",
}
# Test suites may set HACKWRIGHT_TEST_* variables of their own.
OTHER_PREFIXES = ("HACKWRIGHT_TEST_",)


def _size(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgKMG]?)i?[bB]?\s*", str(value))
    if isinstance(value, bool) or not m:
        raise ConfigError(f"sandbox.memory_limit is {value!r}; write a size like 256m or 1g")
    return int(float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()])


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


@dataclass
class Config:
    data: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {k: {kk: (list(vv) if isinstance(vv, list) else vv) for kk, vv in v.items()}
                                 for k, v in DEFAULTS.items()})
    source: Optional[str] = None
    # where each setting set by the file or a variable came from: "section.key" -> label
    origins: dict[str, str] = field(default_factory=dict)
    model_env: dict[str, Any] = field(default_factory=dict)  # HACKWRIGHT_MODEL_<KEY>, by key
    model_env_names: dict[str, str] = field(default_factory=dict)  # key -> the variable that set it
    model_flags: ModelOverrides = field(default_factory=ModelOverrides)  # HACKWRIGHT_MODEL_FLAGS

    def model_settings(self, spec: Optional[str] = None,
                       flags: Optional[ModelOverrides] = None) -> ModelSettings:
        """The settings of the backend ``spec`` names (default: ``agent.model``), highest
        first: ``flags``, the flags of ``HACKWRIGHT_MODEL_FLAGS``, ``HACKWRIGHT_<PROVIDER>_<KEY>``,
        ``HACKWRIGHT_MODEL_<KEY>``, the provider's section of the file, the agent's defaults."""
        provider = provider_of(spec if spec is not None else self.data["agent"]["model"])
        given, inherited = (flags or ModelOverrides()).given(), self.model_flags.given()
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        for key in MODEL_KEYS:
            name = f"{provider}.{key}" if provider else None
            own = self.data[provider][key] if provider else None
            from_env = name is not None and self.origins.get(name) == BY_NAME[name].variable
            layers = [(given.get(key), f"flag {MODEL_FLAGS[key]}"),
                      (inherited.get(key), f"flag {MODEL_FLAGS[key]} ({FLAGS_VARIABLE})"),
                      (own if from_env else None, self.origins.get(name or "", "")),
                      (self.model_env.get(key), self.model_env_names.get(key, "")),
                      (own, f"{self.origins.get(name or '', 'config')}: {name}")]
            agent_key = AGENT_MODEL_DEFAULTS.get(key)
            layers.append((self.data["agent"][agent_key], f"agent.{agent_key}") if agent_key else ({}, "none given"))
            values[key], sources[key] = next((v, label) for v, label in layers if v is not None)
        temperature = values["temperature"]
        return ModelSettings(timeout_seconds=float(values["timeout_seconds"]), retries=int(values["retries"]),
                             max_tokens=int(values["max_tokens"]),
                             temperature=None if temperature is None else float(temperature),
                             extra_body=dict(values["extra_body"]), sources=sources)

    def get(self, section: str, key: str) -> Any:
        return self.data[section][key]

    def set(self, section: str, key: str, value: Any) -> None:
        if value is not None:
            self.data.setdefault(section, {})[key] = value

    def episode(self, *, model: Optional[ModelOverrides] = None, **flags: Any):
        """An EpisodeConfig from this configuration, with flags (None = not given) on top;
        ``model``: the model call flags (see :meth:`model_settings`)."""
        from .agent.episode import EpisodeConfig
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
            max_prompt_tokens=a.get("max_prompt_tokens"),
            budget_usd=a.get("budget_usd"),
            max_wall_s=a.get("max_wall_seconds"),
            db_path=str(m["database_path"]),
            library_path=str(sk["library_path"]),
            skill_limits=limits,
            allow_weak_sandbox=bool(sb["allow_weak"]),
            min_success_rate_to_save=float(sk["min_success_rate_to_save"]),
            auto_save=bool(sk["auto_save"]),
            short_term_tokens=int(m["short_term_tokens"]),
        )
        for k, v in flags.items():
            if v is not None:
                # a flag names its strategist exactly: no guessing a provider for a typo
                setattr(cfg, k, v)
        cfg.backend_options = self.model_settings(cfg.llm, model).backend_options()
        return cfg


def print_warning(message: str) -> None:
    """Print one configuration warning as one line on stderr."""
    print(f"warning: {message}", file=sys.stderr)


def load_config(path: Optional[str] = None, env: Optional[dict] = None,
                warn: Optional[Callable[[str], None]] = print_warning) -> Config:
    """Defaults, then the YAML file (``path``, $HACKWRIGHT_CONFIG or ./config.yaml), then
    ``HACKWRIGHT_<SECTION>_<KEY>`` variables from ``env`` (default: the process's).

    Raises :class:`ConfigError` (one line: file or variable, key, value, what is valid)
    for a file that is missing or is not YAML and for any value a setting does not take.
    Keys and ``HACKWRIGHT_*`` variables that name no setting are ignored; each is
    reported to ``warn`` (default: a line on stderr; None: quiet) with the closest setting.
    """
    cfg = Config()
    env = dict(os.environ if env is None else env)
    say = warn or (lambda _message: None)
    if path:
        where = str(path)
    elif env.get("HACKWRIGHT_CONFIG"):
        path, where = env["HACKWRIGHT_CONFIG"], f"HACKWRIGHT_CONFIG={env['HACKWRIGHT_CONFIG']}"
    else:
        path = where = "config.yaml" if Path("config.yaml").exists() else None
    if path:
        for (section, key), value in _read_file(str(path), where, say).items():
            cfg.data[section][key] = value
            cfg.origins[f"{section}.{key}"] = str(path)
        cfg.source = str(path)
    for name, text in sorted(env.items()):
        setting = BY_VARIABLE.get(name)
        if setting is not None:
            cfg.data[setting.section][setting.key] = _checked(setting, text, name, from_text=True)
            cfg.origins[setting.name] = name
        elif name in MODEL_VARIABLES:
            key = MODEL_VARIABLES[name]
            value = _checked(BY_NAME[f"openai.{key}"], text, name, from_text=True)
            if value is not None:
                cfg.model_env[key], cfg.model_env_names[key] = value, name
        elif name.startswith("HACKWRIGHT_") and name not in OTHER_VARIABLES and not name.startswith(OTHER_PREFIXES):
            say(_unknown_variable(name))
    if env.get(FLAGS_VARIABLE):
        cfg.model_flags = _flags_variable(env[FLAGS_VARIABLE])
    if env.get("HACKWRIGHT_LLM"):
        cfg.data["agent"]["model"] = _checked(BY_NAME["agent.model"], env["HACKWRIGHT_LLM"], "HACKWRIGHT_LLM",
                                              from_text=True)
    return cfg


def _flags_variable(text: str) -> ModelOverrides:
    try:
        given = json.loads(text)
    except ValueError:
        given = None
    if not isinstance(given, dict) or not set(given) <= set(MODEL_KEYS):
        raise ConfigError(f"{FLAGS_VARIABLE} is {_shown(text)}; write a JSON object with some of the keys "
                          f"{', '.join(MODEL_KEYS)} (hackwright eval sets it from its flags)")
    return ModelOverrides.from_flags(**given)


def _read_file(path: str, where: str, say: Callable[[str], None]) -> dict[tuple[str, str], Any]:
    """The checked settings of one YAML file, by (section, key)."""
    import yaml

    label = path if where == path else where
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{label}: no such config file; give the path of an existing config.yaml") from None
    except IsADirectoryError:
        raise ConfigError(f"{label}: is a folder; give the path of a config.yaml file") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{label}: is not UTF-8 text; save the config file as UTF-8") from None
    except OSError as e:
        raise ConfigError(f"{label}: cannot be read ({e.strerror}); check the path and its permissions") from None
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(_yaml_error(path, e)) from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: holds {_kind_of(loaded)}; write sections ({', '.join(s for s in DEFAULTS if s not in PROVIDERS)}) "
                          "with indented key: value lines under them")
    out: dict[tuple[str, str], Any] = {}
    for section, values in loaded.items():
        if section not in DEFAULTS:
            hint = _closest(str(section), list(DEFAULTS))
            say(f"{path}: section {section!r} is not a section Hackwright reads (ignored); "
                + (f"did you mean {hint}?" if hint else f"the sections are {', '.join(DEFAULTS)}"))
            continue
        if values is None:  # a section whose settings are all commented out
            continue
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: section {section} is {_shown(values)}; write its settings as indented "
                              f"key: value lines under '{section}:'")
        for key, value in values.items():
            setting = BY_NAME.get(f"{section}.{key}")
            if setting is None:
                say(_unknown_key(path, section, str(key)))
                continue
            out[(section, str(key))] = _checked(setting, value, f"{path}: {setting.name}")
    return out


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


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    return f"only the value {_shown(value)}"


def _yaml_error(path: str, e: Exception) -> str:
    mark = getattr(e, "problem_mark", None)
    problem = " ".join(str(getattr(e, "problem", None) or e).split())
    if mark is None:
        return f"{path}: is not valid YAML ({problem}); check the indentation, colons and quotes"
    context, cmark = getattr(e, "context", None), getattr(e, "context_mark", None)
    opened = ""
    if context and cmark is not None and cmark.line != mark.line:
        opened = f", {context.replace('while ', '')} that starts on line {cmark.line + 1}"
    return (f"{path} line {mark.line + 1}, column {mark.column + 1}: not valid YAML ({problem}{opened}); "
            "check the indentation, colons and quotes there")


def _closest(word: str, candidates: list[str]) -> Optional[str]:
    near = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return near[0] if near else None


def _unknown_key(path: str, section: str, key: str) -> str:
    here = [s.key for s in SETTINGS if s.section == section]
    elsewhere = [s.name for s in SETTINGS if s.key == key]
    near = _closest(key, here)
    hint = elsewhere[0] if elsewhere else f"{section}.{near}" if near else None
    return (f"{path}: {section}.{key} is not a setting (ignored); "
            + (f"did you mean {hint}?" if hint else f"{section} has {', '.join(here)}"))


def _unknown_variable(name: str) -> str:
    known = list(BY_VARIABLE) + list(OTHER_VARIABLES) + list(MODEL_VARIABLES)
    # Compare what follows the common HACKWRIGHT_ prefix, which would make every name look close.
    near = _closest(name[len("HACKWRIGHT_"):], [k[len("HACKWRIGHT_"):] for k in known])
    if near:
        return f"{name} names no setting; did you mean HACKWRIGHT_{near}?"
    return (f"{name} names no setting (ignored); settings are HACKWRIGHT_<SECTION>_<KEY>, "
            "e.g. HACKWRIGHT_AGENT_MAX_STEPS")


__all__ = ["Config", "ConfigError", "DEFAULTS", "MODEL_KEYS", "MODEL_VARIABLES", "ModelOverrides", "ModelSettings",
           "OTHER_VARIABLES", "PROVIDERS", "SETTINGS", "Setting", "load_config", "normalize_llm", "print_warning",
           "provider_of"]

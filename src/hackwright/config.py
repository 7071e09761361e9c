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

The parts live in their own modules: the settings and their checks in
:mod:`.config_settings`, the model call settings in :mod:`.config_models`, reading the YAML
file in :mod:`.config_file`; every name is importable from here.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from .config_file import _closest, _read_file
from .config_models import (
    AGENT_MODEL_DEFAULTS,
    FLAGS_VARIABLE,
    MODEL_FLAGS,
    MODEL_KEYS,
    MODEL_VARIABLES,
    PROVIDERS,
    ModelOverrides,
    ModelSettings,
    _flags_variable,
    normalize_llm,
    provider_of,
)
from .config_settings import BY_NAME, BY_VARIABLE, DEFAULTS, SETTINGS, ConfigError, Setting, _checked, _size

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

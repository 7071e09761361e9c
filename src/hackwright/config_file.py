"""Reading config.yaml: the checked settings of one YAML file, one-line errors for a file that
is missing or is not YAML (with its line and column), and warnings naming the closest setting
for keys and sections that name none."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Callable, Optional

from .config_models import PROVIDERS
from .config_settings import BY_NAME, DEFAULTS, SETTINGS, ConfigError, _checked, _shown


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

"""Skill files: reading and validating one, the names, categories, triggers and
parameters it declares, finding them in a folder, and writing files atomically."""

from __future__ import annotations

import ast
import os
import re
import threading
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Union

from ...sandbox.errors import SkillExecutionError
from ...sandbox.policy import SkillInfo, validate
from .records import SkillParam, _reject
from .vocabulary import _CATEGORY_RE, _NAME_RE, CATEGORIES, TRIGGER_ALIASES, TRIGGER_EVENTS

class _Invalid(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _module_constants(code: str) -> dict[str, Any]:
    """Top-level ``CATEGORY`` / ``TRIGGERS`` literals of a (valid) skill."""
    out: dict[str, Any] = {}
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return out
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for t in targets:
            if isinstance(t, ast.Name) and t.id in ("CATEGORY", "TRIGGERS"):
                try:
                    out[t.id] = ast.literal_eval(value)
                except (ValueError, SyntaxError, TypeError):
                    pass
    return out


def normalize_triggers(triggers: Union[str, Iterable[str], None]) -> tuple[str, ...]:
    """Lower-case, map aliases ("hungry" → "hunger"), drop duplicates, keep the order."""
    if triggers is None:
        return ()
    if isinstance(triggers, str):
        triggers = [t for t in re.split(r"[,\s]+", triggers) if t]
    out: list[str] = []
    for t in triggers:
        name = str(t).strip().lower().replace("-", "_").replace(" ", "_")
        name = TRIGGER_ALIASES.get(name, name)
        if name and name not in out:
            out.append(name)
    return tuple(out)


def unknown_triggers(triggers: Iterable[str]) -> list[str]:
    return [t for t in triggers if t not in TRIGGER_EVENTS]


def normalize_category(category: str) -> str:
    c = str(category or "").strip().lower().replace("-", "_").replace(" ", "_")
    if not _CATEGORY_RE.match(c):
        raise _reject(
            f"category {category!r} is not a valid category name",
            f"use one of {', '.join(CATEGORIES)} (or another lower-case word)",
        )
    return c


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not _NAME_RE.match(name) or not name.isidentifier():
        raise _reject(
            f"{name!r} is not a valid skill name",
            "name the skill with letters, digits and underscores, starting with a letter (e.g. `explore_safely`)",
        )
    import keyword

    if keyword.iskeyword(name):
        raise _reject(f"{name!r} is a Python keyword", "choose another name for the skill")


def _param_type(annotation: Optional[str], default: Optional[str]) -> str:
    if annotation:
        return annotation
    if default is None:
        return "any"
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return "any"
    if value is None:
        return "any"
    return type(value).__name__


def parameters_of(info: SkillInfo) -> list[SkillParam]:
    """The entry point's parameters (after ``nh``) from the validator's SkillInfo."""
    return [SkillParam(p.name, _param_type(p.annotation, p.default_repr), p.default_repr) for p in info.params]


def _normalize_parameters(parameters: Any) -> list[SkillParam]:
    """SkillParams from SkillParams, names, ``{"name", "type", "default"}`` dicts or ``{name: type}``."""
    if parameters is None:
        return []
    if isinstance(parameters, Mapping):  # {"name": "type"} or {"name": {"type":…, "default":…}}
        items: list[Any] = []
        for k, v in parameters.items():
            if isinstance(v, Mapping):
                items.append({**{kk: vv for kk, vv in v.items() if kk != "name"}, "name": str(k)})
            else:
                items.append({"name": str(k), "type": str(v)})
        parameters = items
    out = []
    for p in parameters:
        if isinstance(p, SkillParam):
            out.append(p)
        elif isinstance(p, str):
            out.append(SkillParam(p))
        elif isinstance(p, Mapping) and "name" in p:
            out.append(SkillParam(
                str(p["name"]), str(p.get("type") or "any"),
                None if p.get("default") is None else str(p["default"]),
                str(p["description"]) if p.get("description") else None,
            ))
        elif hasattr(p, "name") and hasattr(p, "default_repr"):  # policy.Param
            out.append(SkillParam(p.name, _param_type(getattr(p, "annotation", None), p.default_repr), p.default_repr))
        else:
            raise TypeError(f"a parameter must be a name or a dict with 'name', not {p!r}")
    return out


def _first_line(text: Optional[str]) -> str:
    if not text:
        return ""
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _error_text(e: BaseException) -> str:
    if isinstance(e, SkillExecutionError):
        return e.for_model()
    return f"{type(e).__name__}: {e}"


def _read_skill(path: Path, name: str) -> tuple[str, SkillInfo, dict[str, Any]]:
    """Read and validate a skill file; raise _Invalid with the reason."""
    if not _NAME_RE.match(name) or not name.isidentifier():
        raise _Invalid(f"the file name {path.name!r} is not a valid skill name "
                       "(letters, digits and underscores, starting with a letter)")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise _Invalid(f"unreadable: {e}") from None
    try:
        code = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Invalid(f"not UTF-8 text (corrupt file?): {e}") from None
    try:
        info = validate(code, entry=name)
    except SkillExecutionError as e:
        raise _Invalid(_error_text(e)) from None
    except Exception as e:  # the validator must never stop loading
        raise _Invalid(f"could not be validated: {type(e).__name__}: {e}") from None
    if info.name != name:
        raise _Invalid(f"the entry point is `async def {info.name}` but the file is {path.name}: "
                       f"the function must be named like the file")
    return code, info, _module_constants(code)


def _scan(base: Optional[Path]) -> list[tuple[str, Path]]:
    """(category, file) of every ``base/<category>/<name>.py`` (folders and files
    starting with ``_`` or ``.`` are skipped)."""
    out: list[tuple[str, Path]] = []
    if base is None or not base.is_dir():
        return out
    for cat in sorted(base.iterdir()):
        if not cat.is_dir() or cat.name.startswith(("_", ".")):
            continue
        for f in sorted(cat.glob("*.py")):
            if f.name.startswith(("_", ".")) or not f.is_file():
                continue
            out.append((cat.name, f))
    return out


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)

"""Strategist plug-ins: found by name, loaded, checked, and run under their own label.

Three ways to name one (``--agent``, or ``--llm`` in ``play``):

- ``module:Class``: an importable module (the current folder is tried too) and the
  attribute holding the strategist's class (a dotted path such as ``pkg.mod:Outer.Cls``
  works);
- ``path/to/file.py:Class``: a Python file, loaded as a module of its own;
- ``NAME``: an entry point ``NAME`` of the :data:`ENTRY_POINT_GROUP` group of any
  installed package (``[project.entry-points."hackwright.strategists"]`` in its
  pyproject.toml). Built-in names (autopilot, random, …) come first.

The attribute may be a class, a function returning a strategist, or a strategist
object. Anything that cannot be loaded is a :class:`PluginError` (an
:class:`UnknownAgentError`) whose one-line message says what to fix: no such module or
file, an import that failed (with its file and line), no such attribute (with the
classes that are there), an object without ``decide``, a constructor that failed.

A loaded plug-in is wrapped in :class:`PluginStrategist`, whose ``name`` is the spec it
was loaded by: the run database, the summaries and the eval tables all carry that
label, whatever the plug-in calls itself.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import traceback
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

from . import UnknownAgentError
from ..backends.base import BackendError
from ..decisions import AgentDecision, DecisionError
from .protocol import as_decision

ENTRY_POINT_GROUP = "hackwright.strategists"
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
DOCS = "see docs/strategists.md"


class PluginError(UnknownAgentError):
    """A plug-in strategist that cannot be loaded or made; the message says what to fix."""

    def __init__(self, message: str, *, missing_module: bool = False):
        super().__init__(" ".join(message.split()))
        self.missing_module = missing_module  # no module of that name at all (maybe a typo)


@dataclass(frozen=True)
class PluginTarget:
    """A plug-in found and imported, not yet made."""

    label: str  # the spec it was named by: what its results are recorded under
    factory: Any  # a class, a function returning a strategist, or a strategist
    origin: str  # where it came from, for messages: "examples/x.py", "entry point careful (pkg:Cls)"
    flag: str = "--agent"


def plugin_form(spec: str) -> Optional[tuple[str, str]]:
    """``(module or file, attribute)`` when ``spec`` is written ``module:Class`` or
    ``path/to/file.py:Class``; None otherwise."""
    where, sep, attr = spec.strip().rpartition(":")
    if not sep or not where.strip() or not _DOTTED.fullmatch(attr.strip()):
        return None
    where = where.strip()
    if _is_file(where) or _DOTTED.fullmatch(where):
        return where, attr.strip()
    return None


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where


def entry_points() -> list[metadata.EntryPoint]:
    """The entry points of the ``hackwright.strategists`` group in the current environment."""
    try:
        return list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    except Exception:  # noqa: BLE001 — a broken distribution elsewhere must not stop the command
        return []


def entry_point_names() -> list[str]:
    """The names of the installed strategist plug-ins, sorted."""
    return sorted({ep.name for ep in entry_points()})


def resolve_plugin(spec: str, flag: str = "--agent") -> Optional[PluginTarget]:
    """The plug-in ``spec`` names, imported and checked; None when ``spec`` is neither
    written as a plug-in nor the name of an installed one. :class:`PluginError` when it
    is one of those but cannot be loaded."""
    spec = spec.strip()
    form = plugin_form(spec)
    if form is not None:
        where, attr = form
        if _is_file(where):
            module, origin = _load_file(spec, where, flag), where
        else:
            module, origin = _import_module(spec, where, flag), f"module {where}"
        obj = _attribute(spec, module, attr, origin, flag)
        _check_shape(spec, obj, attr, flag)
        return PluginTarget(spec, obj, origin, flag)
    found = [ep for ep in entry_points() if ep.name == spec]
    if not found:
        return None
    ep = found[0]
    origin = f"entry point {ep.name} ({ep.value})"
    try:
        obj = ep.load()
    except Exception as e:  # noqa: BLE001 — whatever the package does at import is reported in one line
        raise PluginError(f"{flag} {spec}: the {origin} failed to load: {_describe(e)}; fix or reinstall the "
                          "package that declares it")
    _check_shape(spec, obj, ep.value.rpartition(":")[2] or ep.name, flag)
    return PluginTarget(spec, obj, origin, flag)


def make_plugin(target: PluginTarget, seed: Optional[int] = None) -> "PluginStrategist":
    """A strategist made from ``target`` (the episode's ``seed`` is passed to a
    constructor that takes ``seed``), wrapped to play under ``target.label``."""
    obj, label, flag = target.factory, target.label, target.flag
    if not inspect.isclass(obj) and callable(getattr(obj, "decide", None)):
        return PluginStrategist(obj, label)  # already a strategist object
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)
    try:
        inner = obj(seed=seed) if _takes_seed(obj) else obj()
    except Exception as e:  # noqa: BLE001 — the plug-in's own bug, reported in one line
        raise PluginError(f"{flag} {label}: {name}() failed: {_describe(e)}; a strategist is made with no "
                          "arguments, or with seed= only")
    if not callable(getattr(inner, "decide", None)):
        raise PluginError(f"{flag} {label}: {name}() returned {type(inner).__name__}, which has no decide(ctx) "
                          f"method: return a strategist ({DOCS})")
    return PluginStrategist(inner, label)


class PluginStrategist:
    """A plug-in strategist as the loop sees it: recorded under ``label``, its failures
    turned into unusable decisions (counted, and played by the fallback when one was
    asked for) rather than a crashed episode."""

    def __init__(self, inner: Any, label: str):
        self.inner = inner
        self.name = label
        self.loop_fallback = bool(getattr(inner, "loop_fallback", True))
        self.max_idle_decisions = getattr(inner, "max_idle_decisions", None)
        self.keys_are_commands = bool(getattr(inner, "keys_are_commands", False))
        self.max_invalid = int(getattr(inner, "max_invalid", 0) or 0)
        self._observe_error: Optional[str] = None

    async def decide(self, ctx: Any) -> AgentDecision:
        if self._observe_error is not None:
            error, self._observe_error = self._observe_error, None
            raise DecisionError(f"{self.name}: observe() raised {error}")
        try:
            value = self.inner.decide(ctx)
            if inspect.isawaitable(value):
                value = await value
        except (DecisionError, BackendError):
            raise  # the plug-in's own word: an unusable decision, or its model is unreachable
        except Exception as e:  # noqa: BLE001 — a bug in the plug-in costs the step, not the episode
            raise DecisionError(f"{self.name}: decide() raised {_describe(e)}")
        return as_decision(value, who=self.name)

    def observe(self, skill: str, result: Any, api: Any) -> None:
        hook = getattr(self.inner, "observe", None)
        if hook is None:
            return
        try:
            hook(skill, result, api)
        except Exception as e:  # noqa: BLE001 — reported as the next decision's failure
            self._observe_error = _describe(e)

    async def summarise(self, question: str, passages: str, record: Any = None) -> str:
        hook = getattr(self.inner, "summarise", None)
        if hook is None:
            return ""  # the loop keeps the passages as they are
        try:
            value = hook(question, passages, record)
            return str(await value if inspect.isawaitable(value) else value or "")
        except BackendError:
            raise
        except Exception:  # noqa: BLE001 — a summary is an extra: the passages are shown instead
            return ""

    async def aclose(self) -> None:
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            value = close()
            if inspect.isawaitable(value):
                await value


# ---------------------------------------------------------------- loading
_FILE_MODULES: dict[str, ModuleType] = {}  # resolved path -> module: a file is executed once per process


def _load_file(spec: str, where: str, flag: str) -> ModuleType:
    path = Path(where).expanduser()
    if not path.is_file():
        raise PluginError(f"{flag} {spec}: no file {where} (from {Path.cwd()}); give the path of the .py file "
                          "that defines the strategist, then :ClassName")
    key = str(path.resolve())
    if key in _FILE_MODULES:
        return _FILE_MODULES[key]
    name = "hackwright_plugin_" + re.sub(r"\W", "_", path.stem) + "_" + hashlib.sha1(key.encode()).hexdigest()[:8]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise PluginError(f"{flag} {spec}: {where} cannot be loaded as Python; give a .py file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.append(folder)  # as for a script, the file's own helpers beside it can be imported
    try:
        module_spec.loader.exec_module(module)
    except BaseException as e:  # noqa: BLE001 — SystemExit at import is the plug-in's too
        sys.modules.pop(name, None)
        if isinstance(e, KeyboardInterrupt):
            raise
        raise PluginError(f"{flag} {spec}: loading {where} failed: {_describe(e)}")
    _FILE_MODULES[key] = module
    return module


def _import_module(spec: str, where: str, flag: str) -> ModuleType:
    try:
        return _import(where)
    except ModuleNotFoundError as e:
        if not _is_the_module(e, where):
            raise PluginError(f"{flag} {spec}: importing {where} failed: {_describe(e)}; install what it needs")
        cwd = os.getcwd()
        if cwd in sys.path:
            raise _no_module(spec, where, flag)
        sys.path.append(cwd)  # like `python -m`, a module in the current folder is found
        try:
            return _import(where)
        except ModuleNotFoundError as e2:
            if _is_the_module(e2, where):
                sys.path.remove(cwd)
                raise _no_module(spec, where, flag)
            raise PluginError(f"{flag} {spec}: importing {where} failed: {_describe(e2)}; install what it needs")
    except BaseException as e:  # noqa: BLE001 — SystemExit at import is the plug-in's too
        if isinstance(e, KeyboardInterrupt):
            raise
        raise PluginError(f"{flag} {spec}: importing {where} failed: {_describe(e)}")


def _import(where: str) -> ModuleType:
    importlib.invalidate_caches()  # a file or folder made since the last import is seen
    return importlib.import_module(where)


def _is_the_module(e: ModuleNotFoundError, where: str) -> bool:
    """The module asked for (or a package on its path) is missing, not something it imports."""
    missing = e.name or ""
    return where == missing or where.startswith(missing + ".")


def _no_module(spec: str, where: str, flag: str) -> PluginError:
    return PluginError(f"{flag} {spec}: no module named {where!r} (looked in the installed packages and the "
                       f"current folder {os.getcwd()}); give an importable module, or a file as "
                       "path/to/file.py:ClassName", missing_module=True)


def _attribute(spec: str, module: ModuleType, attr: str, origin: str, flag: str) -> Any:
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise PluginError(f"{flag} {spec}: {origin} has no {attr!r}; it defines {_candidates(module)}")
        obj = getattr(obj, part)
    return obj


def _candidates(module: ModuleType) -> str:
    """The classes a module defines, those with a decide method first."""
    own = [(n, c) for n, c in vars(module).items()
           if inspect.isclass(c) and getattr(c, "__module__", None) == module.__name__]
    with_decide = sorted(n for n, c in own if callable(getattr(c, "decide", None)))
    others = sorted(n for n, c in own if n not in with_decide)
    if with_decide:
        return "these strategists: " + ", ".join(with_decide) + (f" (and {', '.join(others)})" if others else "")
    return ("the classes " + ", ".join(others) + ", none with a decide(ctx) method") if others else "no classes"


def _check_shape(spec: str, obj: Any, attr: str, flag: str) -> None:
    """A class must have ``decide``; a function is checked once it has made the strategist."""
    if inspect.isclass(obj):
        if not callable(getattr(obj, "decide", None)):
            raise PluginError(f"{flag} {spec}: {attr} does not look like a strategist: it has no decide(ctx) "
                              f"method; give it `async def decide(self, ctx)` returning a decision ({DOCS})")
        return
    if callable(getattr(obj, "decide", None)) or inspect.isfunction(obj) or inspect.ismethod(obj):
        return
    raise PluginError(f"{flag} {spec}: {attr} is a {type(obj).__name__}, not a strategist: name a class with an "
                      f"`async def decide(self, ctx)` method ({DOCS})")


def _takes_seed(obj: Any) -> bool:
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params)


def _describe(e: BaseException) -> str:
    """``KeyError: 'x' (mine.py line 12)``: the error and where it was raised, one line."""
    text = f"{type(e).__name__}: {' '.join(str(e).split())}" if str(e) else type(e).__name__
    if isinstance(e, SyntaxError):
        return text  # its message names the file and line already
    frames = traceback.extract_tb(e.__traceback__)
    if frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name} line {last.lineno})"
    return text[:600]


__all__ = ["ENTRY_POINT_GROUP", "PluginError", "PluginStrategist", "PluginTarget", "entry_point_names",
           "entry_points", "make_plugin", "plugin_form", "resolve_plugin"]

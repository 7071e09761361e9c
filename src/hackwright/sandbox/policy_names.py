"""What a skill may name and use, for :mod:`.policy`: the allow-lists and deny-lists of
imports, module members, built-in names, dunder names, special methods and attributes, each
refusal with the reason and what to write instead; and the API surface read from the source
(nh's public async methods, an allowed module's public members)."""

from __future__ import annotations

import ast
import functools
import importlib
import types
from pathlib import Path

# ---------------------------------------------------------------- the allow-lists
ALLOWED_IMPORTS: frozenset[str] = frozenset({
    # the list
    "math", "random", "itertools", "collections", "heapq", "re", "functools", "dataclasses", "enum", "typing",
    # obviously pure additions (string without Formatter, operator without attrgetter/methodcaller)
    "statistics", "string", "operator", "bisect", "copy",
})
ALLOWED_SUBMODULES: frozenset[str] = frozenset({"collections.abc"})

# Members of allowed modules that reach attributes by name, evaluate strings,
# or copy attributes by name: the ways around the attribute rules.
BANNED_MODULE_MEMBERS: dict[str, dict[str, str]] = {
    "string": {"Formatter": "use f-strings or str.format"},
    "operator": {
        "attrgetter": "write `lambda x: x.name` (or `key=lambda m: m.position.x`)",
        "methodcaller": "write `lambda x: x.method(...)`",
    },
    "typing": {
        "get_type_hints": "annotations are for reading only; skills do not evaluate them",
        "ForwardRef": "write the annotation as a string or a name",
    },
    "functools": {
        "update_wrapper": "not needed in skills",
        "wraps": "not needed in skills; write the wrapper out",
    },
    "dataclasses": {"make_dataclass": "define the class with `@dataclass class Name: ...`"},
}

# `from <one of these> import X` of injected names is accepted and ignored.
API_MODULE_ROOTS: tuple[str, ...] = ("hackwright", "nethack_api", "nle_api", "api", "skills", "models")

# What every skill has without importing it (the runner must inject these).
INJECTED_NAMES: tuple[str, ...] = (
    "NetHackAPI", "SkillResult", "Position", "Stats", "Monster", "Item", "Tile", "DungeonLevel",
    "ActionResult", "MonsterInfo", "ItemInfo", "HungerState", "Alignment", "DIRECTIONS", "GameEvent",
    "WalkAroundMemory", "CarefulWalk", "WalkStep", "NEVER_BUMP", "worth_hitting_through", "bolt_endangers",
    "Quiver", "is_safe_food", "eat_fresh_kill", "KillMeal", "LootInView", "take_from_pile", "StairsHold",
)

_PRINT_NOTE = "print() works and goes to the skill's log"
FORBIDDEN_NAMES: dict[str, str] = {
    "eval": "write the code directly; skills cannot run code from strings",
    "exec": "write the code directly; skills cannot run code from strings",
    "compile": "write the code directly (for regular expressions use re.compile)",
    "open": "files are not available to skills; keep state in local variables and return results in SkillResult.data",
    "__import__": "use an import statement for the allowed modules",
    "globals": "refer to your variables by name",
    "locals": "refer to your variables by name",
    "vars": "use the object's attributes by name (or dataclasses.asdict(obj) for a dataclass)",
    "getattr": "write obj.name (e.g. stats.hp); to test for an optional field use hasattr(obj, 'name')",
    "setattr": "assign obj.name = value",
    "delattr": "use `del obj.name` or a dict",
    "type": "use isinstance(x, SomeClass) to test a type; define classes with `class`",
    "breakpoint": f"skills run unattended; {_PRINT_NOTE}",
    "input": f"skills run unattended, there is nobody to answer; pass values as parameters. {_PRINT_NOTE}",
    "help": f"see the API description in your instructions; {_PRINT_NOTE}",
    "memoryview": "use bytes or lists",
    "exit": "return SkillResult(...) to end the skill",
    "quit": "return SkillResult(...) to end the skill",
    "copyright": "not available",
    "credits": "not available",
    "license": "not available",
}

ALLOWED_DUNDER_ATTRIBUTES: frozenset[str] = frozenset({"__init__", "__post_init__", "__name__", "__doc__"})
ALLOWED_DUNDER_NAMES: frozenset[str] = frozenset({"__slots__", "__match_args__"})

# Special methods a skill's class may define (defining is harmless; reaching
# into objects is what the attribute rules stop).
SPECIAL_METHODS: frozenset[str] = frozenset({
    "__init__", "__post_init__", "__repr__", "__str__", "__format__", "__hash__", "__bool__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    "__len__", "__iter__", "__next__", "__reversed__", "__contains__", "__getitem__", "__setitem__",
    "__delitem__", "__missing__", "__call__", "__enter__", "__exit__",
    "__aiter__", "__anext__", "__aenter__", "__aexit__",
    "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__matmul__",
    "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rpow__",
    "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
    "__and__", "__or__", "__xor__", "__rand__", "__ror__", "__rxor__", "__invert__",
    "__lshift__", "__rshift__", "__neg__", "__pos__", "__abs__", "__round__",
    "__int__", "__float__", "__index__", "__divmod__",
})

_INTERNALS = (
    "skills cannot inspect the interpreter (frames, tracebacks, code); "
    "catch errors with `except Exception as e:` and use str(e)"
)
FORBIDDEN_ATTRIBUTES: dict[str, str] = {
    **{a: _INTERNALS for a in (
        "f_back", "f_builtins", "f_code", "f_globals", "f_locals", "f_lasti", "f_lineno", "f_trace",
        "f_trace_lines", "f_trace_opcodes", "f_generator",
        "tb_frame", "tb_next", "tb_lasti", "tb_lineno",
        "gi_frame", "gi_code", "gi_yieldfrom", "gi_running", "gi_suspended",
        "cr_frame", "cr_code", "cr_await", "cr_origin", "cr_running", "cr_suspended",
        "ag_frame", "ag_code", "ag_await", "ag_running", "ag_suspended",
        "func_globals", "func_code", "func_closure", "func_defaults", "func_dict",
        "im_func", "im_self", "im_class", "cell_contents",
    )},
    "mro": "use isinstance() / issubclass()",
    "fget": "read the property itself: obj.name",
    "fset": "assign the property itself: obj.name = value",
    "fdel": "not available",
}
FORBIDDEN_ATTRIBUTE_PREFIXES: tuple[str, ...] = ("co_",)  # code objects

_ALLOWED_LIST = ", ".join(sorted(ALLOWED_IMPORTS))
_IMPORT_REASONS: dict[str, str] = {}
for _m in ("os", "sys", "subprocess", "shutil", "signal", "platform", "posix", "pty", "resource", "sysconfig", "site"):
    _IMPORT_REASONS[_m] = "{m} is not available: skills talk to the game only through nh"
for _m in ("io", "pathlib", "tempfile", "pickle", "shelve", "marshal", "json", "csv", "sqlite3", "glob",
           "fileinput", "zipfile", "tarfile", "gzip", "dbm", "logging"):
    _IMPORT_REASONS[_m] = ("{m} is not available: files are not available to skills; keep state in local "
                           "variables and return results in SkillResult.data")
for _m in ("socket", "ssl", "http", "urllib", "requests", "select", "selectors", "smtplib", "ftplib",
           "xmlrpc", "asyncore", "httpx", "aiohttp"):
    _IMPORT_REASONS[_m] = "{m} is not available: skills have no network; they talk to the game only through nh"
for _m in ("ctypes", "cffi", "importlib", "builtins", "inspect", "gc", "types", "code", "codeop", "ast", "dis",
           "traceback", "weakref", "runpy", "pkgutil", "zipimport", "sandbox", "hackwright_sandbox"):
    _IMPORT_REASONS[_m] = "{m} is not available: skills use plain Python, nh and the allowed modules"
for _m in ("asyncio", "threading", "multiprocessing", "concurrent", "queue", "_thread", "trio", "anyio"):
    _IMPORT_REASONS[_m] = ("{m} is not available: the skill is already async, so await nh's methods directly "
                           "(`await nh.wait()` lets a game turn pass); no threads or event loops")
for _m in ("time", "datetime", "calendar", "sched"):
    _IMPORT_REASONS[_m] = ("{m} is not available: game time is `(await nh.get_stats()).turn`; "
                           "real time is limited by the sandbox")
for _m in ("numpy", "scipy", "pandas", "networkx", "torch", "sklearn"):
    _IMPORT_REASONS[_m] = ("{m} is not available (no third-party packages): use lists, math, statistics, "
                           "collections and heapq; nh.find_path() does path-finding")
for _m in ("nle", "minihack", "gym", "gymnasium", "nethack"):
    _IMPORT_REASONS[_m] = "{m} is not available: the game is reachable only through nh"

MAX_SOURCE_CHARS = 200_000


def _import_instead(root: str) -> str:
    reason = _IMPORT_REASONS.get(root, "{m} is not available to skills").format(m=root)
    return f"{reason}. Import only: {_ALLOWED_LIST}"


# ---------------------------------------------------------------- the API surface
@functools.lru_cache(maxsize=None)
def nh_methods() -> tuple[str, ...]:
    """NetHackAPI's public methods: every ``async def`` of the class or of the
    classes it is built from (its bases, in order) not starting with ``_``.

    Read from the source of ``api/nethack_api.py`` and the modules its bases come
    from (not imported: that pulls in NLE), so the list follows the class.
    """
    path = Path(__file__).resolve().parent.parent / "api" / "nethack_api.py"
    return tuple(dict.fromkeys(_async_methods(path, "NetHackAPI")))


def _async_methods(path: Path, class_name: str) -> list[str]:
    """The public ``async def`` names of ``class_name`` in ``path`` and of its bases
    that are imported relatively (``from .commands.x import Base``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    origin: dict[str, Path] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level and node.module:
            base_dir = path.parent
            for _ in range(node.level - 1):
                base_dir = base_dir.parent
            for alias in node.names:
                origin[alias.asname or alias.name] = base_dir.joinpath(*node.module.split(".")).with_suffix(".py")
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            names = [n.name for n in node.body if isinstance(n, ast.AsyncFunctionDef) and not n.name.startswith("_")]
            local = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
            for base in node.bases:
                if isinstance(base, ast.Name) and (base.id in origin or base.id in local):
                    names += _async_methods(origin.get(base.id, path), base.id)
            return names
    raise RuntimeError(f"class {class_name} not found in {path}")


@functools.lru_cache(maxsize=None)
def module_members(module: str) -> frozenset[str]:
    """What a skill may use of an allowed module: its public names (``__all__``
    when it has one), minus modules it imported and :data:`BANNED_MODULE_MEMBERS`,
    plus its allowed submodules."""
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_")]
    banned = BANNED_MODULE_MEMBERS.get(module, {})
    out = {
        n for n in names
        if not n.startswith("_") and n not in banned and not isinstance(getattr(mod, n, None), types.ModuleType)
    }
    out |= {s.rsplit(".", 1)[1] for s in ALLOWED_SUBMODULES if s.rsplit(".", 1)[0] == module}
    return frozenset(out)

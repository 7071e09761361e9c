"""What a skill's source may contain, checked before it runs.

``validate(source, entry=None)`` parses a skill, checks it against the rules
below and returns its :class:`SkillInfo` (entry point, parameters, docstring),
or raises :class:`SkillSyntaxError` / :class:`SkillValidationError` listing
*every* problem with its line, column and what to write instead.

This is the model's early feedback, not the security boundary (the worker's
OS sandbox is): it rejects the obvious ways out of the API so that a model
learns them before a run, not from a killed process.

The rules
---------
* The source must parse and compile (``SyntaxError`` → ``SkillSyntaxError``).
* Entry point: one top-level ``async def`` whose first parameter is ``nh``; its
  other parameters are the skill's (passed by keyword). Several top-level
  ``async def`` need ``entry=`` to say which. Helper functions (sync or async)
  and classes, ``@dataclass`` included, are fine.
* Top level: only imports, ``def``/``class``, assignments of constants to
  plain names (no calls of the skill's own functions), a docstring, ``pass``,
  ``global`` and ``if TYPE_CHECKING:`` blocks of the same.
* Imports: only :data:`ALLOWED_IMPORTS` (plus ``collections.abc``), and from
  them only their public, non-module members minus
  :data:`BANNED_MODULE_MEMBERS`; a module name is only used as ``mod.member``
  (never stored or passed on). ``from __future__ import …`` is allowed.
* ``from <API module> import <names>`` — API modules are ``hackwright…``,
  ``nethack_api``, ``nle_api``, ``api``, ``skills``, ``models`` and relative
  imports — is accepted and *ignored* when every name is one of
  :data:`INJECTED_NAMES` (or ``*``): skills written from the spec import them,
  and the runner injects them anyway. ``import hackwright…`` is rejected.
* Names never allowed: :data:`FORBIDDEN_NAMES` (``eval``, ``open``,
  ``getattr``, ``type`` …); dunder names (``__import__``, ``__builtins__``,
  ``__name__`` …) except ``__slots__`` / ``__match_args__``. Names with one
  leading underscore (``_``, ``_helper``) are the skill's own and fine.
* Attributes never allowed: any starting with ``_`` (``nh._game``,
  ``x.__class__``, ``self._cache``) except ``__init__``, ``__post_init__``,
  ``__name__``, ``__doc__``; the frame / traceback / generator / coroutine
  internals and ``mro``, ``fget`` … of :data:`FORBIDDEN_ATTRIBUTES`; the same
  rules for ``match`` class patterns and for the fields of a literal
  ``"…".format`` string.
* ``nh``: only its public async methods (:func:`nh_methods`, plus ``run_skill``:
  :data:`SKILL_CALLS`), always awaited, never assigned to; ``NetHackAPI`` only as an annotation. Calls of the skill's
  own top-level ``async def`` helpers must be awaited too.
* Special methods may be *defined* in classes (``__init__``, ``__eq__``,
  ``__lt__`` …, see :data:`SPECIAL_METHODS`), not ``__getattr__``,
  ``__setattr__``, ``__new__``, ``__del__`` and the like.
* Loops are not checked for termination (``while True:`` is fine): the
  sandbox's time limits end them.

Columns are 1-based.
"""

from __future__ import annotations

import ast
import difflib
import functools
import importlib
import string as _string
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional, Union

from .errors import SKILL_FILENAME, SkillSyntaxError, SkillValidationError, Violation
from .surface import SKILL_CALLS

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


# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class Param:
    """A parameter of the skill (after ``nh``): its name, the source text of its
    default (None: required) and of its annotation (None: none)."""

    name: str
    default_repr: Optional[str] = None
    annotation: Optional[str] = None

    @property
    def required(self) -> bool:
        return self.default_repr is None


@dataclass
class SkillInfo:
    """A validated skill: its entry point's name, parameters and docstring, and the source."""

    name: str
    params: list[Param] = field(default_factory=list)
    docstring: Optional[str] = None
    source: str = ""


# ---------------------------------------------------------------- validation
def validate(source: str, entry: Optional[str] = None) -> SkillInfo:
    """Check a skill's source; return its SkillInfo or raise SkillSyntaxError /
    SkillValidationError (with every violation, sorted by position)."""
    if not isinstance(source, str):
        raise TypeError(f"source must be str, not {type(source).__name__}")
    if len(source) > MAX_SOURCE_CHARS:
        raise SkillValidationError(violations=[Violation(
            1, 1, f"the skill is {len(source)} characters long (at most {MAX_SOURCE_CHARS})",
            "keep skills short: one behaviour per skill",
        )])
    tree = _parse(source)
    checker = _Checker(source, tree, entry)
    try:
        info = checker.run()
    except RecursionError:
        raise SkillValidationError(violations=[Violation(
            1, 1, "the code is nested too deeply to check", "flatten deeply nested expressions")]) from None
    if checker.violations:
        seen: set[tuple[int, int, str]] = set()
        unique = []
        for v in sorted(checker.violations, key=lambda v: (v.line, v.column)):
            if (v.line, v.column, v.what) not in seen:
                seen.add((v.line, v.column, v.what))
                unique.append(v)
        raise SkillValidationError(violations=unique)
    assert info is not None
    return info


def _parse(source: str) -> ast.Module:
    try:
        tree = ast.parse(source, filename=SKILL_FILENAME)
        # The compiler finds what the parser lets through ('await' outside
        # async def, 'return' outside a function, bad nonlocal …).
        compile(tree, SKILL_FILENAME, "exec", dont_inherit=True)
        return tree
    except SyntaxError as e:
        raise SkillSyntaxError.from_syntax_error(e, source) from None
    except ValueError as e:  # e.g. null bytes
        raise SkillSyntaxError(str(e), line=1, column=1, hint="send plain Python source text") from None
    except (RecursionError, MemoryError):
        raise SkillSyntaxError("the code is nested too deeply to parse", line=1, column=1,
                               hint="flatten deeply nested expressions") from None


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _short(node: ast.AST, limit: int = 60) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every parsed node
        return type(node).__name__
    text = text.splitlines()[0] if text else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


_Pos = Union[ast.AST, tuple[int, int]]


class _Checker(ast.NodeVisitor):
    def __init__(self, source: str, tree: ast.Module, entry: Optional[str]):
        self.source = source
        self.tree = tree
        self.entry = entry
        self.violations: list[Violation] = []
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        self.top_funcs = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)}
        self.top_async = {s.name for s in tree.body if isinstance(s, ast.AsyncFunctionDef)}
        self.modules: dict[str, str] = {}  # local name -> allowed module it is bound to
        self.reported: set[int] = set()
        self.methods = nh_methods() + SKILL_CALLS  # run_skill: skills calling skills
        self._collect_module_aliases()

    # ------------------------------------------------------------ helpers
    def add(self, where: _Pos, what: str, instead: str) -> None:
        if isinstance(where, tuple):
            line, col = where
        else:
            line, col = getattr(where, "lineno", 1), getattr(where, "col_offset", 0) + 1
        self.violations.append(Violation(line, col, what, instead))

    def _collect_module_aliases(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    root = a.name.split(".")[0]
                    if root not in ALLOWED_IMPORTS or (a.name != root and a.name not in ALLOWED_SUBMODULES):
                        continue
                    if a.asname:
                        self.modules[a.asname] = a.name
                    else:
                        self.modules[root] = root
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in ALLOWED_IMPORTS:
                for a in node.names:
                    if f"{node.module}.{a.name}" in ALLOWED_SUBMODULES:
                        self.modules[a.asname or a.name] = f"{node.module}.{a.name}"

    def _module_of(self, expr: ast.AST) -> Optional[str]:
        if isinstance(expr, ast.Name):
            return self.modules.get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self._module_of(expr.value)
            if base and f"{base}.{expr.attr}" in ALLOWED_SUBMODULES:
                return f"{base}.{expr.attr}"
        return None

    def _inside_async_function(self, node: ast.AST) -> bool:
        """True if the nearest function around ``node`` is an ``async def`` (a
        plain def or lambda may hand the coroutine on deliberately)."""
        parent = self.parents.get(id(node))
        while parent is not None:
            if isinstance(parent, (ast.FunctionDef, ast.Lambda)):
                return False
            if isinstance(parent, ast.AsyncFunctionDef):
                return True
            parent = self.parents.get(id(parent))
        return False  # top level: reported as a statement

    def _used_as_attribute_base(self, node: ast.AST) -> bool:
        parent = self.parents.get(id(node))
        return isinstance(parent, ast.Attribute) and parent.value is node

    # ------------------------------------------------------------ driver
    def run(self) -> Optional[SkillInfo]:
        self._check_top_level(self.tree.body)
        fn = self._find_entry()
        self.visit(self.tree)
        if fn is None:
            return None
        return SkillInfo(
            name=fn.name, params=self._params(fn), docstring=ast.get_docstring(fn), source=self.source
        )

    # ------------------------------------------------------------ top level
    def _check_top_level(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Pass, ast.Global)):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                continue
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                self._check_constant(stmt)
                continue
            if isinstance(stmt, ast.If) and self._is_type_checking(stmt.test):
                self._check_top_level(stmt.body)
                self._check_top_level(stmt.orelse)
                continue
            if isinstance(stmt, ast.If) and any(isinstance(n, ast.Name) and n.id == "__name__" for n in ast.walk(stmt.test)):
                for n in ast.walk(stmt.test):
                    if isinstance(n, ast.Name) and n.id == "__name__":
                        self.reported.add(id(n))
                self.add(stmt, 'an `if __name__ == "__main__":` block',
                         "remove it: the harness calls the skill itself, with nh and the parameters")
                continue
            instead = ("put this code inside the skill function; the top level may hold only imports, "
                       "def/class, constants (NAME = value) and a docstring")
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                text = _short(stmt.value)
                if text.startswith("asyncio.") or any(text.startswith(f"{n}(") for n in self.top_async):
                    instead = "remove it: the harness calls the skill itself, with nh and the parameters"
            self.add(stmt, f"top-level statement `{_short(stmt)}`", instead)

    def _is_type_checking(self, test: ast.expr) -> bool:
        if isinstance(test, ast.Name):
            return test.id == "TYPE_CHECKING"
        return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING" and self._module_of(test.value) == "typing"

    def _check_constant(self, stmt: Union[ast.Assign, ast.AnnAssign]) -> None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for t in targets:
            for bad in self._non_name_targets(t):
                self.add(bad, f"top-level assignment to `{_short(bad)}`",
                         "at the top level assign only plain names (CONSTANT = value); change objects inside the skill")
        if stmt.value is None:
            return
        for node in self._walk_outside_lambdas(stmt.value):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in self.top_funcs or node.func.id in self.top_async
            ):
                self.add(node, f"`{_short(node)}` at the top level: top-level values must be constants",
                         "call your own functions inside the skill function (or write the value out)")
            elif isinstance(node, ast.Name) and node.id == "nh":
                self.add(node, "`nh` at the top level", "nh exists only inside the skill function (its first parameter)")

    def _non_name_targets(self, t: ast.expr) -> Iterator[ast.expr]:
        if isinstance(t, ast.Name):
            return
        if isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                yield from self._non_name_targets(e)
        elif isinstance(t, ast.Starred):
            yield from self._non_name_targets(t.value)
        else:
            yield t

    @staticmethod
    def _walk_outside_lambdas(node: ast.AST) -> Iterator[ast.AST]:
        todo = [node]
        while todo:
            n = todo.pop()
            yield n
            if isinstance(n, ast.Lambda):
                todo.extend(n.args.defaults)
                todo.extend(d for d in n.args.kw_defaults if d is not None)
                continue
            todo.extend(ast.iter_child_nodes(n))

    # ------------------------------------------------------------ entry point
    def _find_entry(self) -> Optional[ast.AsyncFunctionDef]:
        body = self.tree.body
        asyncs = [s for s in body if isinstance(s, ast.AsyncFunctionDef)]
        syncs = [s for s in body if isinstance(s, ast.FunctionDef)]
        example = "async def my_skill(nh, max_steps: int = 200) -> SkillResult:"
        if self.entry is not None:
            hits = [s for s in asyncs if s.name == self.entry]
            if not hits:
                sync_hits = [s for s in syncs if s.name == self.entry]
                if sync_hits:
                    self.add(sync_hits[-1], f"`def {self.entry}` is not async",
                             f"declare it `async def {self.entry}(nh, ...)` and `await` nh's methods")
                else:
                    found = f" (it defines: {', '.join(sorted({s.name for s in asyncs}))})" if asyncs else ""
                    self.add((1, 1), f"no top-level `async def {self.entry}` in the skill{found}",
                             f"define the skill as `async def {self.entry}(nh, ...) -> SkillResult:`")
                return None
            fn = hits[-1]
        else:
            names = sorted({s.name for s in asyncs})
            if not asyncs:
                with_nh = [s for s in syncs if (s.args.posonlyargs + s.args.args)[:1]
                           and (s.args.posonlyargs + s.args.args)[0].arg == "nh"]
                if with_nh:
                    s = with_nh[0]
                    self.add(s, f"`def {s.name}` is not async: the skill must be an `async def`",
                             f"declare it `async def {s.name}(nh, ...)` and `await` nh's methods")
                else:
                    self.add((1, 1), "no skill found: the code defines no top-level `async def` function",
                             f"define the skill as `{example}` and end it with `return SkillResult(...)`")
                return None
            if len(names) > 1:
                second = next(s for s in asyncs if s.name != asyncs[0].name)
                self.add(second, f"{len(names)} top-level async functions ({', '.join(names)}): "
                                 "which one is the skill is not clear",
                         "name the entry point (entry=…, the skill's name); helpers that do not call nh can be plain `def`")
                return None
            fn = asyncs[-1]
        pos = fn.args.posonlyargs + fn.args.args
        if not pos:
            self.add(fn, f"`async def {fn.name}` has no nh parameter",
                     f"make nh its first parameter: `async def {fn.name}(nh, ...)`; the harness passes the game API there")
        elif pos[0].arg != "nh":
            self.add(pos[0], f"the first parameter of `{fn.name}` is `{pos[0].arg}`, not `nh`",
                     f"name it nh: `async def {fn.name}(nh, ...)`; the harness passes the game API there")
        if len(fn.args.posonlyargs) > 1:
            self.add(fn.args.posonlyargs[1], f"positional-only parameters in `{fn.name}`",
                     "remove the `/`: the skill's parameters are passed by name")
        return fn

    @staticmethod
    def _params(fn: ast.AsyncFunctionDef) -> list[Param]:
        a = fn.args
        pos = a.posonlyargs + a.args
        out: list[Param] = []
        first_default = len(pos) - len(a.defaults)
        for i, arg in enumerate(pos):
            if i == 0:
                continue  # nh
            default = a.defaults[i - first_default] if i >= first_default else None
            out.append(_param(arg, default))
        for arg, default in zip(a.kwonlyargs, a.kw_defaults):
            out.append(_param(arg, default))
        return out

    # ------------------------------------------------------------ imports
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self._binding(a.asname, node)
            root = a.name.split(".")[0]
            if root in ALLOWED_IMPORTS and (a.name == root or a.name in ALLOWED_SUBMODULES):
                continue
            if root in API_MODULE_ROOTS:
                self.add(node, f"`import {a.name}`",
                         "the API names are already defined in every skill (" + ", ".join(INJECTED_NAMES[:4])
                         + ", …): use them directly, or write `from hackwright.api import Position`")
            elif root in ALLOWED_IMPORTS:
                self.add(node, f"`import {a.name}`", f"import the module itself: `import {root}`")
            else:
                self.add(node, f"`import {a.name}` is not allowed", _import_instead(root))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        root = mod.split(".")[0]
        shown = "." * node.level + mod
        for a in node.names:
            self._binding(a.asname, node)
        if node.level == 0 and mod == "__future__":
            return
        if node.level > 0 or root in API_MODULE_ROOTS:
            for a in node.names:
                if a.name != "*" and a.name not in INJECTED_NAMES:
                    self.add(node, f"`{a.name}` (from {shown}) is not available to skills",
                             "skills get these names without importing: " + ", ".join(INJECTED_NAMES)
                             + "; the game is reached only through nh")
            return  # accepted and ignored: the names are injected
        if root in ALLOWED_IMPORTS and (mod == root or mod in ALLOWED_SUBMODULES):
            members = module_members(mod)
            for a in node.names:
                if a.name == "*":
                    self.add(node, f"`from {mod} import *`",
                             f"import the names you use (`from {mod} import a, b`) or `import {mod}`")
                elif a.name not in members:
                    self.add(node, f"`{a.name}` from {mod} is not available to skills",
                             self._member_instead(mod, a.name, members))
            return
        self.add(node, f"`from {shown} import …` is not allowed", _import_instead(root))

    def _member_instead(self, mod: str, name: str, members: frozenset[str]) -> str:
        banned = BANNED_MODULE_MEMBERS.get(mod, {})
        if name in banned:
            return banned[name]
        close = difflib.get_close_matches(name, sorted(members), 3)
        if close:
            return f"did you mean {', '.join(f'{mod}.{c}' for c in close)}?"
        return f"use {mod}'s public functions and classes only"

    def _binding(self, name: Optional[str], node: ast.AST) -> None:
        if name and _is_dunder(name) and name not in ALLOWED_DUNDER_NAMES:
            self.add(node, f"the name `{name}`", "choose a name that does not start and end with '__'")
        elif name in FORBIDDEN_NAMES:
            self.add(node, f"the name `{name}` (a built-in skills may not use)",
                     "name it differently (e.g. `kind` instead of `type`)")

    # ------------------------------------------------------------ names
    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        if id(node) in self.reported:
            return
        if name in FORBIDDEN_NAMES:
            if isinstance(node.ctx, ast.Load):
                self.add(node, f"`{name}` is not available to skills", FORBIDDEN_NAMES[name])
            else:
                self.add(node, f"the name `{name}` (a built-in skills may not use)",
                         "name your variable differently (e.g. `kind` instead of `type`)")
        elif _is_dunder(name) and name not in ALLOWED_DUNDER_NAMES:
            if name == "__name__":
                instead = 'remove the `if __name__ == "__main__":` block: the harness calls the skill itself'
            else:
                instead = "skills cannot reach Python internals; use your own names, the API names and the allowed modules"
            self.add(node, f"`{name}`: names starting and ending with '__' are not available to skills", instead)
        elif name in self.modules and isinstance(node.ctx, ast.Load) and not self._used_as_attribute_base(node):
            self.add(node, f"module `{name}` used as a value",
                     f"use its members directly (`{name}.something`); modules cannot be stored or passed around")
        elif name == "NetHackAPI" and self._used_as_attribute_base(node):
            parent = self.parents[id(node)]
            self.add(parent, f"`{_short(parent)}`: NetHackAPI is only for annotations (nh: NetHackAPI)",
                     "call the methods on nh: `await nh.get_stats()`")

    # ------------------------------------------------------------ attributes
    def _attr_problem(self, owner: str, attr: str) -> Optional[tuple[str, str]]:
        """(what, instead) if ``attr`` may not be used on anything; ``owner`` is
        how the place is shown (already quoted)."""
        if attr.startswith("_") and attr not in ALLOWED_DUNDER_ATTRIBUTES:
            if _is_dunder(attr) or attr.startswith("__"):
                return (f"{owner}: attributes starting with '__' are not available to skills",
                        "skills cannot reach Python internals (classes, globals, frames); "
                        "use isinstance() and the objects' public fields")
            return (f"{owner}: attributes starting with '_' are not available to skills",
                    "use public attributes only; name your own attributes without a leading underscore")
        if attr in FORBIDDEN_ATTRIBUTES:
            return (f"{owner}: `{attr}` is not available to skills", FORBIDDEN_ATTRIBUTES[attr])
        if attr.startswith(FORBIDDEN_ATTRIBUTE_PREFIXES):
            return (f"{owner}: code-object attributes are not available to skills", _INTERNALS)
        return None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        end_line = getattr(node, "end_lineno", None) or node.lineno
        end_col = getattr(node, "end_col_offset", None)
        where: _Pos = (end_line, end_col - len(attr) + 1) if end_col is not None else node
        text = _short(node)
        base = node.value
        if isinstance(base, ast.Name) and base.id == "nh":
            methods = self.methods
            if attr.startswith("_"):
                self.add(where, f"`{text}`: nh's internals are not available to skills",
                         "use nh's public methods, e.g. await nh.get_stats(), await nh.move('n'), "
                         "await nh.get_current_level()")
            elif not isinstance(node.ctx, ast.Load):
                self.add(where, f"`{text}` cannot be changed", "nh is the game's API: call its methods, do not assign to them")
            elif attr not in methods:
                close = difflib.get_close_matches(attr, methods, 1)
                self.add(where, f"nh has no method `{attr}`",
                         (f"did you mean nh.{close[0]}? " if close else "") + "nh's methods: " + ", ".join(methods))
            self.generic_visit(node)
            return
        problem = self._attr_problem(f"`{text}`", attr)
        if problem:
            self.add(where, *problem)
        else:
            mod = self._module_of(base)
            if mod is not None:
                if f"{mod}.{attr}" in ALLOWED_SUBMODULES:
                    if not self._used_as_attribute_base(node):
                        self.add(where, f"module `{text}` used as a value",
                                 f"use its members directly (`{text}.something`)")
                else:
                    members = module_members(mod)
                    if attr not in members:
                        self.add(where, f"`{mod}.{attr}` is not available to skills",
                                 self._member_instead(mod, attr, members))
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for attr in node.kwd_attrs:
            problem = self._attr_problem(f"`case {_short(node.cls)}({attr}=…)`", attr)
            if problem:
                self.add(node, *problem)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        self._binding(node.name, node)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        self._binding(node.name, node)
        self.generic_visit(node)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        self._binding(node.rest, node)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._binding(node.name, node)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        for n in node.names:
            self._binding(n, node)

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    # ------------------------------------------------------------ calls
    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if (isinstance(f, ast.Attribute) and f.attr in ("format", "format_map") and isinstance(f.value, ast.Constant)
                and isinstance(f.value.value, str)):
            self._check_format_string(f.value.value, node)
        awaited = isinstance(self.parents.get(id(node)), ast.Await)
        if not awaited and self._inside_async_function(node):
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "nh" \
                    and f.attr in self.methods:
                self.add(node, f"`{_short(node)}` is not awaited",
                         f"nh's methods are async: write `await {_short(node)}`")
            elif isinstance(f, ast.Name) and f.id in self.top_async:
                self.add(node, f"`{_short(node)}` is not awaited",
                         f"{f.id} is an async function: write `await {_short(node)}`")
        self.generic_visit(node)

    def _check_format_string(self, fmt: str, node: ast.AST) -> None:
        try:
            parsed = list(_string.Formatter().parse(fmt))
        except ValueError:
            return
        for _literal, field_name, spec, _conv in parsed:
            for part in _format_attributes(field_name or ""):
                problem = self._attr_problem(f"`{{{field_name}}}` in a format string", part)
                if problem:
                    self.add(node, *problem)
            if spec and "{" in spec:
                self._check_format_string(spec, node)

    # ------------------------------------------------------------ definitions
    def _check_def(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        in_class = isinstance(self.parents.get(id(node)), ast.ClassDef)
        if node.name.startswith("__"):
            if not (in_class and node.name in SPECIAL_METHODS):
                where = "in a class" if in_class else "outside a class"
                self.add(node, f"`def {node.name}` {where}",
                         "special methods that change attribute access, creation or deletion are not available; "
                         "ordinary ones (__init__, __eq__, __lt__, __repr__ …) may be defined in classes"
                         if in_class else "give the function a name that does not start with '__'")
        a = node.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            self._binding(arg.arg, arg)
        self.generic_visit(node)

    visit_FunctionDef = _check_def  # type: ignore[assignment]
    visit_AsyncFunctionDef = _check_def  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        a = node.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            self._binding(arg.arg, arg)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if node.name.startswith("__"):
            self.add(node, f"`class {node.name}`", "give the class a name that does not start with '__'")
        self.generic_visit(node)


def _param(arg: ast.arg, default: Optional[ast.expr]) -> Param:
    return Param(
        name=arg.arg,
        default_repr=ast.unparse(default) if default is not None else None,
        annotation=ast.unparse(arg.annotation) if arg.annotation is not None else None,
    )


def _format_attributes(field_name: str) -> list[str]:
    """The attribute names a str.format field reads: '0.a.b[1].c' -> ['a', 'b', 'c']."""
    out = []
    i = 0
    while i < len(field_name):
        ch = field_name[i]
        if ch == ".":
            j = i + 1
            while j < len(field_name) and field_name[j] not in ".[":
                j += 1
            out.append(field_name[i + 1:j])
            i = j
        elif ch == "[":
            j = field_name.find("]", i)
            i = len(field_name) if j < 0 else j + 1
        else:
            i += 1
    return out


# ---------------------------------------------------------------- for the prompt
def describe_policy() -> str:
    """The rules, short, for the model's prompt."""
    return "\n".join([
        "How to write a skill:",
        "- One top-level `async def my_skill(nh, param: int = 3) -> SkillResult:` whose first parameter is nh; "
        "its other parameters are passed by name. Await every nh method: `stats = await nh.get_stats()`. "
        "End with `return SkillResult(stopped_reason=..., data={...}, actions_taken=..., turns_elapsed=..., success=...)`.",
        "- Already defined, no import needed: " + ", ".join(INJECTED_NAMES)
        + " (`from hackwright.api import ...` of these is accepted and ignored).",
        "- You may import only: " + _ALLOWED_LIST + ". No os, sys, files, network, threads, asyncio or time.",
        "- Helper functions, classes and @dataclass are fine; the top level may hold only imports, def/class, "
        "constants and a docstring.",
        "- Not available: " + ", ".join(n for n in FORBIDDEN_NAMES if n not in ("copyright", "credits", "license"))
        + " (use isinstance() instead of type(), obj.name instead of getattr); names and attributes starting "
        "with '_' (nh._game, x.__class__; your own attributes too), and frame/traceback/generator internals.",
        "- Build on the library: `result = await nh.run_skill(\"go_to\", x=10, y=5)` runs another skill by name "
        "and returns its SkillResult; its actions count against your skill's limits.",
        "- print() goes to the skill's log. Time, game actions, API calls, memory and output are limited "
        "while the skill runs; give loops an end.",
    ])

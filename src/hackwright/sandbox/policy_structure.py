"""The shape of a skill, for :mod:`.policy`: what validation returns (:class:`SkillInfo`,
:class:`Param`), and the checks of the top level (only imports, definitions, constants and a
docstring) and of the entry point (one ``async def`` whose first parameter is ``nh``), on
which :mod:`.policy_checker`'s visitor builds."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Iterator, Optional, Union

from .errors import Violation
from .policy_names import ALLOWED_IMPORTS, ALLOWED_SUBMODULES, nh_methods
from .surface import SKILL_CALLS

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


class _ShapeChecks(ast.NodeVisitor):
    """The checker's state and helpers, and the checks of the top level and the entry point;
    :class:`.policy_checker._Checker` adds the rules for every node."""

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


def _param(arg: ast.arg, default: Optional[ast.expr]) -> Param:
    return Param(
        name=arg.arg,
        default_repr=ast.unparse(default) if default is not None else None,
        annotation=ast.unparse(arg.annotation) if arg.annotation is not None else None,
    )

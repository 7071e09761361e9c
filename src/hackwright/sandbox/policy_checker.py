"""The rules for every node of a skill, for :mod:`.policy`: imports, names, attributes
(``nh``'s included), calls that must be awaited, ``str.format`` fields, and definitions; each
broken rule is a :class:`Violation` with its line, column and what to write instead."""

from __future__ import annotations

import ast
import difflib
import string as _string
from typing import Optional, Union

from .policy_names import (
    ALLOWED_DUNDER_ATTRIBUTES,
    ALLOWED_DUNDER_NAMES,
    ALLOWED_IMPORTS,
    ALLOWED_SUBMODULES,
    API_MODULE_ROOTS,
    BANNED_MODULE_MEMBERS,
    FORBIDDEN_ATTRIBUTE_PREFIXES,
    FORBIDDEN_ATTRIBUTES,
    FORBIDDEN_NAMES,
    INJECTED_NAMES,
    SPECIAL_METHODS,
    _import_instead,
    _INTERNALS,
    module_members,
)
from .policy_structure import SkillInfo, _is_dunder, _Pos, _ShapeChecks, _short


class _Checker(_ShapeChecks):
    """Every rule: :meth:`run` checks the whole skill, leaves what breaks a rule in
    ``violations`` and returns the SkillInfo (None without a usable entry point)."""

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

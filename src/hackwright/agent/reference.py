"""The API reference of the strategist's static prompt, generated from the code.

A model knows the API only from this text, so it is read from the classes
themselves and cannot drift from them:

* every method a skill may call on ``nh`` (``sandbox.policy.nh_methods()`` and
  ``surface.SKILL_CALLS``) with its signature and its whole docstring;
* every type a skill handles (the dataclasses and enums the sandbox carries,
  ``sandbox.protocol``, and the names injected into a skill, ``sandbox.worker``)
  with each field's type and the comment written beside it in the source, and
  each public property and method with its docstring;
* the conventions a skill needs (coordinates, directions, ``is_walkable``,
  ``SkillResult``, triggers), built from the code's own constants;
* one complete example skill, which ``tests/agent/test_reference.py`` runs from
  the prompt text in the sandbox.

A field without a comment or a member without a docstring is rendered without a
description, and that test fails: document it where it is defined.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Optional

# Types in the order a reader meets them; any other type a skill can receive is
# appended after these, so a new one is never left out.
TYPE_ORDER = ("Position", "Stats", "HungerState", "Alignment", "Monster", "Item", "Tile", "DungeonLevel",
              "ActionResult", "ContainerResult", "EnhanceResult", "LookResult", "HereLook", "Missiles", "Hero", "DungeonOverview", "OverviewLevel",
              "Kill", "ShopExit", "FightOdds", "HiddenFeature", "GameEvent", "MonsterInfo", "ItemInfo", "SkillResult")

EXAMPLE_NAME = "explore_carefully"
EXAMPLE_SKILL = '''\
async def explore_carefully(nh, hp_threshold: float = 0.5, monster_radius: int = 5,
                            max_steps: int = 200) -> SkillResult:
    """Walk to the nearest unexplored frontier, one step at a time, until something needs
    a decision: a hostile monster within monster_radius steps, HP below hp_threshold of
    max, hunger at Hungry or worse, down stairs newly seen, or nothing left to explore."""
    start = await nh.get_stats()
    stairs_known = (await nh.get_current_level()).stairs_down is not None
    actions = 0
    blocked = 0

    def done(reason: str, success: bool, stats: Stats, **data) -> SkillResult:
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=stats.turn - start.turn, success=success)

    stats = start
    while actions < max_steps:
        stats = await nh.get_stats()
        if stats.hp < stats.max_hp * hp_threshold:
            return done("low_hp", False, stats, hp=stats.hp, max_hp=stats.max_hp)
        if stats.hunger.severity >= HungerState.HUNGRY.severity:
            return done("hungry", False, stats, hunger=stats.hunger.value)
        hero = stats.position
        for m in await nh.get_visible_monsters():  # nearest first, pets included
            if not (m.is_tame or m.is_peaceful) and hero.steps_to(m.position) <= monster_radius:
                return done("monster", False, stats, monster=m.name, at=m.position,
                            direction=hero.direction_to(m.position), steps=hero.steps_to(m.position))
        level = await nh.get_current_level()
        if level.stairs_down is not None and not stairs_known:
            return done("found_stairs", True, stats, stairs_down=level.stairs_down)
        target = await nh.find_unexplored()
        if target is None:
            return done("fully_explored", True, stats, explored=level.explored_percentage)
        step = await nh.move_to(target)  # one step; opens a closed door that is in the way
        actions += 1
        if step.success:
            blocked = 0
            continue
        blocked += 1
        if blocked >= 3:
            return done("blocked", False, stats, target=target, error=step.error)
        await nh.search(3)  # let a monster in the way move on; a hidden door may show
        actions += 1
    return done("action_limit", False, stats, steps=actions)
'''


@dataclass(frozen=True)
class MethodDoc:
    """One method a skill calls on ``nh``."""

    name: str
    signature: str  # "(target: Position, *, avoid: Any = ()) -> ActionResult"
    doc: str  # the whole docstring, dedented
    kind: str  # "query" (no game time), "action" (one game action) or "skill call"


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    description: str  # the field's comment in the source ("" when it has none)


@dataclass(frozen=True)
class MemberDoc:
    """A public property or method of a type."""

    name: str
    signature: str  # " -> bool" for a property, "(other: Position) -> int" for a method
    doc: str  # its docstring as one line
    is_property: bool


@dataclass(frozen=True)
class TypeDoc:
    name: str
    doc: str
    base: Optional[str]  # the dataclass whose fields come first (ContainerResult: ActionResult)
    fields: tuple[FieldDoc, ...]  # its own fields, in constructor order
    members: tuple[MemberDoc, ...]
    values: tuple[tuple[str, Any], ...] = ()  # an enum's (NAME, value) pairs


# ------------------------------------------------------------------ reading the code
class _Raw(str):
    """An annotation string shown as written (inspect would quote it), forward
    references unquoted: ``list['Position']`` reads ``list[Position]``."""

    def __repr__(self) -> str:
        return str(self).replace("'", "").replace('"', "")


def signature(fn: Callable) -> str:
    """``fn``'s signature without ``self``, annotations unquoted."""
    sig = inspect.signature(fn)
    params = [p for i, p in enumerate(sig.parameters.values()) if not (i == 0 and p.name in ("self", "cls"))]
    params = [p.replace(annotation=_Raw(p.annotation)) if isinstance(p.annotation, str) else p for p in params]
    ret = sig.return_annotation
    ret = _Raw(ret) if isinstance(ret, str) else ret
    return str(sig.replace(parameters=params, return_annotation=ret))


def _one_line(doc: Optional[str]) -> str:
    return " ".join((doc or "").split())


def field_comments(cls: type) -> dict[str, str]:
    """Each annotated field of ``cls``'s own body -> the comment beside it (or the
    comment lines right above it, section markers such as ``# --- …`` aside)."""
    try:
        src = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    comments: dict[int, tuple[int, str]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = (tok.start[1], tok.string.lstrip("#").strip())
    lines = src.splitlines()
    node = ast.parse(src).body[0]
    out: dict[str, str] = {}
    if not isinstance(node, ast.ClassDef):
        return out
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        end = stmt.end_lineno or stmt.lineno
        trailing = comments.get(end)
        if trailing is not None and lines[end - 1][:trailing[0]].strip():
            out[stmt.target.id] = trailing[1]
            continue
        above, n = [], stmt.lineno - 1
        while n >= 1 and lines[n - 1].strip().startswith("#"):
            above.insert(0, comments.get(n, (0, ""))[1])
            n -= 1
        above = [a for a in above if a and not a.startswith("---")]
        if above:
            out[stmt.target.id] = " ".join(above)
    return out


def _members(cls: type) -> tuple[MemberDoc, ...]:
    out = []
    for name, obj in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(obj, property) and obj.fget is not None:
            ret = inspect.signature(obj.fget).return_annotation
            sig = "" if ret is inspect.Signature.empty else f" -> {_Raw(ret)!r}"
            out.append(MemberDoc(name, sig, _one_line(obj.fget.__doc__), True))
        elif inspect.isfunction(obj):  # classmethods and staticmethods build values for the harness
            out.append(MemberDoc(name, signature(obj), _one_line(obj.__doc__), False))
    return tuple(out)


def describe_type(cls: type) -> TypeDoc:
    """The TypeDoc of a dataclass or an enum."""
    doc = inspect.cleandoc(cls.__doc__ or "")
    if dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}("):
        doc = ""  # the dataclass decorator's generated signature says nothing
    if isinstance(cls, type) and issubclass(cls, Enum):
        if doc.startswith("An enumeration"):
            doc = ""
        return TypeDoc(cls.__name__, doc, None, (), _members(cls), tuple((m.name, m.value) for m in cls))
    base = next((b for b in cls.__mro__[1:] if dataclasses.is_dataclass(b)), None)
    inherited = {f.name for f in dataclasses.fields(base)} if base else set()
    comments = field_comments(cls)
    fields = []
    for f in dataclasses.fields(cls):
        if f.name in inherited:
            continue
        text = comments.get(f.name, "")
        if not text and (f"``{f.name}``" in doc or re.search(rf"^\s*{re.escape(f.name)}:", doc, re.M)):
            text = "(described above)"
        fields.append(FieldDoc(f.name, f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type)),
                               text))
    return TypeDoc(cls.__name__, doc, base.__name__ if base else None, tuple(fields), _members(cls))


def skill_type_classes() -> list[type]:
    """Every dataclass and enum a skill can receive or build: those the sandbox's wire
    carries and those injected into a skill's namespace."""
    from ..sandbox import protocol, worker

    found: dict[str, type] = {**protocol._DATACLASSES, **protocol._ENUMS}
    for name, value in worker.injected_names().items():
        if isinstance(value, type) and (dataclasses.is_dataclass(value) or issubclass(value, Enum)):
            found.setdefault(name, value)
    return [found[n] for n in TYPE_ORDER if n in found] + [v for n, v in found.items() if n not in TYPE_ORDER]


def skill_types() -> list[TypeDoc]:
    return [describe_type(cls) for cls in skill_type_classes()]


def skill_methods() -> list[MethodDoc]:
    """Every method a skill may call on ``nh``, in the class's order."""
    from ..api.nethack_api import NetHackAPI
    from ..sandbox import surface
    from ..sandbox.policy import nh_methods

    out = []
    for name in nh_methods():
        fn = getattr(NetHackAPI, name)
        kind = "action" if name in surface.ACTIONS else "query"
        out.append(MethodDoc(name, signature(fn), inspect.getdoc(fn) or "", kind))
    calls = getattr(surface, "SKILL_CALLS", ())
    if calls:
        from ..sandbox.composition import SkillCaller

        for name in calls:
            fn = getattr(SkillCaller, name)
            out.append(MethodDoc(name, signature(fn), inspect.getdoc(fn) or "", "skill call"))
    return out


# ------------------------------------------------------------------ rendering
def conventions() -> str:
    from ..api.models import DIRECTION_ALIASES, DIRECTIONS, MAP_COLS, MAP_ROWS, VERTICAL_DIRECTIONS
    from ..skills.triggers import EVENT_KINDS

    return "\n".join([
        "THE NETHACK API: `nh` in a skill (this reference is generated from its code). Conventions:",
        "- Bad arguments do not raise: an action returns ActionResult(success=False, error=...) naming what "
        "would be valid, and nothing reaches the game (an ActionResult is falsy when it failed).",
        f"- The map is {MAP_COLS} columns by {MAP_ROWS} rows. Position(x, y): x is the column 0..{MAP_COLS - 1} "
        f"(west to east), y the row 0..{MAP_ROWS - 1} (north to south: 'n' is y - 1). Grids are indexed row "
        "first: level.tiles[y][x], or level.tile_at(pos). Positions are hashable and unpack: `x, y = pos`.",
        f"- Directions: {' '.join(DIRECTIONS)} (also {', '.join(list(DIRECTION_ALIASES)[:2])}, south-west …); "
        f"DIRECTIONS lists the eight. Some actions also take {', '.join(VERTICAL_DIRECTIONS)} (their "
        "docstrings say so). pos.offset('ne') is the next square that way; a.direction_to(b) the first step "
        "from a toward b; a.steps_to(b) the moves between them on open floor (a diagonal step counts 1).",
        "- Tile.is_walkable: a plain move can enter the square: floor, corridor, an open door, a doorway (no "
        "door or a broken one), stairs, ladders, altar, fountain, throne, sink, grave, ice, a lowered "
        "drawbridge, a square with items or a statue, and a square with a known trap (check has_trap and "
        "trap_type). Not walkable: a closed door (feature 'closed door': open_door() it, or let move_to open "
        "it on the way), a boulder (moving into it pushes it), walls, rock, water, lava, iron bars, trees, and "
        "squares never seen (is_explored False). A monster does not change the tile it stands on.",
        "- Doors: no diagonal step into or out of a door square (find_path and move_to never plan one, "
        "doorways included).",
        "- get_current_level() is the level as the hero remembers it: squares out of view keep what was last "
        "seen there.",
        "- Time: Stats.turn is the game clock. The reading methods below take no game time; each acting call is "
        "one game action, counted against the skill's action limit, and may or may not use a turn "
        "(ActionResult.turn_elapsed).",
        "- A skill never sees --More--, menus or questions: each action answers or dismisses them and returns "
        "every message in ActionResult.messages (nh.get_messages(n) has the latest). Only send_keys can leave a "
        "prompt open (ActionResult.prompt); the next action closes it.",
        "- SkillResult: stopped_reason is a short snake_case word for why the skill ended ('arrived', "
        "'monster', 'fully_explored'); data a small dict of facts (numbers, strings, lists, Positions), "
        "returned to a calling skill and kept in the run's record; actions_taken the game actions made; "
        "turns_elapsed the game turns spent (turn at the end minus turn at the start); success whether the "
        "goal was reached. When the harness stops a skill, it makes the result: stopped_reason "
        "'interrupted:<trigger>' or 'action_limit', success False.",
        f"- Triggers ({', '.join(EVENT_KINDS)}; see the decision format) stop a running skill after the action "
        "on which they fire. Every event is also queued for nh.get_events(), so a skill can react to those it "
        "handles itself.",
    ])


def _method_block(methods: list[MethodDoc]) -> str:
    lines = []
    for m in methods:
        lines.append(f"nh.{m.name}{m.signature}")
        lines += [f"  {ln}" if ln else "" for ln in m.doc.splitlines()]
    return "\n".join(lines)


def _type_block(t: TypeDoc) -> str:
    head = t.name + (f" (enum)" if t.values else "") + (f" (an {t.base}: its fields, then these)" if t.base else "")
    doc = t.doc.splitlines()
    lines = [f"{head}: {doc[0]}" if doc else head]
    lines += [f"  {ln}" if ln else "" for ln in doc[1:]]
    if t.values:
        lines.append("  - values: " + ", ".join(f"{name} {value!r}" for name, value in t.values))
    for f in t.fields:
        lines.append(f"  - {f.name}: {f.type} — {f.description}")
    for m in t.members:
        kind = " (property)" if m.is_property else ""
        lines.append(f"  - .{m.name}{m.signature}{kind} — {m.doc}")
    return "\n".join(lines)


@functools.lru_cache(maxsize=1)
def reference_sections() -> tuple[tuple[str, str], ...]:
    """The reference as (section name, text) pairs, in prompt order (the code does not
    change while the process runs, so it is built once)."""
    methods = skill_methods()
    sections = [("API CONVENTIONS", conventions())]
    reading = [m for m in methods if m.kind == "query"]
    acting = [m for m in methods if m.kind == "action"]
    calling = [m for m in methods if m.kind == "skill call"]
    sections.append(("API: READING", "READING THE GAME (no game time; answers are cached until the next action):\n"
                     + _method_block(reading)))
    sections.append(("API: ACTING", "ACTING (each call is one game action):\n" + _method_block(acting)))
    if calling:
        sections.append(("API: CALLING SKILLS", "CALLING OTHER SKILLS:\n" + _method_block(calling)))
    sections.append(("API TYPES", "TYPES (defined in every skill; fields in constructor order, `name: type — "
                     "meaning`; `.member` is a property or method):\n"
                     + "\n".join(_type_block(t) for t in skill_types())))
    sections.append(("EXAMPLE SKILL", f"EXAMPLE SKILL (complete: it runs as written):\n```python\n"
                     f"{EXAMPLE_SKILL.rstrip()}\n```"))
    return tuple(sections)


def api_reference() -> str:
    """The whole reference, as it appears in the static prompt."""
    return "\n\n".join(text for _, text in reference_sections())


__all__ = ["EXAMPLE_NAME", "EXAMPLE_SKILL", "FieldDoc", "MemberDoc", "MethodDoc", "TypeDoc", "api_reference",
           "conventions", "describe_type", "field_comments", "reference_sections", "signature", "skill_methods",
           "skill_type_classes", "skill_types"]

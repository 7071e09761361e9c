"""Building the strategist's prompt (spec §7.2).

The prompt has a static part (the role, the API, the skill format, the decision
format and standing advice: the same every turn, so backends cache it) and a
dynamic part: the ASCII map, a structured description of what is around (the
kind of place, the rooms and corridors known and how doors join them, monsters
near and far with direction and distance, frontiers, doors, boulders, stairs), stats, inventory, recent messages, a memory summary,
the most relevant skills with their statistics, and the last executions.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Optional

from ..api import glyphs as G
from ..api import observe
from ..api.layout import segment
from ..api.models import Position

ADVICE = """\
Standing advice (each of these has killed agents before):
- Never climb the up stairs on dungeon level 1: leaving the dungeon ends the game.
- Corpses go bad: eat only corpses of monsters you killed within the last ~30 turns
  (lichen and lizard corpses never rot); never eat cockatrice/chickatrice, green slime,
  or anything poisonous/acidic without resistance. Use nh.is_safe_to_eat(name, turns_old).
- Never melee a floating eye (its passive paralysis gets you killed); never touch a cockatrice.
- Do not attack peaceful monsters (shopkeepers, watchmen, priests); walk around them.
- Pray only when in real trouble (HP below 1/7 of max or at most 5, Weak from hunger) and
  when nh.get_prayer_timeout() says it is safe; praying too often angers your god.
- When a plan fails twice, change the plan instead of repeating it.
"""

DECISION_FORMAT = """\
Answer with one JSON object (you may think briefly first):
A) Run a skill from the library: {"action": "invoke", "skill": "name", "params": {...}, "reasoning": "..."}
B) Write a new skill and run it:  {"action": "create", "name": "snake_case_name", "category": "exploration",
   "description": "one line", "triggers": ["monster"], "params": {...}, "code": "async def snake_case_name(nh, ...): ..."}
C) One raw key for an odd prompt: {"action": "direct", "key": "h", "reasoning": "..."}
D) Ask the NetHack knowledge base a question: {"action": "lookup", "query": "is a cockatrice corpse safe to eat"}
   (a short answer appears under KNOWLEDGE in the next prompts; takes no game time)
Prefer A; write B when no skill fits. A created skill that succeeds is saved for later use.
Triggers (events that stop a skill at the next action): monster, low_hp, hunger, level_change,
teleport, items, engulfed, message. Every skill also stops at very_low_hp (HP ≤ 5 or ≤ 1/7 of
max, where a prayer heals) and at deadly (food poisoning, illness, stoning, sliming,
strangling), so that you can decide whether to pray.
"""


def api_reference() -> str:
    """One line per NetHackAPI method: signature and the first docstring line."""
    from ..api.nethack_api import NetHackAPI

    lines = []
    for name, fn in inspect.getmembers(NetHackAPI, inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue
        sig = str(inspect.signature(fn)).replace("self, ", "").replace("(self)", "()")
        doc = (inspect.getdoc(fn) or "").strip().splitlines()
        lines.append(f"- nh.{name}{sig}: {doc[0] if doc else ''}")
    return "\n".join(lines)


def system_prompt(role: Optional[str] = None) -> str:
    from ..sandbox.policy import describe_policy

    who = f"a {role}" if role else "an adventurer"
    return (
        f"You are playing NetHack 3.6 as {who}. Your goal is to go as deep as you can, gain experience "
        "and score, and stay alive (retrieving the Amulet of Yendor and ascending is the far goal).\n"
        "You act by running Python skills: async functions that drive the game through the NetHack API "
        "object `nh` until something worth a new decision happens.\n\n"
        "Skill format: `async def name(nh, **params) -> SkillResult` returning "
        "SkillResult(stopped_reason, data, actions_taken, turns_elapsed, success).\n"
        + describe_policy()
        + "\n\nThe NetHack API (coordinates: x = column 0..78, y = row 0..20; directions n s e w ne nw se sw):\n"
        + api_reference()
        + "\n\n"
        + DECISION_FORMAT
        + "\n"
        + ADVICE
    )


@dataclass
class PromptParts:
    system: str
    user: str


def _direction_words(frm: Position, to: Position) -> str:
    d = frm.direction_to(to)
    return f"{frm.steps_to(to)} {d}" if d else "here"


def _pos(p: Position) -> str:
    return f"({p.x},{p.y})"


def describe_layout(api, hero: Position, max_rooms: int = 8, max_corridors: int = 6) -> list[str]:
    """Rooms and corridors of the remembered level: where the hero is, what each holds,
    which doors join them and where a corridor runs on into the unknown."""
    try:
        layout = segment(api._level_memory(), hero)
    except Exception:  # the description is an aid; never let it cost a decision
        return []
    rooms = sorted(layout.rooms, key=lambda r: (r.id != layout.hero_room, hero.steps_to(r.centre)))
    corridors = sorted(layout.corridors, key=lambda c: c.id != layout.hero_corridor)
    out = [f"Layout: {len(layout.rooms)} room(s) and {len(layout.corridors)} corridor(s) known."]
    names = {r.id: f"R{i + 1}" for i, r in enumerate(rooms)}
    for r in rooms[:max_rooms]:
        where = "you are here" if r.id == layout.hero_room else _direction_words(hero, r.centre)
        bits = [f"x {r.x0}-{r.x1}, y {r.y0}-{r.y1}", where]
        if r.features:
            bits.append(", ".join(r.features))
        if r.doors:
            bits.append("doors " + " ".join(_pos(d) for d in r.doors[:6]))
        if r.frontier:
            bits.append(f"{r.frontier} square(s) at its edge not yet seen past")
        out.append(f"- room {names[r.id]} ({'; '.join(bits)})")
    if len(rooms) > max_rooms:
        out.append(f"- … {len(rooms) - max_rooms} more room(s)")
    for i, c in enumerate(corridors[:max_corridors]):
        bits = [f"{c.squares} square(s)"]
        if c.id == layout.hero_corridor:
            bits.append("you are here")
        if c.doors:
            bits.append("to doors " + " ".join(_pos(d) for d in c.doors[:6]))
        if c.open_ends:
            bits.append("runs on unexplored at " + " ".join(_pos(p) for p in c.open_ends))
        out.append(f"- corridor C{i + 1} ({'; '.join(bits)})")
    if len(corridors) > max_corridors:
        out.append(f"- … {len(corridors) - max_corridors} more corridor(s)")
    return out


def describe_surroundings(api, state: dict[str, Any]) -> str:
    """Structured description: place, monsters, items, stairs, doors, boulders, frontiers."""
    stats = state["stats"]
    hero: Position = stats.position
    level = state["level"]
    lines = []
    here = level.tiles[hero.y][hero.x]
    place = "a corridor" if here.char == "#" else "a doorway" if (here.feature or "").endswith("door") \
        or here.feature == "doorway" else "a room"
    lines.append(f"You stand in {place} at ({hero.x},{hero.y}); the level is {level.explored_percentage:.0f}% explored.")
    lines += describe_layout(api, hero)
    mons = state["monsters"]
    if mons:
        desc = []
        for m in mons[:10]:
            tag = " (peaceful)" if m.is_peaceful else " (your pet)" if m.is_tame else ""
            desc.append(f"{m.name}{tag} {_direction_words(hero, m.position)}")
        lines.append("Monsters: " + "; ".join(desc) + ".")
    else:
        lines.append("No monsters in view.")
    if level.stairs_down:
        lines.append(f"Down stairs: {_direction_words(hero, level.stairs_down)} at ({level.stairs_down.x},{level.stairs_down.y}).")
    if level.stairs_up:
        lines.append(f"Up stairs: {_direction_words(hero, level.stairs_up)} at ({level.stairs_up.x},{level.stairs_up.y}).")
    doors, boulders, items = [], [], []
    for row in level.tiles:
        for t in row:
            if t.feature in ("closed door", "open door", "doorway") and len(doors) < 8:
                doors.append(f"{t.feature} {_direction_words(hero, t.position)}")
            g = t.glyph
            if g == G.BOULDER_GLYPH and len(boulders) < 5:
                boulders.append(_direction_words(hero, t.position))
            elif G.IS_ITEM[g] and g != G.BOULDER_GLYPH and len(items) < 8:
                # The glyph number encodes the true object type; name what the hero sees.
                seen = observe.screen_description(api.game.obs, t.position) or t.char
                items.append(f"{seen} {_direction_words(hero, t.position)}")
    if doors:
        lines.append("Doors: " + "; ".join(doors) + ".")
    if boulders:
        lines.append("Boulders: " + "; ".join(boulders) + ".")
    if items:
        lines.append("Objects seen: " + "; ".join(items) + ".")
    frontier = state.get("frontier")
    if frontier is not None:
        lines.append(f"Nearest unexplored frontier: {_direction_words(hero, frontier)} at ({frontier.x},{frontier.y}).")
    else:
        lines.append("No reachable frontier left: search for hidden passages or take the stairs.")
    return "\n".join(lines)


def ascii_map(screen: str) -> str:
    rows = screen.split("\n")[1:22]
    rows = [r.rstrip() for r in rows]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return "\n".join(rows)


def skills_section(skills: list, stats_of) -> str:
    if not skills:
        return "(no skills in the library yet: create one)"
    lines = []
    for s in skills:
        st = stats_of(s.name) if stats_of else None
        params = ", ".join(getattr(p, "name", str(p)) + (f"={p.default_repr}" if getattr(p, "default_repr", None) else "")
                           for p in (s.parameters or []))
        rate = ""
        if st is not None and getattr(st, "executions", 0):
            rate = f" [{st.success_rate:.0%} of {st.executions} runs succeeded]"
        trig = f" stops on: {', '.join(s.triggers)}" if s.triggers else ""
        lines.append(f"- {s.name}({params}) — {s.description}{rate}{trig}")
    return "\n".join(lines)


def build_prompt(api, state: dict[str, Any], memory, skills: list, stats_of=None,
                 warnings: list[str] = (), role: Optional[str] = None, system: Optional[str] = None,
                 task: Optional[str] = None) -> PromptParts:
    stats = state["stats"]
    inv = state["inventory"]
    inv_lines = [f"{i.slot} - {i.text or i.name}" for i in inv] or ["(empty)"]
    status = ", ".join(state.get("status_effects") or []) or "none"
    last = memory.recent_executions(5)
    parts = [f"TASK: {task}", ""] if task else []
    parts += [
        f"CURRENT STATE (turn {stats.turn}):",
        f"- Dungeon level {stats.dungeon_level} ({stats.branch}), position ({stats.position.x},{stats.position.y})",
        f"- HP {stats.hp}/{stats.max_hp}, Pw {stats.pw}/{stats.max_pw}, AC {stats.ac}, XL {stats.xp_level}, "
        f"gold {stats.gold}, score {stats.score}",
        f"- Hunger: {stats.hunger.value}; burden: {stats.encumbrance}; status: {status}",
        "",
        "MAP:",
        ascii_map(state["screen"]),
        "",
        describe_surroundings(api, state),
        "",
        "INVENTORY:",
        *inv_lines,
        "",
        "RECENT MESSAGES:",
        *[f"- {m}" for m in state["messages"][-8:]],
        "",
        "DUNGEON MEMORY:",
        memory.summary(api),
        "",
        "RECENT TIMELINE:",
        memory.short_term.render()[-1500:] or "(nothing yet)",
        "",
        "AVAILABLE SKILLS:",
        skills_section(skills, stats_of),
        "",
        "LAST SKILL EXECUTIONS:",
        *([f"- {e.line()}" for e in last] or ["- none yet"]),
    ]
    notes = getattr(memory, "knowledge", None)
    if notes:
        parts += ["", "KNOWLEDGE (answers to your lookups):"]
        parts += [f"- Q: {q}\n  A: {a}" for q, a in notes]
    if warnings:
        parts += ["", "WARNINGS:", *[f"- {w}" for w in warnings]]
    parts += ["", "What do you do? Answer with one JSON decision."]
    return PromptParts(system or system_prompt(role), "\n".join(parts))

"""What the agent remembers during an episode (spec §8.1-8.2).

* **short-term**: a timeline of recent messages and happenings, pruned to a
  token budget (oldest first);
* **episodic**: every skill execution with its result;
* **dungeon**: per level, what the hero learned that the map alone does not
  say — altars and their alignment, shops and their type, fountains, stashes,
  the monsters and items last seen — kept when the hero leaves and comes back.
  Terrain, stairs and per-tile search counts live in the API's remembered map
  (``api/maps.py``); the summary reads them from there.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Optional

from ..api import glyphs as G
from ..api import observe
from ..api.models import Position

CHARS_PER_TOKEN = 4  # a rough, model-independent estimate for budgeting

_SHOP = re.compile(r"Welcome(?: again)? to (?P<owner>[\w' -]+?)'s (?P<kind>[\w -]+?)!")
_ALTAR = re.compile(r"There is an altar to (?P<god>[\w' -]+?) \((?P<align>lawful|neutral|chaotic|unaligned)\) here")
_GONE = re.compile(
    r"(?:picks up|eats|devours|swallows|engulfs) (?:an? |the |\d+ )?(?P<item>[\w' -]+?)[.!]"
    r"|(?:an? |the )?(?P<item2>[\w' -]+?) (?:rots away|disappears|vanishes|crumbles to dust)"
)
_YOU_GOT = re.compile(r"^[a-zA-Z$] - (?P<item>.+?)\.$")


@dataclass
class TimelineEntry:
    turn: int
    text: str


class ShortTermMemory:
    """Recent happenings, kept under a token budget."""

    def __init__(self, max_tokens: int = 600, max_items: int = 100):
        self.max_tokens = max_tokens
        self.max_items = max_items
        self.entries: deque[TimelineEntry] = deque()
        self._chars = 0

    def add(self, turn: int, text: str) -> None:
        text = " ".join(text.split())
        if not text or (self.entries and self.entries[-1].text == text):
            return
        self.entries.append(TimelineEntry(turn, text))
        self._chars += len(text) + 8
        while self.entries and (self._chars > self.max_tokens * CHARS_PER_TOKEN or len(self.entries) > self.max_items):
            old = self.entries.popleft()
            self._chars -= len(old.text) + 8

    def render(self) -> str:
        return "\n".join(f"T{e.turn}: {e.text}" for e in self.entries)


@dataclass
class ExecutionNote:
    turn: int
    skill: str
    params: dict
    stopped_reason: str
    success: bool
    actions: int
    turns: int
    error: Optional[str] = None
    created: bool = False  # the model wrote this skill in this decision

    def line(self) -> str:
        p = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        what = f"{self.skill}({p})"
        if self.error:
            return f"T{self.turn} {what} -> ERROR: {self.error[:300]}"
        ok = "ok" if self.success else "not ok"
        return f"T{self.turn} {what} -> {self.stopped_reason} ({ok}, {self.actions} actions, {self.turns} turns)"


@dataclass
class LevelNotes:
    dnum: int
    dlevel: int
    depth: int
    branch: str
    altars: dict[Position, str] = field(default_factory=dict)  # alignment or "unknown"
    shops: dict[str, Optional[Position]] = field(default_factory=dict)  # "Asidonhopo's general store" -> entrance
    fountains: set[Position] = field(default_factory=set)
    stashes: set[Position] = field(default_factory=set)
    monsters: dict[str, tuple[int, Position]] = field(default_factory=dict)  # name -> (turn, where)
    items: dict[Position, tuple[int, str]] = field(default_factory=dict)  # where -> (turn, what)
    first_visit: int = 0
    last_visit: int = 0


class DungeonMemory:
    """Notes per level, keyed by (dungeon number, level in that dungeon)."""

    def __init__(self) -> None:
        self.levels: dict[tuple[int, int], LevelNotes] = {}
        self.current: Optional[tuple[int, int]] = None

    def notes(self, dnum: int, dlevel: int, depth: int, branch: str, turn: int) -> LevelNotes:
        key = (dnum, dlevel)
        if key not in self.levels:
            self.levels[key] = LevelNotes(dnum, dlevel, depth, branch, first_visit=turn)
        n = self.levels[key]
        n.last_visit = turn
        self.current = key
        return n

    def stash(self, pos: Position) -> None:
        """Remember a pile the hero left on purpose."""
        if self.current:
            self.levels[self.current].stashes.add(pos)


class AgentMemory:
    """Everything the agent remembers in one episode."""

    def __init__(self, short_term_tokens: int = 600, max_short_term_items: int = 100):
        self.short_term = ShortTermMemory(short_term_tokens, max_short_term_items)
        self.executions: list[ExecutionNote] = []
        self.dungeon = DungeonMemory()
        self.errors: list[str] = []
        self._seen_messages = 0
        self.knowledge: list[tuple[str, str]] = []  # (question, short answer) from lookups, newest last

    def add_knowledge(self, question: str, answer: str, keep: int = 4) -> None:
        """Remember a lookup's answer for the next prompts (the last ``keep`` answers)."""
        self.knowledge = [(q, a) for q, a in self.knowledge if q != question][-(keep - 1):] + [(question, answer)]

    # ------------------------------------------------------------ updates
    def update(self, api) -> None:
        """Fold the game's current state and new messages into memory."""
        stats = api.last_stats
        if stats is None:
            return
        bl = api.game.obs["blstats"]
        notes = self.dungeon.notes(int(bl[23]), int(bl[24]), stats.dungeon_level, stats.branch, stats.turn)
        history = api._kb.history
        new = history[self._seen_messages:] if self._seen_messages <= len(history) else history[-20:]
        self._seen_messages = len(history)
        hero = stats.position
        for msg in new:
            self.short_term.add(stats.turn, msg)
            self._read_message(msg, notes, hero, stats.turn)
        self._read_map(api, notes, stats.turn)

    def _read_message(self, msg: str, notes: LevelNotes, hero: Optional[Position], turn: int) -> None:
        m = _SHOP.search(msg)
        if m:
            notes.shops.setdefault(f"{m.group('owner')}'s {m.group('kind')}", hero)
        m = _ALTAR.search(msg)
        if m and hero is not None:
            notes.altars[hero] = m.group("align")
        m = _GONE.search(msg)
        if m:
            gone = (m.group("item") or m.group("item2") or "").strip().lower()
            for pos, (_, what) in list(notes.items.items()):
                if gone and gone in what.lower():
                    del notes.items[pos]
                    break
        if _YOU_GOT.match(msg) and hero is not None:
            notes.items.pop(hero, None)

    def _read_map(self, api, notes: LevelNotes, turn: int) -> None:
        obs = api.game.obs
        glyphs = obs["glyphs"]
        cmap = G.CMAP_INDEX[glyphs]
        for y, x in zip(*((cmap == G.S_FOUNTAIN).nonzero())):
            notes.fountains.add(Position(int(x), int(y)))
        for y, x in zip(*((cmap == G.S_ALTAR).nonzero())):
            notes.altars.setdefault(Position(int(x), int(y)), "unknown")
        items = G.IS_ITEM[glyphs]
        for y, x in zip(*items.nonzero()):
            p = Position(int(x), int(y))
            # what the hero sees, not the glyph's true identity
            seen = observe.screen_description(obs, p) or (G.object_class_name(int(glyphs[y, x])) or "object")
            notes.items[p] = (turn, seen)
        for p in [p for p in notes.items if not items[p.y, p.x] and glyphs[p.y, p.x] != G.UNEXPLORED_GLYPH
                  and not G.IS_MONSTER_LIKE[glyphs[p.y, p.x]]]:
            del notes.items[p]  # the square is in view or remembered without the object
        # The API's own per-observation list (computing it here: a placeholder put in its
        # cache once hid every monster from the next skill's first step, floating eyes too).
        for m in api._monsters_now():
            if not m.is_tame:
                notes.monsters[m.name] = (turn, m.position)

    def record_execution(self, note: ExecutionNote) -> None:
        self.executions.append(note)
        if note.error:
            self.errors.append(note.error)
        self.short_term.add(note.turn, f"skill {note.line()}")

    # ------------------------------------------------------------ reading
    def recent_executions(self, n: int = 5) -> list[ExecutionNote]:
        return self.executions[-n:]

    def summary(self, api=None) -> str:
        """A few lines about the dungeon so far (for the prompt)."""
        lines = []
        for key, n in sorted(self.dungeon.levels.items(), key=lambda kv: kv[1].depth):
            parts = [f"Dlvl {n.depth} ({n.branch})"]
            mem = api._maps.get(*key) if api is not None else None
            if mem is not None:
                if mem.stairs_up:
                    parts.append(f"up stairs at ({mem.stairs_up.x},{mem.stairs_up.y})")
                if mem.stairs_down:
                    parts.append(f"down stairs at ({mem.stairs_down.x},{mem.stairs_down.y})")
                parts.append(f"explored {mem.explored_percentage():.0f}%")
            if n.altars:
                parts.append("altars " + ", ".join(f"({p.x},{p.y}) {a}" for p, a in n.altars.items()))
            if n.shops:
                parts.append("shops: " + ", ".join(n.shops))
            if n.fountains:
                parts.append(f"{len(n.fountains)} fountain(s)")
            if n.stashes:
                parts.append("stash at " + ", ".join(f"({p.x},{p.y})" for p in n.stashes))
            lines.append("- " + "; ".join(parts))
        return "\n".join(lines) if lines else "- nothing yet"

    def to_dict(self) -> dict[str, Any]:
        return {
            "executions": [e.__dict__ for e in self.executions],
            "levels": {f"{k[0]}:{k[1]}": {"depth": n.depth, "branch": n.branch, "shops": list(n.shops),
                                           "altars": {f"{p.x},{p.y}": a for p, a in n.altars.items()}}
                       for k, n in self.dungeon.levels.items()},
        }

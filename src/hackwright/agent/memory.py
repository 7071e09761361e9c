"""What the agent remembers during an episode (spec §8.1-8.2).

* **short-term**: a timeline of recent messages and happenings, pruned to a
  token budget (oldest first), rendered with repeats collapsed (``WHAMM!! ×3``,
  "kicked the locked door 4×, it crashed open");
* **episodic**: every skill execution with its result; a model-written skill
  that failed keeps its own failing line and the code around it, for the next
  prompt;
* **shown code**: the library skills' code the model asked to read (``show``);
* **dungeon**: per level, what the hero learned that the map alone does not
  say — altars and their alignment, shops and their type, fountains, the
  monsters and items last seen — kept when the hero leaves and comes back.
  Terrain, stairs, per-tile search counts and stashes (squares the hero dropped
  things on) live in the API's remembered map (``api/maps/``); the summary
  reads them from there, and the memory forgets a stash seen bare.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from ..api import glyphs as G
from ..api import observe
from ..api.models import Position
from ..sandbox import errors as skill_errors
from .execution_report import ExecutionReport, split_error
from .timeline import TimelineEntry, collapse

CHARS_PER_TOKEN = 4  # a rough, model-independent estimate for budgeting

_SHOP = re.compile(r"Welcome(?: again)? to (?P<owner>[\w' -]+?)'s (?P<kind>[\w -]+?)!")
_ALTAR = re.compile(r"There is an altar to (?P<god>[\w' -]+?) \((?P<align>lawful|neutral|chaotic|unaligned)\) here")
_GONE = re.compile(
    r"(?:picks up|eats|devours|swallows|engulfs) (?:an? |the |\d+ )?(?P<item>[\w' -]+?)[.!]"
    r"|(?:an? |the )?(?P<item2>[\w' -]+?) (?:rots away|disappears|vanishes|crumbles to dust)"
)
_YOU_GOT = re.compile(r"^[a-zA-Z$] - (?P<item>.+?)\.$")
_ALIGNED_ALTAR = re.compile(r"\b(?P<align>lawful|neutral|chaotic|unaligned) altar\b")  # NetHack's farlook text


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]} (… {len(text) - limit} characters cut)"


class ShortTermMemory:
    """Recent happenings, kept under a token budget; the same message again at once
    raises the count of the last entry instead of adding one."""

    def __init__(self, max_tokens: int = 600, max_items: int = 100):
        self.max_tokens = max_tokens
        self.max_items = max_items
        self.entries: deque[TimelineEntry] = deque()
        self._chars = 0

    def add(self, turn: int, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            return
        if self.entries and self.entries[-1].text == text:
            self.entries[-1].count += 1
            self.entries[-1].last_turn = turn
            return
        self.entries.append(TimelineEntry(turn, text))
        self._chars += len(text) + 8
        while self.entries and (self._chars > self.max_tokens * CHARS_PER_TOKEN or len(self.entries) > self.max_items):
            old = self.entries.popleft()
            self._chars -= len(old.text) + 8

    def render(self) -> str:
        """One line per happening, oldest first; repeats collapsed (see ``timeline.collapse``)."""
        return "\n".join(collapse(list(self.entries)))


_EXCERPT_AROUND = 3  # lines shown on each side of a failing line
_EXCERPT_WIDTH = 100  # characters kept of each shown line
_ERROR_LINES = 16  # lines of an error's text shown in the prompt …
_ERROR_CHARS = 1200  # … and characters (the skill's output is the report's, bounded there)
_EXCERPTS_KEPT = 2  # the newest failures keep their code excerpts; older ones only their text
_REPORTS_KEPT = 2  # the newest runs keep their whole report; older ones its brief form
_NAME_CHARS = 64  # of a skill's name as an execution shows it (a library name's longest)
_PARAMS_CHARS = 300  # of its parameters


@dataclass(frozen=True)
class ErrorSite:
    """Where a model-written skill failed: the line of its own code (1-based, as the
    model wrote it) and the code around it with that line marked."""

    line: int
    excerpt: str

    @classmethod
    def of(cls, error: BaseException, code: Optional[str]) -> Optional["ErrorSite"]:
        """The site of ``error`` in ``code`` (the skill's source), or None when the error
        names no line of it (time and other limits, crashes)."""
        line = error_line(error)
        if line is None or not code:
            return None
        excerpt = code_excerpt(code, line)
        return cls(line, excerpt) if excerpt else None


def error_line(error: BaseException) -> Optional[int]:
    """The skill's own line an error points at: where a runtime error was raised (the
    innermost frame of the skill's code, never the harness's), the line of a syntax
    error, the first policy violation."""
    if isinstance(error, (skill_errors.SkillRuntimeError, skill_errors.SkillSyntaxError)):
        return error.line
    if isinstance(error, skill_errors.SkillValidationError) and error.violations:
        return min(v.line for v in error.violations)
    return None


def code_excerpt(code: str, line: int, around: int = _EXCERPT_AROUND) -> str:
    """``around`` lines of ``code`` on each side of ``line``, numbered, ``line`` marked
    with ``>``; "" when ``line`` is not in the code."""
    lines = code.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    lo, hi = max(1, line - around), min(len(lines), line + around)
    width = len(str(hi))
    out = []
    for n in range(lo, hi + 1):
        text = lines[n - 1].rstrip()
        if len(text) > _EXCERPT_WIDTH:
            text = text[:_EXCERPT_WIDTH - 1] + "…"
        out.append(f"{'>' if n == line else ' '} {n:>{width}} | {text}")
    return "\n".join(out)


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
    site: Optional[ErrorSite] = None  # where a model-written skill failed in its own code
    report: Optional[ExecutionReport] = None  # what the run did (progress, failed actions, output …)
    # Who decided when the model did not: "model backend failed (…); the autopilot played this step".
    stand_in: Optional[str] = None

    def _what(self) -> str:
        # the name and parameters are the model's own words: every later prompt repeats them
        p = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{_clip(self.skill, _NAME_CHARS)}({_clip(p, _PARAMS_CHARS)})"

    def line(self) -> str:
        """The execution for the prompt: the outcome, or the error (a few lines) and, for a
        model-written skill, its failing line with the code around it."""
        what = self._what()
        if not self.error:
            ok = "ok" if self.success else "not ok"
            out = f"T{self.turn} {what} -> {self.stopped_reason} ({ok}, {self.actions} actions, {self.turns} turns)"
            return self._with_report(out)
        error = split_error(self.error)[0] if self.report is not None and self.report.output else self.error
        lines = [ln.rstrip() for ln in error.strip().splitlines() if ln.strip()]
        text = "\n".join(lines[:_ERROR_LINES])
        if len(text) > _ERROR_CHARS:
            text = text[:_ERROR_CHARS - 1] + "…"
        elif len(lines) > _ERROR_LINES:
            text += "\n[…]"
        out = f"T{self.turn} {what} -> ERROR: {text}"
        if self.site is not None:
            out += f"\nYour code of {self.skill}, line {self.site.line} marked >:\n{self.site.excerpt}"
        return self._with_report(out)

    def _with_report(self, out: str) -> str:
        if self.stand_in:  # its own line: the step's outcome above is the autopilot's
            out = f"{out}\n{self.stand_in}"
        if self.report is not None:
            out = "\n".join([out, *self.report.lines()])
        return out.replace("\n", "\n    ")

    def summary(self) -> str:
        """The execution in one line (the timeline)."""
        what = self._what()
        if self.error:
            first = " ".join(self.error.strip().splitlines()[0].split()) if self.error.strip() else "error"
            return f"{what} -> ERROR: {first[:160]}"
        ok = "ok" if self.success else "not ok"
        return f"{what} -> {self.stopped_reason} ({ok}, {self.actions} actions, {self.turns} turns)"


@dataclass
class LevelNotes:
    dnum: int
    dlevel: int
    depth: int
    branch: str
    altars: dict[Position, str] = field(default_factory=dict)  # alignment or "unknown"
    shops: dict[str, Optional[Position]] = field(default_factory=dict)  # "Asidonhopo's general store" -> entrance
    fountains: set[Position] = field(default_factory=set)
    monsters: dict[str, tuple[int, Position]] = field(default_factory=dict)  # name -> (turn, where)
    items: dict[Position, tuple[int, str]] = field(default_factory=dict)  # where -> (turn, what)
    first_visit: int = 0
    last_visit: int = 0


class DungeonMemory:
    """Notes per level, keyed by (dungeon number, level in that dungeon).

    ``stash_locations``, ``altar_locations`` and ``shop_locations`` are the lists of
    spec §8.2, by depth; stashes come from the API's remembered maps (``maps``).
    """

    def __init__(self) -> None:
        self.levels: dict[tuple[int, int], LevelNotes] = {}
        self.current: Optional[tuple[int, int]] = None
        self.maps = None  # the API's DungeonMaps, set by AgentMemory.update

    @property
    def stash_locations(self) -> list[tuple[int, Position]]:
        """(depth, square) of every pile the hero left and has not seen gone."""
        out = []
        for key, n in self.levels.items():
            mem = self.maps.get(*key) if self.maps is not None else None
            out += [(n.depth, p) for p in sorted(mem.stashes)] if mem is not None else []
        return out

    @property
    def altar_locations(self) -> list[tuple[int, Position, str]]:
        """(depth, square, alignment) of every altar seen; alignment may be "unknown"."""
        return [(n.depth, p, a) for n in self.levels.values() for p, a in n.altars.items()]

    @property
    def shop_locations(self) -> list[tuple[int, Optional[Position], str]]:
        """(depth, where the hero was welcomed, shop type such as "general store")."""
        return [(n.depth, where, name.split("'s ", 1)[-1]) for n in self.levels.values()
                for name, where in n.shops.items()]

    def notes(self, dnum: int, dlevel: int, depth: int, branch: str, turn: int) -> LevelNotes:
        key = (dnum, dlevel)
        if key not in self.levels:
            self.levels[key] = LevelNotes(dnum, dlevel, depth, branch, first_visit=turn)
        n = self.levels[key]
        n.last_visit = turn
        self.current = key
        return n


class AgentMemory:
    """Everything the agent remembers in one episode."""

    def __init__(self, short_term_tokens: int = 600, max_short_term_items: int = 100):
        self.short_term = ShortTermMemory(short_term_tokens, max_short_term_items)
        self.executions: list[ExecutionNote] = []
        self.dungeon = DungeonMemory()
        self.errors: list[str] = []
        self._seen_messages = 0
        self.knowledge: list[tuple[str, str]] = []  # (question, short answer) from lookups, newest last
        self.shown: list[tuple[str, str]] = []  # (skill name, code) the model asked to read, newest last

    KNOWLEDGE_QUESTION_CHARS = 200  # of a lookup's question kept for the prompts …
    KNOWLEDGE_ANSWER_CHARS = 800  # … and of its answer

    def add_knowledge(self, question: str, answer: str, keep: int = 4) -> None:
        """Remember a lookup's answer for the next prompts (the last ``keep`` answers; a
        long question or answer cut, saying how much was left out: every later prompt
        carries them)."""
        question = _clip(" ".join(str(question).split()), self.KNOWLEDGE_QUESTION_CHARS)
        answer = _clip(str(answer).strip(), self.KNOWLEDGE_ANSWER_CHARS)
        self.knowledge = [(q, a) for q, a in self.knowledge if q != question][-(keep - 1):] + [(question, answer)]

    SHOWN_KEPT = 2  # skills whose code the prompt carries at once
    SHOWN_MAX_CHARS = 10_000  # of one skill's code (the longest built-ins are three times that)

    def add_shown(self, name: str, code: str) -> None:
        """Remember a skill's code for the next prompts (the last ``SHOWN_KEPT`` skills; a
        long one cut at a line boundary, saying how many lines were left out)."""
        if len(code) > self.SHOWN_MAX_CHARS:
            head = code[:self.SHOWN_MAX_CHARS].rsplit("\n", 1)[0]
            left = code.count("\n", len(head) + 1) + (0 if code.endswith("\n") else 1)
            code = f"{head}\n# … {left} more line(s) not shown\n"
        self.shown = [(n, c) for n, c in self.shown if n != name][-(self.SHOWN_KEPT - 1):] + [(name, code)]

    # ------------------------------------------------------------ updates
    def update(self, api) -> None:
        """Fold the game's current state and new messages into memory."""
        stats = api.last_stats
        if stats is None:
            return
        notes = self.dungeon.notes(*api.level_id(), stats.dungeon_level, stats.branch, stats.turn)
        self.dungeon.maps = api.level_maps
        # Each message on the turn it was seen: a skill run of 120 turns is folded in at
        # its end, and its happenings must not all carry its last turn.
        self._seen_messages, fresh = api.messages_after(self._seen_messages)
        hero = stats.position
        for msg, turn in fresh:
            self.short_term.add(turn, msg)
            self._read_message(msg, notes, hero, turn)
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
            p = Position(int(x), int(y))
            # The farlook text of an altar in view names its alignment ("chaotic altar").
            m = _ALIGNED_ALTAR.search(observe.screen_description(obs, p) or "")
            if m:
                notes.altars[p] = m.group("align")
            else:
                notes.altars.setdefault(p, "unknown")
        items = G.IS_ITEM[glyphs]
        for y, x in zip(*items.nonzero()):
            p = Position(int(x), int(y))
            # what the hero sees, not the glyph's true identity
            seen = observe.screen_description(obs, p) or (G.object_class_name(int(glyphs[y, x])) or "object")
            notes.items[p] = (turn, seen)

        def bare(p: Position) -> bool:  # in view or remembered without an object
            g = glyphs[p.y, p.x]
            return not items[p.y, p.x] and g != G.UNEXPLORED_GLYPH and not G.IS_MONSTER_LIKE[g]

        for p in [p for p in notes.items if bare(p)]:
            del notes.items[p]
        mem = api.level_maps.get(notes.dnum, notes.dlevel)  # as it is: reading must not fold the map
        if mem is not None:
            mem.stashes.difference_update([p for p in mem.stashes if bare(p)])
        # The API's own per-observation list (computing it here: a placeholder put in its
        # cache once hid every monster from the next skill's first step, floating eyes too).
        for m in api.monsters_now():
            if not m.is_tame:
                notes.monsters[m.name] = (turn, m.position)

    def record_execution(self, note: ExecutionNote) -> None:
        self.executions.append(note)
        if note.error:
            self.errors.append(note.error)
        # only the newest failures keep their code excerpts: the prompt stays bounded
        with_site = [e for e in self.executions if e.site is not None]
        for old in with_site[:-_EXCERPTS_KEPT]:
            old.site = None
        with_report = [e for e in self.executions if e.report is not None]
        for old in with_report[:-_REPORTS_KEPT]:
            old.report = old.report.brief()
        self.short_term.add(note.turn, f"skill {note.summary()}")

    # ------------------------------------------------------------ reading
    def recent_executions(self, n: int = 5) -> list[ExecutionNote]:
        return self.executions[-n:]

    def summary(self, api=None, max_names: int = 4) -> str:
        """A few lines about the dungeon so far (for the prompt). The current level's
        monsters and objects are in the map and the surroundings; for the others, the
        ones last seen there are listed, with the turn."""
        lines = []
        for key, n in sorted(self.dungeon.levels.items(), key=lambda kv: kv[1].depth):
            here = key == self.dungeon.current
            parts = [f"Dlvl {n.depth} ({n.branch}){' — you are here' if here else f', last here on turn {n.last_visit}'}"]
            mem = api.level_maps.get(*key) if api is not None else None
            if mem is not None:
                if mem.stairs_up:
                    parts.append(f"up stairs at ({mem.stairs_up.x},{mem.stairs_up.y})")
                if mem.stairs_down:
                    parts.append(f"down stairs at ({mem.stairs_down.x},{mem.stairs_down.y})")
                # (No percentage: the level's size is unknown until it is explored.)
                edge = int(mem.frontier_mask().sum())
                parts.append(f"{int(mem.passable_mask().sum())} squares known to walk on, "
                             + (f"{edge} next to unexplored parts" if edge else "nothing left to explore"))
                searched = int((mem.search_count > 0).sum())
                if searched:
                    parts.append(f"{searched} squares searched (most {int(mem.search_count.max())} times)")
                if mem.stashes:
                    parts.append("your stash at " + ", ".join(f"({p.x},{p.y})" for p in sorted(mem.stashes)))
            if n.altars:
                parts.append("altars " + ", ".join(f"({p.x},{p.y}) {a}" for p, a in n.altars.items()))
            if n.shops:
                parts.append("shops: " + ", ".join(n.shops))
            if n.fountains:
                parts.append(f"{len(n.fountains)} fountain(s)")
            if not here and n.items:
                seen = sorted(n.items.items(), key=lambda kv: -kv[1][0])
                names = ", ".join(f"{what} at ({p.x},{p.y})" for p, (_, what) in seen[:max_names])
                more = f" and {len(seen) - max_names} more" if len(seen) > max_names else ""
                parts.append(f"objects left there: {names}{more}")
            if not here and n.monsters:
                seen = sorted(n.monsters.items(), key=lambda kv: -kv[1][0])
                parts.append("monsters last seen: " + ", ".join(f"{name} (turn {t})" for name, (t, _) in seen[:max_names]))
            lines.append("- " + "; ".join(parts))
        return "\n".join(lines) if lines else "- nothing yet"

    def to_dict(self) -> dict[str, Any]:
        return {
            "executions": [asdict(e) for e in self.executions],
            "levels": {f"{k[0]}:{k[1]}": {"depth": n.depth, "branch": n.branch, "shops": list(n.shops),
                                           "altars": {f"{p.x},{p.y}": a for p, a in n.altars.items()}}
                       for k, n in self.dungeon.levels.items()},
        }

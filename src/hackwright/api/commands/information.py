"""Information commands of NetHackAPI: farlook (``;``), the dungeon overview
(``#overview``), the terrain view (``#terrain``), the known spells (``+``) and
``#chat``. All but ``#chat`` take no game time.
"""

from __future__ import annotations

import re
from typing import Optional

import numpy as np

from .. import glyphs as G
from ..keyboard import ENTER, ESC, Exchange, PromptKind, Rule
from ..models import (ActionResult, DungeonOverview, HereLook, HiddenFeature, LookResult, OverviewLevel, Position,
                      Spell, normalize_direction)
from .core import ApiCore, LOOK_HERE, _FAILURES, _as_position
from .travel import move_cursor

FARLOOK = ";"
_NOT_NOTICED = re.compile(r"seems not to notice you")
# What #chat says when nobody can answer (sounds.c dochat).
_NO_ANSWER = re.compile(r"seems not to notice you|won't hear you|speech is unintelligible|Talking to yourself|"
                        r"is eating noisily|unable to speak")
# A line of the ``+`` menu (spell.c dospellmenu): name, level, category, fail, retention.
_SPELL_LINE = re.compile(r"^(?P<name>\S.*?)\s+(?P<level>\d+)\s+(?P<school>[a-z]+)\s+(?P<fail>\d+)%\s*(?P<retention>.*?)\s*$")
_MONSTER_KINDS = (G.GlyphKind.MONSTER, G.GlyphKind.PET, G.GlyphKind.DETECTED, G.GlyphKind.RIDDEN)

# Overview window lines (dungeon.c print_mapseen): a dungeon's header, a level's line,
# then indented lines for its features, special places, branch and bones.
_DUNGEON_HEADER = re.compile(r"^(.+?):(?: levels? -?\d+(?: up)? to -?\d+)?$")
_LEVEL_LINE = re.compile(r'^(?:Level (\d+)|(Plane of \w+|Astral Plane|unknown plane #-?\d+)):\s*(?:"(.*)")?\s*'
                         r"(<- You (?:are|were|left from) here\.)?\s*$")
_BRANCH_LINE = re.compile(r"^((?:One way stairs|Stairs) (?:up|down)|Sealed portal|Portal|Connection) to (.+?)\.$")
_FEATURE = re.compile(r"^(?:an?|some|many) .*\b(?:shops?|stores?|delicatessens?|jewelers|bookstores?|altars?|"
                      r"temples?|thrones?|fountains?|sinks?|graves?|trees?)\b", re.I)


def _split_detail(rest: str) -> tuple[str, str]:
    """'a cat or other feline (tame kitten)' -> ('a cat or other feline', 'tame kitten')."""
    rest = rest.strip()
    if not rest.endswith(")"):
        return rest, ""
    depth = 0
    for i in range(len(rest) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(rest[i], 0)
        if depth == 0:
            return rest[:i].strip(), rest[i + 1:-1].strip()
    return rest, ""


def parse_overview(lines: list[str]) -> list[OverviewLevel]:
    """The levels of an ``#overview`` window, given its lines with their indentation."""
    levels: list[OverviewLevel] = []
    dungeon = ""
    for raw in lines:
        indent = len(raw) - len(raw.lstrip(" "))
        line = raw.strip()
        if not line:
            continue
        lv = _LEVEL_LINE.match(line)
        if lv and indent > 0 or lv and indent == 0 and lv.group(1):
            annotations = [lv.group(2)] if lv.group(2) else []
            if lv.group(3):
                annotations.append(lv.group(3))
            levels.append(OverviewLevel(dungeon, int(lv.group(1) or 0), [], None, annotations, bool(lv.group(4))))
            continue
        header = _DUNGEON_HEADER.match(line)
        if indent == 0 and header:
            dungeon = header.group(1)
            continue
        if not levels:
            continue
        cur = levels[-1]
        branch = _BRANCH_LINE.match(line)
        parts = [p.strip() for p in line.rstrip(".").split(", ")]
        if branch:
            cur.branch = line.rstrip(".")
        elif not cur.features and parts and all(_FEATURE.match(p) for p in parts):
            cur.features = [p[0].lower() + p[1:] for p in parts]
        else:
            cur.annotations.append(line.rstrip("."))
    return levels


class InformationCommands(ApiCore):
    """Looking at far squares, the dungeon overview, and talking to monsters."""

    async def look_at(self, pos: Position) -> LookResult:
        """
        Ask NetHack what is shown at a square (farlook, ';'); takes no game time.
        pos: any square of the map, Position(x, y) with x 0..78 and y 0..20.
        Returns a LookResult: glyph_char (the symbol there), description (the
        specific words, e.g. "tame kitten", "peaceful watchman", "jackal",
        "fountain", "floor of a room", "dark part of a room"), monster_name (the
        species shown there, None if no monster), peaceful (a peaceful monster,
        not a pet), tame (your pet), text
        (NetHack's whole answer) and symbol_meaning ("a dog or other canine").
        It tells what the hero sees or remembers there, not what is hidden.
        For a square off the map (or when the game is over) nothing is looked
        at: the result has ``error`` set, says what is valid, and is falsy
        (``if not res: print(res.error)``).
        """
        target = _as_position(pos)
        if target is None or not target.on_map():
            return self._look_error(target, f"position {pos!r} is off the map; x must be 0..78 and y 0..20")
        if self._game.done:
            return self._look_error(target, "the game is over; no more actions are possible")
        ex = Exchange()
        self._ensure_ready(ex)
        self._kb.type_keys(FARLOOK, ex)
        if not move_cursor(self._kb, target, ex):
            self._kb.press(ESC)
            self._kb.settle(ex)
            return self._look_error(target, f"could not put the cursor on ({target.x}, {target.y})")
        self._kb.press(".")
        texts: list[str] = []
        for _ in range(20):
            p = self._kb.prompt()
            if p.text and p.text != "Pick an object.":
                texts.append(p.text)
            if p.kind in (PromptKind.NONE, PromptKind.GAME_OVER):
                break
            self._kb.press(ENTER if p.kind is PromptKind.MORE else ESC)
        self._kb.settle(Exchange())
        text = " ".join(" ".join(t.split("\n")) for t in texts[:1]).strip()
        return self._parse_look(target, text)

    def _look_error(self, target: Optional[Position], error: str) -> LookResult:
        return LookResult(target or Position(0, 0), "", "", None, False, False, "", error=error)

    def _parse_look(self, target: Position, text: str) -> LookResult:
        m = re.match(r"^(\S)\s{2,}(.*)$", text)
        char, rest = (m.group(1), m.group(2)) if m else (" ", text)
        # "[seen: normal vision, infravision]" says how the hero sees a monster: not its name.
        meaning, detail = _split_detail(re.sub(r"\s*\[seen: [^\]]*\]\s*$", "", rest))
        # Terrain and objects without a detail read "a fountain": the noun is enough.
        description = detail or re.sub(r"^(?:an?|the) ", "", meaning)
        glyph = int(self._obs()["glyphs"][target.y, target.x])
        monster = None
        words = description
        if target != self._hero() and G.KIND[glyph] in _MONSTER_KINDS:
            monster = G.monster_name(glyph)
        tame = monster is not None and (words.startswith("tame ") or bool(G.KIND[glyph] == G.GlyphKind.PET))
        peaceful = monster is not None and not tame and words.startswith("peaceful ")
        return LookResult(target, char, description, monster, peaceful, tame, text, symbol_meaning=meaning)

    async def look_here(self) -> HereLook:
        """
        Look at your own square (NetHack's ``:``); takes no game time, except that a
        blind hero feels the floor instead, which takes a move.
        The map cannot show what is under you: the stairs you just arrived by, what
        is written in the dust, the objects of a pile.
        Returns a HereLook: feature (dungeon furniture as NetHack names it:
        "staircase down", "staircase up", "ladder down", "fountain", "altar to
        Anhur (neutral)", "open door"; None for plain floor), engraving (the text as
        it reads now, e.g. "Elbereth", or a smudged "Elbcreth" after a fight; None
        when nothing is written), objects (the names of what lies here), text
        (NetHack's whole answer), and ``stairs``: "up" or "down" when you stand on
        stairs or a ladder, else None. Once the game is over nothing is looked at:
        the result has ``error`` set and is falsy.
        """
        hero = self._hero()
        if self._game.done:
            return HereLook(hero, None, None, [], "", error="the game is over; no more actions are possible")
        # As typed keys: what ':' shows is noted like any action's messages (the pile
        # memory learns the pile was shown, the history keeps the words).
        res = await self.send_keys(LOOK_HERE)
        window = res.prompt or ""
        if window:
            self._ensure_ready(Exchange())  # the "Things that are here" window: read, close it
        text = " ".join(res.messages + ([window] if window else []))
        feature = re.search(r"There is an? (.+?) here\.", text)
        read = re.search(r'You read: "(.*?)"', text)
        objects = re.findall(r"You (?:see|feel) here (.+?)\.(?:\s|$)", text)
        for shown in res.messages + [window]:
            if "Things that" in shown:  # a pile: one object a line after the heading
                listed = shown.split("Things that", 1)[1].splitlines()[1:]
                objects = [ln.strip() for ln in listed if ln.strip() and not ln.strip().startswith("--")]
        return HereLook(hero, feature.group(1) if feature else None, read.group(1) if read else None,
                        objects, text)

    # Features worth knowing that an object lying on them hides from the map.
    _UNDER_OBJECTS = frozenset(("stairs down", "stairs up", "ladder down", "ladder up", "altar", "fountain",
                                "sink", "throne", "grave"))

    async def reveal_terrain(self) -> list[HiddenFeature]:
        """
        Find the stairs, altars, fountains, sinks, thrones and graves hidden under
        objects on this level, with NetHack's ``#terrain`` view (the known map without
        objects, monsters and traps); takes no game time. The map shows only the top
        object of a square, so stairs with an item dropped on them look like that
        item until the hero steps there: a hero once searched a level for hidden
        doors for 3,000 turns while its down stairs lay under a potion in plain view.
        What is found goes into the remembered map at once (get_current_level's
        stairs_down, find_path to it, descend). NetHack is asked only when objects
        have come into view on this level since the last look, so calling this often
        (each step of an exploration) costs little. Returns the features newly
        learned, each a HiddenFeature(position, feature); [] when none, when nothing
        new was there to look under, or when the hero is hallucinating, stunned or
        confused (NetHack refuses the view then).
        """
        if self._game.done:
            return []
        mem = self._level_memory()  # fold the ordinary display in first: the view below is not one
        covered = G.IS_ITEM[mem.glyphs]
        if not (covered & ~mem.looked_under).any():
            return []
        ex = Exchange()
        self._ensure_ready(ex)
        self._kb.type_keys("#terrain", ex)
        self._kb.press(ENTER)
        view = None
        p = self._kb.prompt()
        if p.kind is PromptKind.MENU and any(e.letter == "a" for e in p.entries):
            self._kb.press("a")  # "known map without monsters, objects, and traps"
            view = np.array(self._obs()["glyphs"])
            # NetHack now lets the cursor browse the view: ESC ends it and redraws the map.
            self._kb.press(ESC)
        self._kb.settle(ex)
        if view is None:
            return []
        mem.looked_under |= covered
        found: list[HiddenFeature] = []
        for y, x in zip(*np.nonzero(covered)):
            glyph = int(view[y, x])
            name = G.feature(glyph)
            if name in self._UNDER_OBJECTS and int(mem.terrain[y, x]) != glyph:
                pos = Position(int(x), int(y))
                mem.remember_terrain(pos, glyph)
                found.append(HiddenFeature(pos, name))
        return found

    async def get_dungeon_overview(self) -> DungeonOverview:
        """
        NetHack's dungeon overview (#overview, as Ctrl-O): every level you
        remember something about, and the one you are on; takes no game time.
        Returns a DungeonOverview: ``levels``, each an OverviewLevel with
        dungeon ("The Dungeons of Doom", "The Gnomish Mines"), level (Dlvl),
        features (shops, temples, altars, thrones, fountains, sinks, graves,
        trees as NetHack counts them: "a fountain", "some fountains", "an altar
        to Anhur"), branch ("Stairs down to The Gnomish Mines"), annotations
        (Oracle, Sokoban solved or not, your own notes) and is_current;
        ``current`` is the level you are on. Only features the hero has seen
        are listed. ``error`` is set (and the result falsy) only when the game
        is over or the overview could not be read.
        """
        if self._game.done:
            return DungeonOverview([], "", error="the game is over; no more actions are possible")
        ex = Exchange()
        self._ensure_ready(ex)
        self._kb.type_keys("#overview", ex)
        self._kb.press(ENTER)
        lines: list[str] = []
        for _ in range(30):
            p = self._kb.prompt()
            if p.kind in (PromptKind.NONE, PromptKind.GAME_OVER):
                break
            if p.kind is PromptKind.MORE:
                lines += self._window_lines()
                self._kb.press(ENTER)
            else:
                self._kb.press(ESC)
        self._kb.settle(Exchange())
        levels = parse_overview(lines)
        text = "\n".join(ln.rstrip() for ln in lines)
        if not levels:
            return DungeonOverview([], text, error="the overview showed no levels: " + (text or "nothing"))
        return DungeonOverview(levels, text)

    async def get_spells(self) -> list[Spell]:
        """
        The spells the hero knows, as NetHack's ``+`` menu lists them; takes no
        game time. Each is a Spell: ``letter`` (what cast_spell takes), ``name``
        ("force bolt"), ``level`` (1-7; casting costs ``pw_cost`` = 5 x level
        Pw), ``school`` (NetHack's category: "attack", "healing",
        "divination", "enchantment", "clerical", "escape", "matter"),
        ``fail_percent`` (the chance a casting fails, its Pw spent all the
        same: armour, a shield and a low Int or Wis raise it) and
        ``retention`` ("100%"; "(gone)" for a spell forgotten, which cannot be
        cast). Every Wizard knows force bolt and every Healer healing; Priests
        and Monks start with one or two others. Empty when the hero knows no
        spell (most fighters) or the game is over.
        """
        if self._game.done:
            return []
        ex = Exchange()
        self._ensure_ready(ex)
        self._kb.press(ord("+"))
        spells: list[Spell] = []
        p = self._kb.prompt()
        if p.kind is PromptKind.MENU:
            for e in p.entries:
                m = _SPELL_LINE.match(e.text or "")
                if m and len(e.letter) == 1 and e.letter.isalpha():
                    spells.append(Spell(e.letter, m["name"], int(m["level"]), m["school"], int(m["fail"]),
                                        m["retention"]))
        if p.kind not in (PromptKind.NONE, PromptKind.GAME_OVER):
            self._kb.press(ESC)
        self._kb.settle(Exchange())
        return spells

    def _window_lines(self) -> list[str]:
        """The lines of the text window on screen, with their indentation (the window's
        text starts in the column of its --More--; at column 0 or 1 it fills the screen)."""
        lines = self._kb.screen_lines()
        row = next((r for r in range(len(lines) - 1, -1, -1) if "--More--" in lines[r]), None)
        if row is None:
            return []
        col = lines[row].index("--More--")
        col = 0 if col <= 1 else col
        return [ln[col:].rstrip() for ln in lines[:row] if ln[col:].strip()]

    async def chat(self, direction: str, offer: int = 0) -> ActionResult:
        """
        Talk to the monster next to you in a direction (#chat) and return what it
        says in ``messages``: a shopkeeper greets you or quotes a price, a
        watchman grumbles, a pet purrs, a priest asks for a donation.
        direction: 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'.
        offer: the gold to give when a temple priest asks "How much will you
        offer?" (default 0: nothing, which a priest of your own god takes
        badly: alignment -1). From 400 to 599 times your experience level buys
        divine protection, AC 2-4 better the first time and 1 better each time
        after ("Thou hast been rewarded for thy devotion"), cheapest at a low
        level; "Thy selfless generosity is deeply appreciated" means no more
        was given. Refused (nothing sent) when offer is not a whole number from
        0 to the gold you carry. Takes a turn when someone answers. Fails when
        nobody is there (the error names the monsters next to you), or when
        the monster is asleep or cannot move ("seems not to notice you").
        """
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        if isinstance(offer, bool) or not isinstance(offer, int) or offer < 0:
            return self._fail(f"offer must be a whole number of gold pieces, 0 or more (got {offer!r})")
        if offer:
            gold = (await self.get_stats()).gold
            if offer > gold:
                return self._fail(f"you carry {gold} gold: offer at most that much (asked {offer})")
        rules = [
            Rule(r"Talk to whom", key, limit=1),
            Rule(r"How much will you offer", str(offer) if offer else None, kinds=(PromptKind.TEXT,), limit=1),
        ]

        def answered(ex: Exchange, before: tuple, after: tuple) -> bool:
            said = [m for m in ex.messages if not re.match(r"Talk to whom", m)]
            return ((after[0] != before[0] or bool(said)) and not any(_FAILURES.search(m) for m in said)
                    and not any(_NO_ANSWER.search(m) for m in said))

        hero = self._hero()
        there = hero.offset(normalize_direction(direction) or "n")
        res = self._act("#chat\r", rules, success=answered)
        res.messages = [m for m in res.messages if not re.match(r"Talk to whom", m)]
        if res.success:
            return res
        shown = next((m for m in await self.get_visible_monsters() if m.position == there), None)
        if any(_NOT_NOTICED.search(m) for m in res.messages):
            res.error = f"{res.messages[-1]} (asleep or unable to move): nothing was said"
        elif any(_NO_ANSWER.search(m) for m in res.messages):
            res.error = f"nothing was said: {res.messages[-1]}"
        elif shown is not None and not res.messages:
            res.error = f"the {shown.name} at ({there.x}, {there.y}) makes no answer (it cannot speak)"
        elif not res.messages:
            near = [f"{m.name} ({hero.direction_to(m.position)})" for m in await self.get_adjacent_monsters()]
            res.error = (f"nobody to talk to at ({there.x}, {there.y}); monsters next to you: "
                         f"{', '.join(near) or 'none'}")
        return res

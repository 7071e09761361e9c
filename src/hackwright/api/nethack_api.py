"""NetHackAPI: the high-level, async interface skills call (spec §4.2).

Every action method returns an :class:`ActionResult` with the game back at the
ordinary command prompt; bad input (an unknown inventory letter, an invalid
direction, a position off the map) gives ``success=False`` and an ``error`` that
says what would be valid — never an exception and never a prompt left open.
State queries are cached until the next key reaches the game.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Optional

import numpy as np
from nle import nethack as nh_bl

from ..env.make import Game, GameConfig
from . import glyphs as G
from . import integrity, knowledge, maps, observe
from .keyboard import ESC, Exchange, Keyboard, Prompt, PromptKind, Rule
from .models import (
    DIRECTIONS,
    ActionResult,
    GameEvent,
    HungerState,
    DungeonLevel,
    Item,
    ItemInfo,
    Monster,
    MonsterInfo,
    Position,
    Stats,
    Tile,
    normalize_direction,
)

# vi-keys (number_pad is off in NLE's options).
DIRECTION_KEYS = {"n": "k", "s": "j", "e": "l", "w": "h", "ne": "u", "nw": "y", "se": "n", "sw": "b"}
VERTICAL_KEYS = {"up": "<", "down": ">", "self": "."}
KICK = chr(4)  # ^D
PRAY = chr(ord("p") | 0x80)  # M-p, NetHack's #pray
LOOK_HERE = ":"
ATTRIBUTES = chr(24)  # ^X

EQUIPMENT_SLOTS = (
    "weapon",
    "off hand",
    "alternate weapon",
    "quiver",
    "body armor",
    "cloak",
    "shirt",
    "helmet",
    "gloves",
    "boots",
    "shield",
    "amulet",
    "left ring",
    "right ring",
    "eyewear",
)

# Messages that mean the command did not do what was asked.
_FAILURES = re.compile(
    r"You don't have that object|Never mind|You can't |You cannot |There is nothing here to|"
    r"You don't have anything to|That is a silly thing|You are not wearing|You aren't wearing|"
    r"You are already wearing|You have no free|It's a wall|It's solid stone|"
    r"This door is locked|You see no door there|This door is already open|"
    r"This door is broken|is in your way|You are carrying too much to get through|"
    r"You don't know any spells|You are not able to|You have nothing to|"
    r"You are already wielding|There is nothing here|You don't see anything|"
    r"You see no objects here|Not wearing any|You have no secondary weapon|"
    r"You move diagonally|You can't move diagonally|Really attack.*\[escaped\]|\[escaped\]"
)

_ENGRAVED = re.compile(r"You (write in the dust|engrave in|burn into|melt into|scrawl|graffiti)|"
                       r"You (write|engrave|burn|melt) (in|into|on) ")
_WELCOME = re.compile(r"You are an? (\w+) (?:(female|male|neuter) )?(\w+(?:-\w+)?) (\w+)\.")
_ATTRIBUTES = re.compile(r"level \d+ (?:(female|male|neuter) )?(\w+) (\w+)\.")
_RACE_ADJ = {"human": "human", "elven": "elf", "elf": "elf", "dwarven": "dwarf", "dwarf": "dwarf",
             "gnomish": "gnome", "gnome": "gnome", "orcish": "orc", "orc": "orc"}


# A monster's blow at the hero: "The kitten bites!" (a blow at another monster names it).
_HITS_HERO = re.compile(r"\bThe ([a-z][a-z -]*?) (?:bites|hits|kicks|claws|scratches|butts|stings|touches)!")

# A monster using a wand: "The gnome lord zaps a brass wand!" (then striking, sleep, cold...).
_ZAPS = re.compile(r"\bThe ([a-z][a-z -]*?) zaps (?:an? |the )?[a-z -]*?wand")

# What an angry god says or does (pray.c angrygods, godwrath, gods_upset): any of
# these means the prayer came too soon or with bad Luck, the god is now angry and
# every further prayer makes it worse (lost levels, cursed items, minions, lightning).
# God names have several words ("Amaterasu Omikami"), so the name is not matched.
_ANGRY_GOD = re.compile(
    r"is displeased|Thou (?:art arrogant|hast strayed|must relearn|durst|hast angered)|"
    r"glow surrounds you|Then die|smit|You feel guilty|angry|lightning|fry to a crisp|"
    r"You are being punished",
    re.I,
)


class NetHackAPI:
    """
    High-level API for interacting with NetHack.
    Exposed to agent-generated skill code.

    Directions are compass names: 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'
    ('north', 'south-west' … are accepted too); zap, cast and kick also take
    'up', 'down' and 'self'. Positions are ``Position(x, y)`` with x the column
    (0..78) and y the map row (0..20).
    """

    def __init__(self, game: Game):
        self._game = game
        self._kb = Keyboard(game)
        self._maps = maps.MapMemory()
        self._prayer = knowledge.PrayerClock()
        self._lycanthropy = False  # "You feel feverish." until a cure ("You feel purified.")
        self._watched_levels: set[tuple[int, int]] = set()  # levels where the town watch was seen
        self._shop_levels: set[tuple[int, int]] = set()  # levels where a shopkeeper was heard
        self._fever_seen = 0  # messages_seen already scanned for it
        self._cache: dict[str, Any] = {}
        self._cache_step = -1
        self._mem_step = -1
        self.hero_race: Optional[str] = None
        self.hero_role: Optional[str] = None
        self.hero_gender: Optional[str] = None
        self.hero_alignment: Optional[str] = None
        self._too_heavy_to_squeeze = False
        self._untouchable: dict[tuple[int, int], dict[Position, tuple[str, int]]] = {}  # level -> square -> (name, turn)
        self.after_action: list[Callable[["NetHackAPI"], None]] = []  # e.g. the skill runner's event monitor
        self.events: list[GameEvent] = []  # filled by whoever watches (see skills.triggers)
        self._last_blstats = np.zeros(27, dtype=np.int64)  # survives NLE zeroing blstats at death
        self._pending_glyphs = np.zeros((21, 79), dtype=np.int16)
        self._pending_visits: list[tuple[int, int, int, bool]] = []
        self._pending_key: Optional[tuple[int, int]] = None
        self.actions_taken = 0

    # ------------------------------------------------------------ lifecycle
    @classmethod
    def new_game(cls, config: Optional[GameConfig] = None, **kwargs: Any) -> "NetHackAPI":
        """Start a game (``GameConfig`` fields as keywords: seed=, role=, env_id= …)."""
        game = Game(config or GameConfig(**kwargs))
        api = cls(game)
        api.reset()
        return api

    def reset(self) -> list[str]:
        """Start the game afresh; returns the opening messages."""
        self._game.reset()
        self._maps = maps.MapMemory()
        self._prayer = knowledge.PrayerClock()
        self._lycanthropy = False
        self._fever_seen = 0
        self._watched_levels = set()
        self._shop_levels = set()
        self._turned_pets: set[str] = set()  # species whose "tame" one attacked the hero
        self._zappers: dict[str, int] = {}  # species -> last turn one zapped a wand in view
        self._cache.clear()
        self._cache_step = -1
        self._mem_step = -1
        self._pending_visits.clear()
        self._pending_key = None
        self._last_blstats[:] = 0
        self.actions_taken = 0
        ex = Exchange()
        self._kb._note(ex, self._kb.prompt().text)
        self._kb.settle(ex)
        self._learn_character(" ".join(ex.messages))
        self._refresh()
        self._learn_square_underfoot()
        return ex.messages

    _UNDERFOOT = {
        "staircase up": G.S_UPSTAIR, "staircase down": G.S_DNSTAIR, "ladder up": G.S_UPLADDER,
        "ladder down": G.S_DNLADDER, "fountain": G.S_FOUNTAIN, "sink": G.S_SINK, "throne": G.S_THRONE,
        "grave": G.S_GRAVE,
    }

    # NetHack's trap names, in the order of their map symbols (S_arrow_trap onwards).
    _TRAP_NAMES = ("arrow trap", "dart trap", "falling rock trap", "squeaky board", "bear trap", "land mine",
                   "rolling boulder trap", "sleeping gas trap", "rust trap", "fire trap", "pit", "spiked pit",
                   "hole", "trap door", "teleportation trap", "level teleporter", "magic portal", "web",
                   "statue trap", "magic trap", "anti-magic field", "polymorph trap")

    # What NetHack says when the hero sets a trap off (or is told it stands on one).
    _TRAP_SIGNS = ((r"rock falls on your head", "falling rock trap"), (r"rolling boulder trap", "rolling boulder trap"),
                   (r"An arrow shoots out", "arrow trap"), (r"little dart shoots out", "dart trap"),
                   (r"board beneath you squeaks", "squeaky board"), (r"bear trap closes", "bear trap"),
                   (r"land mine", "land mine"), (r"cloud of gas", "sleeping gas trap"),
                   (r"gush of water", "rust trap"), (r"tower of flame", "fire trap"),
                   (r"You (?:fall|land) (?:into|in|on) (?:a|the) pit", "pit"), (r"sharp iron spikes", "spiked pit"),
                   (r"There is an? ([a-z -]+) here", None))

    def _learn_trap_underfoot(self, text: str) -> None:
        """A trap the hero just set off (or is told it stands on) lies under the hero's own
        glyph, so the map never shows it: remember it, or paths lead over it again (a
        Cavewoman met the same rolling boulder twice in five turns)."""
        if self._game.done or not text:
            return
        for pattern, name in self._TRAP_SIGNS:
            m = re.search(pattern, text)
            if m is None:
                continue
            name = name or m.group(1)
            if name in self._TRAP_NAMES:
                cmap = G.S_ARROW_TRAP + self._TRAP_NAMES.index(name)
                self._level_memory().remember_terrain(self._hero(), nh_bl.GLYPH_CMAP_OFF + cmap)
                return

    def _learn_square_underfoot(self) -> None:
        """The hero hides the square it stands on; ask NetHack (':' takes no time) so
        that, e.g., the up stairs one arrives on are on the map at once."""
        if self._game.done:
            return
        text = " ".join(self._look_texts())
        m = re.search(r"There is an? (staircase up|staircase down|ladder up|ladder down|fountain|sink|throne|"
                      r"grave)\b", text)
        altar = re.search(r"There is an altar", text)
        cmap = self._UNDERFOOT.get(m.group(1)) if m else (G.S_ALTAR if altar else None)
        if cmap is not None:
            mem = self._level_memory()
            hero = self._hero()
            mem.remember_terrain(hero, nh_bl.GLYPH_CMAP_OFF + cmap)

    @property
    def game(self) -> Game:
        return self._game

    @property
    def game_over(self) -> bool:
        """True once the hero has died (or the game ended otherwise)."""
        return self._game.done

    def close(self) -> None:
        self._game.close()

    def _learn_character(self, text: str) -> None:
        m = _WELCOME.search(text)
        if m:
            self.hero_alignment, self.hero_gender = m.group(1).lower(), (m.group(2) or "").lower() or None
            self.hero_race = _RACE_ADJ.get(m.group(3).lower(), m.group(3).lower())
            self.hero_role = m.group(4)
            return
        # The welcome scrolled away (e.g. behind a full-moon message): ask ^X.
        ex = Exchange()
        self._kb.type_keys(ATTRIBUTES, ex)
        seen: list[str] = []
        for _ in range(20):
            p = self._kb.prompt()
            if p.kind is PromptKind.NONE or self._game.done:
                break
            seen.append(p.text)
            self._kb.press(ESC if p.kind is not PromptKind.MORE else " ")
        m = _ATTRIBUTES.search(" ".join(seen).replace("\n", " "))
        if m:
            self.hero_gender = (m.group(1) or "").lower() or None
            self.hero_race = _RACE_ADJ.get(m.group(2).lower(), m.group(2).lower())
            self.hero_role = m.group(3)

    # ------------------------------------------------------------ caching
    def _obs(self) -> dict:
        return self._game.obs

    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        if self._cache_step != self._game.steps:
            self._cache.clear()
            self._cache_step = self._game.steps
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def _stats_now(self) -> Stats:
        def make() -> Stats:
            s = observe.decode_stats(self._obs()["blstats"])
            if self._game.done and s.max_hp == 0 and self.last_stats is not None:
                return self.last_stats  # NLE zeroes blstats in the final observation
            return s

        return self._cached("stats", make)

    def _hero(self) -> Position:
        return self._stats_now().position or Position(0, 0)

    def _level_memory(self, fold: bool = True) -> maps.LevelMemory:
        """The remembered map of the current level, brought up to date (with
        ``fold=False``, without folding the display in: as the skills last saw it)."""
        self._refresh()
        if fold:
            self._fold()
        dnum, dlevel = self._pending_key or (0, 1)
        s = self._stats_now()
        return self._maps.level_for(dnum, dlevel, s.dungeon_level, s.branch)

    def _refresh(self) -> None:
        """Note the hero's square after an action (cheap); the display itself is
        folded into the remembered map only when the map is asked for (_fold)."""
        if self._mem_step == self._game.steps or self._game.done:
            return
        self._mem_step = self._game.steps
        o = self._obs()
        bl = o["blstats"]
        if int(bl[nh_bl.NLE_BL_HPMAX]) <= 0:
            return  # the final observation after death is all zeros
        key = (int(bl[nh_bl.NLE_BL_DNUM]), int(bl[nh_bl.NLE_BL_DLEVEL]))
        if self._pending_key is not None and key != self._pending_key:
            self._fold()  # the old level gets its last display before we move on
        np.copyto(self._last_blstats, bl)
        self._pending_key = key
        np.copyto(self._pending_glyphs, o["glyphs"])
        blind = bool(int(bl[nh_bl.NLE_BL_CONDITION]) & nh_bl.BL_MASK_BLIND)
        self._pending_visits.append((int(bl[0]), int(bl[1]), int(bl[nh_bl.NLE_BL_TIME]), blind))

    def _fold(self) -> None:
        if not self._pending_visits or self._pending_key is None:
            return
        b = self._last_blstats
        level = self._maps.level_for(
            self._pending_key[0], self._pending_key[1], int(b[nh_bl.NLE_BL_DEPTH]),
            observe.branch_name(self._pending_key[0]),
        )
        *earlier, (x, y, turn, blind) = self._pending_visits
        for vx, vy, vturn, vblind in earlier:
            level.visit(Position(vx, vy), vturn, blind=vblind)
        level.update(self._pending_glyphs, Position(x, y), turn, blind=blind)
        self._pending_visits.clear()

    @property
    def last_stats(self) -> Optional[Stats]:
        """The last stats of a living hero (NLE zeroes them in the final observation)."""
        live = getattr(self._game, "live_blstats", None)
        if live is not None:
            return observe.decode_stats(live)
        if int(self._last_blstats[nh_bl.NLE_BL_HPMAX]) <= 0:
            return None
        return observe.decode_stats(self._last_blstats)

    # ------------------------------------------------------------ state queries
    async def get_stats(self) -> Stats:
        """Get current player statistics."""
        return self._stats_now()

    async def get_position(self) -> Position:
        """Get player's current position."""
        return self._hero()

    async def get_screen(self) -> str:
        """Get the raw ASCII screen (24x80)."""
        return self._cached("screen", lambda: "\n".join(self._kb.screen_lines()))

    async def get_messages(self, n: int = 10) -> list[str]:
        """Get the last n game messages (oldest first)."""
        return list(self._kb.history[-n:]) if n > 0 else []

    async def get_current_level(self) -> DungeonLevel:
        """Get parsed representation of current dungeon level.

        ``tiles[y][x]`` covers the whole 21x79 map as the hero remembers it, not
        only what is in view; ``explored_percentage`` is 100 when no frontier is left.
        """
        self._refresh()
        return self._cached("level", self._build_level)

    def _build_level(self) -> DungeonLevel:
        level = self._level_memory().to_dungeon_level(self._stats_now().level_in_branch)
        # A glyph encodes an object's true type; describe objects as the hero sees
        # them (or by their class where the screen no longer describes them).
        obs = self._obs()
        ys, xs = np.nonzero(G.IS_ITEM[self._level_memory().glyphs])
        for y, x in zip(ys.tolist(), xs.tolist()):
            t = level.tiles[y][x]
            t.description = observe.screen_description(obs, t.position) or (G.object_class_name(t.glyph) or "object")
        return level

    async def get_visible_monsters(self) -> list[Monster]:
        """Get all monsters currently visible, nearest first (pets included; check is_tame)."""
        return self._monsters_now()

    def _monsters_now(self) -> list[Monster]:
        def make() -> list[Monster]:
            out = observe.visible_monsters(self._obs(), self._hero())
            return [dataclasses.replace(m, is_tame=False) if m.is_tame and m.name in self._turned_pets else m
                    for m in out]

        return self._cached("monsters", make)

    async def get_adjacent_monsters(self) -> list[Monster]:
        """Get monsters in the 8 adjacent tiles."""
        hero = self._hero()
        return [m for m in await self.get_visible_monsters() if m.position.is_adjacent(hero)]

    async def get_items_at(self, pos: Position) -> list[Item]:
        """Get items at a specific position (the map shows only the top item of a pile)."""
        pos = _as_position(pos)
        if pos is None or not pos.on_map():
            return []
        if pos == self._hero():
            return await self.get_items_here()
        item = observe.item_on_map(self._obs(), pos)
        if item is None:
            g = int(self._level_memory().glyphs[pos.y, pos.x])
            if G.IS_ITEM[g]:
                item = observe.make_item(g, G.description(g), None, pos)
        return [item] if item else []

    async def get_items_here(self) -> list[Item]:
        """Get items at player's current position (looks with ':', takes no game time)."""
        if self._game.done:
            return []
        key = f"here@{self._game.steps}"
        if key in self._cache:
            return self._cache[key]
        hero = self._hero()
        lines = self._look_here()
        items = [_item_from_text(t, hero) for t in lines]
        self._cached(f"here@{self._game.steps}", lambda: items)
        return items

    def _look_here(self) -> list[str]:
        """Lines naming the objects on the hero's square. ':' names a single
        object; a pile is read from the pick-up menu (escaped, nothing taken),
        which pages reliably where ':' shows a long pile as a full-screen text."""
        texts = self._look_texts()
        joined = "\n".join(texts)
        single = re.search(r"You (?:see|feel) here (.+?)\.(?:\s|$)", joined)
        if single and "Things that" not in joined:
            return [single.group(1)]
        lines = [
            ln.strip() for ln in joined.splitlines()
            if ln.strip() and not re.match(r"There is .* here|There are .* here|You (see|feel) no objects|"
                                           r"Things that|You have no|Never mind", ln.strip())
        ]
        if not lines:
            return []
        # Two or more objects: ',' shows a menu, so listing through it takes nothing.
        from_menu = self._pickup_menu_entries() if len(lines) >= 2 else []
        return from_menu or lines

    def _look_texts(self) -> list[str]:
        """What ':' shows (messages and window lines); takes no game time."""
        self._ensure_ready(Exchange())
        texts: list[str] = []
        self._kb.press(LOOK_HERE)
        for _ in range(60):
            p = self._kb.prompt()
            if p.kind in (PromptKind.NONE, PromptKind.GAME_OVER):
                texts.append(p.text)
                break
            texts.append(p.text)
            self._kb.press(ESC if p.kind in (PromptKind.QUESTION, PromptKind.TEXT, PromptKind.MENU) else "\r")
        self._kb.settle(Exchange())
        return texts

    def _pickup_menu_entries(self) -> list[str]:
        entries: list[str] = []
        self._kb.press(",")
        p = self._kb.prompt()
        if p.kind is PromptKind.MENU:
            for _ in range(p.pages + 1):
                entries += [e.text for e in p.entries]
                if p.page >= p.pages:
                    break
                self._kb.press(">")
                nxt = self._kb.prompt()
                if nxt.kind is not PromptKind.MENU or nxt.page == p.page:
                    break
                p = nxt
            self._kb.press(ESC)
        self._kb.settle(Exchange())
        return entries

    async def get_inventory(self) -> list[Item]:
        """Get current inventory."""
        return self._cached("inventory", lambda: observe.inventory(self._obs()))

    async def get_equipment(self) -> dict[str, Optional[Item]]:
        """Get equipped items by slot: weapon, off hand, alternate weapon, quiver,
        body armor, cloak, shirt, helmet, gloves, boots, shield, amulet,
        left ring, right ring, eyewear (None where nothing is equipped)."""
        eq: dict[str, Optional[Item]] = {slot: None for slot in EQUIPMENT_SLOTS}
        for item in await self.get_inventory():
            if item.equipped and item.equipped in eq and eq[item.equipped] is None:
                eq[item.equipped] = item
        return eq

    async def get_status_effects(self) -> list[str]:
        """Get active status effects (Blind, Confused, Stunned, Hallucinating,
        Food poisoned, Ill, Stoned, Slimed, Strangled, Levitating, …, plus a
        hunger state other than Not Hungry and any burden), "Engulfed" while
        something has swallowed the hero (then any attack, in any direction, hits
        the engulfer; walking, searching and Elbereth do nothing), and "Lycanthropy"
        from a were-creature's bite ("You feel feverish") until cured: a prayer
        with timeout <= 200 cures it, as it is major trouble."""
        out = observe.status_effects(self._obs()["blstats"])
        if maps.is_swallowed(self._obs()["glyphs"], self._hero()):
            out.append("Engulfed")
        if self._has_lycanthropy():
            out.append("Lycanthropy")
        return out

    def _has_lycanthropy(self) -> bool:
        # The status line never shows it: only the messages tell.
        kb = self._kb
        fresh = min(kb.messages_seen - self._fever_seen, len(kb.history))
        self._fever_seen = kb.messages_seen
        for text in kb.history[len(kb.history) - fresh:] if fresh > 0 else ():
            if "You feel feverish" in text:
                self._lycanthropy = True
            elif "You feel purified" in text:
                self._lycanthropy = False
        return self._lycanthropy

    async def get_comprehensive_state(self) -> dict[str, Any]:
        """Stats, position, monsters, inventory, level and messages in one call."""
        return {
            "stats": await self.get_stats(),
            "position": await self.get_position(),
            "monsters": await self.get_visible_monsters(),
            "inventory": await self.get_inventory(),
            "status_effects": await self.get_status_effects(),
            "messages": await self.get_messages(10),
            "level": await self.get_current_level(),
        }

    # ------------------------------------------------------------ action core
    def _ensure_ready(self, ex: Exchange) -> None:
        if not self._game.done and not self._kb.at_command_prompt():
            self._kb.settle(ex)

    def _snapshot(self) -> tuple:
        o = self._obs()
        return (
            int(o["blstats"][20]),
            o["glyphs"].tobytes(),
            o["blstats"].tobytes(),
            o["inv_strs"].tobytes(),
        )

    _WATCH_GLYPHS = np.array([nh_bl.GLYPH_MON_OFF + i for i in range(nh_bl.NUMMONS)
                              if nh_bl.permonst(i).mname in ("watchman", "watch captain")])

    def _after_action(self) -> None:
        if not self._game.done and np.isin(self._obs()["glyphs"], self._WATCH_GLYPHS).any():
            self._watched_levels.add(self._where()[:2])  # the town watch lives here
        for hook in list(self.after_action):
            hook(self)

    def _note_messages(self, messages: list[str]) -> None:
        """What the messages of an action tell about the monsters around (see below)."""
        self._note_turned_pets(messages)
        for m in messages:
            for name in _ZAPS.findall(m):
                self._zappers[name.lower()] = self._stats_now().turn

    def _note_turned_pets(self, messages: list[str]) -> None:
        """A pet never attacks the hero, and the game calls it "your kitten". "The kitten
        bites!" while the only kitten in view is drawn as tame means it has gone wild
        (abused, or the drawing is stale): from then on it counts as hostile. (A pet
        kitten drawn tame was let bite a Barbarian to death on Dlvl 1.)"""
        for m in messages:
            for name in _HITS_HERO.findall(m):
                name = name.lower()
                seen = [x for x in observe.visible_monsters(self._obs(), self._hero()) if x.name == name]
                if seen and all(x.is_tame for x in seen) and name not in self._turned_pets:
                    self._turned_pets.add(name)
                    self._cache.pop("monsters", None)  # listed as tame already this turn

    def _fail(self, error: str) -> ActionResult:
        return ActionResult(False, [], False, False, error, game_over=self._game.done)

    def _act(
        self,
        keys: str,
        rules: tuple[Rule, ...] | list[Rule] = (),
        *,
        success: Optional[Callable[[Exchange, tuple, tuple], bool]] = None,
    ) -> ActionResult:
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        ex = Exchange()
        self._ensure_ready(ex)
        before = self._snapshot()
        self._kb.type_keys(keys, ex)
        self._kb.settle(ex, rules)
        self.actions_taken += 1
        self._refresh()
        if any(_SHOP_SOUNDS.search(m) for m in ex.messages):
            self._shop_levels.add(self._where()[:2])
        self._note_messages(ex.messages)
        self._after_action()
        if self._game.done:
            return ActionResult(False, ex.messages, True, True, "the hero died (game over)", game_over=True)
        after = self._snapshot()
        turn_elapsed = after[0] != before[0]
        changed = after != before
        failed_msg = next((m for m in ex.messages if _FAILURES.search(m)), None)
        errors = list(ex.errors)
        if success is not None:
            ok = success(ex, before, after) and not errors
        else:
            ok = not errors and failed_msg is None and changed
        if not ok and not errors:
            errors.append(failed_msg or (ex.messages[-1] if ex.messages else "nothing happened"))
        return ActionResult(ok, ex.messages, turn_elapsed, changed, "; ".join(dict.fromkeys(errors)) if errors else None)

    def _direction_key(self, direction: str, allow_vertical: bool = False) -> Optional[str]:
        d = normalize_direction(direction, allow_vertical)
        if d is None:
            return None
        return DIRECTION_KEYS.get(d) or VERTICAL_KEYS[d]

    @staticmethod
    def _bad_direction(direction: Any, allow_vertical: bool = False) -> str:
        valid = ", ".join(DIRECTIONS) + (", up, down, self" if allow_vertical else "")
        return f"invalid direction {direction!r}; use one of: {valid}"

    async def _item_letter_error(self, letter: Any, classes: tuple[str, ...] = (), what: str = "") -> Optional[str]:
        inv = await self.get_inventory()
        if isinstance(letter, str) and len(letter) == 1 and any(i.slot == letter for i in inv):
            return None
        pool = [i for i in inv if not classes or i.object_class in classes] or inv
        have = ", ".join(f"{i.slot} ({i.name})" for i in pool) or "nothing"
        kind = f" {what}" if what else ""
        return f"no inventory item with letter {letter!r}; your{kind} items are: {have}"

    def _peaceful_rule(self) -> Rule:
        return Rule(
            r"Really attack",
            "n",
            error="declined to attack a peaceful monster; walk around it instead",
            limit=5,
        )

    # ------------------------------------------------------------ actions
    async def move(self, direction: str) -> ActionResult:
        """
        Move in a direction.
        direction: 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'
        Moving into a hostile monster attacks it; into a pet swaps places;
        into a peaceful monster is declined (error) — go around it. So is
        moving into a monster that must not be touched (NEVER_TOUCH: a floating
        eye, a gas spore, a mold …): use attack() if that is really meant.
        """
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        start = self._hero()
        there = start.offset(normalize_direction(direction) or "n")
        for m in await self.get_visible_monsters():
            if m.position == there and m.name in self.NEVER_TOUCH and not m.is_tame:
                return self._fail(f"declined to walk into the {m.name}: touching it is deadly or crippling; "
                                  "go around it, shoot it (throw/fire), or attack() it if you really mean to")

        def moved(ex: Exchange, before: tuple, after: tuple) -> bool:
            return self._hero() != start or (after[0] != before[0] and not any(_FAILURES.search(m) for m in ex.messages))

        res = self._act(key, [self._peaceful_rule(), Rule(r"Really step", "y")], success=moved)
        text = " ".join(res.messages)
        self._learn_trap_underfoot(text)
        if "carrying too much to get through" in text:
            # Over 600 weight units the hero cannot squeeze diagonally between two rock
            # corners: paths avoid such gaps until something is dropped (drop()).
            self._too_heavy_to_squeeze = True
        if "diagonally out of an intact doorway" in text or "diagonally into an intact doorway" in text:
            # The hero hid the door it stands in (or the map lost it): remember it, or every
            # path would keep planning the same diagonal step (a Rogue stood 10,000 turns so).
            door = start if "out of" in text else there
            self._level_memory().remember_terrain(door, nh_bl.GLYPH_CMAP_OFF + G.S_VODOOR)
        return res

    async def move_to(self, target: Position) -> ActionResult:
        """
        Move one step toward target position.
        Uses pathfinding over the remembered map (walks around walls, water,
        lava, boulders, known traps, peaceful monsters and monsters that must not
        be touched, such as floating eyes and molds; swaps with pets) and
        opens a closed door that is the next step. Call it in a loop to walk.
        """
        target = _as_position(target)
        if target is None or not target.on_map():
            return self._fail(f"position {target!r} is off the map; x must be 0..78 and y 0..20")
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        hero = self._hero()
        if hero == target:
            return ActionResult(True, [], False, False, None)
        path = self._path(target)
        if path is None:
            return self._fail(
                f"no known path from ({hero.x}, {hero.y}) to ({target.x}, {target.y}); "
                "explore more (find_unexplored) or pick a square you have seen"
            )
        step = path[0]
        nxt = hero.offset(step)
        g = int(self._level_memory().glyphs[nxt.y, nxt.x])
        if G.CMAP_INDEX[g] in (G.S_VCDOOR, G.S_HCDOOR):
            opened = await self.open_door(step)
            # The map may remember a door as closed that was opened while something
            # stood in it (a pet in the doorway): then just walk through.
            if opened.success or "already open" not in (opened.error or "") + " ".join(opened.messages):
                return opened
        return await self.move(step)

    # Peacefuls never attacked even with peaceful_ok: they kill the hero (shopkeepers,
    # priests, the watch), or killing them costs Luck (humans and elves: murder; unicorns).
    NEVER_ANGER = ("shopkeeper", "priest", "priestess", "guard", "watchman", "watch captain", "Oracle",
                   "unicorn", "aligned priest", "high priest")

    async def attack(self, direction: str, peaceful_ok: bool = False) -> ActionResult:
        """Attack in a direction (force attack even if no monster). Peaceful
        monsters are not attacked (error) unless ``peaceful_ok``: then a weak one
        that blocks the only way on (a peaceful lichen in a corridor) is attacked
        and turns hostile (alignment -1). Even then never a shopkeeper, priest,
        guard, watchman, unicorn or any @ (human or elf: murder)."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        # 'F' skips NetHack's own "Really attack?" check, so look first.
        there = self._hero().offset(normalize_direction(direction) or "n")
        for m in await self.get_visible_monsters():
            if m.position == there and m.is_invisible_marker and self._near_peaceful_keepers():
                return self._fail("declined to attack an unseen monster here: it may be the shopkeeper or "
                                  "priest met a moment ago, and angering one is deadly; wait, or move away")
            if m.position == there and m.is_peaceful and not m.is_tame:
                if not peaceful_ok:
                    return self._fail(f"declined to attack the peaceful {m.name}; walk around it instead")
                if m.char == "@" or any(w in m.name for w in self.NEVER_ANGER):
                    return self._fail(f"declined to attack the peaceful {m.name}: angering it is deadly or "
                                      "costs Luck; wait for it to move, or go round")

        def swung(ex: Exchange, before: tuple, after: tuple) -> bool:
            return after[0] != before[0] or any(re.search(r"\byou (hit|miss|kill|destroy)", m, re.I) for m in ex.messages)

        rule = Rule(r"Really attack", "y", limit=1) if peaceful_ok else self._peaceful_rule()
        return self._act("F" + key, [rule], success=swung)

    def _near_peaceful_keepers(self) -> bool:
        """A shop or temple was entered lately (its greeting in the last 400 turns): a blind
        hero's unseen neighbour may well be the shopkeeper or the priest. (A blind Monk
        killed a shopkeeper's 'it' so, and the shopkeeper killed him.)"""
        now = self._stats_now().turn
        kb = self._kb
        for text, turn in zip(reversed(kb.history), reversed(kb.history_turns)):
            if turn < now - 400:
                break
            if re.search(r"Welcome to .*'s|sacred place|Pilgrim, you enter", text):
                return True
        return False

    async def wait(self) -> ActionResult:
        """Wait one turn (search in place)."""
        return await self.search()

    async def search(self, count: int = 1) -> ActionResult:
        """Search adjacent tiles for secrets (``count`` turns, stops if something appears)."""
        if not isinstance(count, int) or count < 1 or count > 200:
            return self._fail(f"count must be an integer 1..200, not {count!r}")
        hero = self._hero()
        keys = (str(count) if count > 1 else "") + "s"
        before_turn = self._stats_now().turn
        res = self._act(keys, success=lambda ex, b, a: a[0] != b[0])
        if not self._game.done:
            turns = max(1, self._stats_now().turn - before_turn)
            for _ in range(min(turns, count)):
                self._level_memory().record_search(hero)
        return res

    async def pickup(self, item_letter: Optional[str] = None) -> ActionResult:
        """
        Pick up items.
        If item_letter is None, picks up everything. Otherwise picks up only the
        matching item: a letter as shown in the pick-up menu, or part of the
        item's name ("dagger", "lichen corpse").
        Never makes you Burdened: an item too heavy to carry without that is left
        where it lies and the result's error says so (drop something first).
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        here = await self.get_items_here()
        if not here:
            return self._fail("there is nothing here to pick up")
        want = item_letter.strip().lower() if isinstance(item_letter, str) and item_letter.strip() else None
        if want and len(here) == 1 and len(want) > 1 and want not in here[0].text.lower():
            return self._fail(f"no item matching {item_letter!r} here; here is: {here[0].text}")

        def pick(p: Prompt) -> list[str]:
            if want is None:
                return [e.letter for e in p.entries]
            if len(want) == 1:
                return [e.letter for e in p.entries if e.letter == item_letter]
            return [e.letter for e in p.entries if want in e.text.lower()][:1]

        inv_before = self._obs()["inv_strs"].tobytes()
        gold_before = self._stats_now().gold

        def got_something(ex: Exchange, b: tuple, a: tuple) -> bool:
            return self._obs()["inv_strs"].tobytes() != inv_before or self._stats_now().gold != gold_before

        res = self._act(
            ",",
            [Rule(r"Pick up what|Pick an object", pick, kinds=(PromptKind.MENU,)),
             # A Burdened hero is slower in every fight and cannot squeeze through
             # diagonal gaps; heroes loaded with rocks and plate mail starved stuck.
             Rule(r"trouble lifting|Continue\?", "n", limit=60,
                  error="too heavy: carrying it would make you Burdened (slower, and unable to squeeze "
                        "through diagonal gaps); drop something you do not need first, or leave it"),
             Rule(r"How many|There is .* here; pick", "y")],
            success=got_something,
        )
        if not res.success and want and not res.turn_elapsed and not (res.error or "").startswith("too heavy"):
            res.error = f"no item matching {item_letter!r} here; here: {', '.join(i.text for i in here)}"
        return res

    async def drop(self, item_letter: str) -> ActionResult:
        """Drop an inventory item (the whole stack)."""
        err = await self._item_letter_error(item_letter)
        if err:
            return self._fail(err)
        inv_before = self._obs()["inv_strs"].tobytes()
        res = self._act(
            "d",
            [Rule(r"What do you want to drop", item_letter, limit=1)],
            success=lambda ex, b, a: self._obs()["inv_strs"].tobytes() != inv_before,
        )
        if res.success:
            self._too_heavy_to_squeeze = False  # lighter now: the next refusal teaches it again
            # (no fold: a fold at a new moment would change what later skills see)
            self._level_memory(fold=False).stashes.add(self._hero())
        return res

    async def eat(self, item_letter: Optional[str] = None) -> ActionResult:
        """
        Eat food.
        If item_letter is None, eats from ground or prompts (it eats the first
        edible thing on the floor; with none there it fails and lists your food).
        """
        if item_letter is not None:
            err = await self._item_letter_error(item_letter, ("food",), "food")
            if err:
                return self._fail(err)
            rules = [
                Rule(r"here; eat (it|one)\?", "n"),
                Rule(r"What do you want to eat", item_letter, limit=1),
            ]
        else:
            food = [i for i in await self.get_inventory() if i.object_class == "food"]
            listing = ", ".join(f"{i.slot} ({i.name})" for i in food) or "none"
            rules = [
                Rule(r"here; eat (it|one)\?", "y"),
                Rule(r"What do you want to eat", None, error=f"no food on the floor here; your food: {listing}"),
            ]
        rules += [Rule(r"Stop eating\?", "y"), Rule(r"Continue eating\?", "n")]
        return self._act("e", rules, success=lambda ex, b, a: a[0] != b[0] and not any(
            _FAILURES.search(m) for m in ex.messages))

    async def quaff(self, item_letter: str) -> ActionResult:
        """Drink a potion."""
        err = await self._item_letter_error(item_letter, ("potion",), "potion")
        if err:
            return self._fail(err)
        return self._act(
            "q",
            [Rule(r"Drink from the (fountain|sink)", "n"),
             Rule(r"What do you want to drink", item_letter, limit=1)],
            success=lambda ex, b, a: a[0] != b[0],
        )

    async def read(self, item_letter: str) -> ActionResult:
        """Read a scroll or spellbook."""
        err = await self._item_letter_error(item_letter, ("scroll", "spellbook"), "readable")
        if err:
            return self._fail(err)
        return self._act(
            "r",
            [Rule(r"What do you want to read", item_letter, limit=1),
             Rule(r"difficult to comprehend\. Continue", "n"),
             Rule(r"What would you like to identify", lambda p: [p.entries[0].letter] if p.entries else [],
                  kinds=(PromptKind.MENU,), limit=10)],
            success=lambda ex, b, a: a[0] != b[0] or a[3] != b[3],
        )

    async def zap(self, item_letter: str, direction: str) -> ActionResult:
        """Zap a wand in a direction (compass, or 'up', 'down', 'self')."""
        err = await self._item_letter_error(item_letter, ("wand",), "wand")
        if err:
            return self._fail(err)
        key = self._direction_key(direction, allow_vertical=True)
        if key is None:
            return self._fail(self._bad_direction(direction, True))
        return self._act(
            "z",
            [Rule(r"What do you want to zap", item_letter, limit=1), Rule(r"In what direction", key, limit=1)],
            success=lambda ex, b, a: a[0] != b[0],
        )

    async def wear(self, item_letter: str) -> ActionResult:
        """Wear armor (or put on a ring, amulet or blindfold)."""
        err = await self._item_letter_error(item_letter, ("armor",), "armor")
        if err:
            return self._fail(err)
        item = next(i for i in await self.get_inventory() if i.slot == item_letter)
        cmd = "P" if item.object_class in ("ring", "amulet") or (item.object_class == "tool") else "W"
        return self._act(
            cmd,
            [Rule(r"What do you want to (wear|put on)", item_letter, limit=1),
             Rule(r"Which ring-finger", "r")],
            success=lambda ex, b, a: a[3] != b[3],
        )

    async def wield(self, item_letter: str) -> ActionResult:
        """Wield a weapon ('-' for bare hands)."""
        if item_letter != "-":
            err = await self._item_letter_error(item_letter, ("weapon", "tool"), "weapon")
            if err:
                return self._fail(err)
        return self._act(
            "w",
            [Rule(r"What do you want to wield", item_letter, limit=1)],
            success=lambda ex, b, a: a[3] != b[3],
        )

    async def take_off(self, item_letter: str) -> ActionResult:
        """Remove worn armor (or a ring, amulet or blindfold)."""
        err = await self._item_letter_error(item_letter)
        if err:
            return self._fail(err)
        item = next(i for i in await self.get_inventory() if i.slot == item_letter)
        if not item.equipped or item.equipped in ("weapon", "alternate weapon", "quiver", "off hand"):
            worn = [i for i in await self.get_inventory() if i.equipped and i.equipped not in
                    ("weapon", "alternate weapon", "quiver", "off hand")]
            return self._fail(
                f"{item_letter} ({item.name}) is not worn; worn: "
                + (", ".join(f"{i.slot} ({i.name})" for i in worn) or "nothing")
            )
        cmd = "R" if item.object_class in ("ring", "amulet", "tool") else "T"
        return self._act(
            cmd,
            [Rule(r"What do you want to (take off|remove)", item_letter, limit=1)],
            success=lambda ex, b, a: a[3] != b[3],
        )

    async def open_door(self, direction: str) -> ActionResult:
        """Open a door."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        return self._act(
            "o",
            [Rule(r"In what direction", key, limit=1)],
            success=lambda ex, b, a: any(re.search(r"door opens|door crashes open", m) for m in ex.messages),
        )

    async def kick(self, direction: str) -> ActionResult:
        """Kick in a direction (can break doors). Refuses to kick a shop's door: a
        locked shop door ("Closed for inventory" written in front of it, a
        shopkeeper in view, or, on a level where a shopkeeper was heard, anything
        written in front of it at all) brings the shopkeeper out to kill you; and any
        door while the town watch is about (Minetown), who arrest door-breakers."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        target = self._hero().offset(normalize_direction(direction) or "n")
        if G.CMAP_INDEX[int(self._level_memory().terrain[target.y, target.x])] in (G.S_VCDOOR, G.S_HCDOOR):
            # Read what is written here (':' takes no game time): the notice lies before the door.
            here = " ".join(self._look_texts())
            recent = " ".join(self._kb.history[-6:]) + " " + here
            keeper = any(m.name == "shopkeeper" for m in observe.visible_monsters(self._obs(), self._hero()))
            if _closed_for_inventory(recent) or keeper:
                return self._fail("that is a shop's door (closed for inventory): kicking it brings the "
                                  "shopkeeper out to kill you; explore elsewhere")
            # The notice wears away under feet: on a level where a shopkeeper was heard,
            # any writing left before a locked door may be what is left of it. (A Barbarian
            # kicked a door whose notice was worn to "??   ???", and the shopkeeper killed
            # him.) No writing at all is no shop: a closed shop always has its notice, and
            # refusing every door on shop levels walled heroes in for 10,000 turns.
            if self._where()[:2] in self._shop_levels and re.search(r"written|engraved|You read", here):
                return self._fail("a shopkeeper was heard on this level, and a locked door may be his: "
                                  "kicking it brings him out to kill you; find another way")
            # Minetown's watch arrests door-breakers (the whole watch turns hostile).
            watch = any(m.name in ("watchman", "watch captain")
                        for m in observe.visible_monsters(self._obs(), self._hero()))
            if watch or self._where()[:2] in self._watched_levels:
                return self._fail("the town watch is about: breaking a door turns the whole watch "
                                  "hostile; find another way or wait for the door to be opened")
        return self._act(
            KICK,
            [Rule(r"In what direction", key, limit=1), self._peaceful_rule()],
            success=lambda ex, b, a: a[0] != b[0],
        )

    def _level_changed(self, before_bl: bytes) -> bool:
        b = np.frombuffer(before_bl, dtype=self._obs()["blstats"].dtype)
        a = self._obs()["blstats"]
        return bool(b[12] != a[12] or b[23] != a[23] or b[24] != a[24])

    async def go_up(self) -> ActionResult:
        """Ascend stairs (refuses to leave the dungeon from level 1, which ends the game)."""
        before = self._where()
        res = self._act(
            "<",
            [Rule(r"Beware, there will be no return|Still climb", "n",
                  error="climbing out of the dungeon ends the game; refused")],
            success=lambda ex, b, a: self._level_changed(b[2]),
        )
        if not res.success and res.error and "can't go up" in res.error.lower():
            res.error = self._stairs_hint("up")
        if res.success:
            self._learn_square_underfoot()
            self._note_branch_crossing(before, up=True)
        return res

    async def go_down(self) -> ActionResult:
        """Descend stairs."""
        before = self._where()
        res = self._act(">", success=lambda ex, b, a: self._level_changed(b[2]))
        if not res.success and res.error and "can't go down" in res.error.lower():
            mem, hero = self._level_memory(), self._hero()
            if hero in mem.all_stairs_down:
                # Remembered stairs that are not there: a mimic posed as them, and a Monk
                # tried to go down this square 1,200 times. Floor, then.
                mem.remember_terrain(hero, nh_bl.GLYPH_CMAP_OFF + G.S_ROOM)
            res.error = self._stairs_hint("down")
        if res.success:
            self._learn_square_underfoot()
            self._note_branch_crossing(before, up=False)
        return res

    def _where(self) -> tuple[int, int, str, Position]:
        bl = self._obs()["blstats"]
        return int(bl[23]), int(bl[24]), self._stats_now().branch, self._hero()

    def _note_branch_crossing(self, before: tuple[int, int, str, Position], up: bool) -> None:
        """Stairs that changed branch (into the Gnomish Mines, back out of them) are
        remembered on the main-branch level, so ``stairs_down`` prefers the other way."""
        dnum, dlevel, branch, pos = before
        now = self._where()
        if now[0] == dnum:
            return
        if not up:
            old = self._maps.get(dnum, dlevel)
            if old is not None:
                old.note_branch_stairs(pos, now[2])
        else:
            self._level_memory().note_branch_stairs(now[3], branch)

    def _stairs_hint(self, way: str) -> str:
        mem = self._level_memory()
        where = mem.stairs_down if way == "down" else mem.stairs_up
        hero = self._hero()
        if where is None:
            return f"there are no stairs {way} here, and none {way} seen on this level yet; explore to find them"
        return (
            f"there are no stairs {way} here at ({hero.x}, {hero.y}); the stairs {way} are at "
            f"({where.x}, {where.y}) — walk there with move_to first"
        )

    async def pray(self, force: bool = False) -> ActionResult:
        """Pray to your deity; refused while the prayer clock says it would anger your god.

        A prayer works when the prayer timeout (see get_prayer_timeout) is 0, or
        at most 100 with minor trouble (Hungry, Blind, Stunned, Confused,
        Hallucinating), or at most 200 with major trouble (HP at most 5 or below
        about 1/7 of max, Weak or Fainting, Stoned, Slimed, Strangled, Food
        poisoned, Ill, Lycanthropy); then your god fixes the worst trouble
        (HP restored, hunger reset, the illness cured). Praying sooner angers
        your god: Luck falls, and each further prayer brings worse punishment,
        up to death. So unless ``force`` is True, a prayer the clock says is too
        soon is refused before any key is sent: a failed result whose error
        gives the estimated timeout, what your trouble needs, and that
        force=True prays anyway. Use force=True only when the hero dies
        otherwise (the clock is cautious: the real timeout is often shorter).
        A prayer your god resents is a failed result too.
        """
        if not isinstance(force, bool):
            return self._fail(f"force must be True or False, not {force!r}")
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        turn = self._stats_now().turn
        if not force:
            stats = self._stats_now()
            trouble = knowledge.prayer_trouble(stats.hp, stats.max_hp, stats.hunger, stats.xp_level,
                                               await self.get_status_effects())
            why = self._prayer.too_soon(turn, trouble)
            if why is not None:
                return self._fail(f"not praying: {why}; pray(force=True) prays anyway")
        res = self._act(PRAY, [Rule(r"Are you sure you want to pray", "y")], success=lambda ex, b, a: a[0] != b[0])
        text = " ".join(res.messages)
        angry = _ANGRY_GOD.search(text)
        self._prayer.record_prayer(turn, succeeded=res.success and not angry)
        if angry and res.success:
            res.success = False
            res.error = "the prayer was not answered kindly (prayed too soon or with bad luck)"
        return res

    async def pay(self) -> ActionResult:
        """Pay the shopkeeper everything you owe: unpaid items you carry, and what you used
        up or ate in the shop ("You bite that, you pay for it!"). A shopkeeper who is owed
        money stands inside the shop's door and will not let you out. Fails (with the
        reason) when nothing is owed or your gold is not enough."""
        gold = self._stats_now().gold
        rules = [
            Rule(r"Itemized billing", "n"),  # no: pay for it all without a question per item
            Rule(r"Pay whom", chr(ESC), error="several shopkeepers are near: stand next to one"),
            Rule(r"Pay\?", "y"),
        ]
        res = self._act("p", rules, success=lambda ex, b, a: self._stats_now().gold < gold)
        if not res.success and res.error and re.search(r"do not owe|don't owe", res.error):
            res.error = "you owe nothing here"
        return res

    async def cast_spell(self, spell_letter: str, direction: Optional[str] = None) -> ActionResult:
        """Cast a memorized spell ('a' is the first spell). Direction for
        directional spells: compass, 'up', 'down' or 'self'."""
        key = None
        if direction is not None:
            key = self._direction_key(direction, allow_vertical=True)
            if key is None:
                return self._fail(self._bad_direction(direction, True))
        known: list[str] = []

        def pick(p: Prompt) -> list[str]:
            known.extend(f"{e.letter} ({e.text.split('  ')[0]})" for e in p.entries)
            return [e.letter for e in p.entries if e.letter == spell_letter][:1]

        rules = [
            Rule(r"Choose which spell", pick, kinds=(PromptKind.MENU,), limit=1),
            Rule(r"In what direction", key if key else None, limit=1,
                 error=None if key else "this spell needs a direction; pass direction="),
        ]
        res = self._act("Z", rules, success=lambda ex, b, a: a[0] != b[0] or a[2] != b[2])
        if not res.success and known and not any(k.startswith(spell_letter + " ") for k in known):
            res.error = f"no spell with letter {spell_letter!r}; you know: {', '.join(known)}"
        return res

    async def engrave(self, text: str = "Elbereth", item_letter: str = "-") -> ActionResult:
        """Engrave ``text`` on the floor here, by default in the dust with your
        fingers ('-'). "Elbereth" scares most monsters while you stand on it
        (not @ humans, minotaurs or shopkeepers; it smudges when you fight)."""
        if not isinstance(text, str) or not text or len(text) > 80 or any(ord(c) < 32 or ord(c) > 126 for c in text):
            return self._fail("text must be 1-80 printable ASCII characters")
        if item_letter != "-":
            err = await self._item_letter_error(item_letter)
            if err:
                return self._fail(err)
        return self._act(
            "E",
            [Rule(r"What do you want to (write|engrave|burn|scribble) with", item_letter, limit=1),
             Rule(r"Do you want to add to the current engraving", "n"),
             Rule(r"You will overwrite it|wipe out the message", "y"),
             Rule(r"What do you want to (write|engrave|burn|scribble|melt)", text, kinds=(PromptKind.TEXT,), limit=1)],
            # A fast hero may engrave without the turn counter moving: NetHack's own words tell.
            success=lambda ex, b, a: (a[0] != b[0] or any(_ENGRAVED.search(m) for m in ex.messages))
            and not any(_FAILURES.search(m) for m in ex.messages),
        )

    async def throw(self, item_letter: str, direction: str) -> ActionResult:
        """Throw an inventory item (daggers, darts, rocks …) in a direction."""
        err = await self._item_letter_error(item_letter, ("weapon", "gem", "rock"), "throwable")
        if err:
            return self._fail(err)
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        return self._act(
            "t",
            [Rule(r"What do you want to throw", item_letter, limit=1), Rule(r"In what direction", key, limit=1),
             Rule(r"You are wielding|Are you sure", "y")],
            success=_thrown,
        )

    async def fire(self, direction: str) -> ActionResult:
        """Fire what is in your quiver (arrows with a wielded bow, daggers …) in a direction."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        eq = await self.get_equipment()
        if eq["quiver"] is None:
            return self._fail("nothing is in your quiver; use throw(item_letter, direction) or quiver something")
        return self._act(
            "f",
            [Rule(r"In what direction", key, limit=1), Rule(r"What do you want to fire", None)],
            success=_thrown,
        )

    async def get_events(self, clear: bool = True) -> list[GameEvent]:
        """Events noticed after your recent actions (hostile monster appeared,
        HP low, hunger worse, level change, new items, engulfed, watched
        message), oldest first. With ``clear`` they are removed once read."""
        events = list(self.events)
        if clear:
            self.events.clear()
        return events

    async def send_keys(self, keys: str) -> ActionResult:
        """
        Send raw keystrokes to the game.
        Use for complex menu navigation. ``<esc>``, ``<enter>`` and ``<space>``
        may be written as words. --More-- is still dismissed for you; a
        question, menu or text prompt your keys leave open is reported in
        ``ActionResult.prompt`` (and closed by the next action).
        Commands that save, quit or change the game's mode or options are
        refused, however they are typed (``S``, ``O``, ``M-q``, ``#quit``, ``#q``,
        ``#exploremode``, wizard-mode commands): the result is a failure whose
        ``error`` names the command, and the refused key and those after it are
        not sent (when the refusal can be seen before sending, nothing is sent).
        Keys answering an open question, menu or text prompt are never refused.
        """
        if not isinstance(keys, str) or not keys:
            return self._fail("keys must be a non-empty string")
        keys = re.sub(r"<esc>", chr(ESC), keys, flags=re.I)
        keys = re.sub(r"<enter>|<cr>", "\r", keys, flags=re.I)
        keys = re.sub(r"<space>", " ", keys, flags=re.I)
        if any(ord(c) > 255 for c in keys):
            return self._fail("keys must be ASCII (or <esc>, <enter>, <space>)")
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        entry, typed, _ = self._kb.key_entry()
        seen = integrity.first_refusal(keys, entry, typed)
        if seen is not None:
            p = self._kb.prompt()
            return ActionResult(False, [], False, False, seen.error,
                                prompt=(p.text or p.kind.value) if p.kind is not PromptKind.NONE else None)
        ex = Exchange()
        before = self._snapshot()
        refused: Optional[integrity.Refusal] = None
        for ch in keys:
            if self._game.done:
                break
            try:
                self._kb.press(ch)
            except integrity.CommandRefused as e:
                refused = e.refusal
                break
            ex.steps += 1
        self._kb.settle(ex, keep_open=True)
        self.actions_taken += 1
        self._refresh()
        self._note_messages(ex.messages)
        self._after_action()
        after = self._snapshot() if not self._game.done else before
        prompt = ex.open_prompt
        return ActionResult(
            refused is None,
            ex.messages + ([prompt.text] if prompt else []),
            after[0] != before[0],
            after != before,
            refused.error if refused else None,
            prompt=(prompt.text or prompt.kind.value) if prompt else None,
            game_over=self._game.done,
        )

    # ------------------------------------------------------------ pathfinding
    # Walking into these attacks them, and their passive (paralysis, petrification,
    # acid, fire, cold, an explosion) hurts more than the fight is worth: paths go round.
    NEVER_TOUCH = frozenset(("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
                             "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold"))

    def _blocked(self) -> list[Position]:
        seen, remembered = self._blockers()
        return seen + remembered

    def _blockers(self) -> tuple[list[Position], list[Position]]:
        """(squares of monsters in view not to walk into, squares where such a monster was
        last seen out of view)."""
        hero = self._hero()
        # Shares the per-observation cache with get_visible_monsters: move_to asks every step.
        visible = self._monsters_now()
        out = [m.position for m in visible if (m.is_peaceful and not m.is_tame) or m.name in self.NEVER_TOUCH]
        # Such a monster stays in the way after it drops out of view (a floating eye in a
        # dark corridor): remember its square until the hero sees it empty, or for a while.
        mem = self._level_memory()
        key = (mem.dnum, mem.dlevel)
        turn = self._stats_now().turn
        known = self._untouchable.setdefault(key, {})
        here = {m.position for m in visible}
        for m in visible:
            if m.name in self.NEVER_TOUCH:
                for p in [p for p, (n, _) in known.items() if n == m.name and p != m.position and p.steps_to(m.position) <= 3]:
                    del known[p]  # the same one, moved
                known[m.position] = (m.name, turn)
        for p, (_, seen) in list(known.items()):
            if turn - seen > 300 or (p.steps_to(hero) <= 1 and p not in here):
                del known[p]
        return out, [p for p in known if p not in out and p not in here]

    def _path(self, target: Position) -> Optional[list[str]]:
        self._refresh()
        seen, remembered = self._blockers()
        path = maps.find_path(self._level_memory(), self._hero(), target, blocked=seen + remembered,
                              allow_squeeze=not self._too_heavy_to_squeeze)
        if path is None and remembered:
            # Only through where an untouchable monster was last seen: go and look (it may
            # have moved; if not, it is in view again and the way is blocked for real).
            path = maps.find_path(self._level_memory(), self._hero(), target, blocked=seen,
                                  allow_squeeze=not self._too_heavy_to_squeeze)
        return path

    async def find_path(self, target: Position) -> list[str]:
        """
        Find path to target position.
        Returns list of direction strings ([] if you are there or no known path leads there).
        """
        target = _as_position(target)
        if target is None or not target.on_map():
            return []
        return self._path(target) or []

    async def find_nearest(self, predicate: Callable[[Tile], bool]) -> Optional[Position]:
        """Find nearest tile matching predicate (by walking distance; your own square counts)."""
        level = await self.get_current_level()
        mask = np.zeros((len(level.tiles), len(level.tiles[0])), dtype=bool)
        for row in level.tiles:
            for t in row:
                if predicate(t):
                    mask[t.position.y, t.position.x] = True
        if not mask.any():
            return None
        return maps.find_nearest(self._level_memory(), self._hero(), mask, blocked=self._blocked())

    async def find_nearest_of(self, positions: list[Position]) -> Optional[Position]:
        """The square of ``positions`` nearest by walking distance (None if none is reachable)."""
        mask = np.zeros((21, 79), dtype=bool)
        for p in positions or []:
            p = _as_position(p)
            if p is not None and p.on_map():
                mask[p.y, p.x] = True
        if not mask.any():
            return None
        return maps.find_nearest(self._level_memory(), self._hero(), mask, blocked=self._blocked())

    async def find_unexplored(self) -> Optional[Position]:
        """Find nearest unexplored walkable tile (a reachable frontier of the known map), or None."""
        self._refresh()
        return maps.nearest_frontier(self._level_memory(), self._hero(), blocked=self._blocked())

    # ------------------------------------------------------------ knowledge
    async def lookup_monster(self, name: str) -> MonsterInfo:
        """
        Look up monster information from NetHack's own monster table.
        Returns: level, speed, ac, mr, alignment, difficulty, attacks, resistances,
        conveys, corpse_weight, corpse_nutrition, size, flags (readable as a dict too).
        Raises ValueError listing the closest names for an unknown name.
        """
        return knowledge.lookup_monster(name)

    async def lookup_item(self, name: str) -> ItemInfo:
        """
        Look up item information.
        Returns: object_class, weight, base_price, material, damage (weapons),
        armor_class and armor_slot (armour), nutrition (food).
        """
        return knowledge.lookup_item(name)

    # The knowledge base nh.lookup reads (None: $HACKWRIGHT_KB or ~/.cache/hackwright/kb.sqlite).
    kb_path: Optional[str] = None

    async def lookup(self, query: str, k: int = 3) -> str:
        """
        Search the NetHack knowledge base (NetHack's encyclopedia, rumors, Oracle,
        help, and pages on every monster and object with its real numbers, plus
        any imported wiki) for a question such as "what happens if I hit a
        floating eye". Returns the ``k`` (1-10) best passages as short text,
        each headed "## Title › Section [source]". Built on first use (about a
        second); hybrid BM25 + dense search when the dense index is built.
        """
        from ..kb.search import shared

        if not isinstance(query, str) or not query.strip():
            raise ValueError("lookup needs a non-empty question")
        return shared(self.kb_path).lookup_text(query, k=max(1, min(int(k), 10)))

    def _eater(self) -> "knowledge.Eater":
        return knowledge.eater_for(self.hero_race or "human", self.hero_role or "", self._stats_now().xp_level)

    async def is_safe_to_eat(self, corpse_name: str, turns_old: int, starving: bool = False) -> bool:
        """Check if a corpse is safe to eat for this hero (race, role, known
        resistances), ``turns_old`` turns after the monster died. With
        ``starving`` (only heeded when the hero is Weak or worse from hunger)
        lesser harms are accepted: a dog or cat (aggravate monster), a poisonous
        corpse while HP is above 15 (Strength and up to 15 HP). Rot, stoning,
        lycanthropy and the like never are."""
        stats = self._stats_now()
        hp = stats.hp if starving and stats.hunger.severity >= HungerState.WEAK.severity else None
        return knowledge.is_safe_to_eat(corpse_name, turns_old, self._eater(), starving_hp=hp)

    async def get_prayer_timeout(self) -> int:
        """Get turns until prayer is available again.

        An estimate the hero could know: NetHack starts the timeout at 300 and
        lowers it by one a turn; a successful prayer resets it to a random value
        (median about 350, but often far more), so after a prayer this assumes
        1000. 0 means praying is likely safe even without trouble; with major
        trouble (HP below 1/7 of max or ≤ 5, Weak from hunger) ≤ 200 is enough,
        with minor trouble (Hungry, Blind, Stunned, Confused) ≤ 100. pray()
        refuses to pray when this says it is too soon, unless force=True.
        """
        return self._prayer.estimate(self._stats_now().turn)


# What each letter of a dust engraving can wear down to (NetHack's engrave.c rubout
# table, as facts; '?' and ' ' can replace anything).
_RUBOUTS = {"A": "^", "B": "Pb[", "C": "(", "D": "|)", "E": "|FL[_", "F": "|-", "G": "C(", "H": "|-", "I": "|",
            "K": "|<", "L": "|_", "M": "|", "N": "|\\", "O": "C(", "P": "F", "Q": "C(", "R": "PF", "T": "|",
            "U": "J", "V": "/\\", "W": "V/\\", "Z": "/", "b": "|", "d": "c|", "e": "c", "g": "c", "h": "n",
            "j": "i", "k": "|", "l": "|", "m": "nr", "n": "r", "o": "c", "q": "c", "w": "v", "y": "v"}
_SHOP_NOTICE = "Closed for inventory"
# What a tended shop on the level sounds like from outside it (NetHack's dosounds).
_SHOP_SOUNDS = re.compile(r"You hear someone cursing shoplifters|You hear the chime of a cash register|"
                          r"You hear Neiman and Marcus arguing")


def _thrown(ex: Exchange, before: tuple, after: tuple) -> bool:
    """A throw or shot happened: the turn moved, or (a fast hero's free move) the pack changed."""
    return after[0] != before[0] or after[3] != before[3]


def _worn_from(written: str, original: str) -> bool:
    """Whether ``written`` can be ``original`` worn down in the dust. Letters wear into
    '?', spaces or look-alikes; NetHack then drops the leading spaces, so a worn text
    is a tail of the original ("??         ???" is what a Barbarian read before
    kicking a shop's door, and the shopkeeper killed him)."""
    n = len(written)
    if n > len(original) or n < 8:
        return False
    same = 0
    for w, o in zip(written, original[len(original) - n:]):
        if w == o:
            same += 1
        elif not (w in "? " or w in _RUBOUTS.get(o, "")):
            return False
    # A few letters left, or a long stretch of nothing but wear: nothing else written
    # before a locked door reads so (and a wrong guess only costs a detour).
    return same >= 3 or n >= 10


def _closed_for_inventory(text: str) -> bool:
    """Whether a text read here is a shop's "Closed for inventory" notice, also once
    feet have smudged the dust ("(lcsed ?cr irve?tcry")."""
    if _SHOP_NOTICE.lower() in text.lower():
        return True
    return any(_worn_from(w, _SHOP_NOTICE) for w in re.findall(r'You read: "([^"]*)"', text))


def _as_position(pos: Any) -> Optional[Position]:
    if isinstance(pos, Position):
        return pos
    if isinstance(pos, (tuple, list)) and len(pos) == 2 and all(isinstance(v, (int, np.integer)) for v in pos):
        return Position(int(pos[0]), int(pos[1]))
    x, y = getattr(pos, "x", None), getattr(pos, "y", None)
    if isinstance(x, int) and isinstance(y, int):
        return Position(x, y)
    return None


_OBJECT_NAMES: Optional[list[tuple[str, int]]] = None


def _object_names() -> list[tuple[str, int]]:
    global _OBJECT_NAMES
    if _OBJECT_NAMES is None:
        from nle import nethack as nh

        names = []
        for i in range(nh.NUM_OBJECTS):
            d = nh.objdescr.from_idx(i)
            for n in (d.oc_name, d.oc_descr):
                if n:
                    names.append((n, i))
        names.sort(key=lambda t: -len(t[0]))
        _OBJECT_NAMES = names
    return _OBJECT_NAMES


def _item_from_text(text: str, pos: Position) -> Item:
    """An Item from a floor listing line; the glyph is guessed from its name."""
    from nle import nethack as nh

    glyph = -1
    low = text.lower()
    m = re.search(r"(.+?) corpses?\b", low)
    if m:
        words = re.sub(r"^(\d+|an?|the)\s+", "", m.group(1)).replace("partly eaten ", "")
        words = re.sub(r"\b(blessed|uncursed|cursed)\s+", "", words).strip()
        for i in range(nh.NUMMONS):
            if nh.permonst(i).mname == words:
                glyph = nh.GLYPH_BODY_OFF + i
                break
    # The words the hero sees name the class ("emerald potion" is a potion, though
    # "emerald" is also a gem and a ring's look); plurals ("2 daggers") count too.
    hint = next((cls for cls, pat in _CLASS_WORDS if re.search(pat, low)), None)
    if glyph < 0:
        for name, idx in _object_names():
            if hint and G.object_class_name(nh.GLYPH_OBJ_OFF + idx) != hint:
                continue
            if re.search(r"\b" + re.escape(name) + r"(?:e?s)?\b", low):
                glyph = nh.GLYPH_OBJ_OFF + idx
                break
    if glyph < 0:
        qty, buc, _ = observe.parse_item_text(text)
        return Item(-1, text, pos, None, qty, buc, False, hint or "unknown", text=text)
    return observe.make_item(glyph, text, None, pos)


_CLASS_WORDS = (
    ("potion", r"\bpotions?\b"),
    ("scroll", r"\bscrolls?\b"),
    ("wand", r"\bwands?\b"),
    ("ring", r"\brings?\b(?! mail)"),
    ("amulet", r"\bamulets?\b"),
    ("spellbook", r"\bspellbooks?\b"),
    ("coin", r"\bgold pieces?\b"),
    ("gem", r"\b(?:gray |grey )?stones?\b|\bgems?\b"),
)

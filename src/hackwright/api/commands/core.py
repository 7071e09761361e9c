"""The base every command family of NetHackAPI builds on: the game session
(start, reset, what the hero is), the per-observation cache, the remembered
map kept up to date, and how one command is typed and judged (``_act``).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

import numpy as np
from nle import nethack as nh_bl

from ...env.make import Game, GameConfig
from .. import glyphs as G, knowledge, maps, observe
from ..keyboard import ESC, Exchange, Keyboard, PromptKind, Rule
from ..models import DIRECTIONS, ActionResult, GameEvent, Position, Stats, normalize_direction

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

# A peaceful monster turned hostile where the hero sees it: "The dwarf gets angry!",
# "The werejackal growls!" (animals make their own sound: hisses, roars, squeals...).
_ANGERED = re.compile(r"\bThe ([a-z][a-z -]*?) (?:gets angry|growls|hisses|roars|buzzes|squeals|screeches|"
                      r"neighs|wails|screams)!")

# A monster using a wand: "The gnome lord zaps a brass wand!" (then striking, sleep, cold...).
_ZAPS = re.compile(r"\bThe ([a-z][a-z -]*?) zaps (?:an? |the )?[a-z -]*?wand")

# A monster's attack from a distance (mthrowu.c, mcastu.c breamu): "The gnome lord shoots 2
# crossbow bolts!", "The hill orc throws an orcish dagger!", "The cobra spits venom!", "The
# winter wolf cub breathes frost!". Elbereth stops none of them.
_SHOOTS = re.compile(r"\bThe ([a-z][a-z -]*?) (?:shoots|throws|spits|breathes) ")

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

# What a tended shop on the level sounds like from outside it (NetHack's dosounds).
_SHOP_SOUNDS = re.compile(r"You hear someone cursing shoplifters|You hear the chime of a cash register|"
                          r"You hear Neiman and Marcus arguing")


def _as_position(pos: Any) -> Optional[Position]:
    if isinstance(pos, Position):
        return pos
    if isinstance(pos, (tuple, list)) and len(pos) == 2 and all(isinstance(v, (int, np.integer)) for v in pos):
        return Position(int(pos[0]), int(pos[1]))
    x, y = getattr(pos, "x", None), getattr(pos, "y", None)
    if isinstance(x, int) and isinstance(y, int):
        return Position(x, y)
    return None


# The hint NetHack's map cursor (getpos) shows when a detection lets the player browse
# the map it revealed.
_BROWSING = re.compile(r"\(For instructions type a '\?'\)\s*$")


class ApiCore:
    """The game session, its caches and the machinery every command uses."""

    def __init__(self, game: Game):
        self._game = game
        self._kb = Keyboard(game)
        self._maps = maps.MapMemory()
        self._prayer = knowledge.PrayerClock()
        self._lycanthropy = False  # "You feel feverish." until a cure ("You feel purified.")
        self._watched_levels: set[tuple[int, int]] = set()  # levels where the town watch was seen
        self._shop_levels: set[tuple[int, int]] = set()  # levels where a shopkeeper was heard
        # Squares (level, x, y) where a shop's "Closed for inventory" was read: the notice
        # lies before the shop's door, and wears away under feet long before the hero leaves.
        self._shop_notices: set[tuple[int, int, int, int]] = set()
        self._digging_heard: dict[tuple[int, int], int] = {}  # level -> turn "You hear crashing rock."
        self._scanned: dict[str, int] = {}  # reader -> messages_seen when it last read (_messages_since)
        self._skill_confident = False  # "You feel more confident in your ... skills." since the last #enhance
        self._greeted_turn: Optional[int] = None  # turn of the last shopkeeper's or priest's greeting
        self._cache: dict[str, Any] = {}
        self._cache_step = -1
        self._mem_step = -1
        self.hero_race: Optional[str] = None
        self.hero_role: Optional[str] = None
        self.hero_gender: Optional[str] = None
        self.hero_alignment: Optional[str] = None
        self._squeeze_refused_with: Optional[bytes] = None  # the pack when a diagonal gap refused the hero
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
        self._scanned = {}
        self._skill_confident = False
        self._greeted_turn = None
        self._watched_levels = set()
        self._shop_levels = set()
        self._shop_notices = set()
        self._digging_heard = {}
        self._turned_pets: set[str] = set()  # species whose "tame" one attacked the hero
        # Squares where a monster drawn as peaceful turned hostile without moving: level and
        # glyph, so the mark ends when it moves off (see _note_turned_monsters).
        self._angered: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
        self._zappers: dict[str, int] = {}  # species -> last turn one zapped a wand in view
        self._shooters: dict[str, int] = {}  # species -> last turn one shot, threw, spat or breathed in view
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

    # ------------------------------------------------------------ the harness's view
    # Plain methods and properties (not coroutines), so the sandbox never serves them to
    # skills: the agent loop, its memory and its reports read the game through these.
    @property
    def death_reason(self) -> Optional[str]:
        """NetHack's cause of death ("killed by a jackal") once the game is over, else None."""
        return self._kb.death_reason

    @property
    def level_maps(self) -> maps.MapMemory:
        """The remembered map of every level visited, by (dnum, dlevel), as last folded in."""
        return self._maps

    def level_memory(self) -> maps.LevelMemory:
        """The current level's remembered map, with what the screen shows now folded in."""
        return self._level_memory()

    def level_id(self) -> tuple[int, int]:
        """NetHack's (dungeon number, level number) of the hero's level: the key of level_maps."""
        bl = self._obs()["blstats"]
        return int(bl[23]), int(bl[24])

    def monsters_now(self) -> list:
        """The monsters the screen shows now (the list get_visible_monsters answers)."""
        return self._monsters_now()

    def back_to_command_prompt(self) -> None:
        """Answer whatever prompt or --More-- is open, leaving the game at its command prompt."""
        self._ensure_ready(Exchange())

    @property
    def messages_shown(self) -> int:
        """How many messages the game has shown so far (the count messages_after takes)."""
        return self._kb.messages_seen

    def messages_after(self, seen: int) -> tuple[int, list[tuple[str, int]]]:
        """(how many messages the game has shown so far, and the (text, turn) of each shown
        after the first ``seen`` of them, as far back as the history keeps)."""
        kb = self._kb
        fresh = max(0, min(kb.messages_seen - seen, len(kb.history)))
        tail = list(zip(kb.history[-fresh:], kb.history_turns[-fresh:])) if fresh else []
        return kb.messages_seen, tail

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

    @property
    def _too_heavy_to_squeeze(self) -> bool:
        """Whether a diagonal gap between rock corners refused the hero ("You are carrying
        too much to get through") with the pack it carries now: paths avoid such gaps until
        the pack changes (something dropped, eaten, drunk or thrown may be enough; if not,
        the next refusal teaches it again)."""
        return self._squeeze_refused_with is not None and \
            self._squeeze_refused_with == self._obs()["inv_strs"].tobytes()

    @_too_heavy_to_squeeze.setter
    def _too_heavy_to_squeeze(self, refused: bool) -> None:
        self._squeeze_refused_with = self._obs()["inv_strs"].tobytes() if refused else None

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
        self._note_town_watch()
        for hook in list(self.after_action):
            hook(self)

    def _messages_since(self, reader: str) -> list[tuple[str, int]]:
        """(text, game turn) of the history's messages that ``reader`` has not read yet;
        each reader keeps its own place, so facts told once are read once."""
        kb = self._kb
        fresh = min(kb.messages_seen - self._scanned.get(reader, 0), len(kb.history))
        self._scanned[reader] = kb.messages_seen
        if fresh <= 0:
            return []
        start = len(kb.history) - fresh
        return list(zip(kb.history[start:], kb.history_turns[start:]))

    def _note_town_watch(self) -> None:
        if not self._game.done and np.isin(self._obs()["glyphs"], self._WATCH_GLYPHS).any():
            self._watched_levels.add(self._where()[:2])  # the town watch lives here

    def _note_messages(self, messages: list[str]) -> None:
        """What the messages of an action tell about the monsters around (see below)."""
        self._note_turned_monsters(messages)
        for m in messages:
            if "closed for inventory" in m.lower():
                dnum, dlevel, _, hero = self._where()
                self._shop_notices.add((dnum, dlevel, hero.x, hero.y))
            if "You hear crashing rock" in m:
                self._digging_heard[self._where()[:2]] = self._stats_now().turn
            for name in _ZAPS.findall(m):
                self._zappers[name.lower()] = self._stats_now().turn
            for name in _SHOOTS.findall(m):
                self._shooters[name.lower()] = self._stats_now().turn

    def _note_turned_monsters(self, messages: list[str]) -> None:
        """Monsters the drawing shows as friendly that the messages show hostile.

        A pet never attacks the hero, and the game calls it "your kitten". "The kitten
        bites!" while the only kittens in view are drawn as tame means it has gone wild
        (abused, or the drawing is stale): from then on the species counts as hostile. (A
        pet kitten drawn tame was let bite a Barbarian to death on Dlvl 1.)

        NetHack's description of a square (peaceful or not) is redrawn only when the
        square's glyph changes, so a peaceful monster angered where it stands (hit by the
        hero, or by the racial anger of its kin) is still described as peaceful while it
        fights back. A monster beside the hero that hits it, or that "gets angry" or growls,
        is therefore marked hostile on its square until it moves off."""
        hitters, angered = set(), set()
        for m in messages:
            hitters.update(n.lower() for n in _HITS_HERO.findall(m))
            angered.update(n.lower() for n in _ANGERED.findall(m))
        if not hitters and not angered:
            return
        hero = self._hero()
        shown = observe.visible_monsters(self._obs(), hero)  # as drawn, before either rule
        for name in hitters - self._turned_pets:
            seen = [x for x in shown if x.name == name]
            if seen and all(x.is_tame for x in seen):
                self._turned_pets.add(name)
                self._cache.pop("monsters", None)  # listed as tame already this turn
        level = self._where()[:2]
        near = [x for x in shown if x.position.is_adjacent(hero)]
        # (A blow names the species only: with a hostile one of it beside the hero, that one struck.)
        hitters -= {x.name for x in near if not x.is_peaceful and not x.is_tame}
        for x in near:
            if x.is_peaceful and (x.name in hitters or x.name in angered):
                self._angered[(x.position.x, x.position.y)] = (level, x.glyph)
                self._cache.pop("monsters", None)

    def _still_angered(self, m) -> bool:
        """Whether ``m``, drawn as peaceful, was seen to turn hostile on its square."""
        key = (m.position.x, m.position.y)
        mark = self._angered.get(key)
        if mark is None:
            return False
        if mark != (self._where()[:2], m.glyph):
            del self._angered[key]  # it moved off, or this is another level
            return False
        return True

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
        if ex.messages and _BROWSING.search(ex.messages[-1]):
            # A detection (a scroll of gold detection, a potion of object detection) shows
            # what it found and leaves NetHack's map cursor open for the player to look
            # round; NLE reports no prompt for it, so the next command's keys would move
            # the cursor. Close it: the command is then done.
            self._kb.press(ESC)
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

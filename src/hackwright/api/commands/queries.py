"""State queries of NetHackAPI: stats, screen, messages, the map, monsters, items
(on the floor and in the pack), equipment and status effects.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Optional

import numpy as np

from .. import glyphs as G, knowledge, maps, observe
from ..missiles import choose_missiles
from ..keyboard import ESC, Exchange, PromptKind
from ..models import DungeonLevel, Hero, Item, Missiles, Monster, Position, Stats
from .core import ApiCore, LOOK_HERE, EQUIPMENT_SLOTS, _as_position

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


_ENGRAVING = re.compile(r"(?:Something is (?:written|engraved|burned|scrawled|etched|melted)[^.]*\.|"
                        r"Some text has been [^.]*\.|There's some graffiti[^.]*\.|"
                        r"You see a message scrawled[^.]*\.|You read: \".*?\"\.?|"
                        r"You (?:can't|cannot) read it[^.]*\.)\s*")


class GameQueries(ApiCore):
    """Reading the game: answers are cached until the next key reaches it."""

    async def get_stats(self) -> Stats:
        """The hero's numbers from the status lines, as a Stats: hp, max_hp (and
        hp_fraction), pw, ac, xp_level, gold, the six attributes, hunger (a
        HungerState), encumbrance, alignment, dungeon_level (the depth), branch,
        level_in_branch, turn (the game clock), score, and position (the hero's
        square, always set). Once the hero has died: the last stats of the living
        hero (NetHack's final status lines are zeros)."""
        return self._stats_now()

    async def get_position(self) -> Position:
        """The hero's square, a Position(x, y) with x 0..78 and y 0..20 (the same as
        get_stats().position)."""
        return self._hero()

    async def get_screen(self) -> str:
        """The terminal as NetHack draws it now: 24 lines of 80 characters joined by
        newlines. Line 0 is the message line, lines 1..21 the map (map row y is line
        y + 1), lines 22 and 23 the status lines. Good for printing; the same facts
        come parsed from get_current_level(), get_stats() and get_visible_monsters().
        Once the game is over it shows how the game ended."""
        return self._cached("screen", lambda: "\n".join(self._kb.screen_lines()))

    async def get_messages(self, n: int = 10) -> list[str]:
        """The last ``n`` lines NetHack showed this game, oldest first, across actions
        (n <= 0 gives []): messages, each question with the key that answered it
        ("Still climb? [yn] (n) n") or "[escaped]", and what the API's own looks
        (':') showed. One action's lines are also in its ActionResult.messages."""
        return list(self._kb.history[-n:]) if n > 0 else []

    async def get_current_level(self) -> DungeonLevel:
        """The current level as the hero remembers it, a DungeonLevel.

        ``tiles[y][x]`` (or ``tile_at(pos)``) covers the whole 21x79 map, not only
        what is in view: a square out of sight keeps what was last seen there, and
        one never seen has is_explored False. A tile's ``description`` never names a
        creature: where an object lies it names the object as the hero saw it ("large
        box", "ruby potion"), also while the hero or a monster stands on it; elsewhere
        the terrain ("floor of a room", "doorway"). Creatures are in
        get_visible_monsters() and get_position(). ``stairs_up`` and ``stairs_down`` are
        known stairs (None until seen); ``explored_percentage`` is 100 when no
        frontier is left (see find_unexplored)."""
        self._refresh()
        return self._cached("level", self._build_level)

    def _build_level(self) -> DungeonLevel:
        level = self._level_memory().to_dungeon_level(self._stats_now().level_in_branch)
        self._note_town_watch()  # a watchman in view before any action (the game's first look)
        level.town_watch = self._where()[:2] in self._watched_levels
        level.digging_heard_turn = self._digging_heard.get(self._where()[:2])
        # A glyph encodes an object's true type; describe objects as the hero sees them,
        # and never by the hero or monster standing on them now (see object_seen_at).
        obs = self._obs()
        ys, xs = np.nonzero(G.IS_ITEM[self._level_memory().glyphs])
        for y, x in zip(ys.tolist(), xs.tolist()):
            t = level.tiles[y][x]
            t.description = observe.object_seen_at(obs, t.position, t.glyph)
        return level

    async def get_visible_monsters(self) -> list[Monster]:
        """Every monster shown on the map now, seen or sensed (telepathy, detection),
        as Monster, nearest first (by steps, then row and column); the hero is not
        listed. Pets are included (is_tame) and peaceful ones marked (is_peaceful),
        as NetHack describes them; a "pet" or peaceful one that attacked you or got
        angry counts as hostile. An 'I' next to you (something unseen: you are blind
        or it is invisible) is listed as "unseen monster" with is_invisible_marker
        True. [] when none."""
        return self._monsters_now()

    def _monsters_now(self) -> list[Monster]:
        def make() -> list[Monster]:
            out = observe.visible_monsters(self._obs(), self._hero())
            out = [dataclasses.replace(m, is_peaceful=False) if m.is_peaceful and self._still_angered(m) else m
                   for m in out]
            return [dataclasses.replace(m, is_tame=False) if m.is_tame and m.name in self._turned_pets else m
                    for m in out]

        return self._cached("monsters", make)

    async def get_adjacent_monsters(self) -> list[Monster]:
        """The monsters of get_visible_monsters() on the 8 squares around you, in the
        same order, 'I' markers of unseen ones included. Pets and peaceful monsters
        are listed too: check is_tame and is_peaceful before attacking. [] when none."""
        hero = self._hero()
        return [m for m in await self.get_visible_monsters() if m.position.is_adjacent(hero)]

    async def get_items_at(self, pos: Position) -> list[Item]:
        """Items at ``pos`` (a Position or (x, y)), as Item with position set and slot
        None. On your own square: the whole pile, as get_items_here(). Elsewhere only
        the top item the map shows or remembers there (one per square), so at most
        one: stand on the square to see a pile. [] when no item is known there, or
        for a square off the map."""
        pos = _as_position(pos)
        if pos is None or not pos.on_map():
            return []
        if pos == self._hero():
            return await self.get_items_here()
        item = observe.item_on_map(self._obs(), pos)
        if item is None:  # covered by a monster, or out of sight: the object remembered there
            g = int(self._level_memory().glyphs[pos.y, pos.x])
            if G.IS_ITEM[g]:
                item = observe.make_item(g, observe.object_seen_at(self._obs(), pos, g), None, pos)
        return [item] if item else []

    async def get_items_here(self) -> list[Item]:
        """The items on your square, the whole pile, each an Item with slot None and
        position your square; object_class is guessed from the words ("unknown" when
        they do not tell). Read with ':' (a pile through the pick-up menu, nothing
        taken), so it costs no time. Names are as NetHack shows them ("2 uncursed
        daggers", "a newt corpse"); pickup() takes part of one. [] when nothing lies
        here, or once the game is over."""
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
        # An engraving is read out with the objects ("Something is written here in the dust.
        # You read: "Elbereth"."): it is no object.
        texts = [_ENGRAVING.sub("", t) for t in self._look_texts()]
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
        """Your pack: one Item per inventory letter, in NetHack's order. ``slot`` is the
        letter every item command takes ('a'..'z', 'A'..'Z', '$' for gold); ``text``
        the whole line ("a +1 long sword (weapon in hand)"); ``object_class``
        "weapon", "armor", "food", "potion", "scroll", "spellbook", "wand", "ring",
        "amulet", "tool", "gem", "rock", "coin" …; ``equipped`` the slot it is worn
        or wielded in (see get_equipment), None when it is only carried."""
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

    async def get_missiles(self) -> Missiles:
        """What you can shoot or throw now, read from your pack with NetHack's object
        table (no game time). Returns a Missiles: launcher (the bow, crossbow,
        yumi or sling you wield, else None), ammunition (for it, quivered first), thrown
        (weapons to throw by hand, best first: quivered, daggers and knives, darts,
        shuriken, boomerangs, spears, javelins), ready_launcher (a launcher in
        your pack, surely not cursed, with ammunition: wield() it to shoot), best (what
        to fire or throw now: the quivered stack, else ammunition for the launcher in
        hand, else thrown[0]; None when nothing), junk (the rest, a point or two a hit:
        rocks, gems and glass but no gray stone, spare weapons but no mattock; for a
        floating eye or gas spore in the way), and melee (wield it when the launcher
        has nothing left). Known-cursed items and what is in your hands or worn are
        never listed. Fire ``best`` with throw(best.slot, direction)."""
        def info(name):
            try:
                return knowledge.lookup_item(name)
            except Exception:
                return None
        return choose_missiles(await self.get_inventory(), info)

    async def get_role(self) -> str:
        """Your role as the game named it when it began: "Archeologist", "Barbarian",
        "Caveman" or "Cavewoman", "Healer", "Knight", "Monk", "Priest" or "Priestess",
        "Ranger", "Rogue", "Samurai", "Tourist", "Valkyrie", "Wizard"; "" if it could
        not be read. It never changes during a game. A Monk fights best with empty hands
        (martial arts): with no weapon wielded he should leave weapons unwielded, wear no
        body armor (a Monk in a suit loses his martial arts' to-hit bonus), and empty his
        hands again after applying a pick-axe (apply wields it)."""
        return self.hero_role or ""

    async def get_hero(self) -> Hero:
        """Who the hero is and what earlier messages told about it, as a Hero (role,
        race, resistances, lycanthropy, prayer clock, skill_ready, …: see its fields);
        takes no game time."""
        eater = self._eater()
        stats = self._stats_now()
        return Hero(
            role=self.hero_role or "", race=self.hero_race or "",
            resistances=sorted(eater.resistances), fast=eater.fast,
            lycanthropy=self._has_lycanthropy(),
            in_animal_form=self._shed_gear.changed,
            prayer_timeout=self._prayer.estimate(stats.turn), last_prayer_turn=self._prayer.last_prayer_turn,
            too_heavy_to_squeeze=self._too_heavy_to_squeeze, skill_ready=self._skill_ready(),
            greeted_by_keeper_turn=self._keeper_greeting_turn())

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

    def _skill_ready(self) -> bool:
        # NetHack says it once, when practice first allows an advance; it holds until #enhance.
        if any("You feel more confident in your" in t for t, _ in self._messages_since("confidence")):
            self._skill_confident = True
        return self._skill_confident

    def _has_lycanthropy(self) -> bool:
        # The status line never shows it: only the messages tell.
        for text, _ in self._messages_since("fever"):
            if "You feel feverish" in text:
                self._lycanthropy = True
            elif "You feel purified" in text:
                self._lycanthropy = False
        return self._lycanthropy

    async def get_comprehensive_state(self) -> dict[str, Any]:
        """Several readings in one call, as a dict: "stats" (get_stats()), "position"
        (get_position()), "monsters" (get_visible_monsters()), "inventory"
        (get_inventory()), "status_effects" (get_status_effects()), "messages"
        (get_messages(10)) and "level" (get_current_level())."""
        return {
            "stats": await self.get_stats(),
            "position": await self.get_position(),
            "monsters": await self.get_visible_monsters(),
            "inventory": await self.get_inventory(),
            "status_effects": await self.get_status_effects(),
            "messages": await self.get_messages(10),
            "level": await self.get_current_level(),
        }

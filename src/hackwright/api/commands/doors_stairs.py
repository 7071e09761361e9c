"""Doors and stairs of NetHackAPI: open and kick doors, climb up and down."""

from __future__ import annotations

import re

import numpy as np
from nle import nethack as nh_bl

from .. import glyphs as G, observe
from ..keyboard import Rule
from ..models import DIRECTIONS, ActionResult, Position, normalize_direction
from .core import ApiCore, KICK

# What each letter of a dust engraving can wear down to (NetHack's engrave.c rubout
# table, as facts; '?' and ' ' can replace anything).
_RUBOUTS = {"A": "^", "B": "Pb[", "C": "(", "D": "|)", "E": "|FL[_", "F": "|-", "G": "C(", "H": "|-", "I": "|",
            "K": "|<", "L": "|_", "M": "|", "N": "|\\", "O": "C(", "P": "F", "Q": "C(", "R": "PF", "T": "|",
            "U": "J", "V": "/\\", "W": "V/\\", "Z": "/", "b": "|", "d": "c|", "e": "c", "g": "c", "h": "n",
            "j": "i", "k": "|", "l": "|", "m": "nr", "n": "r", "o": "c", "q": "c", "w": "v", "y": "v"}
_SHOP_NOTICE = "Closed for inventory"


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


class DoorAndStairCommands(ApiCore):
    """Opening and kicking doors, and taking the stairs between levels."""

    async def open_door(self, direction: str) -> ActionResult:
        """Open the closed door next to you in ``direction`` ('n', 's', 'e', 'w', 'ne',
        'nw', 'se', 'sw'). Success means NetHack said the door opened. Fails with
        NetHack's words when there is no door there ("You see no door there."), it
        is already open, it is locked ("This door is locked.": kick() it, or apply()
        a key), or it is stuck (try again). Fails, sending nothing, for an invalid
        direction (the error lists the valid ones). move_to() opens a door in its
        way by itself."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        return self._act(
            "o",
            [Rule(r"In what direction", key, limit=1)],
            success=lambda ex, b, a: any(re.search(r"door opens|door crashes open", m) for m in ex.messages),
        )

    async def close_door(self, direction: str) -> ActionResult:
        """Close the open door next to you in a direction ('n', 's', 'e', 'w',
        'ne', 'nw', 'se', 'sw'); a closed door keeps most monsters out. Fails,
        saying why, when there is no open door there (no door at all, a
        broken or empty doorway, a door already closed), when something
        stands or lies in the doorway ("Something's in the way.": move the
        object or wait for the monster), or when the door resists (try again)."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        there = self._hero().offset(normalize_direction(direction) or "n")
        res = self._act(
            "c",
            [Rule(r"In what direction", key, limit=1)],
            success=lambda ex, b, a: any("door closes" in m for m in ex.messages),
        )
        if res.success:
            return res
        text = " ".join(res.messages)
        where = f"({there.x}, {there.y})"
        if re.search(r"no door there|no obvious way to close", text):
            mem, hero = self._level_memory(), self._hero()
            doors = [d for d in DIRECTIONS if hero.offset(d).on_map() and G.CMAP_INDEX[int(
                mem.terrain[hero.offset(d).y, hero.offset(d).x])] in (G.S_VODOOR, G.S_HODOOR)]
            res.error = f"there is no door at {where}; open doors next to you: {', '.join(doors) or 'none'}"
        elif re.search(r"You are in the way", text):
            res.error = "you stand in that doorway yourself"
        elif re.search(r"in the way", text):
            res.error = f"something is in the doorway at {where} (an object or a monster): clear it first"
        elif re.search(r"already closed", text):
            res.error = f"the door at {where} is already closed"
        elif re.search(r"is broken|has no door", text):
            res.error = f"the doorway at {where} has no door to close (broken or empty)"
        elif re.search(r"door resists", text):
            res.error = f"the door at {where} resists (closing can fail); try again"
        return res

    async def kick(self, direction: str) -> ActionResult:
        """Kick in ``direction`` (a compass direction, 'n' … 'sw'). A closed door may
        burst open or break ("WHAMM!" means it held: kick again); a monster there is
        attacked, an object may slide away. Success means a turn passed (the kick
        happened), not that the door gave: read the messages. A peaceful monster
        there is not kicked (error). Refuses, sending nothing, an invalid direction,
        and a shop's door: a locked shop door ("Closed for inventory" written in
        front of it, a shopkeeper in view, or, on a level where a shopkeeper was
        heard, anything written in front of it at all) brings the shopkeeper out to
        kill you; and any door while the town watch is about (Minetown), who arrest
        door-breakers."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        target = self._hero().offset(normalize_direction(direction) or "n")
        if G.CMAP_INDEX[int(self._level_memory().terrain[target.y, target.x])] in (G.S_VCDOOR, G.S_HCDOOR):
            # Read what is written here (':' takes no game time): the notice lies before the door.
            here = " ".join(self._look_texts())
            recent = " ".join(self._kb.history[-6:]) + " " + here
            keeper = any(m.name == "shopkeeper" for m in observe.visible_monsters(self._obs(), self._hero()))
            # (Or read there before: a Valkyrie who had read it 400 turns earlier, the dust
            # since worn blank, kicked the door and the shopkeeper killed her.)
            dnum, dlevel = self._where()[:2]
            noticed = any((dnum, dlevel, x, y) in self._shop_notices for x, y in (
                (target.x, target.y - 1), (target.x, target.y + 1), (target.x - 1, target.y), (target.x + 1, target.y)))
            if _closed_for_inventory(recent) or keeper or noticed:
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
        """Climb the up stairs (or ladder) you stand on to the level above. Success
        means the level changed; a pet next to you comes along. Not on up stairs:
        fails, the error saying where the known up stairs are (walk there first,
        e.g. travel('<')) or that none is seen yet. Refused on Dlvl 1, whose up
        stairs leave the dungeon and end the game (NetHack's "Still climb?" is
        answered no). Other refusals (held by a monster, too heavy a load) fail with
        NetHack's words."""
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
        """Go down the stairs (or ladder) you stand on to the level below. Success
        means the level changed (get_stats() tells the new dungeon_level and branch:
        some stairs lead into the Gnomish Mines); a pet next to you comes along. Not
        on down stairs: fails, the error saying where the known down stairs are
        (walk there first, e.g. travel('>')) or that none is seen yet. Other
        refusals (levitating, held by a monster) fail with NetHack's words."""
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
        remembered on the main-branch level, so ``stairs_down`` prefers the other way;
        every down staircase crossed is remembered as tried (``untried_stairs_down``)."""
        dnum, dlevel, branch, pos = before
        now = self._where()
        if up:
            here = self._level_memory()
            here.note_stairs_taken(now[3])  # arrived on the down stairs of the level above
            if now[0] != dnum:
                here.note_branch_stairs(now[3], branch)
        else:
            old = self._maps.get(dnum, dlevel)
            if old is not None:
                old.note_stairs_taken(pos)
                if now[0] != dnum:
                    old.note_branch_stairs(pos, now[2])

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

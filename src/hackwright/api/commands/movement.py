"""Moving and melee of NetHackAPI: step, travel to a square, fight, wait, search."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from nle import nethack as nh_bl

from .. import glyphs as G
from ..keyboard import Exchange, Rule
from ..models import ActionResult, Position, normalize_direction
from .core import ApiCore, _FAILURES, _as_position
from .pathfinding import route_options

# A shopkeeper's or a temple priest's greeting (shk.c u_entered_shop, priest.c intemple).
_KEEPER_GREETING = re.compile(r"Welcome to .*'s|sacred place|Pilgrim, you enter")


class MovementCommands(ApiCore):
    """Moving about the level, fighting in melee, waiting and searching."""

    async def move(self, direction: str) -> ActionResult:
        """Take one step in a direction.
        direction: 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'
        Moving into a hostile monster attacks it; into a pet swaps places;
        into a peaceful monster is declined (error) — go around it. So is
        moving into a monster that must not be touched (NEVER_TOUCH: a floating
        eye, a gas spore, a mold …): use attack() if that is really meant.
        Moving into a boulder pushes it. Success means you changed square, or a turn
        passed without a refusal (you attacked, or something held you: compare
        get_position()). Fails with NetHack's words or "nothing happened" when the
        way is blocked ("It's a wall.", a boulder that will not move, a diagonal
        step into or out of a doorway)."""
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
            # corners: paths avoid such gaps while the pack stays as it is now.
            self._too_heavy_to_squeeze = True
        if ("It's solid stone." in text or "cannot pass through the bars" in text) and self._hero() == start:
            # Remembered as open but rock (a dwarf's tunnel misread in the dark, an object
            # embedded in rock) or iron bars under an object lying on them: paths kept
            # planning through it, and every step failed (a Valkyrie, 2,000 decisions).
            self._level_memory().remember_solid(there)
        if "diagonally out of an intact doorway" in text or "diagonally into an intact doorway" in text:
            # The hero hid the door it stands in (or the map lost it): remember it, or every
            # path would keep planning the same diagonal step (a Rogue stood 10,000 turns so).
            door = start if "out of" in text else there
            self._level_memory().remember_terrain(door, nh_bl.GLYPH_CMAP_OFF + G.S_VODOOR)
        return res

    async def move_to(self, target: Position, *, avoid: Iterable[Position] = (), traps: str = "avoid",
                      avoid_monsters: bool = True, through_doors: bool = True) -> ActionResult:
        """
        Move one step toward target position.
        Uses pathfinding over the remembered map (walks around walls, water,
        lava, boulders, known traps, peaceful monsters and monsters that must not
        be touched, such as floating eyes and molds; swaps with pets) and
        opens a closed door that is the next step. Call it in a loop to walk.
        The step is the first of find_path(target) with the same keyword
        options: avoid (squares never to enter), traps ("avoid", "harmless",
        "risky" or "any": which known traps it may cross), avoid_monsters
        (False: plan as if no monster were there) and through_doors (False:
        never through a closed door); see find_path. Fails (success False,
        nothing sent, no game time) when you are not there and no path is
        known, the target is off the map, or an option value is invalid (the
        error names the valid values). Already on target: success, no move.
        """
        try:
            opts = route_options(avoid, traps, avoid_monsters, through_doors)
        except ValueError as e:
            return self._fail(str(e))
        target = _as_position(target)
        if target is None or not target.on_map():
            return self._fail(f"position {target!r} is off the map; x must be 0..78 and y 0..20")
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        hero = self._hero()
        if hero == target:
            return ActionResult(True, [], False, False, None)
        path = self._path(target, opts)
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
        """Fight in ``direction`` (a compass direction) with NetHack's F prefix: it
        attacks even when no monster is shown there (an unseen one; else "You
        attack thin air." or "You harmlessly attack the wall."). Success means a
        turn passed or you hit, missed, killed or destroyed something: read the
        messages. Peaceful
        monsters are not attacked (error) unless ``peaceful_ok``: then a weak one
        that blocks the only way on (a peaceful lichen in a corridor) is attacked
        and turns hostile (alignment -1). Even then never a shopkeeper, priest,
        guard, watchman, unicorn or any @ (human or elf: murder). Your pet is
        attacked only with ``peaceful_ok`` (NetHack asks first). An unseen 'I' next
        to you is not attacked soon after you entered a shop or temple (it may be
        the shopkeeper or priest)."""
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
        greeted = self._keeper_greeting_turn()
        return greeted is not None and greeted >= self._stats_now().turn - 400

    def _keeper_greeting_turn(self) -> Optional[int]:
        """The game turn of the last shopkeeper's or temple priest's greeting, or None."""
        for text, turn in self._messages_since("greeting"):
            if _KEEPER_GREETING.search(text):
                self._greeted_turn = turn
        return self._greeted_turn

    async def wait(self, count: int = 1) -> ActionResult:
        """Wait ``count`` turns (1..200) in place, searching meanwhile (NetHack's
        counted search, e.g. "20s"). NetHack stops early when a hostile monster
        comes into view or next to you: then fewer turns passed (compare
        get_stats().turn) and the messages end with "You stop searching.".
        Refuses (nothing sent) a count that is not a whole number 1..200."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 200:
            return self._fail(f"count must be a whole number of turns 1..200, not {count!r}")
        return await self.search(count)

    async def search(self, count: int = 1) -> ActionResult:
        """Search the 8 squares around you for hidden doors, passages and traps for
        ``count`` turns (1..200) in one action (NetHack's counted search, "10s").
        What is found appears on the map, with a message ("You find a hidden
        door."); Tile.search_count of your square and the 8 around goes up by one a
        turn. Each turn finds a hidden door or passage next to you with a chance of
        about 1 in 7 (at Luck 0): search 10-15 turns before giving up. NetHack stops
        early when a monster appears (fewer turns passed: compare get_stats().turn).
        Success means a turn passed. Refuses (nothing sent) a count that is not an
        integer 1..200."""
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

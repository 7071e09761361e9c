"""Tools for NetHackAPI: apply a tool, force a box's lock with a weapon, disarm a
trap. Digging (a pick applied, a wand of digging zapped) is in digging.py; apply()
hands a digging tool to dig().

NetHack 3.6's rules these commands follow (lock.c, trap.c, apply.c): unlocking
and forcing are many-turn occupations a monster interrupts; a blade forcing a
lock may break, a blunt weapon may break the box and its potions.
"""

from __future__ import annotations

import re
from typing import Optional

from ..keyboard import Exchange, Rule
from ..models import ActionResult, Item, normalize_direction
from .core import DIRECTION_KEYS, _FAILURES
from .digging import DIGGING_TOOL, _STOPPED, DiggingCommands, _guard_came

FORCE = chr(ord("f") | 0x80)  # M-f, NetHack's #force
UNTRAP = chr(ord("u") | 0x80)  # M-u, NetHack's #untrap

_CONTAINER = re.compile(r"\b(bag|sack|box|chest)\b")
_UNLOCKER = re.compile(r"\b(key|lock pick|credit card)\b")
_ASKS_DIRECTION = re.compile(r"\b(stethoscope|mirror|expensive camera|leash|figurine|saddle)\b")
_AIMS_AT_SQUARE = re.compile(r"\bgrappling hook\b")


class ToolCommands(DiggingCommands):
    """Applying tools, forcing locks and disarming traps (and, inherited, digging)."""

    async def apply(self, item_letter: str, direction: Optional[str] = None) -> ActionResult:
        """
        Apply (use) a tool from your pack.

        What happens depends on the tool:
        - pick-axe or dwarvish mattock: digs in ``direction`` (a compass direction
          or 'down'), exactly as ``dig(direction, item_letter)``.
        - skeleton key, lock pick, credit card: unlocks the locked door in
          ``direction``, or the locked box or chest on your square with
          direction='self' (also 'here' or '.'). Picking a lock takes several
          turns; the result succeeds once NetHack says "You succeed in picking
          the lock" (or "... in unlocking ...").
          It only ever unlocks: a door or box that is not locked is a failure.
        - unicorn horn (cures what it can), whistles and horns (a magic whistle
          brings your pets next to you), lamps, lanterns and candles (light them,
          or snuff them when lit), towel, blindfold and other tools without a
          target: used at once; ``direction`` is not needed.
        - stethoscope, mirror, camera, leash, figurine, saddle and any tool whose
          use asks "In what direction?": ``direction`` is required (compass, 'up',
          'down' or 'self'); without it the result fails and nothing is used.
        - bags, sacks, boxes and chests are containers: not applied here, use
          ``loot()``, ``put_in(container, letters)`` and ``take_out(container,
          letters)``.
        Fails, naming the tools you carry, for a letter that is not in your pack
        or is not a tool (weapons are wielded, food eaten, wands zapped). A tool
        that asks for something apply() cannot choose (an item to grease or write
        on, a corpse to tin, a square to aim a grappling hook at) fails with the
        question it asked and nothing used.
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        inv = await self.get_inventory()
        tools = [i for i in inv if i.object_class == "tool"]
        listing = ", ".join(f"{i.slot} ({i.text})" for i in tools) or "none"
        item = next((i for i in inv if isinstance(item_letter, str) and i.slot == item_letter), None)
        if item is None:
            return self._fail(f"no inventory item with letter {item_letter!r}; tools you can apply: {listing}")
        if item.object_class != "tool":
            return self._fail(f"{item.slot} ({item.text}) is not a tool (class: {item.object_class}); "
                              f"tools you can apply: {listing}")
        text = item.text.lower()
        if DIGGING_TOOL.search(text):
            if direction is None:
                return self._fail(f"{item.slot} ({item.text}) digs: pass direction= (n, ne, e, se, s, sw, w, nw "
                                  f"or down), or call dig(direction, item_letter)")
            return await self.dig(direction, item.slot)
        if _CONTAINER.search(text) and "bag of tricks" not in text:
            return self._fail(f"{item.slot} ({item.text}) is a container: use loot() for a box on the floor, "
                              f"put_in(container, letters) and take_out(container, letters) for one you carry")
        if _AIMS_AT_SQUARE.search(text):
            return self._fail(f"{item.slot} ({item.text}) is aimed at a map square, which apply() does not do; "
                              f"use send_keys")
        key = None
        if direction is not None:
            d = "self" if isinstance(direction, str) and direction.strip().lower() == "here" else direction
            key = self._direction_key(d, allow_vertical=True)
            if key is None:
                return self._fail(self._bad_direction(direction, True) + " (or 'here')")
        if key is None and (_ASKS_DIRECTION.search(text) or _UNLOCKER.search(text)):
            what = "the door's direction, or 'self' for a box here" if _UNLOCKER.search(text) else \
                "a compass direction, 'up', 'down' or 'self'"
            return self._fail(f"{item.slot} ({item.text}) is used in a direction: pass direction= ({what})")
        if _UNLOCKER.search(text):
            return await self._unlock(item, key or ".")
        need_dir = "this tool is used in a direction: pass direction= (a compass direction, 'up', 'down' or 'self')"
        rules = [
            Rule(r"What do you want to use or apply", item.slot, limit=1),
            Rule(r"In what direction", key, limit=1, error=None if key else need_dir),
            Rule(r"Improvise\?", "y"),  # play an instrument freely, not a tune
            Rule(r"candelabrum", "n"),  # candles are lit, not attached
        ]

        def used(ex: Exchange, b: tuple, a: tuple) -> bool:
            said = [m for m in ex.messages if not any(m.startswith(q) for q in ex.questions)]
            return (a != b or bool(said)) and not any(_FAILURES.search(m) for m in ex.messages)

        res = self._act("a", rules, success=used)
        if not res.success and res.error and "[escaped]" in res.error and res.error != need_dir:
            asked = res.error.replace(" [escaped]", "")
            res.error = f"{item.slot} ({item.text}) asked {asked!r}, which apply() does not answer; nothing was used"
        return res

    async def force_lock(self) -> ActionResult:
        """
        Force open the lock of a locked large box or chest on your square with
        your wielded weapon (#force). A blade pries the lock (a small chance to
        break the blade); a blunt weapon bashes the box, which may break it and
        the potions inside. Takes several turns; success means NetHack said
        "You succeed in forcing the lock" (then open the box with loot()).
        Fails, sending nothing, when no box or chest is here or you wield no
        weapon; fails with NetHack's words when the box is not locked or your
        weapon cannot force (a whip, bow, flail or missile), and with
        "interrupted" when a monster stopped you (call again to resume).
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        weapon = (await self.get_equipment()).get("weapon")
        if weapon is None:
            return self._fail("you wield no weapon: #force needs a wielded weapon (a blade pries the lock, a blunt "
                              "weapon bashes the box); wield one first")
        here = await self.get_items_here()
        if not any(re.search(r"\b(box|chest)\b", i.text.lower()) for i in here):
            return self._fail("there is no box or chest here to force; here: "
                              + (", ".join(i.text for i in here) or "nothing"))
        return await self._occupation(
            FORCE, lambda: [Rule(r"force its lock\?", "y", limit=1)],
            r"You succeed in forcing the lock", r"decide not to force|You give up|already (?:unlocked|broken)|"
                                                r"You can't force|broke!",
        )

    async def untrap(self, direction: str) -> ActionResult:
        """
        Try to disarm a trap you know of (#untrap) on the square next to you in
        ``direction`` (compass), or on your own square with 'here' ('self' or
        '.'): a squeaky board is oiled, a bear trap, land mine, arrow or dart
        trap is disarmed (you may keep the arrows or darts), a web removed. A
        squeaky board needs a can of grease or a potion of oil (identified) in
        your pack, which is used for it.
        Success means NetHack said the trap was disarmed. It can go wrong: the
        trap may be set off ("Whoops..."), or be "difficult to disarm" (try
        again). Fails, sending nothing, when no trap is known there (the error
        lists the known traps next to you), and with NetHack's words for a trap
        that cannot be disarmed (pits, holes, teleport traps...).
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        here = isinstance(direction, str) and direction.strip().lower() in ("here", "self", ".")
        d = "self" if here else normalize_direction(direction)
        if d is None:
            return self._fail(self._bad_direction(direction) + ", or here")
        hero = self._hero()
        target = hero if here else hero.offset(d)
        mem = self._level_memory()
        known = target.on_map() and mem.is_trap(target)
        if here and not known:
            look = " ".join(self._look_texts())
            names = "|".join(re.escape(n) for n in self._TRAP_NAMES)
            known = bool(re.search(rf"There is an? (?:{names}) here|\b(box|chest)\b", look))
        if not known:
            near = [p for p in [hero, *hero.neighbors()] if p.on_map() and mem.is_trap(p)]
            listing = ", ".join("here" if p == hero else hero.direction_to(p) for p in near) or "none"
            where = "on your square" if here else f"to the {d} at ({target.x}, {target.y})"
            return self._fail(f"no known trap {where}; known traps next to you: {listing}")
        key = "." if here else DIRECTION_KEYS[d]
        # A squeaky board is oiled: NetHack asks for the oil or grease.
        oil = next((i.slot for i in await self.get_inventory() if re.search(r"can of grease|potion of oil", i.text)),
                   None)
        res = self._act(
            UNTRAP,
            [Rule(r"In what direction", key, limit=1), Rule(r"Check it for traps\?|Disarm it\?", "y"),
             Rule(r"untrap with", oil, limit=1, error=None if oil else
                  "a squeaky board is disarmed with a can of grease or a potion of oil, and you carry neither "
                  "(known as such)"),
             self._peaceful_rule()],
            success=lambda ex, b, a: any(re.search(r"You disarm|You repair|You find no traps|You succeed|"
                                                   r"You manage to|is now harmless", m) for m in ex.messages),
        )
        return res

    # ------------------------------------------------------------ helpers
    async def _unlock(self, item: Item, key: str) -> ActionResult:
        return await self._occupation(
            "a", lambda: [Rule(r"What do you want to use or apply", item.slot, limit=1),
                          Rule(r"In what direction", key, limit=1),
                          Rule(r"(?:unlock it|pick its lock)\?", "y", limit=1),
                          Rule(r"(?<!un)lock it\?|fix its lock\?", "n", limit=1,
                               error="it is not locked (apply only unlocks); nothing was done")],
            r"You succeed in (?:unlocking|picking)",
            r"You give up|doesn't seem to be any sort of lock|no door there|has no door|cannot lock|is broken|"
            r"can't lock|I don't|too hard",
        )

    async def _occupation(self, keys: str, rules, done: str, failed: str) -> ActionResult:
        """Run a many-turn command (picking or forcing a lock) to its end: again
        after an interruption, unless a hostile monster is in view."""
        messages: list[str] = []
        turn0 = self._stats_now().turn
        for _ in range(6):
            res = self._act(keys, rules(), success=lambda ex, b, a: True)
            messages += res.messages
            text = " ".join(res.messages)
            if res.game_over:
                return ActionResult(False, messages, True, True, res.error, game_over=True)
            if re.search(done, text):
                return self._result(True, messages, turn0, None)
            if res.error or re.search(failed, text) or not _STOPPED.search(text):
                err = res.error or next((m for m in res.messages if re.search(failed, m) or _FAILURES.search(m)),
                                        res.messages[-1] if res.messages else "nothing happened")
                return self._result(False, messages, turn0, err)
            hostile = self._hostile_in_view() or _guard_came(text)
            if hostile:
                return self._result(False, messages, turn0, f"interrupted: {hostile}; deal with it, then call again "
                                                            f"to resume")
        return self._result(False, messages, turn0, "interrupted again and again; nothing finished")


__all__ = ["ToolCommands", "FORCE", "UNTRAP"]

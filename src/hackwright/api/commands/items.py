"""Item commands of NetHackAPI: pick up, drop, eat, quaff, read, zap, wear, wield,
take off.
"""

from __future__ import annotations

from typing import Optional

from ..keyboard import Exchange, Prompt, PromptKind, Rule
from ..models import ActionResult
from .core import ApiCore, _FAILURES


class ItemCommands(ApiCore):
    """Using what the hero carries or finds on the floor."""

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

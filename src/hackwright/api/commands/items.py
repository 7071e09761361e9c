"""Item commands of NetHackAPI: pick up, drop, eat, quaff, read, zap, wear, wield,
take off.
"""

from __future__ import annotations

import re
from typing import Optional

from ..keyboard import Exchange, Prompt, PromptKind, Rule
from ..models import ActionResult
from .core import ApiCore, _FAILURES


def _ate(ex: Exchange, before: tuple, after: tuple) -> bool:
    """A meal happened: a turn passed and nothing refused."""
    return after[0] != before[0] and not any(_FAILURES.search(m) for m in ex.messages)


class ItemCommands(ApiCore):
    """Using what the hero carries or finds on the floor."""

    async def pickup(self, item_letter: Optional[str] = None) -> ActionResult:
        """Pick up items from your square, in one action however many.
        If item_letter is None, picks up everything. Otherwise picks up only the
        matching item: a letter as shown in the pick-up menu, or part of the item's
        name as get_items_here() shows it ("dagger", "lichen corpse"; the first that
        matches). Success means your pack or your gold changed.
        Never makes you Burdened: an item too heavy to carry without that is left
        where it lies and the error begins "too heavy" (drop something first).
        Fails, sending nothing, when nothing lies here or the game is over; a name
        that matches nothing fails with an error listing what is here."""
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
        """Drop the whole stack with inventory letter ``item_letter`` on your square.
        Success means your pack changed. Fails, sending nothing, for a letter not in
        your pack (the error lists your items); fails with NetHack's words for an
        item you wear ("You cannot drop something you are wearing.": take_off() or
        remove() it first) or a cursed weapon welded to your hands. A wielded weapon
        can be dropped (you are then empty-handed). A question on the way (a
        shopkeeper offering to buy it) is escaped: the item lies there, still yours."""
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
            # (no fold: a fold at a new moment would change what later skills see)
            self._level_memory(fold=False).stashes.add(self._hero())
        return res

    async def eat(self, item_letter: Optional[str] = None, floor_item: Optional[str] = None) -> ActionResult:
        """Eat a whole meal, however many turns it takes (a monster appearing may
        interrupt it: "You stop eating.", the rest stays partly eaten).
        item_letter: the letter of food in your pack (food on the floor is then not
        offered). None eats the first edible thing on the floor here; with none
        there it fails, the error listing your food.
        floor_item: with no item_letter, eat this food from the floor and no other:
        its name as get_items_here() shows it, or the words NetHack would use for it
        ("newt corpse", "food ration"). NetHack offers the floor's food one piece
        at a time and every other piece is declined; it fails when none matches.
        Check a corpse with is_safe_to_eat() first. Success means a turn passed and nothing refused.
        Fails, sending nothing, for a letter not in your pack (the error lists your
        food); another item fails with "You cannot eat that!". "Stop eating?" is
        answered yes and "Continue eating?" no (the warning before you choke on a
        full stomach), so such a meal ends there."""
        if item_letter is not None:
            err = await self._item_letter_error(item_letter, ("food",), "food")
            if err:
                return self._fail(err)
            rules = [
                Rule(r"here; eat (it|one)\?", "n"),
                Rule(r"What do you want to eat", item_letter, limit=1),
            ]
        elif floor_item:
            return await self._eat_from_floor(str(floor_item))
        else:
            food = [i for i in await self.get_inventory() if i.object_class == "food"]
            listing = ", ".join(f"{i.slot} ({i.name})" for i in food) or "none"
            rules = [
                Rule(r"here; eat (it|one)\?", "y"),
                Rule(r"What do you want to eat", None, error=f"no food on the floor here; your food: {listing}"),
            ]
        rules += [Rule(r"Stop eating\?", "y"), Rule(r"Continue eating\?", "n")]
        return self._act("e", rules, success=_ate)

    async def _eat_from_floor(self, floor_item: str) -> ActionResult:
        """eat(floor_item=...): yes to the floor food so named, no to every other."""
        want = floor_item.strip().lower()
        offered: list[str] = []

        def answer(p) -> str:
            m = re.search(r"There (?:is|are) (.+?) here; eat", p.text)
            offered.append(m.group(1) if m else p.text)
            return "y" if want in p.text.lower() else "n"

        rules = [Rule(r"here; eat (it|one)\?", answer, limit=20), Rule(r"What do you want to eat", None),
                 Rule(r"Stop eating\?", "y"), Rule(r"Continue eating\?", "n")]
        res = self._act("e", rules, success=_ate)
        if not res.success and not res.game_over and not any(want in o.lower() for o in offered):
            res.error = f"no {floor_item} to eat on the floor here; food offered here: " + (
                ", ".join(offered) or "none")
        return res

    async def quaff(self, item_letter: str) -> ActionResult:
        """Drink the potion with inventory letter ``item_letter``. A fountain or sink
        you stand on is not drunk from. Success means a turn passed; the messages
        tell what it did (the question naming an unknown potion is escaped). Fails,
        sending nothing, for a letter not in your pack (the error lists your
        potions); another item fails with NetHack's words ("That is a silly thing to
        drink.", or "You don't have anything to drink." when you carry no potion)."""
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
        """Read the scroll or spellbook with inventory letter ``item_letter``. A scroll
        acts at once (one turn, used up); a spellbook is studied for many turns
        within this call and teaches its spell (see cast_spell), unless a monster
        interrupts. A Wizard's warning "difficult to comprehend. Continue?" is
        answered no. A scroll of identify identifies the first item its menu lists;
        other questions (what to charge, what to genocide, a name to call it) are
        escaped, and so is the look round the map a detection offers. Success means
        a turn passed or your pack changed. Fails, sending nothing, for a letter not
        in your pack (the error lists your scrolls and spellbooks); another item
        fails with "That is a silly thing to read."."""
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
        """Zap the wand with inventory letter ``item_letter`` in ``direction``: a
        compass direction, 'up', 'down' or 'self' (at yourself). A wand that takes
        no direction (light, create monster …) is zapped without one. Success means
        a turn passed, whatever happened: read the messages ("Nothing happens." may
        mean no charges left). Fails, sending nothing, for a letter not in your pack
        (the error lists your wands) or an invalid direction (the error lists the
        valid ones); another item fails with "That is a silly thing to zap.". Only
        the direction question is answered: zap a wand of wishing with send_keys."""
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
        """Wear the armor with inventory letter ``item_letter`` (armor that takes
        several turns to put on is on when this returns). A ring, amulet or other
        tool is put on instead (a ring on the right hand; put_on() picks a free hand
        and checks more). Success means your pack's lines changed ("(being worn)").
        Fails, sending nothing, for a letter not in your pack (the error lists your
        armor); fails with NetHack's words when it cannot be worn now: already worn,
        its slot taken, body armor under a worn cloak, another item ("You don't have
        anything else to wear."). Unknown armor may be cursed: then it stays on."""
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
        """Wield the item with inventory letter ``item_letter`` as your weapon, or '-'
        for bare hands. Success means your pack's lines changed ("(weapon in
        hand)"). Fails, sending nothing, for a letter not in your pack (the error
        lists your weapons and tools); fails with NetHack's words for "You are
        already wielding that!", "You are already empty handed.", a cursed weapon
        welded to your hands, or a two-handed weapon while you wear a shield."""
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
        """Take off the worn armor, ring, amulet or eyewear with inventory letter
        ``item_letter`` (armor that takes several turns is off when this returns).
        Success means your pack's lines changed. Fails, sending nothing, for a letter
        not in your pack (the error lists your items) or an item that is not worn,
        wielded weapons included (the error lists what you wear); fails with
        NetHack's words when it cannot come off: cursed ("You can't.  It is
        cursed."), or body armor under a cloak."""
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

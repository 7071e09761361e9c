"""Accessories, dipping, skills and sacrifice for NetHackAPI: put on and remove
rings, amulets and eyewear, dip an item, #enhance skills, #offer a corpse.

NetHack 3.6's words these commands follow (do_wear.c, potion.c, weapon.c,
pray.c): "Which ring-finger, Right or Left? [rl]" (asked only while both hands
are free), "There are no more ring-fingers to fill.", "You can't.  It is
cursed.", "Dip the dagger into the fountain? [yn]", "What do you want to dip
the dagger into?", the #enhance menu "Pick a skill to advance:" (only skills
that can be advanced now have a letter; one is advanced per command, so the
command is repeated) or "Current skills:" when none can, "You are now more
skilled in axe.", "You are not standing on an altar.", "There is a newt corpse
here; sacrifice it? [ynq]" and "Your sacrifice is consumed in a flash of light!".
A corpse more than 50 turns old is worth nothing ("Nothing happens.") and
stays; a corpse of the hero's own race angers a lawful or neutral god.
"""

from __future__ import annotations

import re
from typing import Optional

from nle import nethack as nh_bl

from ..keyboard import Exchange, Prompt, PromptKind, Rule
from ..models import ActionResult, EnhanceResult, Item
from .core import ApiCore, _FAILURES

DIP = chr(ord("d") | 0x80)  # M-d, NetHack's #dip
ENHANCE = chr(ord("e") | 0x80)  # M-e, NetHack's #enhance
OFFER = chr(ord("o") | 0x80)  # M-o, NetHack's #offer

_EYEWEAR = re.compile(r"\b(blindfold|towel|lenses)\b")
_WORN_ACCESSORY = ("amulet", "left ring", "right ring", "eyewear")
_POOL_WORDS = ("pool", "water", "moat")
_ADVANCED = re.compile(r"You are now (?:more|most) skilled in ([a-z][a-z -]*?)\.")
_CONSUMED = re.compile(r"sacrifice is consumed|consumed in a (?:flash|burst)")
# The race flags of NetHack's monster table (monflag.h M2_HUMAN … M2_ORC).
_RACE_FLAGS = {"human": 0x08, "elf": 0x10, "dwarf": 0x20, "gnome": 0x40, "orc": 0x80}


def _accessory(item: Item) -> bool:
    return item.object_class in ("ring", "amulet") or (item.object_class == "tool" and bool(_EYEWEAR.search(
        item.text.lower())))


def _listing(items: list[Item]) -> str:
    return ", ".join(f"{i.slot} ({i.text})" for i in items) or "none"


def _same_race(corpse_text: str, race: Optional[str]) -> bool:
    """Whether a corpse is of the hero's own race (an elf's "Woodland-elf corpse" is)."""
    flag = _RACE_FLAGS.get(race or "")
    m = re.search(r"(?:an? |the |\d+ )?(?:partly eaten )?([A-Za-z][A-Za-z -]*?) corpses?\b", corpse_text)
    if flag is None or m is None:
        return False
    name = re.sub(r"^(?:blessed|uncursed|cursed)\s+", "", m.group(1).strip()).lower()
    for i in range(nh_bl.NUMMONS):
        pm = nh_bl.permonst(i)
        if pm.mname.lower() == name:
            return bool(pm.mflags2 & flag)
    return False


class AccessoryCommands(ApiCore):
    """Rings, amulets and eyewear; dipping; skill advancement; sacrifice at altars."""

    async def put_on(self, letter: str) -> ActionResult:
        """
        Put on a ring, an amulet, or a blindfold, towel or pair of lenses (eyewear).

        A ring goes on the left hand when it is free, else on the right. Success
        means the item is now worn (get_equipment() shows it under "left ring",
        "right ring", "amulet" or "eyewear"). Fails, sending nothing, for a
        letter not in your pack (the error lists your accessories), an item that
        is not an accessory (armor is worn with wear()), one already worn, a ring
        when both ring hands are full, an amulet while one is worn, eyewear while
        some is worn (remove() the old one first). Beware: an unknown ring or
        amulet may be cursed (then it stays on) or harmful (an amulet of
        strangulation kills in 6 turns unless removed).
        """
        inv = await self.get_inventory()
        accessories = [i for i in inv if _accessory(i)]
        item = next((i for i in inv if isinstance(letter, str) and i.slot == letter), None)
        if item is None:
            return self._fail(f"no inventory item with letter {letter!r}; your accessories: {_listing(accessories)}")
        if not _accessory(item):
            hint = "; armor is worn with wear(letter)" if item.object_class == "armor" else ""
            return self._fail(f"{letter} ({item.text}) is not an accessory (a ring, an amulet, or a blindfold, towel "
                              f"or lenses){hint}; your accessories: {_listing(accessories)}")
        if item.equipped in _WORN_ACCESSORY:
            return self._fail(f"{letter} ({item.text}) is already worn")
        eq = await self.get_equipment()
        hand = "l"
        if item.object_class == "ring":
            if eq["left ring"] is not None and eq["right ring"] is not None:
                return self._fail(f"both ring hands are full: {eq['left ring'].slot} ({eq['left ring'].text}) and "
                                  f"{eq['right ring'].slot} ({eq['right ring'].text}); remove(letter) one first")
            hand = "l" if eq["left ring"] is None else "r"
        else:
            slot = "amulet" if item.object_class == "amulet" else "eyewear"
            worn = eq[slot]
            if worn is not None:
                return self._fail(f"you already wear {worn.slot} ({worn.text}) as your {slot}; remove({worn.slot!r}) "
                                  f"it first")
        res = self._act("P", [Rule(r"What do you want to put on", letter, limit=1),
                              Rule(r"Which ring-finger", hand, limit=1)],
                        success=lambda ex, b, a: a[3] != b[3])
        now = next((i for i in await self.get_inventory() if i.slot == letter), None)
        if res.success and (now is None or now.equipped not in _WORN_ACCESSORY):
            res.success = False
            res.error = res.messages[-1] if res.messages else f"{letter} was not put on"
        return res

    async def remove(self, letter: str) -> ActionResult:
        """
        Take off a worn ring, amulet or eyewear (blindfold, towel, lenses).

        Success means it is no longer worn. Fails, sending nothing, for a letter
        that is not a worn accessory (the error lists the worn ones; worn armor
        comes off with take_off()), and fails when the item is cursed: it cannot
        be removed until uncursed (holy water, a scroll of remove curse, or a
        prayer when it is your worst trouble).
        """
        inv = await self.get_inventory()
        worn = [i for i in inv if i.equipped in _WORN_ACCESSORY]
        item = next((i for i in inv if isinstance(letter, str) and i.slot == letter), None)
        if item is None or item.equipped not in _WORN_ACCESSORY:
            what = f"no inventory item with letter {letter!r}" if item is None else \
                f"{letter} ({item.text}) is not a worn accessory"
            armor = item is not None and item.object_class == "armor"
            hint = "; worn armor comes off with take_off(letter)" if armor else ""
            return self._fail(f"{what}{hint}; worn accessories: {_listing(worn)}")
        hand = "l" if item.equipped == "left ring" else "r"
        res = self._act("R", [Rule(r"What do you want to remove", letter, limit=1),
                              Rule(r"Which ring", hand, limit=1)],
                        success=lambda ex, b, a: a[3] != b[3])
        if any(re.search(r"\bcursed\b", m) and re.search(r"You can't", m) for m in res.messages):
            res.success = False
            res.error = (f"{letter} ({item.text}) is cursed and cannot be removed; uncurse it first (holy water, a "
                         "scroll of remove curse, or a prayer when it is your worst trouble)")
        return res

    async def dip(self, letter: str, into: str) -> ActionResult:
        """
        Dip an item into a potion, or into the fountain or pool you stand on.

        ``into`` is the inventory letter of a potion, or 'fountain' or 'pool'
        ('water' and 'moat' mean pool). What it does depends on both: dipping
        into water dilutes a potion, blanks a scroll or rusts iron; into holy
        water blesses, unholy water curses; a long sword dipped in a fountain
        by a level 5+ lawful hero may become Excalibur; two potions may mix.
        Takes one turn; the messages say what happened. Fails, sending nothing,
        for letters not in your pack (the error lists your potions), dipping an
        item into itself, or ``into`` that is neither; fails when there is no
        fountain or pool on your square.
        """
        inv = await self.get_inventory()
        potions = [i for i in inv if i.object_class == "potion"]
        item = next((i for i in inv if isinstance(letter, str) and i.slot == letter), None)
        if item is None:
            return self._fail(f"no inventory item with letter {letter!r}; your items: {_listing(inv)}")
        where = into.strip().lower() if isinstance(into, str) else None
        valid = f"into must be a potion's letter (your potions: {_listing(potions)}), 'fountain' or 'pool'"
        potion = None
        if where not in ("fountain",) + _POOL_WORDS:
            potion = next((i for i in potions if i.slot == into), None)
            if potion is None:
                return self._fail(f"{into!r} is not one of your potions; {valid}")
            if into == letter:
                return self._fail(f"an item cannot be dipped into itself; {valid}")
        place = "fountain" if where == "fountain" else ("pool" if where in _POOL_WORDS else None)
        no_place = f"there is no {place} on your square; stand on one first" if place else None
        rules = [
            Rule(r"What do you want to dip .* into\?", into if potion else None, limit=1, error=no_place),
            Rule(r"What do you want to dip\?", letter, limit=1),
            Rule(r"into the fountain\?", "y" if place == "fountain" else "n", limit=1),
            Rule(r"Dip .* into the [a-z ]+\?", "y" if place == "pool" else "n", limit=1),
            Rule(r"^Call ", None, kinds=(PromptKind.TEXT,)),  # no name for a potion that changed
        ]

        def dipped(ex: Exchange, b: tuple, a: tuple) -> bool:
            return a[0] != b[0] and not any(_FAILURES.search(m) for m in ex.messages)

        res = self._act(DIP, rules, success=dipped)
        if not res.success and place and re.search(r"don't have anything to dip", res.error or ""):
            res.error = no_place
        return res

    async def enhance(self) -> EnhanceResult:
        """
        Advance every weapon, fighting and spell skill that can be now (#enhance); result.advanced names them.

        A skill can be advanced after enough practice ("You feel more confident in
        your weapon skills") while you have free skill slots (one more each
        experience level). ``advanced`` lists the skills raised, e.g. ["axe"]
        (a skill may appear twice if raised two levels); an empty list with
        success means no skill can be advanced now. Takes no game time.
        """
        if self._game.done:
            return EnhanceResult(False, [], False, False, "the game is over; no more actions are possible",
                                 game_over=True)
        advanced: list[str] = []
        messages: list[str] = []
        changed = False
        self._skill_ready()  # what was said before this #enhance is answered by it
        self._skill_confident = False
        for _ in range(40):
            ready: list[tuple[int, str, str]] = []  # (page, letter, skill line)

            def record(p: Prompt) -> list[str]:
                ready.extend((p.page, e.letter, e.text) for e in p.entries)
                return []  # chosen below: the menu closes on its letter, mid-page

            menu = [Rule(r"Pick a skill to advance", record, kinds=(PromptKind.MENU,), limit=1),
                    Rule(r"Current skills", lambda p: [], kinds=(PromptKind.MENU,), limit=1)]
            res = self._act(ENHANCE, menu, success=lambda ex, b, a: True)
            if res.error or not ready:
                messages += [m for m in res.messages if not m.startswith(("Current skills", "Pick a skill"))]
                if res.error:
                    return EnhanceResult(False, messages, False, changed, res.error, game_over=self._game.done,
                                         advanced=advanced)
                break
            page, key, _text = ready[0]
            # The menu shows one page at a time and its letters work on the page shown.
            res = self._act(ENHANCE + ">" * (page - 1) + key, menu, success=lambda ex, b, a: True)
            got = [n for m in res.messages for n in _ADVANCED.findall(m)]
            messages += [m for m in res.messages if not m.startswith(("Current skills", "Pick a skill"))]
            if not got:
                return EnhanceResult(False, messages, False, changed,
                                     res.error or f"could not advance {_text.split('[')[0].strip()}",
                                     game_over=self._game.done, advanced=advanced)
            advanced += got
            changed = True
        if not advanced:
            messages.append("no skill can be advanced now")
        return EnhanceResult(True, messages, False, changed, None, game_over=self._game.done, advanced=advanced)

    async def offer(self, letter: Optional[str] = None) -> ActionResult:
        """
        Sacrifice a corpse on the altar you stand on (#offer).

        ``letter`` is a corpse in your pack; None offers the corpse lying on the
        altar (the first one, when several). A fresh corpse (killed within the
        last 50 turns) may lower your prayer timeout, soothe an angry god, raise
        your Luck, or bring a gift; on an altar of another alignment it may
        convert the altar (or anger its god). Success means the corpse was
        consumed. Fails, sending nothing, when you are not standing on an altar,
        when there is no corpse to offer (the error lists yours), for a letter
        that is not a corpse, and for a corpse of your own race (that angers a
        lawful or neutral god); fails with "too old" when NetHack says "Nothing
        happens." (the corpse stays).
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        inv = await self.get_inventory()
        corpses = [i for i in inv if i.object_class == "food" and re.search(r"\bcorpses?\b", i.text)]
        item = None
        if letter is not None:
            item = next((i for i in inv if isinstance(letter, str) and i.slot == letter), None)
            if item is None or item not in corpses:
                what = f"no inventory item with letter {letter!r}" if item is None else \
                    f"{letter} ({item.text}) is not a corpse"
                return self._fail(f"{what}; corpses you carry: {_listing(corpses)} (or offer() for one on the altar)")
        look = "\n".join(self._look_texts())
        altar = re.search(r"There is an altar[^\n.]*", look)
        if altar is None:
            return self._fail("you are not standing on an altar ('_' on the map); move onto one first")
        race = self.hero_race
        if item is not None and _same_race(item.text, race):
            return self._fail(f"{letter} ({item.text}) is of your own race: sacrificing it angers a lawful or "
                              "neutral god and costs Luck")
        floor = [i for i in await self.get_items_here() if re.search(r"\bcorpses?\b", i.text)]
        if letter is None and not any(not _same_race(i.text, race) for i in floor):
            why = "only corpses of your own race lie here" if floor else "no corpse lies on the altar"
            return self._fail(f"{why}; corpses you carry: {_listing(corpses)} (offer(letter) for one of them)")

        def floor_answer(p: Prompt) -> str:
            if letter is not None:
                return "n"
            return "n" if _same_race(p.text, race) else "y"

        rules = [
            Rule(r"here; (?:sacrifice|offer) (?:it|one)\?", floor_answer, limit=10),
            Rule(r"What do you want to (?:sacrifice|offer)", letter if letter else None, limit=1,
                 error=None if letter else "no corpse on the altar was offered"),
        ]
        res = self._act(OFFER, rules, success=lambda ex, b, a: any(_CONSUMED.search(m) for m in ex.messages))
        text = " ".join(res.messages)
        if not res.success and re.search(r"Nothing happens", text):
            res.error = "too old: the corpse died more than 50 turns ago and is worth nothing (it stays); offer " \
                        "fresh kills"
        if re.search(r"seems mollified", text) and not re.search(r"slightly mollified", text):
            self._prayer.record_appeased(self._stats_now().turn)
        return res

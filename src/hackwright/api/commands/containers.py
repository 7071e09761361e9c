"""Containers for NetHackAPI: look into a box, chest, sack or bag, put items in,
take them out.

A container on the floor is opened with #loot (M-l), one in the pack with apply.
NetHack 3.6's words these commands follow (pickup.c): "There is a large box
here, loot it?", "Loot which containers?" (a menu when several lie here),
"Hmmm, it turns out to be locked.", then the menu "Do what with the large box?"
(o: take something out, i: put something in), "Take out what type of objects?",
"Take out what?", "Put in what?" and "The large box is empty.". Listing what is
inside goes through the take-out menu with nothing chosen, which takes no game
time. A bag of tricks bites whoever reaches in; a bag of holding explodes, with
all it holds, when a wand of cancellation, a bag of holding or a bag of tricks
goes into it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Optional, Union

from .. import observe
from ..keyboard import ESC, Exchange, Prompt, PromptKind, Rule
from ..models import ActionResult, ContainerResult, Item
from .core import ApiCore
from .queries import _item_from_text

LOOT = chr(ord("l") | 0x80)  # M-l, NetHack's #loot

_CONTAINER = re.compile(r"\b(bag|sack|box|chest)\b")
_LOCKED = re.compile(r"turns out to be locked|\bis locked\b")
_BITES = re.compile(r"bites you|develops a huge set of teeth")
_EXPLODES = re.compile(r"You are blasted by a magical explosion|magical explosion")
# An unidentified sack, oilskin sack, bag of holding and bag of tricks all read "bag".
_MAYBE_HOLDING = re.compile(r"\bbag of holding\b|\bbag\b(?! of tricks)(?!\w)")
_HOLDING_BANE = re.compile(r"\bwand of cancellation\b|\bbag of holding\b|\bbag of tricks\b")
_UNLOCK_HINT = ("open it with force_lock() (a wielded weapon), kick it from the next square, or apply a key, "
                "lock pick or credit card to it (apply(letter, 'self'))")


def _container_name(text: str) -> str:
    """ "a broken large box" -> "large box"; "an uncursed bag" -> "bag"."""
    words = re.sub(r"\s*\([^)]*\)", "", text.lower())
    words = re.sub(r"^(?:\d+|an?|the)\s+", "", words.strip())
    words = re.sub(r"\b(?:blessed|uncursed|cursed|broken|locked|unlocked|empty)\s+", "", words)
    return re.sub(r"\s+(?:containing|called|named)\b.*$", "", words).strip()


def _letters(letters: Union[str, list, tuple, None]) -> Optional[list[str]]:
    """'abc', 'a', ['a', 'b'] -> ['a', 'b', 'c'] …; None for anything else."""
    if isinstance(letters, str):
        out = [c for c in letters if not c.isspace() and c != ","]
    elif isinstance(letters, (list, tuple)) and all(isinstance(x, str) and len(x.strip()) == 1 for x in letters):
        out = [x.strip() for x in letters]
    else:
        return None
    return list(dict.fromkeys(out)) or None


class _Target:
    """The container an action is about: carried (an inventory letter) or on the floor."""

    def __init__(self, name: str, item: Item, carried: bool, wanted: str = ""):
        self.name = name
        self.item = item
        self.carried = carried
        self.wanted = wanted.lower()  # the name asked for, to choose in "Loot which containers?"


class ContainerCommands(ApiCore):
    """Looting boxes and chests, and using bags and sacks."""

    async def loot(self, container: str = "") -> ContainerResult:
        """
        Open a container and list what is inside in ``result.contents``; nothing is taken, no time passes.

        ``container`` is '' for the only box, chest, bag or sack on your square,
        a name to choose among several here ('large box', 'chest', 'box', 'bag'),
        or the inventory letter of a bag or sack you carry. The result's
        ``contents`` lists the items inside (Item.slot is None: they are not in
        your pack), ``container`` names it ("large box"); an empty container is a
        success with contents == [].
        Fails when no container is here (naming what is here and the containers
        you carry), when the box or chest is locked (the error says how to open
        it: force_lock(), kicking it, or a key), and for a bag of tricks, which
        bites whoever reaches in.
        """
        target = await self._container_target(container)
        if isinstance(target, str):
            return self._container_fail(target)
        return self._look_inside(target)

    async def put_in(self, container: str, letters: Union[str, list[str]]) -> ContainerResult:
        """
        Put items from your pack into a container; takes one turn.

        ``container``: the inventory letter of a bag or sack you carry, or a box,
        chest or bag on your square: '' for the only one, else its name ('large
        box', 'chest', 'box', 'bag'). ``letters``: the inventory letters of the
        items, as one letter 'd', a string 'dfg' or a list ['d', 'f'] (whole stacks
        go in). Success means every one of them left your pack; ``contents`` then
        lists everything inside.
        Refused (nothing sent) for unknown letters (the error lists your items),
        the container itself, armor or accessories you wear (take them off
        first), a known bag of tricks, and for anything that makes a bag of
        holding explode: a wand of cancellation, a bag of holding or a bag of
        tricks put into a bag of holding or into an unidentified "bag" (which may
        be one), or an unidentified wand or bag put into a known bag of holding.
        Fails for a locked box or chest, with how to open it.
        """
        wanted = _letters(letters)
        if wanted is None:
            return self._container_fail(f"letters must be inventory letters: 'd', 'dfg' or ['d', 'f'], "
                                        f"not {letters!r}")
        target = await self._container_target(container)
        if isinstance(target, str):
            return self._container_fail(target)
        inv = await self.get_inventory()
        by_slot = {i.slot: i for i in inv}
        own = target.item.slot if target.carried else None
        choices = ", ".join(f"{i.slot} ({i.text})" for i in inv if i.slot != own)
        for letter in wanted:
            item = by_slot.get(letter)
            if item is None:
                return self._container_fail(f"no inventory item with letter {letter!r}; items you can put in: "
                                            f"{choices or 'none'}", target=target)
            if target.carried and letter == target.item.slot:
                return self._container_fail(f"{letter} is the {target.name} itself; items you can put in: "
                                            f"{choices}", target=target)
            if item.equipped and item.equipped not in ("weapon", "alternate weapon", "quiver", "off hand", "in use"):
                return self._container_fail(f"{letter} ({item.text}) is worn: take it off (take_off/remove) "
                                            "first", target=target)
            danger = self._holding_danger(target.item.text, item.text, item.object_class)
            if danger:
                return self._container_fail(danger, target=target)

        def pick(p: Prompt) -> list[str]:
            return [e.letter for e in p.entries if e.letter in wanted]

        res = self._open_container(target, "i", [
            Rule(r"Put in what type of objects", lambda p: ["a"], kinds=(PromptKind.MENU,), limit=1),
            Rule(r"Put in what\?", pick, kinds=(PromptKind.MENU,), limit=1),
        ])
        if res.error:
            return self._container_fail(res.error, res, target=target)
        left = {i.slot: i for i in await self.get_inventory()}
        stayed = [f"{s} ({by_slot[s].text})" for s in wanted if s in left and left[s].text == by_slot[s].text]
        if stayed:
            said = next((m for m in res.messages if re.search(r"You cannot|You can't|won't|would be|silly", m)), None)
            why = f": {said}" if said else ""
            return self._container_fail(f"not put into the {target.name}: {', '.join(stayed)}{why}", res,
                                        target=target)
        return self._with_contents(target, res)

    async def take_out(self, container: str, letters_or_names: Union[str, list[str]] = "all") -> ContainerResult:
        """
        Take items out of a container into your pack; takes one turn.

        ``container`` as for put_in: a carried bag's inventory letter, or '' /
        a name ('large box', 'chest', 'bag') for one on your square.
        ``letters_or_names``: "all" for everything, or part of an item's name
        ("dagger", "apple"; at least 2 characters) or a list of such parts: every
        item whose name contains one of them comes out (loot() lists what is inside).
        Success means something came out and every name matched; ``contents``
        then lists what is left inside. Like pickup(), never makes you Burdened:
        what is too heavy stays inside and the error says so.
        Fails, naming what is inside, when a name matches nothing; fails for a
        locked box or chest (with how to open it) and refuses a known bag of
        tricks (it bites).
        """
        if isinstance(letters_or_names, str):
            names = [letters_or_names.strip().lower()]
        elif isinstance(letters_or_names, (list, tuple)) and letters_or_names and all(
                isinstance(n, str) for n in letters_or_names):
            names = [n.strip().lower() for n in letters_or_names]
        else:
            names = []
        if not names or not all(len(n) >= 2 for n in names):
            return self._container_fail(f"letters_or_names must be 'all', a part of an item's name of at least 2 "
                                        f"characters ('dagger') or a list of them, not {letters_or_names!r}")
        take_all = "all" in names
        target = await self._container_target(container)
        if isinstance(target, str):
            return self._container_fail(target)
        seen: list[str] = []
        matched: set[str] = set()

        def pick(p: Prompt) -> list[str]:
            seen.extend(e.text for e in p.entries)
            out = []
            for e in p.entries:
                hits = [n for n in names if take_all or n in e.text.lower()]
                matched.update(hits)
                if hits:
                    out.append(e.letter)
            return out

        inv_before = self._obs()["inv_strs"].tobytes()
        res = self._open_container(target, "o", [
            Rule(r"Take out what type of objects", lambda p: ["a"], kinds=(PromptKind.MENU,), limit=1),
            Rule(r"Take out what\?", pick, kinds=(PromptKind.MENU,), limit=1),
            Rule(r"trouble lifting|Continue\?", "n", limit=60,
                 error="too heavy: carrying it would make you Burdened (slower, unable to squeeze through "
                       "diagonal gaps); it stays inside. Drop something first, or leave it"),
        ])
        if res.error:
            return self._container_fail(res.error, res, target=target)
        if any(re.search(r"\bis empty\b", m) for m in res.messages):
            return self._container_fail(f"the {target.name} is empty", res, contents=[], target=target)
        missing = [n for n in names if n not in matched and not take_all]
        if missing:
            inside = ", ".join(seen) or "nothing"
            return self._container_fail(f"nothing in the {target.name} matches {', '.join(map(repr, missing))}; "
                                        f"inside: {inside}", res, contents=self._items(seen, target), target=target)
        if self._obs()["inv_strs"].tobytes() == inv_before:
            return self._container_fail(f"nothing came out of the {target.name}"
                                        + (f": {res.messages[-1]}" if res.messages else ""), res, target=target)
        return self._with_contents(target, res)

    # ------------------------------------------------------------ helpers
    def _container_fail(self, error: str, res: Optional[ActionResult] = None,
                        contents: Optional[list[Item]] = None, target: Optional[_Target] = None) -> ContainerResult:
        name = target.name if target is not None else ""
        if res is None:
            return ContainerResult(False, [], False, False, error, game_over=self._game.done, container=name)
        return ContainerResult(False, res.messages, res.turn_elapsed, res.state_changed, error,
                               game_over=res.game_over or self._game.done, container=name,
                               contents=list(contents) if contents else [])

    async def _container_target(self, container: str) -> Union[_Target, str]:
        """The container meant, or an error saying what would be valid."""
        if self._game.done:
            return "the game is over; no more actions are possible"
        if not isinstance(container, str):
            return f"container must be an inventory letter or a name ('large box', 'bag', '' for the only one), " \
                   f"not {container!r}"
        inv = await self.get_inventory()
        carried = [i for i in inv if i.object_class == "tool" and _CONTAINER.search(i.text.lower())]
        carried_list = ", ".join(f"{i.slot} ({i.text})" for i in carried) or "none"
        want = container.strip()
        if len(want) == 1 and any(i.slot == want for i in inv):
            item = next(i for i in inv if i.slot == want)
            if item not in carried:
                return f"{want} ({item.text}) is not a container; containers you carry: {carried_list}"
            target = _Target(_container_name(item.text), item, True)
        else:
            here = await self.get_items_here()
            floor = [i for i in here if _CONTAINER.search(i.text.lower())]
            matches = [i for i in floor if want.lower() in i.text.lower()]
            listing = ", ".join(i.text for i in floor) or "none"
            if not matches:
                what = f"no container matching {want!r}" if want else "no box, chest, bag or sack"
                return (f"{what} on your square (containers here: {listing}; containers you carry: {carried_list}); "
                        "stand on the container, or pass a carried one's inventory letter")
            if not want and len(matches) > 1:
                return f"several containers are here ({listing}): name one, e.g. '{_container_name(matches[0].text)}'"
            item = matches[0]
            target = _Target(_container_name(item.text), item, False, want)
        if re.search(r"\bbag of tricks\b", target.item.text.lower()):
            return ("a bag of tricks is not a container: it bites whoever reaches into it "
                    "(applying it lets a monster out)")
        return target

    @staticmethod
    def _holding_danger(container: str, item: str, object_class: str) -> Optional[str]:
        """Why putting ``item`` into ``container`` may blow up a bag of holding, or None."""
        box, thing = container.lower(), item.lower()
        known_holding = "bag of holding" in box
        if not (known_holding or _MAYBE_HOLDING.search(box)):
            return None
        why = "a bag of holding explodes, destroying everything in it, when"
        which = "this container is a bag of holding" if known_holding else \
            "this unidentified bag may be a bag of holding"
        if _HOLDING_BANE.search(thing):
            return f"refused: {why} a wand of cancellation, bag of holding or bag of tricks goes in, and {which}"
        if object_class == "tool" and _MAYBE_HOLDING.search(thing):
            return (f"refused: {why} a bag of holding or bag of tricks goes in; {item} is an unidentified bag "
                    f"and {which}")
        if known_holding and object_class == "wand" and "wand of" not in thing:
            return f"refused: {why} a wand of cancellation goes in, and {item} is an unidentified wand"
        return None

    def _open_container(self, target: _Target, choice: str, rules: list[Rule]) -> ActionResult:
        """Open the container and choose ``choice`` ('o' take out, 'i' put in) in its menu;
        ``rules`` answer what follows. A result with ``error`` set when it did not open.

        The keys up to that choice are pressed here, not through rules: the menu
        "Do what with …?" closes on its letter and the next menu opens at once,
        which a rule's menu driver would confirm (empty) with its closing Enter."""
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        ex = Exchange()
        self._ensure_ready(ex)
        before = self._snapshot()
        menus: list[list[str]] = []
        kb = self._kb
        kb.type_keys("a" if target.carried else LOOT, ex)
        for _ in range(8):
            kb.settle(ex, keep_open=True)  # dismisses --More--, stops at the next question or menu
            p, ex.open_prompt = ex.open_prompt, None
            if p is None:
                break  # back at the command prompt: locked, empty, bitten …
            if p.kind is PromptKind.MENU and re.search(r"Do what with", p.text):
                letters = [e.letter for e in p.entries]
                menus.append(letters)
                kb.press(choice if choice in letters else ESC)
                ex.steps += 1
                kb.settle(ex, rules)
                break
            if p.kind is PromptKind.QUESTION and re.search(r"What do you want to use or apply", p.text):
                key = target.item.slot if target.carried and not ex.questions else ESC
            elif p.kind is PromptKind.QUESTION and re.search(r"here, loot it\?", p.text):
                key = "y" if not ex.questions else "n"  # one container per call
            elif p.kind is PromptKind.MENU and re.search(r"Loot which containers", p.text):
                name = target.wanted or target.name
                pick = next((e.letter for e in p.entries if name in e.text.lower()), None)
                if pick is not None:
                    kb.press(pick)
                    ex.steps += 1
                key = "\r"
            else:
                kb.settle(ex)  # anything else is escaped
                break
            if p.kind is PromptKind.QUESTION:
                ex.questions.append(p.text)
                kb._note(ex, f"{p.text} {key if key != ESC else '[escaped]'}")
            kb.press(key)
            ex.steps += 1
        kb.settle(ex)
        self.actions_taken += 1
        self._refresh()
        self._note_messages(ex.messages)
        self._after_action()
        after = self._snapshot() if not self._game.done else before
        res = ActionResult(not self._game.done, ex.messages, after[0] != before[0], after != before,
                           "; ".join(dict.fromkeys(ex.errors)) or None, game_over=self._game.done)
        if self._game.done:
            res.error = "the hero died (game over)"
            return res
        text = " ".join(res.messages)
        if _LOCKED.search(text):
            res.error = f"the {target.name} is locked: {_UNLOCK_HINT}"
        elif _BITES.search(text):
            res.error = f"the {target.name} is a bag of tricks: it bit you; do not loot it (apply it to let a " \
                        f"monster out)"
        elif _EXPLODES.search(text):
            res.error = f"the {target.name} was a bag of holding and exploded; what was in it is gone"
        elif not menus and not any(re.search(r"\bis empty\b", m) for m in res.messages) and not res.error:
            res.error = f"the {target.name} did not open" + (f": {res.messages[-1]}" if res.messages else "")
        elif menus and choice not in menus[0] and not res.error:
            res.error = ("there is nothing inside to take out" if choice == "o"
                         else "you have nothing that can be put in")
        return res

    def _items(self, texts: list[str], target: _Target) -> list[Item]:
        pos = None if target.carried else self._hero()
        items = [_item_from_text(t, pos) for t in texts]
        # An item whose kind the words do not name keeps its words as its name: drop the article.
        return [dataclasses.replace(i, name=observe.parse_item_text(i.text)[2]) if i.glyph < 0 else i for i in items]

    def _look_inside(self, target: _Target) -> ContainerResult:
        seen: list[str] = []

        def record(p: Prompt) -> list[str]:
            seen.extend(e.text for e in p.entries)
            return []

        res = self._open_container(target, "o", [
            Rule(r"Take out what type of objects", lambda p: ["a"], kinds=(PromptKind.MENU,), limit=1),
            Rule(r"Take out what\?", record, kinds=(PromptKind.MENU,), limit=1),
        ])
        empty = any(re.search(r"\bis empty\b", m) for m in res.messages) or res.error == \
            "there is nothing inside to take out"
        if empty:
            res.error = None
        elif not seen and not res.error:
            res.error = f"could not see into the {target.name}" + (f": {res.messages[-1]}" if res.messages else "")
        if res.error:
            return self._container_fail(res.error, res, target=target)
        return ContainerResult(True, res.messages, res.turn_elapsed, res.state_changed, None,
                               game_over=res.game_over, container=target.name, contents=self._items(seen, target))

    def _with_contents(self, target: _Target, res: ActionResult) -> ContainerResult:
        """The result of a put-in or take-out, with what is inside now (looking takes no time)."""
        look = self._look_inside(target) if not self._game.done else None
        contents = look.contents if look is not None and look.success else []
        return ContainerResult(True, res.messages, res.turn_elapsed, res.state_changed, None,
                               game_over=self._game.done, container=target.name, contents=contents)

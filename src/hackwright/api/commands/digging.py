"""Digging for NetHackAPI: with a pick-axe or mattock, or by zapping a wand of
digging, sideways or down, and the way out of a shop a hero must leave to dig.

NetHack 3.6's rules these commands follow (dig.c): a pick dug downward stops
once it has made a pit and, applied again, digs on to a hole the hero falls
through; stairs, ladders, altars and thrones cannot be dug, digging dries a
fountain up and breaks a sink; Sokoban's and the towers' walls and floors are
too hard; a hole dug in a shop lets its keeper grab the hero's pack, and a dug
shop wall must be paid for. Applying a pick wields it; the weapon it replaces
stays in the pack.
"""

from __future__ import annotations

import re
import weakref
from typing import Optional

from nle import nethack as nh_bl

from .. import glyphs as G, maps, observe, shops
from ..keyboard import ESC, Prompt, Rule
from ..models import ActionResult, Item, Position, ShopExit, normalize_direction
from .core import ApiCore, DIRECTION_KEYS, _FAILURES

_KEY_NAMES = {v: k for k, v in DIRECTION_KEYS.items()} | {">": "down", "<": "up", ".": "self"}

# What the pack's lines say digs ("broad pick" is an unidentified dwarvish mattock); the
# autopilot's diving policy reads the pack with the same patterns.
DIGGING_TOOL = re.compile(r"\b(pick-axe|dwarvish mattock|broad pick)\b")
DIGGING_WAND = re.compile(r"\bwand of digging\b")
_TWO_HANDED_DIGGER = re.compile(r"\b(dwarvish mattock|broad pick)\b")

# Branches whose walls and floors no digging gets through.
_NO_DIG_BRANCHES = {
    "Sokoban": "Sokoban's walls and floors cannot be dug (solve the puzzle by pushing boulders)",
    "Vlad's Tower": "Vlad's Tower's walls and floors cannot be dug",
    "Elemental Planes": "nothing can be dug on the Elemental Planes",
}

# What stands on the hero's square and forbids digging down (':' names it).
_NO_DIG_HERE = {
    "staircase": "you stand on stairs, which are too hard to dig in; step off them first",
    "ladder": "you stand on a ladder, which is too hard to dig in; step off it first",
    "altar": "you stand on an altar, which cannot be dug (and digging at it angers its god); step off it",
    "throne": "you stand on a throne, which is too hard to dig through; step off it",
    "fountain": "digging down at a fountain only dries it up (no hole); step off it",
    "sink": "digging down at a sink only breaks it (no hole); step off it",
    "grave": "digging down here digs up a grave (Archeologists and Samurai lose alignment for it, and the "
             "dead may rise); step off it",
}
_CMAP_HERE = {G.S_UPSTAIR: "staircase", G.S_DNSTAIR: "staircase", G.S_UPLADDER: "ladder", G.S_DNLADDER: "ladder",
              G.S_ALTAR: "altar", G.S_THRONE: "throne", G.S_FOUNTAIN: "fountain", G.S_SINK: "sink",
              G.S_GRAVE: "grave"}

_TOO_HARD = re.compile(r"too hard to (?:dig|break)|This (?:wall|drawbridge) is too hard|petrified|glows then fades")
_DIG_FAILS = re.compile(
    r"welded to your|while wearing a shield|You can't reach the|You cannot reach|isn't enough room to dig|"
    r"through thin air|You cannot stay under|You have no free|Clang!|You need an? |You can't dig|"
    r"You don't have enough leverage|Nothing happens|You cannot |You can't "
)
_OPENED = re.compile(r"You make an opening|You succeed in cutting away|You break through|falls apart|"
                     r"You dig through|shatters|You cut down the tree")
_STOPPED = re.compile(r"You stop (?:digging|unlocking|locking|picking|forcing)")

# Levels and squares NetHack called too hard to dig, kept with the level's own memory.
_HARD: "weakref.WeakKeyDictionary[maps.LevelMemory, set]" = weakref.WeakKeyDictionary()


def _offered(prompt: str) -> Optional[set[str]]:
    """The direction keys a dig prompt offers: "In what direction do you want to
    dig? [uln>]" (NetHack lists only where there is something to dig)."""
    m = re.search(r"\[([^\]]*)\]", prompt)
    if m is None:
        return None
    return set(m.group(1).split(" or ")[0].replace(" ", ""))


_COMPASS = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]


def _sentence(messages: list[str], pattern: re.Pattern) -> Optional[str]:
    """The sentence of the messages that matches (NetHack joins several on one line)."""
    for m in messages:
        for part in re.split(r"(?<=[.!])\s+", m):
            if pattern.search(part):
                return part
    return None


def _names(keys: set[str]) -> str:
    order = _COMPASS + ["down", "up"]
    names = sorted((_KEY_NAMES[k] for k in keys if k in _KEY_NAMES and k != "<"),
                   key=lambda n: order.index(n) if n in order else 99)
    return ", ".join(names) or "none"


_SHOP_FLOOR = "not digging down in a shop while its shopkeeper is in view"


def _guard_came(text: str) -> str:
    """What a long command stops for when a vault's guard came ('' when none did)."""
    return "a vault's guard came (drop your gold and follow him out)" if observe.VAULT_GUARD_CAME.search(text) else ""


class DiggingCommands(ApiCore):
    """Digging with a pick or a wand of digging, and the way out of a shop."""

    async def dig(self, direction: str, item_letter: Optional[str] = None, stop_at_pit: bool = False,
                  in_shop: bool = False) -> ActionResult:
        """
        Dig in a compass direction ('n', 'ne', … 'nw') or 'down' with a pick-axe or
        dwarvish mattock (the first one in your pack when item_letter is None).

        Digging sideways cuts through rock, a wall, a closed door, a boulder or a
        statue next to you; success means that square can now be walked on.
        Digging down makes a pit first, and dig() goes on digging until the hole
        is through and you fall to the level below; success means the level
        changed, and the last message says the new depth ("Now on Dlvl 3 ...").
        Applying the pick wields it in place of your weapon (wield the weapon
        again with wield() before fighting). A dwarvish mattock is two-handed:
        a worn shield is taken off first (put it back on with wear() after
        wielding a one-handed weapon); with no item_letter a pick-axe is
        preferred to a mattock.

        With a wand as item_letter, or with no pick carried but an identified
        wand of digging, the wand is zapped instead: down it makes a hole you
        fall through, sideways it digs a long corridor.

        Refused before anything is done (a failed result saying why): a
        direction that is not a compass direction or 'down'; a sideways
        direction with nothing to dig (the error lists the directions that have
        something, as NetHack offers them); no digging tool; in Sokoban, Vlad's
        Tower or the Elemental Planes; digging down or into a shop's wall while
        its shopkeeper is in view (he grabs your pack, or makes you pay); down
        while levitating, or standing on stairs, a ladder, an altar, a throne, a
        fountain, a sink or a grave; where NetHack already said the floor (or
        that wall) is too hard to dig, as in the Wizard's tower. When NetHack
        says "too hard to dig in" the result fails with that. A monster that
        interrupts the digging ends the call with a failed result whose error
        says "interrupted" and names it: deal with it, then call dig() again to
        continue (the work done is kept).

        With stop_at_pit=True, digging down with a pick stops as soon as the pit
        is dug (a success; you stand in the pit, the level unchanged). Making
        the pit erases any engraving on the square, so this is the moment to
        engrave Elbereth: it then guards you while dig('down') finishes the
        hole, the longer part of the work.

        With in_shop=True, digging down on a shop's floor is allowed when you
        owe its keeper nothing (NetHack's `$` shows no debt, nothing carried is
        unpaid) and nothing lies on your square (it would fall with you, as
        stolen goods). A keeper grabs the pack only of a customer who owes him;
        one blocking his door because of your pick-axe lets you dig out through
        the floor. Otherwise it is refused as before, saying why.
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        d = normalize_direction(direction, allow_vertical=True) if isinstance(direction, str) else None
        if d not in (*DIRECTION_KEYS, "down"):
            return self._fail(f"invalid dig direction {direction!r}; use one of: n, ne, e, se, s, sw, w, nw, down")
        inv = await self.get_inventory()
        if item_letter is not None:
            item = next((i for i in inv if isinstance(item_letter, str) and i.slot == item_letter), None)
            if item is None or not (DIGGING_TOOL.search(item.text) or item.object_class == "wand"):
                diggers = [i for i in inv if DIGGING_TOOL.search(i.text) or i.object_class == "wand"]
                what = (f"{item.slot} ({item.text}) cannot dig" if item
                        else f"no inventory item with letter {item_letter!r}")
                return self._fail(f"{what}; digging tools and wands you carry: "
                                  + (", ".join(f"{i.slot} ({i.text})" for i in diggers) or "none"))
        else:
            # A pick-axe before a mattock: the mattock is two-handed, so a shield must come off for it.
            item = min((i for i in inv if DIGGING_TOOL.search(i.text)),
                       key=lambda i: bool(_TWO_HANDED_DIGGER.search(i.text)), default=None) or \
                next((i for i in inv if i.object_class == "wand" and DIGGING_WAND.search(i.text)), None)
            if item is None:
                return self._fail("you carry nothing to dig with: dig needs a pick-axe or a dwarvish mattock (or an "
                                  "identified wand of digging); tools you carry: "
                                  + (", ".join(f"{i.slot} ({i.text})" for i in inv if i.object_class == "tool")
                                     or "none"))
        wand = item.object_class == "wand"
        why = self._dig_refusal(d, wand)
        if why is not None and in_shop and why.startswith(_SHOP_FLOOR):
            why = await self._shop_dig_risk(inv)
        if why is not None:
            return self._fail(why)
        if wand:
            return await self._zap_dig(item, d)
        shield = next((i for i in inv if i.equipped == "shield"), None)
        if shield is not None and _TWO_HANDED_DIGGER.search(item.text):
            # NetHack will not swing a two-handed tool with a shield on the arm ("You cannot
            # swing a two-handed weapon while wearing a shield"): the shield comes off first.
            off = await self.take_off(shield.slot)
            if not off.success:
                return self._fail(f"the {item.name or item.text} is two-handed and your shield ({shield.slot} - "
                                  f"{shield.text}) would not come off ({off.error or ' '.join(off.messages)}); "
                                  "dig with a pick-axe or a wand of digging instead")
        return await self._pick_dig(item, d, stop_at_pit=bool(stop_at_pit))

    # ------------------------------------------------------------ helpers
    def _result(self, ok: bool, messages: list[str], turn0: int, error: Optional[str]) -> ActionResult:
        turned = self._game.done or self._stats_now().turn != turn0
        return ActionResult(ok, messages, turned, turned or bool(messages), None if ok else error,
                            game_over=self._game.done)

    def _hostile_in_view(self) -> Optional[str]:
        """The nearest hostile monster in view, as "a jackal at (x, y), next to you"."""
        hero = self._hero()
        mons = [m for m in observe.visible_monsters(self._obs(), hero) if not m.is_peaceful and not m.is_tame]
        if not mons:
            return None
        m = min(mons, key=lambda m: hero.steps_to(m.position))
        near = ", next to you" if hero.is_adjacent(m.position) else ""
        return f"a {m.name} at ({m.position.x}, {m.position.y}){near}"

    def _branch(self) -> str:
        return observe.branch_name(int(self._obs()["blstats"][nh_bl.NLE_BL_DNUM]))

    def _level_key(self) -> tuple[int, int]:
        bl = self._obs()["blstats"]
        return int(bl[nh_bl.NLE_BL_DNUM]), int(bl[nh_bl.NLE_BL_DLEVEL])

    def _dig_refusal(self, d: str, wand: bool) -> Optional[str]:
        """Why digging in direction ``d`` must not even start here, or None."""
        branch = self._branch()
        if branch in _NO_DIG_BRANCHES:
            return f"not digging: {_NO_DIG_BRANCHES[branch]}"
        mem = self._level_memory()
        hero = self._hero()
        hard = _HARD.setdefault(mem, set())
        if d == "down":
            if "Levitating" in observe.status_effects(self._obs()["blstats"]):
                return "not digging: you are levitating and cannot reach the floor"
            if "floor" in hard:
                return ("not digging: NetHack said this level's floor is too hard to dig in (a special level such as "
                        "the Wizard's tower); take the stairs")
            what = _CMAP_HERE.get(int(G.CMAP_INDEX[int(mem.terrain[hero.y, hero.x])]))
            if what is None:
                look = " ".join(self._look_texts())
                m = re.search(r"There is an? (?:\w+ )?(staircase|ladder|altar|throne|fountain|sink|grave)\b", look)
                what = m.group(1) if m else None
            if what is not None:
                return f"not digging down: {_NO_DIG_HERE[what]}"
        else:
            target = hero.offset(d)
            if not target.on_map():
                return f"not digging {d}: that is the edge of the map"
            if target in hard:
                return f"not digging {d}: NetHack said the wall at ({target.x}, {target.y}) is too hard to dig"
            if not wand:
                can = [n for n in _COMPASS if self._diggable(mem, hero.offset(n))]
                if d not in can:
                    return f"nothing to dig to the {d}; you can dig: {', '.join(can + ['down'])}"
        shop = self._shop_squares(mem)
        if shop:
            if d == "down" and hero in shop:
                return (_SHOP_FLOOR + ": he would grab your pack as you fall if you owe him anything; leave "
                        "the shop first, or dig(..., in_shop=True) when you owe nothing")
            if d != "down":
                line = [hero.offset(d)]
                while wand and line[-1].offset(d).on_map():
                    line.append(line[-1].offset(d))  # a digging beam goes on for many squares
                if any(p in shop for p in line):
                    return (f"not digging {d}: that is a shop's wall and its shopkeeper is in view (he makes you pay "
                            f"for the damage, and gets angry if you do not); dig elsewhere")
        return None

    async def _shop_dig_risk(self, inv) -> Optional[str]:
        """Why a hole here in this shop would cost the pack or anger its keeper (unpaid
        goods carried, goods on this square, which fall through with the hero and count
        as stolen, or a debt NetHack's `$` reports), or None. Takes no game time."""
        hero = self._hero()
        if int(G.CMAP_INDEX[int(self._level_memory().terrain[hero.y, hero.x])]) in shops.DOOR_CMAPS:
            return f"{_SHOP_FLOOR}: you stand in its doorway, and a hole there ruins his door (he attacks); step inside"
        unpaid = [i for i in inv if "unpaid" in (i.text or "")]
        if unpaid:
            return (f"{_SHOP_FLOOR}: you carry unpaid goods ({', '.join(i.slot for i in unpaid)}); pay first "
                    f"(pay_shopkeeper) or drop them")
        here = await self.get_items_here()
        if here:
            return (f"{_SHOP_FLOOR}: goods lie on this square ({here[0].text}); they would fall through the hole "
                    f"with you and count as stolen: stand on bare floor")
        said = " ".join(self._act("$").messages)
        if "You owe" in said:
            return f"{_SHOP_FLOOR}: you owe the shopkeeper ({said.strip()[:120]}); pay first"
        return None

    def _shop_squares(self, mem: maps.LevelMemory) -> set[Position]:
        """The floor, walls and doors of the shops whose keepers are in view."""
        return shops.shop_squares(mem, self._shopkeepers())

    def _shopkeepers(self) -> list[Position]:
        return [m.position for m in observe.visible_monsters(self._obs(), self._hero()) if m.name == "shopkeeper"]

    async def shop_exit(self) -> Optional[ShopExit]:
        """
        The way out of the shop you stand in, or None when you are in no shop
        (as far as a shopkeeper in view shows: a shop is the room around him).

        The result names the shop's door nearest you (``door``), the square just
        beyond it (``outside``), the step from one to the other (``direction``,
        never diagonal) and where the shopkeeper stands. Walk to ``door``
        (move_to, or the go_to skill), then move(direction) onto ``outside``.
        A hero who fell into a shop with a pick-axe must leave it to dig down:
        dig('down') is refused on a shop's floor while its keeper is in view.
        The keeper holds the square inside his door while you stand next to
        him; two or three squares off in line with him, he steps aside (pay
        first if you owe him).
        """
        return shops.shop_exit(self._level_memory(), self._shopkeepers(), self._hero())

    @staticmethod
    def _diggable(mem: maps.LevelMemory, pos: Position) -> bool:
        """Whether a pick has something to dig at ``pos`` as remembered: rock (also
        never seen), a wall, a closed door, a boulder or a statue (NetHack's dig_typ)."""
        if not pos.on_map():
            return False
        c = int(G.CMAP_INDEX[int(mem.terrain[pos.y, pos.x])])
        g = int(mem.glyphs[pos.y, pos.x])
        # Blank stone where something was seen is floor never seen bare (under items).
        rock = c == G.S_STONE and not mem.seen[pos.y, pos.x]
        return (rock or G.S_VWALL <= c <= G.S_TRWALL or c in (G.S_VCDOOR, G.S_HCDOOR) or g == G.BOULDER_GLYPH
                or G.KIND[g] == G.GlyphKind.STATUE)

    def _walkable(self, pos: Position) -> bool:
        return bool(self._level_memory().walkable_mask()[pos.y, pos.x])

    async def _pick_dig(self, tool: Item, d: str, stop_at_pit: bool = False) -> ActionResult:
        key = ">" if d == "down" else DIRECTION_KEYS[d]
        level0 = self._level_key()
        target = None if d == "down" else self._hero().offset(d)
        turn0 = self._stats_now().turn
        offered_bad: list[str] = []

        def answer(p: Prompt) -> str:
            offered = _offered(p.text)
            if offered is not None and key not in offered:
                offered_bad.append(_names(offered))
                return chr(ESC)
            return key

        messages: list[str] = []
        for _ in range(10):
            res = self._act("a", [Rule(r"What do you want to use or apply", tool.slot, limit=1),
                                  Rule(r"In what direction do you want to dig", answer, limit=1),
                                  Rule(r"Continue digging", "y"), self._peaceful_rule()],
                            success=lambda ex, b, a: True)
            messages += res.messages
            text = " ".join(res.messages)
            if res.game_over:
                return ActionResult(False, messages, True, True, res.error, game_over=True)
            if offered_bad:
                where = "down" if d == "down" else f"to the {d}"
                return self._result(False, messages, turn0, f"nothing to dig {where}; you can dig: {offered_bad[0]}")
            if d == "down" and self._level_key() != level0:
                return self._arrived(messages, turn0)
            if stop_at_pit and d == "down" and re.search(r"dig a pit", text):
                return self._result(True, messages, turn0, None)
            if target is not None and (_OPENED.search(text) or self._walkable(target)):
                return self._result(True, messages, turn0, None)
            if _TOO_HARD.search(text):
                self._remember_hard(target)
                return self._result(False, messages, turn0, f"undiggable: {_sentence(res.messages, _TOO_HARD)}")
            if res.error or _DIG_FAILS.search(text):
                return self._result(False, messages, turn0, res.error or _sentence(res.messages, _DIG_FAILS))
            if "[escaped]" in text or not (res.turn_elapsed or re.search(r"\bdig", text)):
                # A question dig() does not know, or nothing done: stop rather than loop.
                return self._result(False, messages, turn0, next(
                    (m for m in res.messages if _FAILURES.search(m)), res.messages[-1] if res.messages else
                    "nothing happened"))
            if _STOPPED.search(text) or not re.search(r"dig a pit", text):
                hostile = self._hostile_in_view() or _guard_came(text)
                if hostile:
                    return self._result(False, messages, turn0, f"digging interrupted: {hostile}; deal with it, "
                                                                f"then call dig() again to continue")
        return self._result(False, messages, turn0, "digging did not get through; call dig() again to continue")

    async def _zap_dig(self, wand: Item, d: str) -> ActionResult:
        key = ">" if d == "down" else DIRECTION_KEYS[d]
        level0 = self._level_key()
        turn0 = self._stats_now().turn
        hero = self._hero()
        first_rock = None
        if d != "down":
            walkable = self._level_memory().walkable_mask()
            p = hero.offset(d)
            while p.on_map() and walkable[p.y, p.x]:
                p = p.offset(d)
            first_rock = p if p.on_map() else None
        res = self._act("z", [Rule(r"What do you want to zap", wand.slot, limit=1),
                              Rule(r"In what direction", key, limit=1)], success=lambda ex, b, a: True)
        text = " ".join(res.messages)
        if res.game_over:
            return res
        if d == "down" and self._level_key() != level0:
            return self._arrived(res.messages, turn0)
        if d != "down" and first_rock is not None and self._walkable(first_rock):
            return self._result(True, res.messages, turn0, None)
        if _TOO_HARD.search(text):
            if d == "down" or first_rock is not None:
                self._remember_hard(None if d == "down" else first_rock)
            return self._result(False, res.messages, turn0, f"undiggable: {_sentence(res.messages, _TOO_HARD)}")
        where = "no hole was made" if d == "down" else f"nothing was dug to the {d}"
        return self._result(False, res.messages, turn0, res.error or _sentence(res.messages, _DIG_FAILS) or
                            f"{where} (the wand may not be a wand of digging, or may be out of charges)")

    def _arrived(self, messages: list[str], turn0: int) -> ActionResult:
        """The hero fell through the hole: say where to."""
        self._learn_square_underfoot()
        s = self._stats_now()
        messages = messages + [f"Now on Dlvl {s.dungeon_level} ({s.branch} level {s.level_in_branch})."]
        return self._result(True, messages, turn0, None)

    def _remember_hard(self, target: Optional[Position]) -> None:
        _HARD.setdefault(self._level_memory(), set()).add("floor" if target is None else target)


__all__ = ["DiggingCommands", "DIGGING_TOOL", "DIGGING_WAND"]

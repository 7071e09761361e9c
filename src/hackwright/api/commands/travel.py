"""Travel of NetHackAPI: NetHack's own ``_`` command, which walks a whole path in
one command, and the map cursor (``getpos``) that travel and farlook share.

NetHack's ``getpos`` sets no input flag NLE reports, so the game looks as if it
were at the command prompt; the cursor is read from the terminal instead
(``tty_cursor`` is (row, column) = (y + 1, x) for a map square).
"""

from __future__ import annotations

from typing import Optional, Union

from .. import maps
from ..keyboard import ENTER, ESC, Exchange, Keyboard, PromptKind, Rule
from ..models import ActionResult, Position
from .core import ApiCore, _as_position

TRAVEL = "_"
# NetHack forgets nothing between legs: each `_` starts with the cursor on the last
# destination. Legs are repeated while they get the hero nearer, at most this often.
MAX_LEGS = 12


def cursor_position(kb: Keyboard) -> Optional[Position]:
    """Where the map cursor of an open ``getpos`` stands (None when it is not on the map)."""
    row, col = (int(c) for c in kb.game.obs["tty_cursor"])
    pos = Position(col, row - 1)
    return pos if pos.on_map() else None


def move_cursor(kb: Keyboard, target: Position, ex: Exchange) -> bool:
    """Move the cursor of an open ``getpos`` onto ``target``: capitals step 8 squares,
    small letters 1 (number_pad is off). Returns whether the cursor got there."""
    while kb.prompt().kind is PromptKind.MORE and ex.steps < kb.MAX_SETTLE_KEYS:
        kb._note(ex, kb.prompt().text)
        kb.press(ENTER)
        ex.steps += 1
    for _ in range(3):  # the game clips moves at the map's edge: check and correct
        here = cursor_position(kb)
        if here is None:
            return False
        if here == target:
            return True
        dx, dy = target.x - here.x, target.y - here.y
        keys = ""
        for delta, small, big in ((dx, "lh", "LH"), (dy, "jk", "JK")):
            i = 0 if delta > 0 else 1
            keys += big[i] * (abs(delta) // 8) + small[i] * (abs(delta) % 8)
        for ch in keys:
            kb.press(ch)
            ex.steps += 1
    return cursor_position(kb) == target


class TravelCommands(ApiCore):
    """Walking far in one command with NetHack's travel."""

    async def travel(self, target: Union[Position, str]) -> ActionResult:
        """
        Walk to a far square with NetHack's own travel command (`_`): the whole
        way in one call, much faster than calling move_to once per step.
        target: a Position you have seen that can be walked on, or '<' / '>' for
        the up / down stairs of this level (they must have been seen).
        NetHack picks the shortest way over what the hero remembers, goes round
        known traps, opens doors on the way, never attacks, and stops early when
        a monster comes next to the hero or attacks, or at an object or a door.
        Such a stop is resumed at once while the hero keeps getting nearer,
        unless a hostile monster is in view.
        Result: success when the hero stands on the target. Otherwise failed,
        with ``error`` saying where the hero stopped and why (e.g. a hostile
        monster in view, named with its square: deal with it, then travel
        again). Refused (nothing sent) for a square off the map, not seen yet,
        a wall or solid rock, or with no known way there.
        """
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        goal = await self._travel_goal(target)
        if isinstance(goal, str):
            return self._fail(goal)
        hero = self._hero()
        if hero == goal:
            return ActionResult(True, [], False, False, None)
        if self._path(goal) is None:
            return self._fail(
                f"no known path from ({hero.x}, {hero.y}) to ({goal.x}, {goal.y}); "
                "explore more (find_unexplored) or pick a square you have seen"
            )
        start, start_turn, where = hero, self._stats_now().turn, self._level_key()
        messages: list[str] = []
        errors: list[str] = []
        changed = False
        why = ""
        for _ in range(MAX_LEGS):
            before = self._hero()
            res = self._travel_leg(goal)
            messages += res.messages
            changed = changed or res.state_changed
            if res.error and not res.success:
                errors.append(res.error)
                break
            if self._game.done or self._level_key() != where or self._hero() == goal:
                break
            hostile = [m for m in await self.get_visible_monsters() if not m.is_peaceful and not m.is_tame]
            if hostile:
                m = min(hostile, key=lambda m: m.position.steps_to(self._hero()))
                why = f"a hostile {m.name} is in view at ({m.position.x}, {m.position.y})"
                break
            if self._hero() == before:
                why = messages[-1] if messages else "the way is blocked"
                break
        else:
            why = f"travel was interrupted {MAX_LEGS} times; call travel again"
        self._after_travel(start, where, " ".join(messages))
        turns = self._stats_now().turn - start_turn
        now = self._hero()
        if self._game.done:
            return ActionResult(False, messages, True, True, "the hero died (game over)", game_over=True)
        if self._level_key() != where:
            return ActionResult(False, messages, turns > 0, True,
                                f"travel left the level (now Dlvl {self._stats_now().dungeon_level}, at "
                                f"({now.x}, {now.y})): {messages[-1] if messages else 'a trap'}")
        if now == goal:
            return ActionResult(True, messages, turns > 0, changed, None)
        error = "; ".join(errors) if errors else (
            f"stopped at ({now.x}, {now.y}), {max(abs(goal.x - now.x), abs(goal.y - now.y))} squares short of "
            f"({goal.x}, {goal.y}), after {turns} turn{'' if turns == 1 else 's'}: {why}")
        return ActionResult(False, messages, turns > 0, changed, error)

    async def _travel_goal(self, target: Union[Position, str]) -> Union[Position, str]:
        """The square to travel to, or an error saying why there is none."""
        mem = self._level_memory()
        if isinstance(target, str) and target.strip() in ("<", ">"):
            way = "up" if target.strip() == "<" else "down"
            stairs = mem.stairs_up if way == "up" else mem.stairs_down
            if stairs is None:
                return f"no stairs {way} seen on this level yet; explore to find them"
            return stairs
        goal = _as_position(target)
        if goal is None or not goal.on_map():
            return (f"target {target!r} is not a square on the map: pass Position(x, y) with x 0..78 and "
                    "y 0..20, or '<' / '>' for the stairs")
        if goal == self._hero():
            return goal
        if not mem.seen[goal.y, goal.x]:
            return f"({goal.x}, {goal.y}) has not been seen yet; travel to a square you have seen"
        if not mem.passable_mask()[goal.y, goal.x]:
            tile = (await self.get_current_level()).tile_at(goal)
            return (f"({goal.x}, {goal.y}) is {tile.description or 'not walkable'}, not a square to stand on; "
                    "pick a floor, corridor, door or stairs square")
        return goal

    def _level_key(self) -> tuple[int, int]:
        bl = self._obs()["blstats"]
        return int(bl[23]), int(bl[24])

    def _travel_leg(self, goal: Position) -> ActionResult:
        """One `_` command: open the travel cursor, put it on ``goal``, confirm with '.'."""
        ex = Exchange()
        self._ensure_ready(ex)
        self._kb.type_keys(TRAVEL, ex)
        if not move_cursor(self._kb, goal, ex):
            self._kb.press(ESC)
            self._kb.settle(ex)
            return ActionResult(False, [], False, False,
                                f"could not put the travel cursor on ({goal.x}, {goal.y})")
        # Travel never asks, but a step may (a trap it did not know): never step on.
        rules = [self._peaceful_rule(), Rule(r"Really step|really (?:want to )?step", "n")]
        return self._act(".", rules, success=lambda ex, b, a: True)

    def _after_travel(self, start: Position, where: tuple[int, int], text: str) -> None:
        """Keep the remembered map right after many squares walked in one command: the
        squares passed were never observed with the hero on them, so they are visited
        along the shortest remembered path (NetHack's travel takes a shortest one too),
        which marks the sides of a dark corridor walked through as looked at."""
        if self._game.done:
            return
        self._learn_trap_underfoot(text)
        if self._level_key() == where:
            mem = self._level_memory()
            end, turn = self._hero(), self._stats_now().turn
            path = maps.find_path(mem, start, end) if end != start else None
            for p in maps.follow_path(start, path or [])[:-1]:
                mem.visit(p, turn)
            mem.visit(end, turn)
        self._learn_square_underfoot()

"""Success checks for the scenario suite: small predicates over the game API.

A check is called by the agent loop after every strategist step with the
episode's :class:`NetHackAPI` and says whether the scenario's task is done.
The loop calls it synchronously while the API's queries are coroutines; the
queries used here never wait on anything, so :func:`now` runs them to
completion at once.

Checks read the game the way a player would (inventory lines, the remembered
map, the message log); only :func:`bag_holds` presses keys, and those keys
(look inside a bag) take no game time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Optional, Sequence

from ...api import glyphs as G
from ...api.nethack_api import NetHackAPI

Check = Callable[[NetHackAPI], bool]


def now(awaitable: Awaitable[Any]) -> Any:
    """The value of an API query that completes without waiting (all state queries do)."""
    coro = awaitable.__await__()
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("an API query waited on something; a check may only use queries that answer at once")


def _words(name: str) -> re.Pattern:
    # "apple" must not match "pineapple"; plurals ("2 apples") still count.
    return re.compile(r"\b" + re.escape(name.lower()) + r"(?:e?s)?\b")


def _inventory_lines(api: NetHackAPI) -> list[str]:
    return [(i.text or i.name).lower() for i in now(api.get_inventory())]


def carrying(*names: str) -> Check:
    """True when every one of ``names`` is in the hero's inventory (matched as words)."""
    pats = [_words(n) for n in names]

    def check(api: NetHackAPI) -> bool:
        lines = _inventory_lines(api)
        return all(any(p.search(line) for line in lines) for p in pats)

    check.__doc__ = f"carrying {', '.join(names)}"
    return check


def wearing(name: str) -> Check:
    """True when an inventory item called ``name`` is worn (or put on)."""
    pat = _words(name)
    worn = re.compile(r"\((?:being worn|on (?:left|right) hand)\)")  # not "(weapon in hand)"

    def check(api: NetHackAPI) -> bool:
        return any(pat.search(line) and worn.search(line) for line in _inventory_lines(api))

    return check


def depth_at_least(depth: int) -> Check:
    """True once the hero is at least ``depth`` levels down (Dlvl on the status line)."""

    def check(api: NetHackAPI) -> bool:
        return now(api.get_stats()).dungeon_level >= depth

    return check


def on_down_stairs(api: NetHackAPI) -> bool:
    """True while the hero stands on a known down staircase (levitating above it counts)."""
    level = now(api.get_current_level())
    return level.stairs_down is not None and level.stairs_down == now(api.get_position())


def reached_down_stairs(api: NetHackAPI) -> bool:
    """On the down stairs, or already below the first level."""
    return depth_at_least(2)(api) or on_down_stairs(api)


def _remembered_glyphs(api: NetHackAPI) -> list[int]:
    level = now(api.get_current_level())
    return [t.glyph for row in level.tiles for t in row]


def no_statue_left(api: NetHackAPI) -> bool:
    """True when no statue is remembered anywhere on the level and none is carried.

    The remembered map keeps a statue's glyph even under the hero, so a statue
    is only forgotten once its square was seen holding something else (the
    rocks a broken statue leaves)."""
    if any(G.KIND[g] == G.GlyphKind.STATUE for g in _remembered_glyphs(api) if 0 <= g < len(G.KIND)):
        return False
    return not any(_words("statue").search(line) for line in _inventory_lines(api))


_CLOSED_DOORS = (G.S_VCDOOR, G.S_HCDOOR)
_OPEN_DOORS = (G.S_VODOOR, G.S_HODOOR, G.S_NDOOR)


def door_opened(api: NetHackAPI) -> bool:
    """True when the level's doors are all open or broken (none remembered closed)."""
    cmap = [int(G.CMAP_INDEX[g]) for g in _remembered_glyphs(api) if 0 <= g < len(G.CMAP_INDEX)]
    return not any(c in _CLOSED_DOORS for c in cmap) and any(c in _OPEN_DOORS for c in cmap)


def message_seen(pattern: str) -> Check:
    """True when a message matching ``pattern`` is in the game's message log."""
    rx = re.compile(pattern, re.I)

    def check(api: NetHackAPI) -> bool:
        return any(rx.search(m) for m in now(api.get_messages(10_000)))

    return check


def bag_holds(*names: str) -> Check:
    """True when a carried bag holds every one of ``names``.

    The inventory line of a bag whose contents the hero knows reads "a bag
    containing 3 items"; only when that count is high enough and none of the
    things is loose in the inventory does the check look inside the bag (apply
    it, ':' look inside), which takes no game time. It looks again only after
    the inventory changed, so make one check per episode."""
    pats = [_words(n) for n in names]
    count = re.compile(r"\b(?:bag|sack)\b.*containing (\d+) items?")
    looked: dict[tuple[str, ...], bool] = {}  # inventory lines -> what looking inside found

    def check(api: NetHackAPI) -> bool:
        if api.game_over:
            return False
        inv = now(api.get_inventory())
        key = tuple(i.text or i.name for i in inv)
        if key in looked:
            return looked[key]
        bags = [i for i in inv if (m := count.search((i.text or "").lower())) and int(m.group(1)) >= len(names)]
        loose = [(i.text or i.name).lower() for i in inv if i not in bags]
        if not bags or any(p.search(line) for p in pats for line in loose):
            return False
        looked[key] = any(bag.slot and all(p.search(_look_inside(api, bag.slot)) for p in pats) for bag in bags)
        return looked[key]

    return check


def _look_inside(api: NetHackAPI, slot: str) -> str:
    """The contents listing of the bag in ``slot`` (lower case), or ''."""
    r = now(api.send_keys("a" + slot))
    seen = " ".join(r.messages)
    if r.prompt and "Do what with" in r.prompt:
        r = now(api.send_keys(":"))
        seen += " " + " ".join(r.messages)
    if r.prompt:
        now(api.send_keys("<esc>"))
    m = re.search(r"Contents of (?:the|your) .*", seen, re.S)
    return m.group(0).lower() if m else ""


# ---------------------------------------------------------------- task lists
@dataclass(frozen=True)
class Subgoal:
    """One task of a task list: a name for reports, its check, and optionally a
    message pattern that shows the moment it was done (orders several subgoals
    met within one agent step)."""

    name: str
    done: Check
    evidence: Optional[str] = None


class _MessageCursor:
    """The messages that arrived since the last look (the log is trimmed at its front)."""

    def __init__(self) -> None:
        self._count = 0
        self._last: Optional[str] = None

    def new_messages(self, api: NetHackAPI) -> list[str]:
        log = now(api.get_messages(10_000))
        start = self._count
        if start > len(log) or (start and log[start - 1] is not self._last):
            start = next((i + 1 for i in range(len(log) - 1, -1, -1) if log[i] is self._last), 0)
        self._count, self._last = len(log), (log[-1] if log else None)
        return log[start:]


class TaskList:
    """A stateful check over several subgoals, each latched once met.

    Unordered: done when every subgoal has been met at some point. Ordered:
    additionally each subgoal must be met no earlier than the one before it;
    meeting one before an earlier one fails the list for good. The loop checks
    after each strategist step, so two subgoals met within the same step are
    ordered by where their ``evidence`` messages appear in that step's messages;
    without evidence they count as met at the end of the step (in order).

    Make a new one for every episode (``Scenario.new_check()`` does).
    """

    def __init__(self, subgoals: Sequence[Subgoal], *, ordered: bool):
        self.subgoals = list(subgoals)
        self.ordered = ordered
        self.met: dict[str, tuple[int, int, int]] = {}  # name -> (step, message index, offset)
        self.broken: Optional[str] = None  # why an ordered list failed
        self._calls = 0
        self._cursor = _MessageCursor()

    def __call__(self, api: NetHackAPI) -> bool:
        self._calls += 1
        new = self._cursor.new_messages(api)
        for goal in self.subgoals:
            if goal.name in self.met or not goal.done(api):
                continue
            when = (self._calls, len(new), 0)
            if goal.evidence:
                rx = re.compile(goal.evidence, re.I)
                hit = next(((k, m.start()) for k, text in enumerate(new) if (m := rx.search(text))), None)
                if hit is not None:
                    when = (self._calls, hit[0], hit[1])
            self.met[goal.name] = when
        if self.ordered and self.broken is None:
            self.broken = self._order_error()
        if self.broken:
            return False
        return len(self.met) == len(self.subgoals)

    def _order_error(self) -> Optional[str]:
        previous: Optional[tuple[int, int, int]] = None
        for i, goal in enumerate(self.subgoals):
            when = self.met.get(goal.name)
            if when is None:
                later = [g.name for g in self.subgoals[i + 1:] if g.name in self.met]
                return f"{later[0]!r} was done before {goal.name!r}" if later else None
            if previous is not None and when < previous:
                return f"{goal.name!r} was done before {self.subgoals[i - 1].name!r}"
            previous = when
        return None

    def progress(self) -> list[str]:
        """The subgoals met so far, in the order they were met."""
        return [name for name, _ in sorted(self.met.items(), key=lambda kv: kv[1])]

"""Path-finding of NetHackAPI over the remembered map, round monsters not to touch,
with the options a skill may give a route (squares to avoid, which traps to cross,
monsters, closed doors)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

import numpy as np

from .. import maps
from ..careful_walk import NEVER_BUMP
from ..models import Position, Tile
from .core import ApiCore, _as_position

TRAP_CHOICES = tuple(maps.TRAP_RULES)  # "avoid", "harmless", "risky", "any"


@dataclass(frozen=True)
class RouteOptions:
    """What a route may cross (the keyword options of find_path, move_to, find_nearest…)."""

    avoid: tuple[Position, ...] = ()
    traps: str = "avoid"
    avoid_monsters: bool = True
    through_doors: bool = True


def route_options(avoid: Any = (), traps: Any = "avoid", avoid_monsters: Any = True,
                  through_doors: Any = True) -> RouteOptions:
    """The options checked; ValueError naming the valid values for a bad one."""
    if not isinstance(traps, str) or traps.strip().lower() not in TRAP_CHOICES:
        raise ValueError(f"traps must be one of {', '.join(map(repr, TRAP_CHOICES))}, not {traps!r}")
    for name, value in (("avoid_monsters", avoid_monsters), ("through_doors", through_doors)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, not {value!r}")
    squares: list[Position] = []
    if avoid is not None:
        one = _as_position(avoid)
        if one is not None:
            squares = [one]
        elif isinstance(avoid, (str, bytes)) or not hasattr(avoid, "__iter__"):
            raise ValueError(f"avoid must be a list of squares (Position or (x, y) pairs), not {avoid!r:.80}")
        else:
            for a in avoid:
                p = _as_position(a)
                if p is None:
                    raise ValueError(f"avoid must hold squares (Position or (x, y) pairs); {a!r:.60} is not one")
                if p.on_map():  # a square off the map cannot be entered anyway
                    squares.append(p)
    return RouteOptions(tuple(squares), traps.strip().lower(), avoid_monsters, through_doors)


_DEFAULT = RouteOptions()


class Pathfinding(ApiCore):
    """Finding paths and the nearest squares of interest on the current level."""

    # Walking into these attacks them, and their passive (paralysis, petrification,
    # acid, fire, cold, an explosion) hurts more than the fight is worth: paths go round.
    NEVER_TOUCH = frozenset(NEVER_BUMP)

    def _blocked(self) -> list[Position]:
        seen, remembered = self._blockers()
        return seen + remembered

    def _blockers(self) -> tuple[list[Position], list[Position]]:
        """(squares of monsters in view not to walk into, squares where such a monster was
        last seen out of view)."""
        hero = self._hero()
        # Shares the per-observation cache with get_visible_monsters: move_to asks every step.
        visible = self._monsters_now()
        out = [m.position for m in visible if (m.is_peaceful and not m.is_tame) or m.name in self.NEVER_TOUCH]
        # Such a monster stays in the way after it drops out of view (a floating eye in a
        # dark corridor): remember its square until the hero sees it empty, or for a while.
        mem = self._level_memory()
        key = (mem.dnum, mem.dlevel)
        turn = self._stats_now().turn
        known = self._untouchable.setdefault(key, {})
        here = {m.position for m in visible}
        for m in visible:
            if m.name in self.NEVER_TOUCH:
                for p in [p for p, (n, _) in known.items() if n == m.name and p != m.position and p.steps_to(m.position) <= 3]:
                    del known[p]  # the same one, moved
                known[m.position] = (m.name, turn)
        for p, (_, seen) in list(known.items()):
            if turn - seen > 300 or (p.steps_to(hero) <= 1 and p not in here):
                del known[p]
        return out, [p for p in known if p not in out and p not in here]

    def _path(self, target: Position, opts: RouteOptions = _DEFAULT) -> Optional[list[str]]:
        self._refresh()
        seen, remembered = self._blockers()
        if not opts.avoid_monsters:
            seen, remembered = [], []
        avoid = list(opts.avoid)

        def search(blocked: list[Position]) -> Optional[list[str]]:
            return maps.find_path(self._level_memory(), self._hero(), target, blocked=blocked + avoid,
                                  allow_squeeze=not self._too_heavy_to_squeeze, traps=opts.traps,
                                  through_doors=opts.through_doors)

        path = search(seen + remembered)
        if path is None and remembered:
            # Only through where an untouchable monster was last seen: go and look (it may
            # have moved; if not, it is in view again and the way is blocked for real).
            path = search(seen)
        return path

    def _nearest(self, mask: np.ndarray, opts: RouteOptions) -> Optional[Position]:
        blocked = (self._blocked() if opts.avoid_monsters else []) + list(opts.avoid)
        # (Squeezes as find_path allows them: a frontier only past a gap the hero is too
        # heavy for was chosen again and again, and every walk there failed.)
        return maps.find_nearest(self._level_memory(), self._hero(), mask, blocked=blocked, traps=opts.traps,
                                 allow_squeeze=not self._too_heavy_to_squeeze, through_doors=opts.through_doors)

    async def find_path(self, target: Position, *, avoid: Iterable[Position] = (), traps: str = "avoid",
                        avoid_monsters: bool = True, through_doors: bool = True) -> list[str]:
        """
        Find path to target position.
        Returns list of direction strings ('n', 'se', …), one per step in order;
        [] if you are there or no known path leads there (explore more, or try
        looser options). The path runs over the remembered map: never through
        walls, water, lava, boulders or squares never seen; through closed
        doors (move_to opens them); its last step may enter a square you cannot
        stand on (a boulder to push, a wall to dig). By default it goes round
        known traps, peaceful monsters and monsters that must not be touched
        (NEVER_TOUCH: floating eyes, cockatrices, molds …), also where such a
        monster was last seen out of view unless that is the only way.

        Options (keyword only; the defaults are the behaviour above):
            avoid: squares never to enter, a list of Position or (x, y) pairs
                (e.g. where you saw a floating eye, or a door that stays shut).
                A target in avoid has no path.
            traps: which known traps the path may cross:
                "avoid" (default): none;
                "harmless": only a squeaky board, rust trap or anti-magic field,
                    when going round is more than 10 steps longer;
                "risky": as "harmless", and any other trap except the deadly or
                    level-leaving ones (land mine, fire trap, polymorph trap,
                    hole, trap door, level teleporter, magic portal), only
                    when no other way is known;
                "any": every known trap, when going round is more than 10 steps
                    longer.
                A trap that is the target itself is always allowed.
            avoid_monsters (bool, True): False plans as if no monster were there
                (move() still refuses to walk into a peaceful or untouchable one).
            through_doors (bool, True): False plans no step through a closed
                door (the target may still be one).
        Raises ValueError for an option value not listed here; the message
        names the valid values.
        """
        opts = route_options(avoid, traps, avoid_monsters, through_doors)
        target = _as_position(target)
        if target is None or not target.on_map():
            return []
        return self._path(target, opts) or []

    async def find_nearest(self, predicate: Callable[[Tile], bool], *, avoid: Iterable[Position] = (),
                           traps: str = "avoid", avoid_monsters: bool = True,
                           through_doors: bool = True) -> Optional[Position]:
        """Find nearest tile matching predicate (by walking distance; your own square counts).
        predicate gets each Tile of the current level and returns True for a wanted one.
        Returns its Position, or None when no matching tile can be reached.
        Takes find_path's keyword options (avoid, traps, avoid_monsters,
        through_doors) for the walk; an avoided square never counts as found.
        Raises ValueError for a bad option value (the message names the valid ones)."""
        opts = route_options(avoid, traps, avoid_monsters, through_doors)
        level = await self.get_current_level()
        mask = np.zeros((len(level.tiles), len(level.tiles[0])), dtype=bool)
        for row in level.tiles:
            for t in row:
                if predicate(t):
                    mask[t.position.y, t.position.x] = True
        if not mask.any():
            return None
        return self._nearest(mask, opts)

    async def find_nearest_of(self, positions: list[Position], *, avoid: Iterable[Position] = (),
                              traps: str = "avoid", avoid_monsters: bool = True,
                              through_doors: bool = True) -> Optional[Position]:
        """The square of ``positions`` nearest by walking distance (None if none is reachable).
        positions: a list of Position or (x, y) pairs; your own square counts.
        Takes find_path's keyword options (avoid, traps, avoid_monsters,
        through_doors) for the walk; an avoided square never counts as found.
        Raises ValueError for a bad option value (the message names the valid ones)."""
        opts = route_options(avoid, traps, avoid_monsters, through_doors)
        mask = np.zeros((21, 79), dtype=bool)
        for p in positions or []:
            p = _as_position(p)
            if p is not None and p.on_map():
                mask[p.y, p.x] = True
        if not mask.any():
            return None
        return self._nearest(mask, opts)

    async def find_unexplored(self, *, avoid: Iterable[Position] = (), traps: str = "avoid",
                              avoid_monsters: bool = True, through_doors: bool = True) -> Optional[Position]:
        """Find nearest unexplored walkable tile (a reachable frontier of the known map), or None.
        A frontier is a square you can walk to with a square nobody has looked at
        next to it. Takes find_path's keyword options (avoid, traps,
        avoid_monsters, through_doors) for the walk there; e.g. traps="harmless"
        also finds frontiers only reachable over a squeaky board.
        Raises ValueError for a bad option value (the message names the valid ones)."""
        opts = route_options(avoid, traps, avoid_monsters, through_doors)
        self._refresh()
        return self._nearest(self._level_memory().frontier_mask(), opts)

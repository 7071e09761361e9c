"""Path-finding of NetHackAPI over the remembered map, round monsters not to touch."""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from .. import maps
from ..models import Position, Tile
from .core import ApiCore, _as_position


class Pathfinding(ApiCore):
    """Finding paths and the nearest squares of interest on the current level."""

    # Walking into these attacks them, and their passive (paralysis, petrification,
    # acid, fire, cold, an explosion) hurts more than the fight is worth: paths go round.
    NEVER_TOUCH = frozenset(("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
                             "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold"))

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

    def _path(self, target: Position) -> Optional[list[str]]:
        self._refresh()
        seen, remembered = self._blockers()
        path = maps.find_path(self._level_memory(), self._hero(), target, blocked=seen + remembered,
                              allow_squeeze=not self._too_heavy_to_squeeze)
        if path is None and remembered:
            # Only through where an untouchable monster was last seen: go and look (it may
            # have moved; if not, it is in view again and the way is blocked for real).
            path = maps.find_path(self._level_memory(), self._hero(), target, blocked=seen,
                                  allow_squeeze=not self._too_heavy_to_squeeze)
        return path

    async def find_path(self, target: Position) -> list[str]:
        """
        Find path to target position.
        Returns list of direction strings ([] if you are there or no known path leads there).
        """
        target = _as_position(target)
        if target is None or not target.on_map():
            return []
        return self._path(target) or []

    async def find_nearest(self, predicate: Callable[[Tile], bool]) -> Optional[Position]:
        """Find nearest tile matching predicate (by walking distance; your own square counts)."""
        level = await self.get_current_level()
        mask = np.zeros((len(level.tiles), len(level.tiles[0])), dtype=bool)
        for row in level.tiles:
            for t in row:
                if predicate(t):
                    mask[t.position.y, t.position.x] = True
        if not mask.any():
            return None
        return maps.find_nearest(self._level_memory(), self._hero(), mask, blocked=self._blocked())

    async def find_nearest_of(self, positions: list[Position]) -> Optional[Position]:
        """The square of ``positions`` nearest by walking distance (None if none is reachable)."""
        mask = np.zeros((21, 79), dtype=bool)
        for p in positions or []:
            p = _as_position(p)
            if p is not None and p.on_map():
                mask[p.y, p.x] = True
        if not mask.any():
            return None
        return maps.find_nearest(self._level_memory(), self._hero(), mask, blocked=self._blocked())

    async def find_unexplored(self) -> Optional[Position]:
        """Find nearest unexplored walkable tile (a reachable frontier of the known map), or None."""
        self._refresh()
        return maps.nearest_frontier(self._level_memory(), self._hero(), blocked=self._blocked())

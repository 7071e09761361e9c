"""What the hero remembers of each level: ``LevelMemory`` (one level) and
``MapMemory`` (every level of the game, keyed by ``(dnum, dlevel)``).

The memory keeps what was last seen at every square, so a monster, an item or
a dark square drawn blank again does not erase the map (see the ``maps``
package docstring).
"""

from __future__ import annotations

from typing import Iterator, Optional

import numpy as np

from .. import glyphs as G
from ..models import DungeonLevel, Position, Tile
from .glyph_tables import (
    _CHARS,
    _CREATURE,
    _DISPLAY,
    _IS_CLOSED_DOOR,
    _IS_DOWN,
    _IS_UP,
    _SENSED,
    _TERRAIN,
    COLS,
    ROWS,
    UNEXPLORED,
    is_swallowed,
)
from .grid import _POSITIONS, _Grid, _neighbours_any


class LevelMemory:
    """Everything remembered about one level.

    Arrays are ``ROWS x COLS`` (21 x 79), indexed ``[y, x]``:

    * ``glyphs``: the last glyph displayed at each square, except that creatures
      and transient effects never overwrite it (the square keeps what was seen
      under them) and a blank display never erases it. ``UNEXPLORED_GLYPH`` if
      nothing was ever seen there.
    * ``terrain``: the last map-feature (cmap) glyph seen there, so stairs or a
      trap with an item on top are still known. ``UNEXPLORED_GLYPH`` if none.
    * ``seen``: something (terrain, item or a creature really seen) was shown there.
    * ``surveyed``: the hero stood on or next to the square. NetHack always
      shows the 8 squares around a hero who is not blind, so a surveyed square
      that is still blank is solid rock, not unexplored.
    * ``monsters``: squares showing a creature (or detected monster) at the
      last update, the hero included.
    * ``search_count``: searches made while standing on or next to the square.
    * ``last_seen_turn``: last turn its displayed glyph changed or the hero was
      on or next to it; -1 if never.
    * ``looked_under``: squares that showed an object when NetHack's ``#terrain``
      view was last asked for (``reveal_terrain``), so their ground is known.

    ``stashes`` holds the squares where the hero dropped something (``drop()``):
    piles left on purpose, for coming back to. The agent's memory forgets one when
    the square is seen bare.
    """

    def __init__(self, dnum: int, dlevel: int, depth: int, branch: str):
        self.dnum = dnum
        self.dlevel = dlevel
        self.depth = depth
        self.branch = branch
        shape = (ROWS, COLS)
        self.glyphs = np.full(shape, UNEXPLORED, dtype=np.int16)
        self.terrain = np.full(shape, UNEXPLORED, dtype=np.int16)
        self.seen = np.zeros(shape, dtype=bool)
        self.surveyed = np.zeros(shape, dtype=bool)
        self.monsters = np.zeros(shape, dtype=bool)
        self.search_count = np.zeros(shape, dtype=np.int32)
        self.last_seen_turn = np.full(shape, -1, dtype=np.int32)
        self.hero: Optional[Position] = None
        self.turn = -1
        self._raw = np.full(shape, -1, dtype=np.int16)  # the last display, for change detection
        self._grid: Optional[_Grid] = None  # search tables, None when stale
        self._stairs: Optional[tuple[list[Position], list[Position]]] = None
        self.branch_stairs: dict[Position, str] = {}  # stairs known to lead into another branch
        # Down stairs whose far end the hero knows: taken down, or arrived on from below.
        self.stairs_taken: set[Position] = set()
        self.stashes: set[Position] = set()
        self.looked_under = np.zeros(shape, dtype=bool)  # object squares #terrain has shown the ground of
        # Squares a step was refused into as solid rock. Blank stone looks like unexplored
        # ground, and an object may lie embedded in rock: neither display tells.
        self.solid = np.zeros(shape, dtype=bool)

    # -- updating ---------------------------------------------------------
    def update(self, glyphs: np.ndarray, hero: Position, turn: int, *, blind: bool = False) -> None:
        """Fold one observation (NLE's 21x79 ``glyphs``) into the memory.

        ``hero`` is the hero's square (blstats x, y). Call after every action.
        With ``blind=True`` only the hero's own square counts as surveyed,
        because a blind hero does not see the squares around; being engulfed
        (the engulfer drawn around the hero) is detected and treated the same.
        """
        g = np.asarray(glyphs)
        changed = g != self._raw
        if changed.any():
            disp = _DISPLAY[g]
            store = disp >= _TERRAIN
            terr = disp == _TERRAIN
            newly_seen = ((disp == _CREATURE) | store) & ~self.seen
            if newly_seen.any() or (store & (g != self.glyphs)).any() or (terr & (g != self.terrain)).any():
                np.copyto(self.glyphs, g, where=store)
                np.copyto(self.terrain, g, where=terr)
                self.solid &= ~(terr & (g != UNEXPLORED))  # dug through since, and seen so
                self.seen |= newly_seen
                self._grid = None
                self._stairs = None
            self.monsters = (disp == _CREATURE) | (disp == _SENSED)
            self.last_seen_turn[changed] = turn
            self._raw[...] = g
        self.visit(hero, turn, blind=blind or is_swallowed(g, hero))

    def visit(self, hero: Position, turn: int, *, blind: bool = False) -> None:
        """Record that the hero stood on ``hero`` at ``turn`` (without a new display).

        The API records every square the hero stood on this way and folds the
        display in only when the map is asked for, which keeps actions cheap.
        """
        x, y = hero.x, hero.y
        if not self.seen[y, x]:
            self.seen[y, x] = True  # the hero stands there: it is ground
            self._grid = None
        if self.glyphs[y, x] == G.BOULDER_GLYPH:
            # A boulder pushed on from here: the @ drawn over the square hides the ground,
            # known from the terrain seen before, else as ground seen with nothing on it.
            self.glyphs[y, x] = self.terrain[y, x]
            self._grid = None
        ys, xs = slice(max(y - 1, 0), y + 2), slice(max(x - 1, 0), x + 2)
        if blind:
            self.surveyed[y, x] = True
            self.last_seen_turn[y, x] = turn
        else:
            if not self.surveyed[ys, xs].all():
                self._grid = None
            self.surveyed[ys, xs] = True
            self.last_seen_turn[ys, xs] = turn
        self.hero = hero
        self.turn = turn

    def remember_terrain(self, pos: Position, glyph: int) -> None:
        """Note the terrain of a square learned otherwise than by seeing it (e.g. the
        hero's own square, from NetHack's ':' look)."""
        self.terrain[pos.y, pos.x] = glyph
        if not G.IS_ITEM[self.glyphs[pos.y, pos.x]]:
            self.glyphs[pos.y, pos.x] = glyph
        self.seen[pos.y, pos.x] = True
        self._grid = None
        self._stairs = None

    def remember_solid(self, pos: Position) -> None:
        """Note that ``pos`` is solid rock (a step into it was refused as "solid stone"),
        whatever the display shows there, until it is seen as another terrain."""
        self.solid[pos.y, pos.x] = True
        self._grid = None

    def record_search(self, hero: Position) -> None:
        """Count one search from ``hero``: the 8 neighbours and the hero's own square."""
        y, x = hero.y, hero.x
        self.search_count[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2] += 1

    # -- questions --------------------------------------------------------
    def grid(self) -> _Grid:
        """The search tables for the current memory (cached until the memory changes)."""
        if self._grid is None:
            self._grid = _Grid(self)
        return self._grid

    def walkable_mask(self) -> np.ndarray:
        """Squares a plain move can enter: remembered walkable terrain or items
        (not boulders), traps included, closed doors excluded, plus never-seen-bare
        squares where a creature stood."""
        return self.grid().walkable.copy()

    def passable_mask(self) -> np.ndarray:
        """``walkable_mask`` plus closed doors (which the hero can open)."""
        return self.grid().passable.copy()

    def trap_mask(self) -> np.ndarray:
        """Squares with a known trap (also those with an item lying on the trap)."""
        return self.grid().trap.copy()

    def frontier_mask(self) -> np.ndarray:
        """Where exploring can continue.

        A frontier square is a passable remembered square (walkable, or a closed
        door) with at least one 8-neighbour that is *unexplored*: never seen and
        never surveyed. Blank squares next to which the hero has stood are solid
        rock, so a corridor walked through, or a dark room crossed, stops being a
        frontier, while the corridor square just ahead of the hero, whose far side
        nobody has looked at, still is one.
        """
        unexplored = ~self.seen & ~self.surveyed
        return self.grid().passable & _neighbours_any(unexplored)

    def explored_percentage(self) -> float:
        """Share (0..100) of known passable squares that are not frontier squares."""
        passable = int(self.grid().passable.sum())
        frontier = int(self.frontier_mask().sum())
        if frontier == 0 or passable == 0:
            return 100.0
        return 100.0 * (passable - frontier) / passable

    def is_closed_door(self, pos: Position) -> bool:
        """True if a closed door is remembered at ``pos``."""
        return bool(_IS_CLOSED_DOOR[self.glyphs[pos.y, pos.x]])

    def is_trap(self, pos: Position) -> bool:
        """True if a trap is known at ``pos`` (even under an item)."""
        return bool(self.grid().trap[pos.y, pos.x])

    def _find_stairs(self) -> tuple[list[Position], list[Position]]:
        if self._stairs is None:
            up = [_POSITIONS[y][x] for y, x in zip(*np.nonzero(_IS_UP[self.terrain]))]
            down = [_POSITIONS[y][x] for y, x in zip(*np.nonzero(_IS_DOWN[self.terrain]))]
            self._stairs = (up, down)
        return self._stairs

    @property
    def stairs_up(self) -> Optional[Position]:
        """A known up staircase or ladder (the first in reading order, staying in this
        level's branch before one known to lead into another), else None."""
        up = self._find_stairs()[0]
        return self._same_branch_first(up)

    @property
    def stairs_down(self) -> Optional[Position]:
        """A known down staircase or ladder (the first in reading order, staying in this
        level's branch before one known to lead into another), else None."""
        down = self._find_stairs()[1]
        return self._same_branch_first(down)

    def _same_branch_first(self, stairs: list[Position]) -> Optional[Position]:
        for p in stairs:
            if p not in self.branch_stairs:
                return p
        return stairs[0] if stairs else None

    def note_branch_stairs(self, pos: Position, branch: str) -> None:
        """Record that the stairs at ``pos`` lead into ``branch`` (another branch than this level's)."""
        self.branch_stairs[pos] = branch

    def note_stairs_taken(self, pos: Position) -> None:
        """Record that the hero has crossed the down stairs at ``pos`` (either way)."""
        self.stairs_taken.add(pos)

    @property
    def untried_stairs_down(self) -> list[Position]:
        """Known down stairs the hero has never crossed: where they lead is unknown (on
        the level where a branch begins, one of two is the branch's)."""
        return [p for p in self._find_stairs()[1] if p not in self.stairs_taken and p not in self.branch_stairs]

    @property
    def all_stairs_up(self) -> list[Position]:
        """Every known up staircase/ladder (a branch level can have two)."""
        return list(self._find_stairs()[0])

    @property
    def all_stairs_down(self) -> list[Position]:
        """Every known down staircase/ladder (e.g. main and Gnomish Mines stairs)."""
        return list(self._find_stairs()[1])

    def to_dungeon_level(self, level_in_branch: Optional[int] = None) -> DungeonLevel:
        """The memory as the API's ``DungeonLevel`` (``Tile`` per square).

        A tile's glyph/char/description are those of the remembered glyph; its
        feature, trap and trap type come from the remembered terrain (so stairs
        under an item are still "stairs up"); ``is_walkable`` follows
        ``walkable_mask``; ``is_explored`` is ``seen``.
        """
        grid = self.grid()
        mem = self.glyphs.tolist()
        ter = self.terrain.tolist()
        walk = grid.walkable.tolist()
        seen = self.seen.tolist()
        surveyed = self.surveyed.tolist()
        searched = self.search_count.tolist()
        glyph_info: dict[int, tuple[str, str]] = {}
        terrain_info: dict[int, tuple[bool, Optional[str], Optional[str]]] = {}
        tiles: list[list[Tile]] = []
        for y in range(ROWS):
            row = []
            mrow, trow, wrow, prow = mem[y], ter[y], walk[y], _POSITIONS[y]
            srow, vrow, crow = seen[y], surveyed[y], searched[y]
            for x in range(COLS):
                g = mrow[x]
                gi = glyph_info.get(g)
                if gi is None:
                    gi = glyph_info[g] = (chr(int(_CHARS[g])), G.description(g))
                char, desc = gi
                if g == UNEXPLORED:
                    if srow[x]:
                        desc = "unknown (a creature was seen here)"
                    elif not vrow[x]:
                        desc = "unexplored"
                t = trow[x]
                ti = terrain_info.get(t)
                if ti is None:
                    trap = bool(G.IS_TRAP[t])
                    ti = terrain_info[t] = (trap, G.trap_type(t), G.feature(t))
                row.append(Tile(char, g, prow[x], desc, wrow[x], srow[x], ti[0], ti[1], ti[2], crow[x]))
            tiles.append(row)
        return DungeonLevel(
            level_number=self.depth,
            branch=self.branch,
            tiles=tiles,
            explored_percentage=self.explored_percentage(),
            stairs_up=self.stairs_up,
            stairs_down=self.stairs_down,
            level_in_branch=self.dlevel if level_in_branch is None else level_in_branch,
            stairs_down_branch=self.branch_stairs.get(self.stairs_down) if self.stairs_down else None,
            untried_stairs_down=self.untried_stairs_down,
        )


class MapMemory:
    """The memories of every level of one game, keyed by ``(dnum, dlevel)``."""

    def __init__(self) -> None:
        self.levels: dict[tuple[int, int], LevelMemory] = {}

    def level_for(self, dnum: int, dlevel: int, depth: int, branch: str) -> LevelMemory:
        """The memory of that level, created empty on the first visit and kept after."""
        key = (dnum, dlevel)
        level = self.levels.get(key)
        if level is None:
            level = self.levels[key] = LevelMemory(dnum, dlevel, depth, branch)
        else:
            level.depth, level.branch = depth, branch
        return level

    def get(self, dnum: int, dlevel: int) -> Optional[LevelMemory]:
        """The memory of a visited level, or None."""
        return self.levels.get((dnum, dlevel))

    def __contains__(self, key: object) -> bool:
        return key in self.levels

    def __len__(self) -> int:
        return len(self.levels)

    def __iter__(self) -> Iterator[LevelMemory]:
        return iter(self.levels.values())

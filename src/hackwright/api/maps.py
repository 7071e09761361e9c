"""Remembered level maps and pathfinding over them.

NetHack's screen already shows the hero's memory of a level, but a monster
standing on a square hides what is under it, an item hides the stairs or trap
under it, and some remembered squares are drawn blank again (dark floor out of
sight). ``LevelMemory`` keeps what was last seen at every square so those gaps
do not erase the map; ``MapMemory`` keeps one per level for the whole game.

Pathfinding (``find_path``, ``find_nearest``, ``nearest_frontier``,
``distance_map``) are pure functions over a ``LevelMemory``. Moves follow
NetHack's rules as far as the remembered map tells them:

* 8 directions, every move costs 1; no diagonal step into or out of any door
  square (``glyphs.NO_DIAGONAL``, conservative: doorless doorways would allow it).
* Never through water, lava, walls, boulders, iron bars, trees, raised
  drawbridges, squares never seen, or squares the caller passes as ``blocked``.
* Closed doors are allowed at ``DOOR_PENALTY`` extra; the caller opens the door
  when the next step is into one (see ``LevelMemory.is_closed_door``).
* Known traps (also under an item lying on them) are never entered with
  ``avoid_traps=True`` unless the trap is the goal; with ``avoid_traps=False``
  they cost ``TRAP_PENALTY`` extra, so a short detour is still preferred.
* A square showing a monster counts as the terrain remembered under it; if
  nothing was ever seen there, it is walkable (the monster stands on it).
* The goal (or a target of ``find_nearest``) may be any square, even one that
  cannot be walked on (a boulder, a wall, an unexplored square): the path then
  ends with one step from a reachable neighbour into it (diagonal rules still
  apply), which the caller turns into a push, an attack, a dig, … . It is never
  stepped *through*.

Coordinates follow models.py: ``Position(x, y)``, arrays indexed ``[y, x]``.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional, Union

import numpy as np
from nle import nethack as nh

from . import glyphs as G
from .models import DIRECTIONS, MAP_COLS, MAP_ROWS, DungeonLevel, Position, Tile

__all__ = [
    "DOOR_PENALTY",
    "TRAP_PENALTY",
    "UNEXPLORED_PENALTY",
    "LevelMemory",
    "MapMemory",
    "find_path",
    "find_nearest",
    "nearest_frontier",
    "distance_map",
    "follow_path",
    "glyph_char",
]

ROWS, COLS = MAP_ROWS, MAP_COLS
DOOR_PENALTY = 3  # opening takes at least one action and may fail or meet a lock
TRAP_PENALTY = 10  # with avoid_traps=False: detours of up to 10 moves still win
UNEXPLORED_PENALTY = 1  # with through_unexplored=True: known ground is preferred

UNEXPLORED = G.UNEXPLORED_GLYPH
_INF = 1 << 30

# ---------------------------------------------------------------------------
# Per-glyph tables. One extra entry at the end stands for NO_GLYPH (= MAX_GLYPH),
# which NLE may leave in a cleared map window; it is treated like blank stone.
_NG = nh.MAX_GLYPH + 1

# How a displayed glyph updates the memory.
_KEEP = 0  # blank: keep whatever was remembered
_CREATURE = 1  # a creature really seen there: hides the square, proves it exists
_SENSED = 2  # detected/warned monster, beam, explosion: hides the square, proves nothing
_TERRAIN = 3  # a map feature: remembered in `glyphs` and `terrain`
_ITEM = 4  # an object, corpse, statue or boulder: remembered in `glyphs` only


def _build_tables():
    kind = np.full(_NG, G.GlyphKind.UNEXPLORED, dtype=np.int8)
    kind[:-1] = G.KIND
    display = np.full(_NG, _KEEP, dtype=np.int8)
    K = G.GlyphKind
    display[kind == K.TERRAIN] = _TERRAIN
    display[np.isin(kind, [K.MONSTER, K.PET, K.RIDDEN, K.INVISIBLE])] = _CREATURE
    display[np.isin(kind, [K.DETECTED, K.WARNING, K.EFFECT])] = _SENSED
    display[np.isin(kind, [K.OBJECT, K.CORPSE, K.STATUE])] = _ITEM

    # Step cost into a square whose remembered glyph is g (0 = impassable).
    cost = np.zeros(nh.MAX_GLYPH, dtype=np.int32)
    cost[G.WALKABLE] = 1
    # NetHack lets the hero walk onto a statue's square (only boulders block);
    # glyphs.WALKABLE is stricter, so pathfinding overrides it here.
    cost[G.KIND == K.STATUE] = 1
    closed = np.isin(G.CMAP_INDEX, [G.S_VCDOOR, G.S_HCDOOR])
    cost[closed] = 1 + DOOR_PENALTY
    cost[G.BOULDER_GLYPH] = 0

    # What NetHack's bad_rock() calls rock, for squeezing diagonally: stone,
    # walls, trees and boulders. Unexplored counts as rock (conservative).
    rock = np.zeros(nh.MAX_GLYPH, dtype=bool)
    c = G.CMAP_INDEX
    rock[(c >= G.S_STONE) & (c <= G.S_TRWALL)] = True
    rock[c == G.S_TREE] = True
    rock[G.BOULDER_GLYPH] = True

    stairs_up = np.isin(c, [G.S_UPSTAIR, G.S_UPLADDER])
    stairs_down = np.isin(c, [G.S_DNSTAIR, G.S_DNLADDER])
    swallow = np.zeros(_NG, dtype=bool)
    swallow[nh.GLYPH_SWALLOW_OFF:nh.GLYPH_WARNING_OFF] = True
    return display, cost, closed, rock, stairs_up, stairs_down, swallow


_DISPLAY, _STEP_COST, _IS_CLOSED_DOOR, _IS_ROCK, _IS_UP, _IS_DOWN, _IS_SWALLOW = _build_tables()


def is_swallowed(glyphs: np.ndarray, hero: Position) -> bool:
    """Whether the display draws an engulfer's insides around the hero."""
    g = np.asarray(glyphs)
    ys, xs = slice(max(hero.y - 1, 0), hero.y + 2), slice(max(hero.x - 1, 0), hero.x + 2)
    return bool(_IS_SWALLOW[g[ys, xs]].any())


def _build_chars() -> np.ndarray:
    """The character NetHack's default symbol set draws for every glyph."""
    sym = nh.class_sym
    mon = np.array([ord(sym.from_mlet(nh.permonst(i).mlet).sym) for i in range(nh.NUMMONS)], dtype=np.int32)
    obj = np.array(
        [ord(sym.from_oc_class(nh.objclass(i).oc_class).sym) for i in range(nh.NUM_OBJECTS)], dtype=np.int32
    )
    chars = np.full(nh.MAX_GLYPH, ord("*"), dtype=np.int32)  # beams, explosions, engulfers
    for off in (nh.GLYPH_MON_OFF, nh.GLYPH_PET_OFF, nh.GLYPH_DETECT_OFF, nh.GLYPH_RIDDEN_OFF, nh.GLYPH_STATUE_OFF):
        chars[off:off + nh.NUMMONS] = mon  # 3.6 draws a statue with its monster's letter
    chars[nh.GLYPH_INVISIBLE] = ord("I")
    chars[nh.GLYPH_BODY_OFF:nh.GLYPH_BODY_OFF + nh.NUMMONS] = ord("%")
    chars[nh.GLYPH_OBJ_OFF:nh.GLYPH_OBJ_OFF + nh.NUM_OBJECTS] = obj
    for g in range(nh.GLYPH_CMAP_OFF, nh.GLYPH_EXPLODE_OFF):
        chars[g] = nh.symdef.from_idx(g - nh.GLYPH_CMAP_OFF).sym
    chars[nh.GLYPH_WARNING_OFF:nh.GLYPH_WARNING_OFF + 6] = np.arange(ord("0"), ord("6"))
    return chars


_CHARS = _build_chars()


def glyph_char(glyph: int) -> str:
    """The character NetHack (default symbols, as NLE's ``chars``) draws for ``glyph``."""
    return chr(int(_CHARS[glyph]))


# ---------------------------------------------------------------------------
# The padded grid used by the search: one blocked border row/column on every
# side, so neighbours are index offsets with no bounds checks.
_W = COLS + 2
_H = ROWS + 2
_STEP = {d: dy * _W + dx for d, (dx, dy) in DIRECTIONS.items()}  # index offset of a move
_ORTHO = ("n", "s", "e", "w")
_DIAG = ("ne", "nw", "se", "sw")
_OFFSET_TO_DIR = {off: d for d, off in _STEP.items()}
# Moves allowed from a square, by a 4-bit code of which diagonals are allowed.
_MOVES_BY_CODE = [
    tuple(_STEP[d] for d in _ORTHO) + tuple(_STEP[d] for k, d in enumerate(_DIAG) if code >> k & 1)
    for code in range(16)
]
_PAD_Y, _PAD_X = np.indices((_H, _W))
_POSITIONS = [[Position(x, y) for x in range(COLS)] for y in range(ROWS)]


def _pad(a: np.ndarray, fill) -> np.ndarray:
    out = np.full((_H, _W), fill, dtype=a.dtype)
    out[1:-1, 1:-1] = a
    return out


def _idx(p: Position) -> int:
    return (p.y + 1) * _W + p.x + 1


def _pos(i: int) -> Position:
    y, x = divmod(i, _W)
    return _POSITIONS[y - 1][x - 1]


def _neighbours_any(mask: np.ndarray) -> np.ndarray:
    """True where at least one of the 8 neighbours is True in ``mask``."""
    p = _pad(mask, False)
    return (
        p[:-2, :-2] | p[:-2, 1:-1] | p[:-2, 2:]
        | p[1:-1, :-2] | p[1:-1, 2:]
        | p[2:, :-2] | p[2:, 1:-1] | p[2:, 2:]
    )


class _Grid:
    """Search tables derived from a LevelMemory; rebuilt when the memory changes."""

    __slots__ = ("cost", "passable", "walkable", "trap", "nodiag", "rock", "trap_idx", "_codes")

    def __init__(self, level: "LevelMemory"):
        mem, ter = level.glyphs, level.terrain
        cost = _STEP_COST[mem]
        # A creature was seen standing on a square never seen bare: it is ground.
        cost[(mem == UNEXPLORED) & level.seen] = 1
        # Terrain is the latest map feature seen; an item lying on it does not hide it.
        self.trap = G.IS_TRAP[ter] & (cost > 0)
        self.nodiag = G.NO_DIAGONAL[mem] | G.NO_DIAGONAL[ter]
        self.rock = _IS_ROCK[mem] | ((mem == UNEXPLORED) & ~level.seen)
        self.passable = cost > 0
        self.walkable = self.passable & ~_IS_CLOSED_DOOR[mem]
        self.cost = _pad(cost, 0).ravel().tolist()
        self.trap_idx = np.flatnonzero(_pad(self.trap, False)).tolist()
        self._codes: dict[bool, list[int]] = {}

    def codes(self, squeeze: bool) -> list[int]:
        """Per padded square, the 4-bit code of diagonal moves allowed out of it."""
        codes = self._codes.get(squeeze)
        if codes is None:
            nd = _pad(self.nodiag, True)
            rock = _pad(self.rock, True)
            code = np.zeros((_H, _W), dtype=np.int8)
            inner = (slice(1, -1), slice(1, -1))
            for k, d in enumerate(_DIAG):
                dx, dy = DIRECTIONS[d]
                ok = ~nd[inner] & ~nd[1 + dy:_H - 1 + dy, 1 + dx:_W - 1 + dx]
                if not squeeze:
                    # Sokoban (or a heavy load) forbids slipping between two rocks.
                    ok &= ~(rock[1:-1, 1 + dx:_W - 1 + dx] & rock[1 + dy:_H - 1 + dy, 1:-1])
                code[inner] |= ok.astype(np.int8) << k
            codes = self._codes[squeeze] = code.ravel().tolist()
        return codes


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
        self.stashes: set[Position] = set()

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


# ---------------------------------------------------------------------------
# Searches.

Target = Union[Callable[[Position], bool], np.ndarray]


def _check(p: Position, what: str) -> None:
    if not (0 <= p.x < COLS and 0 <= p.y < ROWS):
        raise ValueError(f"{what} {p} is off the map (x 0..{COLS - 1}, y 0..{ROWS - 1})")


def _positions(squares: Iterable) -> list[Position]:
    """Positions from Positions or (x, y) pairs."""
    return [p if isinstance(p, Position) else Position(*p) for p in squares]


def _costs(level: LevelMemory, blocked: list[Position], avoid_traps: bool, through_unexplored: bool) -> list[int]:
    """The step cost list for one search (0 = impassable)."""
    grid = level.grid()
    cost = grid.cost.copy()
    trap_cost = 0 if avoid_traps else 1 + TRAP_PENALTY
    for i in grid.trap_idx:
        cost[i] = trap_cost
    if through_unexplored:
        # Blank squares never looked at closely may be floor; surveyed blanks are rock.
        unexplored = _pad(~level.seen & ~level.surveyed, False)
        for i in np.flatnonzero(unexplored).tolist():
            cost[i] = 1 + UNEXPLORED_PENALTY
    for p in blocked:
        if 0 <= p.x < COLS and 0 <= p.y < ROWS:
            cost[_idx(p)] = 0
    return cost


def _directions(prev: list[int], end: int) -> list[str]:
    out = []
    v = end
    while True:
        u = prev[v]
        if u < 0:
            break
        out.append(_OFFSET_TO_DIR[v - u])
        v = u
    out.reverse()
    return out


def find_path(
    level: LevelMemory,
    start: Position,
    goal: Position,
    *,
    blocked: Iterable[Position] = (),
    avoid_traps: bool = True,
    allow_squeeze: bool = True,
    through_unexplored: bool = False,
) -> Optional[list[str]]:
    """Cheapest route from ``start`` to ``goal`` as compass directions ('n', 'se', …).

    Returns ``[]`` when ``start == goal`` and ``None`` when the goal cannot be
    reached. ``blocked`` squares (peaceful monsters, …) are never entered, not
    even as the goal. A goal that cannot be walked on is entered by the last step
    only (see the module docstring); traps with ``avoid_traps=True`` likewise.
    ``allow_squeeze=False`` forbids diagonal steps between two rock/wall/boulder
    squares, as in Sokoban. ``through_unexplored=True`` plans optimistically
    across blank squares nobody has looked at closely (never seen, never next
    to the hero), as if they were floor; re-plan after each step. Every move
    costs 1, entering a closed door ``1 + DOOR_PENALTY``, a trap
    (``avoid_traps=False``) ``1 + TRAP_PENALTY``, an unexplored square
    (``through_unexplored=True``) ``1 + UNEXPLORED_PENALTY``.
    A* with a Chebyshev-distance heuristic over a bucket queue.
    """
    _check(start, "start")
    _check(goal, "goal")
    if start == goal:
        return []
    blocked = _positions(blocked)
    if goal in blocked:
        return None
    cost = _costs(level, blocked, avoid_traps, through_unexplored)
    codes = level.grid().codes(allow_squeeze)
    s, t = _idx(start), _idx(goal)
    if cost[t] == 0:
        cost[t] = 1  # terminal only: the search stops when it pops the goal
    gy, gx = divmod(t, _W)
    dist = [_INF] * (_H * _W)
    prev = [-1] * (_H * _W)
    dist[s] = 0
    heur = np.maximum(np.abs(_PAD_X - gx), np.abs(_PAD_Y - gy)).ravel().tolist()
    # Costs are small integers and the heuristic is consistent, so a bucket
    # queue keyed by f = g + h replaces a heap. Popping the newest entry of a
    # bucket first goes deep toward the goal instead of flooding ties.
    f = heur[s]
    buckets: dict[int, list[int]] = {f: [s]}
    pending = 1
    moves = _MOVES_BY_CODE
    while pending:
        bucket = buckets.pop(f, None)
        while bucket:
            u = bucket.pop()
            pending -= 1
            d = dist[u]
            if d + heur[u] != f:
                continue  # a stale entry: u was reached more cheaply since
            if u == t:
                return _directions(prev, t)
            for off in moves[codes[u]]:
                v = u + off
                c = cost[v]
                if c:
                    nd = d + c
                    if nd < dist[v]:
                        dist[v] = nd
                        prev[v] = u
                        fv = nd + heur[v]
                        if fv == f:
                            bucket.append(v)
                        else:
                            buckets.setdefault(fv, []).append(v)
                        pending += 1
        f += 1
    return None


def _dijkstra(
    level: LevelMemory,
    start: Position,
    blocked: list[Position],
    avoid_traps: bool,
    allow_squeeze: bool,
    through_unexplored: bool,
    is_target: Optional[Callable[[int], bool]],
) -> tuple[list[int], list[int], int]:
    """Uniform-cost search from ``start``; stops at the first target settled.

    Returns (dist, prev, found index or -1). Impassable squares that are targets
    are entered as the last step only.
    """
    _check(start, "start")
    cost = _costs(level, blocked, avoid_traps, through_unexplored)
    codes = level.grid().codes(allow_squeeze)
    s = _idx(start)
    dist = [_INF] * (_H * _W)
    prev = [-1] * (_H * _W)
    dist[s] = 0
    buckets: dict[int, list[int]] = {0: [s]}  # a bucket queue, as in find_path
    pending = 1
    d = 0
    moves = _MOVES_BY_CODE
    while pending:
        bucket = buckets.pop(d, None)
        while bucket:
            u = bucket.pop()
            pending -= 1
            if dist[u] != d:
                continue
            if is_target is not None and is_target(u):
                return dist, prev, u
            if u != s and cost[u] == 0:
                continue  # an impassable square is entered as a last step only
            for off in moves[codes[u]]:
                v = u + off
                c = cost[v]
                if not c:
                    # Impassable: only worth entering, as a last step, if it is a target.
                    if is_target is None or dist[v] <= d + 1 or not is_target(v):
                        continue
                    c = 1
                nd = d + c
                if nd < dist[v]:
                    dist[v] = nd
                    prev[v] = u
                    if nd == d:
                        bucket.append(v)
                    else:
                        buckets.setdefault(nd, []).append(v)
                    pending += 1
        d += 1
    return dist, prev, -1


def _target_test(target: Target, blocked: list[Position]) -> Callable[[int], bool]:
    banned = {_idx(p) for p in blocked if p.on_map()}
    if isinstance(target, np.ndarray):
        if target.shape != (ROWS, COLS):
            raise ValueError(f"target mask must be {ROWS}x{COLS}, not {target.shape}")
        flags = _pad(target.astype(bool), False).ravel().tolist()
        return lambda i: flags[i] and i not in banned
    cache: dict[int, bool] = {}

    def test(i: int) -> bool:
        r = cache.get(i)
        if r is None:
            y, x = divmod(i, _W)
            on_map = 1 <= y <= ROWS and 1 <= x <= COLS
            r = cache[i] = on_map and i not in banned and bool(target(_POSITIONS[y - 1][x - 1]))
        return r

    return test


def find_nearest(
    level: LevelMemory,
    start: Position,
    predicate: Target,
    *,
    blocked: Iterable[Position] = (),
    avoid_traps: bool = True,
    allow_squeeze: bool = True,
    through_unexplored: bool = False,
) -> Optional[Position]:
    """The reachable square satisfying ``predicate`` that is cheapest to reach.

    ``predicate`` is a function of a Position or a 21x79 bool mask. The start
    itself counts if it qualifies. Costs and rules are those of ``find_path``
    (a non-walkable target is reached by stepping into it last). Ties are broken
    arbitrarily but deterministically. None if no qualifying square is reachable; blocked
    squares never qualify. A callable is asked (at most once each) only about
    squares the search reaches or bumps into, so it may be slow-ish.
    """
    blocked = _positions(blocked)
    test = _target_test(predicate, blocked)
    _, _, found = _dijkstra(level, start, blocked, avoid_traps, allow_squeeze, through_unexplored, test)
    return _pos(found) if found >= 0 else None


def nearest_frontier(
    level: LevelMemory,
    start: Position,
    *,
    blocked: Iterable[Position] = (),
    avoid_traps: bool = True,
) -> Optional[Position]:
    """The reachable frontier square (see ``LevelMemory.frontier_mask``) cheapest to reach."""
    return find_nearest(level, start, level.frontier_mask(), blocked=blocked, avoid_traps=avoid_traps)


def distance_map(
    level: LevelMemory,
    start: Position,
    *,
    blocked: Iterable[Position] = (),
    avoid_traps: bool = True,
    allow_squeeze: bool = True,
    through_unexplored: bool = False,
) -> np.ndarray:
    """Path cost from ``start`` to every square (21x79 int32), -1 where unreachable.

    The cost is the number of moves plus ``DOOR_PENALTY``/``TRAP_PENALTY`` for
    the closed doors/traps entered, as ``find_path`` counts it. Only squares a
    path may pass through get a value: walls, boulders, blocked squares and
    (with ``avoid_traps=True``) traps are -1 even when a last step could enter them.
    """
    dist, _, _ = _dijkstra(level, start, _positions(blocked), avoid_traps, allow_squeeze, through_unexplored, None)
    out = np.array(dist, dtype=np.int64).reshape(_H, _W)[1:-1, 1:-1]
    out[out >= _INF] = -1
    return out.astype(np.int32)


def follow_path(start: Position, path: Iterable[str]) -> list[Position]:
    """The squares a path visits after ``start``, in order (the last is the goal)."""
    out = []
    p = start
    for d in path:
        p = p.offset(d)
        out.append(p)
    return out

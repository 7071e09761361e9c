"""The padded search grid the pathfinding runs on.

One blocked border row/column around the 21x79 map, so a move is an index
offset with no bounds checks; ``_Grid`` holds a level's step costs, traps and
allowed diagonal moves in that layout (built by ``LevelMemory.grid()``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import glyphs as G
from ..models import DIRECTIONS, Position
from .glyph_tables import _IS_CLOSED_DOOR, _IS_ROCK, _STEP_COST, _TRAP_CLASS, COLS, ROWS, UNEXPLORED

if TYPE_CHECKING:
    from .level_memory import LevelMemory

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

    __slots__ = ("cost", "passable", "walkable", "trap", "nodiag", "rock", "trap_idx", "trap_class", "door_idx",
                 "_codes")

    def __init__(self, level: "LevelMemory"):
        mem, ter = level.glyphs, level.terrain
        cost = _STEP_COST[mem]
        # A creature was seen standing on a square never seen bare: it is ground.
        cost[(mem == UNEXPLORED) & level.seen] = 1
        cost[level.solid] = 0
        # Terrain is the latest map feature seen; an item lying on it does not hide it.
        self.trap = G.IS_TRAP[ter] & (cost > 0)
        self.nodiag = G.NO_DIAGONAL[mem] | G.NO_DIAGONAL[ter]
        self.rock = _IS_ROCK[mem] | ((mem == UNEXPLORED) & ~level.seen) | level.solid
        self.passable = cost > 0
        self.walkable = self.passable & ~_IS_CLOSED_DOOR[mem]
        self.cost = _pad(cost, 0).ravel().tolist()
        self.trap_idx = np.flatnonzero(_pad(self.trap, False)).tolist()
        # Per entry of trap_idx: how bad that trap is (glyph_tables.TRAP_HARMLESS …).
        self.trap_class = _pad(_TRAP_CLASS[ter], 0).ravel()[self.trap_idx].tolist()
        self.door_idx = np.flatnonzero(_pad(self.passable & ~self.walkable, False)).tolist()  # closed doors
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

"""Rooms and corridors of a remembered level (for the prompt's structured description).

A level's memory is split into connected pieces: *rooms* (floor and the features on
it: stairs, fountains, altars…), *corridors* (corridor squares), joined by *doors*
(doorways, open, closed and broken doors). Squares are joined orthogonally and
diagonally, as the hero walks, except that room floor and corridor never join
directly: a door, or a gap in a wall, sits between them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import glyphs as G
from .maps import UNEXPLORED, LevelMemory
from .models import Position

_CORRIDOR = (G.S_CORR, G.S_LITCORR)
_DOORS = (G.S_NDOOR, G.S_VODOOR, G.S_HODOOR, G.S_VCDOOR, G.S_HCDOOR)
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass
class Room:
    """A connected piece of room floor (lit or dark) the hero remembers."""

    id: int
    squares: int
    x0: int
    y0: int
    x1: int
    y1: int
    doors: list[Position] = field(default_factory=list)
    features: list[str] = field(default_factory=list)  # "stairs down", "fountain", …
    frontier: int = 0  # squares whose surroundings nobody has looked at yet

    def contains(self, p: Position) -> bool:
        return self.x0 <= p.x <= self.x1 and self.y0 <= p.y <= self.y1

    @property
    def centre(self) -> Position:
        return Position((self.x0 + self.x1) // 2, (self.y0 + self.y1) // 2)


@dataclass
class Corridor:
    """A connected run of corridor squares."""

    id: int
    squares: int
    doors: list[Position] = field(default_factory=list)  # doors it leads to
    open_ends: list[Position] = field(default_factory=list)  # squares where it goes on into the unknown


@dataclass
class Layout:
    rooms: list[Room]
    corridors: list[Corridor]
    hero_room: Optional[int] = None  # Room.id the hero stands in
    hero_corridor: Optional[int] = None


def _kinds(level: LevelMemory) -> np.ndarray:
    """Per square: 0 nothing walkable known, 1 room floor, 2 corridor, 3 door."""
    cmap = G.CMAP_INDEX[level.terrain]
    walk = level.grid().passable
    kind = np.zeros(level.terrain.shape, dtype=np.int8)
    kind[walk] = 1
    kind[np.isin(cmap, _CORRIDOR) & walk] = 2
    kind[np.isin(cmap, _DOORS)] = 3
    # An object seen on a square whose ground was never seen bare (a dagger in a
    # corridor): the ground is what its neighbours mostly are.
    unknown = walk & (level.terrain == UNEXPLORED)
    if unknown.any():
        ys, xs = np.nonzero(unknown)
        for y, x in zip(ys.tolist(), xs.tolist()):
            around = kind[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2]
            if (around == 2).any() and not (around == 1).sum() > 1:
                kind[y, x] = 2
    return kind


def segment(level: LevelMemory, hero: Optional[Position] = None) -> Layout:
    """Split the remembered level into rooms and corridors (see the module docstring)."""
    kind = _kinds(level)
    rows, cols = kind.shape
    frontier = level.frontier_mask()
    label = np.full(kind.shape, -1, dtype=np.int32)
    rooms: list[Room] = []
    corridors: list[Corridor] = []
    feature_of = {G.S_UPSTAIR: "stairs up", G.S_DNSTAIR: "stairs down", G.S_UPLADDER: "ladder up",
                  G.S_DNLADDER: "ladder down", G.S_ALTAR: "altar", G.S_FOUNTAIN: "fountain", G.S_SINK: "sink",
                  G.S_THRONE: "throne", G.S_GRAVE: "grave"}
    cmap = G.CMAP_INDEX[level.terrain]
    for y0 in range(rows):
        for x0 in range(cols):
            k = int(kind[y0, x0])
            if k not in (1, 2) or label[y0, x0] >= 0:
                continue
            comp = len(rooms) + len(corridors)
            label[y0, x0] = comp
            todo = deque([(x0, y0)])
            squares: list[tuple[int, int]] = []
            doors: set[Position] = set()
            while todo:
                x, y = todo.popleft()
                squares.append((x, y))
                for dx, dy in _STEPS:
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < cols and 0 <= ny < rows):
                        continue
                    nk = int(kind[ny, nx])
                    if nk == 3:
                        if not (dx and dy):  # doors are entered orthogonally only
                            doors.add(Position(nx, ny))
                        continue
                    if nk == k and label[ny, nx] < 0:
                        label[ny, nx] = comp
                        todo.append((nx, ny))
            xs = [x for x, _ in squares]
            ys = [y for _, y in squares]
            fr = [(x, y) for x, y in squares if frontier[y, x]]
            if k == 1:
                feats = sorted({feature_of[int(cmap[y, x])] for x, y in squares if int(cmap[y, x]) in feature_of})
                rooms.append(Room(comp, len(squares), min(xs), min(ys), max(xs), max(ys),
                                  sorted(doors, key=lambda p: (p.y, p.x)), feats, len(fr)))
            else:
                corridors.append(Corridor(comp, len(squares), sorted(doors, key=lambda p: (p.y, p.x)),
                                          [Position(x, y) for x, y in fr][:4]))
    layout = Layout(rooms, corridors)
    if hero is not None and 0 <= hero.y < rows and 0 <= hero.x < cols:
        c = int(label[hero.y, hero.x])
        if c >= 0:
            if int(kind[hero.y, hero.x]) == 1:
                layout.hero_room = c
            else:
                layout.hero_corridor = c
    return layout

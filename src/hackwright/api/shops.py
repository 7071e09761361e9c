"""Where a shop lies on the remembered map, found from its shopkeeper in view.

NetHack's shops are ordinary rooms with one door and a keeper who stands just
inside it. The map does not mark a shop, so its extent is the room around the
shopkeeper: floor flooded out from him up to the walls, doors and corridors
that bound a room. Digging commands use it to refuse a hole in a shop's floor or
wall, and ``shop_exit`` to show the way out of one the hero fell into.
"""

from __future__ import annotations

from typing import Iterable, Optional

from . import glyphs as G, maps
from .models import Position, ShopExit

DOOR_CMAPS = (G.S_NDOOR, G.S_VODOOR, G.S_HODOOR, G.S_VCDOOR, G.S_HCDOOR)
_ORTHOGONAL = ("n", "s", "e", "w")  # no one steps diagonally out of a doorway


def shop_squares(mem: maps.LevelMemory, keepers: Iterable[Position]) -> set[Position]:
    """The floor, walls and doors of the shops of these shopkeepers: the room around
    each, flooded over the remembered map (both rooms when he stands in his doorway)."""
    keepers = list(keepers)
    if not keepers:
        return set()
    cmap = G.CMAP_INDEX[mem.terrain]
    # Walls, doors, bars, trees and corridors bound a room; stone never seen is not floor.
    wall = ((cmap >= G.S_VWALL) & (cmap <= G.S_TREE)) | (cmap == G.S_CORR) | (cmap == G.S_LITCORR)
    blocked = wall | ((cmap == G.S_STONE) & ~mem.seen)
    floor: set[Position] = set()
    for k in keepers:
        starts = [k] if not wall[k.y, k.x] else [p for p in k.neighbors() if p.on_map() and not blocked[p.y, p.x]]
        todo = [p for p in starts if p not in floor]
        floor.update(todo)
        while todo and len(floor) < 600:
            p = todo.pop()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                q = Position(p.x + dx, p.y + dy)
                if q.on_map() and q not in floor and not blocked[q.y, q.x]:
                    floor.add(q)
                    todo.append(q)
    return floor | {q for p in floor for q in p.neighbors() if q.on_map()}


def shop_exit(mem: maps.LevelMemory, keepers: list[Position], hero: Position) -> Optional[ShopExit]:
    """The way out of the shop the hero stands in (its door nearest the hero and the
    square beyond it), or None when the hero is in no shop of these keepers."""
    shop = shop_squares(mem, keepers)
    if hero not in shop:
        return None
    cmap = G.CMAP_INDEX[mem.terrain]
    ways = []
    for door in shop:
        if int(cmap[door.y, door.x]) not in DOOR_CMAPS:
            continue
        for d in _ORTHOGONAL:
            out = door.offset(d)
            if out.on_map() and out not in shop:
                ways.append((door.steps_to(hero), door, out, d))
    if not ways:
        return None
    _, door, out, d = min(ways, key=lambda w: (w[0], w[1].y, w[1].x))
    keeper = min(keepers, key=lambda k: k.steps_to(door))
    return ShopExit(door=door, outside=out, direction=d, shopkeeper=keeper)

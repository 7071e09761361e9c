"""Judgements over the remembered map that many skills need, kept in one place.

``DungeonLevel.line_of_fire``, ``.exposure``, ``.nearest_chokepoint`` and
``.walk_distances`` call the functions here, and every skill gets ``WalkAroundMemory``
and ``bolt_endangers`` without importing them. They only read the map and the
monsters a skill already holds: no game action, no game time.
The sandbox worker imports this module, so it stays free of NLE and numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Optional

if TYPE_CHECKING:
    from .models import DungeonLevel, Monster, Position

COMPASS = ("n", "s", "e", "w", "ne", "nw", "se", "sw")

# Squares a missile never crosses diagonally, into or out of (NetHack stops thrown and
# fired objects at door squares taken on a slant; a doorway counts, to be safe).
LINE_DOORS = ("doorway", "open door", "closed door")


def line_of_fire(level: "DungeonLevel", frm: "Position", to: "Position",
                 occupied: Iterable["Position"] = (), max_range: int = 6) -> str:
    """The direction of a clear straight shot from ``frm`` to ``to``, or ""."""
    dx, dy = to.x - frm.x, to.y - frm.y
    dist = max(abs(dx), abs(dy))
    if dist == 0 or dist > max_range or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return ""
    blocked = occupied if isinstance(occupied, (set, frozenset)) else set(occupied)
    d = frm.direction_to(to)
    diagonal = len(d) == 2
    if diagonal and level.tile_at(frm).feature in LINE_DOORS:
        return ""
    p = frm
    while True:
        p = p.offset(d)
        t = level.tile_at(p)
        if diagonal and t.feature in LINE_DOORS:
            return ""
        if p == to:
            return d
        if p in blocked or not t.is_walkable:
            return ""


def exposure(level: "DungeonLevel", pos: "Position") -> int:
    """How many squares a monster could attack ``pos`` from."""
    # No diagonal move or blow into or out of an open door.
    here_door = level.tile_at(pos).feature == "open door"
    n = 0
    for d in COMPASS:
        q = pos.offset(d)
        if not q.on_map():
            continue
        t = level.tile_at(q)
        if not t.is_walkable or (len(d) == 2 and (here_door or t.feature == "open door")):
            continue
        n += 1
    return n


def walk_distances(level: "DungeonLevel", start: "Position", max_steps: int, blocked: Iterable["Position"] = (),
                   no_diagonal: tuple = LINE_DOORS, may_step=None) -> dict:
    """Position -> steps from ``start`` for every square a walk reaches in at most
    ``max_steps``, nearest first (``start`` itself at 0). ``may_step(frm, to)``, when
    given, may refuse a step the map allows."""
    blocked = blocked if isinstance(blocked, (set, frozenset)) else set(blocked)
    dist = {start: 0}
    order = [start]
    i = 0
    while i < len(order):
        p = order[i]
        i += 1
        if dist[p] >= max_steps:
            continue
        door_here = level.tile_at(p).feature in no_diagonal
        for d in COMPASS:
            q = p.offset(d)
            if q in dist or not q.on_map() or q in blocked:
                continue
            t = level.tile_at(q)
            if not t.is_walkable or t.has_trap or (len(d) == 2 and (door_here or t.feature in no_diagonal)):
                continue
            if may_step is not None and not may_step(p, q):
                continue
            dist[q] = dist[p] + 1
            order.append(q)
    return dist


def nearest_chokepoint(level: "DungeonLevel", hero: "Position", monsters: Iterable["Monster"],
                       max_steps: int = 3) -> Optional["Position"]:
    """The nearest square (at most ``max_steps`` away) where at most two monsters can reach
    the hero, or None."""
    if exposure(level, hero) <= 2:
        return None
    # (A doorway without a door lets a walker through on a slant; an open door does not.)
    dist = walk_distances(level, hero, max_steps, {m.position for m in monsters}, no_diagonal=("open door",))
    best = [p for p in list(dist)[1:] if exposure(level, p) <= 2]
    return min(best, key=lambda p: dist[p]) if best else None


def bolt_endangers(hero: "Position", target: "Position", monsters: Iterable["Monster"], reach: int = 13,
                   shop: bool = True) -> bool:
    """Whether a bolt sent from ``hero`` at ``target`` could hurt a friend: a peaceful
    monster or a pet on the line beyond it (a force bolt or a wand of striking goes on
    past what it hits, and a missile that misses flies on), or, with ``shop``, any
    shopkeeper in view (a bolt that misses breaks the potions on his floor, and he
    takes that for theft; a Wizard's bolt killed a gnome in a shop door and went on
    into the shopkeeper)."""
    monsters = list(monsters)
    if shop and any(m.name == "shopkeeper" and m.is_peaceful for m in monsters):
        return True
    line = set(hero.ray_through(target, reach))
    return any(m.position in line for m in monsters if m.is_peaceful or m.is_tame)


# How long a monster is remembered where it was last seen, by kind (game turns).
FORGET_AVOIDED = 150
FORGET_PEACEFUL = 10


@dataclass
class WalkAroundMemory:
    """Monsters a walk must not bump into, remembered where they were last seen.

    Moving into a monster attacks it: a floating eye's passive paralyses, a cockatrice
    stones, a mold burns or stings, and hitting a peaceful one angers it (and its god).
    They drop out of view as the hero walks, and a route chosen without them leads straight
    back to them, so a walking skill keeps one memory for its whole run::

        memory = WalkAroundMemory(avoid=("floating eye", "yellow mold"))
        ...each step: keep_off = memory.update(await nh.get_visible_monsters(), hero, stats.turn)
        await nh.move_to(target, avoid=keep_off)  # or plan your own path around them
    """

    avoid: tuple = ()  # species never to bump (besides the peaceful monsters in view, always kept)
    seen: dict = field(default_factory=dict)  # Position -> (species name, turn last seen there)

    def update(self, monsters: Iterable["Monster"], hero: "Position", turn: int) -> set:
        """Note where the monsters in view to keep off are (those named in ``avoid``, and
        peaceful ones that are not tame), and forget what is stale: a peaceful monster's
        square after 10 turns, an avoided one's after 150, and any square next to the
        hero seen empty. A monster of a species seen up to 3 squares from where one was
        remembered is taken to have moved there (molds never move: another mold is
        another one). Returns the squares to keep off."""
        monsters = list(monsters)
        for m in monsters:
            if m.name in self.avoid or (m.is_peaceful and not m.is_tame):
                moved = [p for p, (n, _) in self.seen.items() if n == m.name and p != m.position
                         and p.steps_to(m.position) <= 3 and not m.name.endswith(" mold")]
                for p in moved:
                    del self.seen[p]
                self.seen[m.position] = (m.name, turn)
        here = {m.position for m in monsters}
        for p in list(self.seen):
            name, when = self.seen[p]
            horizon = FORGET_AVOIDED if name in self.avoid else FORGET_PEACEFUL
            if turn - when > horizon or (p.is_adjacent(hero) and p not in here):
                del self.seen[p]
        return set(self.seen)

    def names_at(self, squares: Iterable["Position"]) -> list:
        """The species remembered on ``squares``, sorted, each once (to say what blocked a walk)."""
        wanted = set(squares)
        return sorted({n for p, (n, _) in self.seen.items() if p in wanted})


__all__ = ["COMPASS", "LINE_DOORS", "WalkAroundMemory", "exposure", "line_of_fire", "nearest_chokepoint",
           "walk_distances"]

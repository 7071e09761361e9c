"""Pathfinding over a ``LevelMemory``: ``find_path``, ``find_nearest``,
``nearest_frontier``, ``distance_map`` and ``follow_path``.

Pure functions; the movement rules they follow are in the ``maps`` package
docstring.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Union

import numpy as np

from ..models import Position
from .glyph_tables import COLS, RISKY_TRAP_PENALTY, ROWS, TRAP_PENALTY, UNEXPLORED_PENALTY
from .grid import _H, _MOVES_BY_CODE, _OFFSET_TO_DIR, _PAD_X, _PAD_Y, _POSITIONS, _W, _idx, _pad, _pos
from .level_memory import LevelMemory

_INF = 1 << 30

Target = Union[Callable[[Position], bool], np.ndarray]


def _check(p: Position, what: str) -> None:
    if not (0 <= p.x < COLS and 0 <= p.y < ROWS):
        raise ValueError(f"{what} {p} is off the map (x 0..{COLS - 1}, y 0..{ROWS - 1})")


def _positions(squares: Iterable) -> list[Position]:
    """Positions from Positions or (x, y) pairs."""
    return [p if isinstance(p, Position) else Position(*p) for p in squares]


# Step cost into a trap by its class (harmless, other, deadly) under each trap rule; 0 = never.
_HARMLESS = 1 + TRAP_PENALTY
TRAP_RULES: dict[str, tuple[int, int, int]] = {
    "avoid": (0, 0, 0),
    "harmless": (_HARMLESS, 0, 0),
    "risky": (_HARMLESS, 1 + RISKY_TRAP_PENALTY, 0),
    "any": (_HARMLESS, _HARMLESS, _HARMLESS),
}


def _trap_rule(traps: Optional[str], avoid_traps: bool) -> tuple[int, int, int]:
    if traps is None:
        return TRAP_RULES["avoid" if avoid_traps else "any"]
    rule = TRAP_RULES.get(traps)
    if rule is None:
        raise ValueError(f"traps must be one of {', '.join(map(repr, TRAP_RULES))}, not {traps!r}")
    return rule


def _costs(level: LevelMemory, blocked: list[Position], trap_rule: tuple[int, int, int], through_unexplored: bool,
           through_doors: bool = True) -> list[int]:
    """The step cost list for one search (0 = impassable)."""
    grid = level.grid()
    cost = grid.cost.copy()
    for i, kind in zip(grid.trap_idx, grid.trap_class):
        cost[i] = trap_rule[kind - 1]
    if not through_doors:
        for i in grid.door_idx:
            cost[i] = 0
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
    traps: Optional[str] = None,
    through_doors: bool = True,
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

    ``traps``, when given, replaces ``avoid_traps`` with a finer rule (a key of
    ``TRAP_RULES``): ``"avoid"`` enters no known trap (``avoid_traps=True``);
    ``"harmless"`` crosses only ``HARMLESS_TRAPS``, at ``1 + TRAP_PENALTY``;
    ``"risky"`` also crosses every trap but ``DEADLY_TRAPS``, at
    ``1 + RISKY_TRAP_PENALTY`` (only when no other way is known); ``"any"``
    crosses every trap at ``1 + TRAP_PENALTY`` (``avoid_traps=False``). An
    unknown rule raises ValueError. ``through_doors=False`` never steps through
    a closed door (the goal may still be one).
    A* with a Chebyshev-distance heuristic over a bucket queue.
    """
    _check(start, "start")
    _check(goal, "goal")
    rule = _trap_rule(traps, avoid_traps)
    if start == goal:
        return []
    blocked = _positions(blocked)
    if goal in blocked:
        return None
    cost = _costs(level, blocked, rule, through_unexplored, through_doors)
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
    trap_rule: tuple[int, int, int],
    allow_squeeze: bool,
    through_unexplored: bool,
    is_target: Optional[Callable[[int], bool]],
    through_doors: bool = True,
) -> tuple[list[int], list[int], int]:
    """Uniform-cost search from ``start``; stops at the first target settled.

    Returns (dist, prev, found index or -1). Impassable squares that are targets
    are entered as the last step only.
    """
    _check(start, "start")
    cost = _costs(level, blocked, trap_rule, through_unexplored, through_doors)
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
    traps: Optional[str] = None,
    through_doors: bool = True,
) -> Optional[Position]:
    """The reachable square satisfying ``predicate`` that is cheapest to reach.

    ``predicate`` is a function of a Position or a 21x79 bool mask. The start
    itself counts if it qualifies. Costs and rules are those of ``find_path``
    (a non-walkable target is reached by stepping into it last; ``traps`` and
    ``through_doors`` as there). Ties are broken
    arbitrarily but deterministically. None if no qualifying square is reachable; blocked
    squares never qualify. A callable is asked (at most once each) only about
    squares the search reaches or bumps into, so it may be slow-ish.
    """
    rule = _trap_rule(traps, avoid_traps)
    blocked = _positions(blocked)
    test = _target_test(predicate, blocked)
    _, _, found = _dijkstra(level, start, blocked, rule, allow_squeeze, through_unexplored, test, through_doors)
    return _pos(found) if found >= 0 else None


def nearest_frontier(
    level: LevelMemory,
    start: Position,
    *,
    blocked: Iterable[Position] = (),
    avoid_traps: bool = True,
    traps: Optional[str] = None,
    through_doors: bool = True,
) -> Optional[Position]:
    """The reachable frontier square (see ``LevelMemory.frontier_mask``) cheapest to reach
    (``traps`` and ``through_doors`` as in ``find_path``)."""
    return find_nearest(level, start, level.frontier_mask(), blocked=blocked, avoid_traps=avoid_traps,
                        traps=traps, through_doors=through_doors)


def distance_map(
    level: LevelMemory,
    start: Position,
    *,
    blocked: Iterable[Position] = (),
    avoid_traps: bool = True,
    allow_squeeze: bool = True,
    through_unexplored: bool = False,
    traps: Optional[str] = None,
    through_doors: bool = True,
) -> np.ndarray:
    """Path cost from ``start`` to every square (21x79 int32), -1 where unreachable.

    The cost is the number of moves plus ``DOOR_PENALTY``/``TRAP_PENALTY`` for
    the closed doors/traps entered, as ``find_path`` counts it. Only squares a
    path may pass through get a value: walls, boulders, blocked squares and
    (with ``avoid_traps=True``) traps are -1 even when a last step could enter them;
    ``traps`` and ``through_doors`` as in ``find_path``.
    """
    rule = _trap_rule(traps, avoid_traps)
    dist, _, _ = _dijkstra(level, start, _positions(blocked), rule, allow_squeeze, through_unexplored, None,
                           through_doors)
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

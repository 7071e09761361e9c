"""``hackwright bench maps``: the remembered map's own speed, on full 21x79 levels.

No game runs: the levels are drawn glyph by glyph, so every repetition does exactly
the same work. Three drawn levels are searched:

* open floor, from one corner to the other (78 steps);
* a serpentine of walls with the gap at alternating ends (781 steps that wind
  through the whole level);
* open floor with the far corner walled off (unreachable: the search floods
  every square before it gives up).

``distance_map`` floods the open floor. Folding a screen into the memory is timed
on the serpentine with a jackal walking along its top row (the glyphs change every
update), and ``to_dungeon_level`` on the memory that results.

These figures were once thresholds inside the test suite; a loaded machine crossed
them, so they live here, with their targets in the notes (see docs/benchmarks.md).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from nle import nethack

from ..api import glyphs as G
from ..api.maps import LevelMemory, distance_map, find_path
from ..api.models import Position
from .api import BenchMismatchError
from .stats import BenchReport, Clock, MachineLoad, Measure, Spread, load_note

DEFAULT_CALLS = 30
DEFAULT_UPDATES = 100
DEFAULT_REPEATS = 5

ROWS, COLS = 21, 79
FLOOR = nethack.GLYPH_CMAP_OFF + G.S_ROOM
WALL = nethack.GLYPH_CMAP_OFF + 2  # S_hwall
JACKAL = nethack.GLYPH_MON_OFF + next(i for i in range(nethack.NUMMONS) if nethack.permonst(i).mname == "jackal")

CORNER, FAR = Position(0, 0), Position(COLS - 1, ROWS - 1)
SERPENT_END = Position(0, ROWS - 1)
SERPENT_STEPS = 10 * (COLS - 1) + 1

# Targets for the CPU medians: a skill may plan a path and fold the latest screens
# into the memory on every action it takes.
PATH_TARGET_MS = 20.0
UPDATE_TARGET_US = 1000.0
DUNGEON_LEVEL_TARGET_MS = 100.0


def _memory(glyphs: np.ndarray) -> LevelMemory:
    level = LevelMemory(0, 1, 1, "Dungeons of Doom")
    level.update(glyphs, CORNER, 1)
    return level


def serpentine() -> np.ndarray:
    """Walls across every other row, the gap at alternating ends."""
    grid = np.full((ROWS, COLS), FLOOR, dtype=np.int16)
    for y in range(1, ROWS, 2):
        grid[y, :] = WALL
        grid[y, COLS - 1 if y % 4 == 1 else 0] = FLOOR
    return grid


def levels() -> dict[str, LevelMemory]:
    """The three searched levels, each seen once from the top-left corner."""
    pocket = np.full((ROWS, COLS), FLOOR, dtype=np.int16)
    pocket[ROWS - 2:, COLS - 3] = WALL
    pocket[ROWS - 2, COLS - 3:] = WALL
    return {"open": _memory(np.full((ROWS, COLS), FLOOR, dtype=np.int16)),
            "serpentine": _memory(serpentine()),
            "pocket": _memory(pocket)}


def check_paths(maps: dict[str, LevelMemory]) -> None:
    """The searches find the routes the drawings hold; otherwise the timings are of other work."""
    found = {
        "open floor": (find_path(maps["open"], CORNER, FAR), COLS - 1),
        "serpentine": (find_path(maps["serpentine"], CORNER, SERPENT_END), SERPENT_STEPS),
        "walled-off corner": (find_path(maps["pocket"], CORNER, FAR), None),
    }
    def route(steps: object) -> str:
        return "no path" if steps is None else f"a path of {steps} steps"

    for name, (path, steps) in found.items():
        got = None if path is None else len(path)
        if got != steps:
            raise BenchMismatchError(f"the {name} level gave {route(got)} where the drawing holds {route(steps)}: "
                                     "the maps module changed, the timings would compare other work")


def moving_monster_screens(count: int) -> list[np.ndarray]:
    """The serpentine with a jackal one square further east along the top row on each screen."""
    base = serpentine()
    columns = np.arange(COLS)[None, :]
    return [np.where(columns == i % COLS, JACKAL, base).astype(np.int16) for i in range(count)]


def _timed(calls: int, fn: Callable[[], object]) -> Clock:
    clock = Clock()
    with clock.running():
        for _ in range(calls):
            fn()
    return clock


def _spread(clocks: list[Clock], count: int, scale: float, cpu: bool) -> Spread:
    return Spread.of([scale * (c.cpu if cpu else c.wall) / count for c in clocks])


def run_maps_bench(calls: int = DEFAULT_CALLS, updates: int = DEFAULT_UPDATES,
                   repeats: int = DEFAULT_REPEATS) -> BenchReport:
    """Time pathfinding, flooding, screen folding and ``to_dungeon_level`` on drawn 21x79 levels.

    Every repetition times ``calls`` calls of each search (the row is the mean per call
    of that repetition), ``updates`` screens folded into a fresh memory, and one
    ``to_dungeon_level`` of the memory they leave. Raises ``BenchMismatchError`` when a
    search does not find the route the drawing holds."""
    if calls < 1 or updates < 1 or repeats < 1:
        raise ValueError("calls, updates and repeats must each be at least 1")
    maps = levels()
    check_paths(maps)
    screens = moving_monster_screens(updates)
    searches: dict[str, Callable[[], object]] = {
        "find_path, open floor corner to corner": lambda: find_path(maps["open"], CORNER, FAR),
        f"find_path, serpentine ({SERPENT_STEPS} steps)": lambda: find_path(maps["serpentine"], CORNER, SERPENT_END),
        "find_path, unreachable (floods the level)": lambda: find_path(maps["pocket"], CORNER, FAR),
        "distance_map, open floor": lambda: distance_map(maps["open"], CORNER),
    }
    timed: dict[str, list[Clock]] = {name: [] for name in searches}
    folded: list[Clock] = []
    built: list[Clock] = []
    load = MachineLoad()
    for rep in range(repeats):
        order = list(searches) if rep % 2 == 0 else list(reversed(searches))
        for name in order:
            timed[name].append(_timed(calls, searches[name]))
        memory = _memory(serpentine())
        fold = Clock()
        with fold.running():
            for turn, screen in enumerate(screens, start=2):
                memory.update(screen, Position((turn - 2) % COLS, 0), turn)
        folded.append(fold)
        build = Clock()
        with build.running():
            level = memory.to_dungeon_level(1)
        built.append(build)
        if (len(level.tiles), len(level.tiles[0])) != (ROWS, COLS):
            raise BenchMismatchError(f"to_dungeon_level gave {len(level.tiles)} rows of {len(level.tiles[0])} "
                                     f"tiles, not {ROWS} of {COLS}")
    load_facts = load.finish()

    measures = [
        Measure(name, "ms", f"one call, mean of {calls} per repetition (target under {PATH_TARGET_MS:g} ms)",
                wall=_spread(clocks, calls, 1000, cpu=False), cpu=_spread(clocks, calls, 1000, cpu=True))
        for name, clocks in timed.items()
    ]
    measures.append(Measure(
        "LevelMemory.update, a monster moving", "µs",
        f"one screen folded into the memory, mean of {updates} screens that each differ "
        f"(target under {UPDATE_TARGET_US:g} µs)",
        wall=_spread(folded, updates, 1e6, cpu=False), cpu=_spread(folded, updates, 1e6, cpu=True)))
    measures.append(Measure(
        "to_dungeon_level", "ms",
        f"the whole memory as a DungeonLevel of 21x79 tiles, once per repetition "
        f"(target under {DUNGEON_LEVEL_TARGET_MS:g} ms)",
        wall=_spread(built, 1, 1000, cpu=False), cpu=_spread(built, 1, 1000, cpu=True)))

    targets = {name: PATH_TARGET_MS for name in searches}
    targets.update({measures[-2].name: UPDATE_TARGET_US, measures[-1].name: DUNGEON_LEVEL_TARGET_MS})
    missed = [f"{m.name} ({m.cpu.median:.2f} {m.unit})" for m in measures if m.cpu.median >= targets[m.name]]
    notes = [
        "Every target is met on the CPU median." if not missed
        else "Targets missed on the CPU median: " + "; ".join(missed) + ".",
        load_note(load_facts),
    ]
    facts = {"calls": calls, "updates": updates, "repeats": repeats, "load": load_facts, "targets": targets}
    return BenchReport("NetHackAPI's remembered map: pathfinding and updates on 21x79 levels",
                       measures, facts, notes)

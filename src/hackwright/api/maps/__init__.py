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
  ``traps=`` picks a finer rule (``TRAP_RULES``): ``"harmless"`` crosses only
  ``HARMLESS_TRAPS`` (at ``TRAP_PENALTY``), ``"risky"`` also every trap but
  ``DEADLY_TRAPS`` (at ``RISKY_TRAP_PENALTY``: only where no other way is known).
* ``through_doors=False`` plans no step through a closed door.
* A square showing a monster counts as the terrain remembered under it; if
  nothing was ever seen there, it is walkable (the monster stands on it).
* The goal (or a target of ``find_nearest``) may be any square, even one that
  cannot be walked on (a boulder, a wall, an unexplored square): the path then
  ends with one step from a reachable neighbour into it (diagonal rules still
  apply), which the caller turns into a push, an attack, a dig, … . It is never
  stepped *through*.

Coordinates follow models.py: ``Position(x, y)``, arrays indexed ``[y, x]``.

The code lives in ``glyph_tables`` (what each glyph means), ``grid`` (the padded
search grid), ``level_memory`` (``LevelMemory``, ``MapMemory``) and
``pathfinding`` (the searches); every public name is re-exported here.
"""

from __future__ import annotations

from .glyph_tables import (
    COLS,
    DEADLY_TRAPS,
    DOOR_PENALTY,
    HARMLESS_TRAPS,
    RISKY_TRAP_PENALTY,
    ROWS,
    TRAP_PENALTY,
    UNEXPLORED,
    UNEXPLORED_PENALTY,
    glyph_char,
    is_swallowed,
)
from .level_memory import LevelMemory, MapMemory
from .pathfinding import TRAP_RULES, Target, distance_map, find_nearest, find_path, follow_path, nearest_frontier

__all__ = [
    "DOOR_PENALTY",
    "TRAP_PENALTY",
    "RISKY_TRAP_PENALTY",
    "TRAP_RULES",
    "HARMLESS_TRAPS",
    "DEADLY_TRAPS",
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

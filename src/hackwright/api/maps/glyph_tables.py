"""What every glyph NetHack displays means to the remembered map and to moves.

Per-glyph numpy tables, built once from ``glyphs``: how a displayed glyph
updates the memory (terrain, item, creature, nothing), the step cost into a
square remembering it (``DOOR_PENALTY`` for closed doors, 0 = impassable),
which glyphs are rock, stairs or an engulfer's insides, and the character
NetHack's default symbol set draws for it (``glyph_char``). Also the map size
and the path-cost constants the other ``maps`` modules share.
"""

from __future__ import annotations

import numpy as np
from nle import nethack as nh

from .. import glyphs as G
from ..models import MAP_COLS, MAP_ROWS, Position

ROWS, COLS = MAP_ROWS, MAP_COLS
DOOR_PENALTY = 3  # opening takes at least one action and may fail or meet a lock
TRAP_PENALTY = 10  # a trap a search may cross: detours of up to 10 moves still win
# A trap crossed only where no other way is known (traps="risky"): longer than any walk on a level.
RISKY_TRAP_PENALTY = ROWS * COLS
UNEXPLORED_PENALTY = 1  # with through_unexplored=True: known ground is preferred

# Traps by what stepping on one costs. Harmless: a noise, rusty armour, no magic.
# Deadly or level-leaving: never crossed unless the trap is the goal. (Not a sleeping gas
# trap: a nap of up to 25 turns harms no one alone, and a Priest spent 11,000 turns on
# Dlvl 2 searching the rooms on his side of one that lay in the only way on.)
HARMLESS_TRAPS = ("squeaky board", "rust trap", "anti-magic field")
DEADLY_TRAPS = ("land mine", "polymorph trap", "fire trap", "magic portal",
                "level teleporter", "hole", "trap door")
TRAP_HARMLESS, TRAP_OTHER, TRAP_DEADLY = 1, 2, 3  # values of _TRAP_CLASS (0: no trap)

UNEXPLORED = G.UNEXPLORED_GLYPH

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


def _build_trap_classes() -> np.ndarray:
    kinds = np.zeros(_NG, dtype=np.int8)
    for g in np.flatnonzero(G.IS_TRAP).tolist():
        name = G.trap_type(g)
        kinds[g] = TRAP_HARMLESS if name in HARMLESS_TRAPS else TRAP_DEADLY if name in DEADLY_TRAPS else TRAP_OTHER
    return kinds


_TRAP_CLASS = _build_trap_classes()  # per terrain glyph


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

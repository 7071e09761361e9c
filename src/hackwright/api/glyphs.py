"""What a glyph is, decoded once through NLE's own tables.

NetHack draws every square as a *glyph*: a number whose range says what kind of
thing is shown (monster, pet, corpse, object, map feature, …). This module builds
flat numpy tables indexed by glyph at import time, so whole-map questions
("which squares can be walked on?") are one vectorised lookup.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Optional

import numpy as np
from nle import nethack as nh


class GlyphKind(IntEnum):
    UNEXPLORED = 0  # solid rock or never seen (cmap S_stone)
    TERRAIN = 1  # any other map feature: floor, wall, door, stairs, trap …
    MONSTER = 2
    PET = 3
    INVISIBLE = 4  # the 'I' marker for an unseen monster
    DETECTED = 5  # a monster seen by telepathy/detection
    RIDDEN = 6
    CORPSE = 7
    OBJECT = 8
    STATUE = 9
    EFFECT = 10  # explosions, zaps, a swallowing monster's insides
    WARNING = 11  # the digits shown by the Warning intrinsic


# Indices of NetHack 3.6's defsyms (cmap) table.
S_STONE = 0
S_VWALL, S_TRWALL = 1, 11
S_NDOOR, S_VODOOR, S_HODOOR, S_VCDOOR, S_HCDOOR = 12, 13, 14, 15, 16
S_BARS, S_TREE, S_ROOM, S_DARKROOM, S_CORR, S_LITCORR = 17, 18, 19, 20, 21, 22
S_UPSTAIR, S_DNSTAIR, S_UPLADDER, S_DNLADDER = 23, 24, 25, 26
S_ALTAR, S_GRAVE, S_THRONE, S_SINK, S_FOUNTAIN, S_POOL, S_ICE, S_LAVA = 27, 28, 29, 30, 31, 32, 33, 34
S_VODBRIDGE, S_HODBRIDGE, S_VCDBRIDGE, S_HCDBRIDGE, S_AIR, S_CLOUD, S_WATER = 35, 36, 37, 38, 39, 40, 41
S_ARROW_TRAP, S_POLY_TRAP, S_VIBRATING_SQUARE = 42, 63, 64
MAX_CMAP_TERRAIN = 65  # beyond this the cmap holds beams and effects

BOULDER_OBJ = next(i for i in range(nh.NUM_OBJECTS) if nh.objdescr.from_idx(i).oc_name == "boulder")

_FEATURES = {
    S_NDOOR: "doorway",
    S_VODOOR: "open door",
    S_HODOOR: "open door",
    S_VCDOOR: "closed door",
    S_HCDOOR: "closed door",
    S_BARS: "iron bars",
    S_TREE: "tree",
    S_UPSTAIR: "stairs up",
    S_DNSTAIR: "stairs down",
    S_UPLADDER: "ladder up",
    S_DNLADDER: "ladder down",
    S_ALTAR: "altar",
    S_GRAVE: "grave",
    S_THRONE: "throne",
    S_SINK: "sink",
    S_FOUNTAIN: "fountain",
    S_POOL: "water",
    S_ICE: "ice",
    S_LAVA: "lava",
    S_VODBRIDGE: "drawbridge",
    S_HODBRIDGE: "drawbridge",
    S_VCDBRIDGE: "raised drawbridge",
    S_HCDBRIDGE: "raised drawbridge",
    S_AIR: "air",
    S_CLOUD: "cloud",
    S_WATER: "water",
    S_VIBRATING_SQUARE: "vibrating square",
}
_WALKABLE_CMAP = (
    {S_NDOOR, S_VODOOR, S_HODOOR, S_ROOM, S_DARKROOM, S_CORR, S_LITCORR}
    | set(range(S_UPSTAIR, S_FOUNTAIN + 1))
    | {S_ICE, S_VODBRIDGE, S_HODBRIDGE, S_AIR, S_CLOUD, S_VIBRATING_SQUARE}
    | set(range(S_ARROW_TRAP, S_POLY_TRAP + 1))
)
_WATER_OR_LAVA = {S_POOL, S_LAVA, S_WATER}

# NetHack 3.6 object classes (objclass.h: RANDOM_CLASS = 0, ILLOBJ_CLASS = 1, WEAPON_CLASS = 2, …).
OBJECT_CLASS_NAMES = {
    0: "random",
    1: "illegal",
    2: "weapon",
    3: "armor",
    4: "ring",
    5: "amulet",
    6: "tool",
    7: "food",
    8: "potion",
    9: "scroll",
    10: "spellbook",
    11: "wand",
    12: "coin",
    13: "gem",
    14: "rock",
    15: "ball",
    16: "chain",
    17: "venom",
}
CLASS_NAME_TO_ID = {v: k for k, v in OBJECT_CLASS_NAMES.items()}


def _build():
    n = nh.MAX_GLYPH
    kind = np.zeros(n, dtype=np.int8)
    walkable = np.zeros(n, dtype=bool)
    passable = np.zeros(n, dtype=bool)  # walkable once a door is opened / monster moves
    no_diagonal = np.zeros(n, dtype=bool)
    trap = np.zeros(n, dtype=bool)
    water_lava = np.zeros(n, dtype=bool)
    cmap = np.full(n, -1, dtype=np.int16)
    mon = np.full(n, -1, dtype=np.int16)
    obj = np.full(n, -1, dtype=np.int16)
    descriptions: list[str] = [""] * n
    for g in range(n):
        if nh.glyph_is_cmap(g):
            c = nh.glyph_to_cmap(g)
            cmap[g] = c
            sd = nh.symdef.from_idx(c)
            descriptions[g] = "stone" if c == S_STONE else sd.explanation
            if c == S_STONE:
                kind[g] = GlyphKind.UNEXPLORED
            elif c < MAX_CMAP_TERRAIN:
                kind[g] = GlyphKind.TERRAIN
            else:
                kind[g] = GlyphKind.EFFECT
            walkable[g] = c in _WALKABLE_CMAP
            passable[g] = walkable[g] or c in (S_VCDOOR, S_HCDOOR)
            # Conservative: never plan a diagonal step through any door square
            # (NetHack forbids it for real doors; a broken door looks the same).
            no_diagonal[g] = S_NDOOR <= c <= S_HCDOOR
            trap[g] = S_ARROW_TRAP <= c <= S_POLY_TRAP
            water_lava[g] = c in _WATER_OR_LAVA
        elif nh.glyph_is_pet(g):
            kind[g] = GlyphKind.PET
            mon[g] = nh.glyph_to_mon(g)
        elif nh.glyph_is_invisible(g):
            kind[g] = GlyphKind.INVISIBLE
            descriptions[g] = "remembered, unseen, creature"
        elif nh.glyph_is_detected_monster(g):
            kind[g] = GlyphKind.DETECTED
            mon[g] = nh.glyph_to_mon(g)
        elif nh.glyph_is_ridden_monster(g):
            kind[g] = GlyphKind.RIDDEN
            mon[g] = nh.glyph_to_mon(g)
        elif nh.glyph_is_normal_monster(g):
            kind[g] = GlyphKind.MONSTER
            mon[g] = nh.glyph_to_mon(g)
        elif nh.glyph_is_body(g):
            kind[g] = GlyphKind.CORPSE
            mon[g] = g - nh.GLYPH_BODY_OFF
            walkable[g] = passable[g] = True
        elif nh.glyph_is_statue(g):
            kind[g] = GlyphKind.STATUE
            mon[g] = g - nh.GLYPH_STATUE_OFF
        elif nh.glyph_is_normal_object(g):
            kind[g] = GlyphKind.OBJECT
            o = nh.glyph_to_obj(g)
            obj[g] = o
            walkable[g] = passable[g] = o != BOULDER_OBJ
        elif nh.glyph_is_warning(g):
            kind[g] = GlyphKind.WARNING
        else:
            kind[g] = GlyphKind.EFFECT
        if mon[g] >= 0 and not descriptions[g]:
            descriptions[g] = nh.permonst(int(mon[g])).mname
        if obj[g] >= 0:
            descriptions[g] = nh.objdescr.from_idx(int(obj[g])).oc_name or ""
    # Monsters stand on something walkable (we just cannot see what).
    for k in (GlyphKind.MONSTER, GlyphKind.PET, GlyphKind.DETECTED, GlyphKind.RIDDEN, GlyphKind.INVISIBLE):
        passable[kind == k] = True
    return kind, walkable, passable, no_diagonal, trap, water_lava, cmap, mon, obj, descriptions


(
    KIND,
    WALKABLE,
    PASSABLE,
    NO_DIAGONAL,
    IS_TRAP,
    IS_WATER_OR_LAVA,
    CMAP_INDEX,
    MONSTER_INDEX,
    OBJECT_INDEX,
    _DESCRIPTIONS,
) = _build()

IS_MONSTER_LIKE = np.isin(
    KIND, [GlyphKind.MONSTER, GlyphKind.PET, GlyphKind.DETECTED, GlyphKind.RIDDEN, GlyphKind.INVISIBLE]
)
IS_ITEM = np.isin(KIND, [GlyphKind.OBJECT, GlyphKind.CORPSE, GlyphKind.STATUE])
UNEXPLORED_GLYPH = nh.GLYPH_CMAP_OFF + S_STONE
BOULDER_GLYPH = nh.GLYPH_OBJ_OFF + BOULDER_OBJ


def description(glyph: int) -> str:
    """A short English name for what a glyph shows."""
    return _DESCRIPTIONS[glyph]


def feature(glyph: int) -> Optional[str]:
    """Map feature name for terrain glyphs ("altar", "stairs down", …), else None."""
    c = int(CMAP_INDEX[glyph])
    if c < 0:
        return None
    if S_ARROW_TRAP <= c <= S_POLY_TRAP:
        return "trap"
    return _FEATURES.get(c)


def trap_type(glyph: int) -> Optional[str]:
    """Trap name ("bear trap", "pit", …) for trap glyphs, else None."""
    return _DESCRIPTIONS[glyph] if IS_TRAP[glyph] else None


def monster_name(glyph: int) -> Optional[str]:
    m = int(MONSTER_INDEX[glyph])
    return nh.permonst(m).mname if m >= 0 else None


def object_class_name(glyph: int) -> Optional[str]:
    o = int(OBJECT_INDEX[glyph])
    if o >= 0:
        return OBJECT_CLASS_NAMES.get(object_class_id(o), "unknown")
    if KIND[glyph] == GlyphKind.CORPSE:
        return "food"
    if KIND[glyph] == GlyphKind.STATUE:
        return "rock"
    return None


def object_class_id(object_index: int) -> int:
    """NetHack's object class number (1 weapon, 2 armor, …) of an object index."""
    c = nh.objclass(object_index).oc_class
    return ord(c) if isinstance(c, str) else int(c)


def is_stairs_up(glyph: int) -> bool:
    return int(CMAP_INDEX[glyph]) in (S_UPSTAIR, S_UPLADDER)


def is_stairs_down(glyph: int) -> bool:
    return int(CMAP_INDEX[glyph]) in (S_DNSTAIR, S_DNLADDER)

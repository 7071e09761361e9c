"""Decoding NLE observations into the API's dataclasses.

Pure functions of one observation (a dict of NLE arrays); the API caches their
results until the next key is sent.
"""

from __future__ import annotations

import re
from typing import Optional

import numpy as np
from nle import nethack as nh

from . import glyphs as G
from .models import Alignment, HungerState, Item, Monster, Position, Stats

HUNGER_STATES = [
    HungerState.SATIATED,
    HungerState.NOT_HUNGRY,
    HungerState.HUNGRY,
    HungerState.WEAK,
    HungerState.FAINTING,
    HungerState.FAINTED,
    HungerState.STARVED,
]
# A vault's guard arriving (seen, or unseen in a dark vault): he attacks within about six
# turns a hero who keeps its gold or does not follow him, so long commands stop here.
VAULT_GUARD_CAME = re.compile(r"one of the Vault's guards enters|Someone else has entered the Vault")
ENCUMBRANCE = ["Unencumbered", "Burdened", "Stressed", "Strained", "Overtaxed", "Overloaded"]
# dungeon.def order in NetHack 3.6; blstats carries the number (u.uz.dnum).
BRANCHES = [
    "Dungeons of Doom",
    "Gehennom",
    "Gnomish Mines",
    "The Quest",
    "Sokoban",
    "Fort Ludios",
    "Vlad's Tower",
    "Elemental Planes",
]
CONDITIONS = [
    (nh.BL_MASK_STONE, "Stoned"),
    (nh.BL_MASK_SLIME, "Slimed"),
    (nh.BL_MASK_STRNGL, "Strangled"),
    (nh.BL_MASK_FOODPOIS, "Food poisoned"),
    (nh.BL_MASK_TERMILL, "Ill"),
    (nh.BL_MASK_BLIND, "Blind"),
    (nh.BL_MASK_DEAF, "Deaf"),
    (nh.BL_MASK_STUN, "Stunned"),
    (nh.BL_MASK_CONF, "Confused"),
    (nh.BL_MASK_HALLU, "Hallucinating"),
    (nh.BL_MASK_LEV, "Levitating"),
    (nh.BL_MASK_FLY, "Flying"),
    (nh.BL_MASK_RIDE, "Riding"),
]


def branch_name(dnum: int) -> str:
    return BRANCHES[dnum] if 0 <= dnum < len(BRANCHES) else f"dungeon #{dnum}"


def _strength_display(s125: int) -> str:
    if s125 <= 18:
        return str(s125)
    if s125 <= 117:
        return f"18/{s125 - 18:02d}"
    if s125 == 118:
        return "18/**"
    return str(s125 - 100)


def decode_stats(blstats: np.ndarray) -> Stats:
    """Stats from NLE's ``blstats`` (27 numbers)."""
    bl = blstats.tolist()  # plain ints: much cheaper to index than numpy scalars
    hunger = bl[nh.NLE_BL_HUNGER]
    cap = bl[nh.NLE_BL_CAP]
    align = bl[nh.NLE_BL_ALIGN]
    return Stats(
        hp=bl[nh.NLE_BL_HP],
        max_hp=bl[nh.NLE_BL_HPMAX],
        pw=bl[nh.NLE_BL_ENE],
        max_pw=bl[nh.NLE_BL_ENEMAX],
        ac=bl[nh.NLE_BL_AC],
        xp_level=bl[nh.NLE_BL_XP],
        xp_points=bl[nh.NLE_BL_EXP],
        gold=bl[nh.NLE_BL_GOLD],
        strength=bl[nh.NLE_BL_STR25],
        dexterity=bl[nh.NLE_BL_DEX],
        constitution=bl[nh.NLE_BL_CON],
        intelligence=bl[nh.NLE_BL_INT],
        wisdom=bl[nh.NLE_BL_WIS],
        charisma=bl[nh.NLE_BL_CHA],
        hunger=HUNGER_STATES[hunger] if 0 <= hunger < len(HUNGER_STATES) else HungerState.NOT_HUNGRY,
        encumbrance=ENCUMBRANCE[cap] if 0 <= cap < len(ENCUMBRANCE) else "Unencumbered",
        alignment=Alignment.LAWFUL if align > 0 else Alignment.CHAOTIC if align < 0 else Alignment.NEUTRAL,
        dungeon_level=bl[nh.NLE_BL_DEPTH],
        turn=bl[nh.NLE_BL_TIME],
        score=bl[nh.NLE_BL_SCORE],
        branch=branch_name(bl[nh.NLE_BL_DNUM]),
        level_in_branch=bl[nh.NLE_BL_DLEVEL],
        strength_display=_strength_display(bl[nh.NLE_BL_STR125]),
        position=Position(bl[nh.NLE_BL_X], bl[nh.NLE_BL_Y]),
    )


def status_effects(bl: np.ndarray) -> list[str]:
    """Conditions from the status line's condition mask, hunger and burden."""
    mask = int(bl[nh.NLE_BL_CONDITION])
    out = [name for bit, name in CONDITIONS if mask & bit]
    hunger = int(bl[nh.NLE_BL_HUNGER])
    if hunger != 1 and 0 <= hunger < len(HUNGER_STATES):
        out.append(HUNGER_STATES[hunger].value)
    cap = int(bl[nh.NLE_BL_CAP])
    if 0 < cap < len(ENCUMBRANCE):
        out.append(ENCUMBRANCE[cap])
    return out


def screen_description(obs: dict, pos: Position) -> str:
    sd = obs.get("screen_descriptions")
    if sd is None:
        return ""
    return sd[pos.y, pos.x].tobytes().rstrip(b"\0").decode("latin-1")


# How NetHack names an unidentified object of a class by its appearance ("ruby potion").
_APPEARANCE = {"potion": "{} potion", "wand": "{} wand", "ring": "{} ring", "amulet": "{} amulet",
               "spellbook": "{} spellbook", "scroll": "scroll labeled {}", "gem": "{} gem"}


def seen_object_name(glyph: int) -> str:
    """What an object glyph looks like to a hero who has not identified it: a corpse
    ("newt corpse"), a statue, an object by its appearance where it has one ("runed
    dagger", "ruby potion", "bag") or by its name ("large box"). The glyph itself
    encodes the true type, which the hero may not know, so the true name is given only
    for objects that look like what they are."""
    kind = G.KIND[glyph]
    if kind == G.GlyphKind.CORPSE:
        return f"{G.monster_name(glyph)} corpse"
    if kind == G.GlyphKind.STATUE:
        return f"statue of a {G.monster_name(glyph)}"
    oidx = int(G.OBJECT_INDEX[glyph])
    if oidx < 0:
        return G.description(glyph)
    d = nh.objdescr.from_idx(oidx)
    name, looks = d.oc_name or "object", d.oc_descr
    cls = G.object_class_name(glyph) or ""
    if looks:
        if cls == "gem" and looks == "gray":
            return "gray stone"
        if looks.lower().startswith(cls.lower()) or cls not in _APPEARANCE:
            return looks
        return _APPEARANCE[cls].format(looks)
    if cls in ("potion", "wand", "ring", "spellbook", "scroll") and cls not in name:
        return f"{cls} of {name}"
    return name


def object_seen_at(obs: dict, pos: Position, remembered: int) -> str:
    """The name of the object remembered at ``pos`` (glyph ``remembered``): NetHack's
    own words while the map still shows it there ("large box", "2 daggers": without
    "a"/"an", as ``seen_object_name`` names it); when something stands on it now (the
    hero, a monster), what it looked like (``seen_object_name``), never the creature
    on top."""
    if int(obs["glyphs"][pos.y, pos.x]) == remembered:
        seen = _ARTICLE.sub("", screen_description(obs, pos))
        if seen:
            return seen
    return seen_object_name(remembered)


_ARTICLE = re.compile(r"^an? (?=\S)")


def visible_monsters(obs: dict, hero: Position) -> list[Monster]:
    """Monsters shown on the map now (not the hero), and the 'I' markers next to the hero.

    An 'I' is where NetHack remembers an unseen monster (the hero is blind, or it is
    invisible). Only the adjacent ones are reported ("unseen monster",
    ``is_invisible_marker``): something there is probably hitting the hero, and
    attacking the square either hits it or clears the marker.
    """
    glyphs = obs["glyphs"]
    kinds = G.KIND[glyphs]
    mask = np.isin(kinds, (G.GlyphKind.MONSTER, G.GlyphKind.PET, G.GlyphKind.DETECTED, G.GlyphKind.RIDDEN))
    mask[hero.y, hero.x] = False
    out = []
    for y, x in zip(*np.nonzero(mask)):
        g = int(glyphs[y, x])
        pos = Position(int(x), int(y))
        desc = screen_description(obs, pos)
        midx = int(G.MONSTER_INDEX[g])
        pm = nh.permonst(midx)
        out.append(
            Monster(
                glyph=g,
                char=chr(int(obs["chars"][y, x])),
                name=pm.mname,
                position=pos,
                color=int(obs["colors"][y, x]),
                is_peaceful=desc.startswith("peaceful "),
                is_tame=G.KIND[g] == G.GlyphKind.PET or desc.startswith("tame "),
                threat_level=int(pm.difficulty),
            )
        )
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            x, y = hero.x + dx, hero.y + dy
            if (dx or dy) and 0 <= y < glyphs.shape[0] and 0 <= x < glyphs.shape[1] and \
                    kinds[y, x] == G.GlyphKind.INVISIBLE:
                out.append(Monster(glyph=int(glyphs[y, x]), char="I", name="unseen monster",
                                   position=Position(x, y), color=0, is_peaceful=False, is_tame=False,
                                   threat_level=0, is_invisible_marker=True))
    out.sort(key=lambda m: (m.position.steps_to(hero), m.position.y, m.position.x))
    return out


# ------------------------------------------------------------------ items
_QTY = re.compile(r"^(\d+|an?|the)\s+", re.I)
_BUC = re.compile(r"\b(blessed|uncursed|cursed)\b")
_ENCHANT = re.compile(r"(^|\s)[+-]\d+\s")
_EQUIP_PATTERNS = [
    (re.compile(r"\((weapon|wielded) in (hand|hands|claw|claws)\)|\(wielded\)"), "weapon"),
    (re.compile(r"\(alternate weapon; not wielded\)"), "alternate weapon"),
    (re.compile(r"\(wielded in other hand\)"), "off hand"),
    (re.compile(r"\(in quiver( pouch)?\)|\(at the ready\)"), "quiver"),
    (re.compile(r"\(on left (hand|claw|paw|pectoral fin|tentacle)\)"), "left ring"),
    (re.compile(r"\(on right (hand|claw|paw|pectoral fin|tentacle)\)"), "right ring"),
    (re.compile(r"\(being worn\)|\(embedded in your skin\)"), "worn"),
    (re.compile(r"\(in use\)|\(lit\)"), "in use"),
]
_ARMOR_SLOT_BY_SUBTYPE = {0: "body armor", 1: "shield", 2: "helmet", 3: "gloves", 4: "boots", 5: "cloak", 6: "shirt"}


def _armor_slot(object_index: int) -> str:
    try:
        from .knowledge import armor_slot_of

        slot = armor_slot_of(object_index)
        if slot:
            return slot
    except Exception:  # knowledge tables unavailable: fall back to a generic slot
        pass
    return "body armor"


def parse_item_text(text: str) -> tuple[int, str, str]:
    """(quantity, blessed/cursed/uncursed/unknown, name without article or count)."""
    qty = 1
    m = _QTY.match(text)
    rest = text
    if m:
        word = m.group(1).lower()
        qty = int(word) if word.isdigit() else 1
        rest = text[m.end():]
    b = _BUC.search(rest)
    buc = b.group(1) if b else "unknown"
    return qty, buc, rest


def make_item(
    glyph: int, text: str, slot: Optional[str], position: Optional[Position], object_class: Optional[str] = None
) -> Item:
    qty, buc, rest = parse_item_text(text)
    oidx = int(G.OBJECT_INDEX[glyph]) if 0 <= glyph < len(G.OBJECT_INDEX) else -1
    cls = object_class or G.object_class_name(glyph) or "unknown"
    equipped = None
    for pat, name in _EQUIP_PATTERNS:
        if pat.search(rest):
            equipped = name
            break
    if equipped == "worn":
        if cls == "armor" and oidx >= 0:
            equipped = _armor_slot(oidx)
        elif cls == "amulet":
            equipped = "amulet"
        elif cls == "tool":
            equipped = "eyewear"
    corpse_of = None
    if G.KIND[glyph] == G.GlyphKind.CORPSE if 0 <= glyph < len(G.KIND) else False:
        corpse_of = G.monster_name(glyph)
    identified = False
    if oidx >= 0:
        real = nh.objdescr.from_idx(oidx).oc_name or ""
        identified = bool(real) and real in rest
        if cls in ("weapon", "armor") and not _ENCHANT.search(" " + rest + " "):
            identified = False
    name = re.sub(r"\s*\([^)]*\)\s*$", "", rest).strip()  # drop "(being worn)" etc.
    name = re.sub(r"\s*\([^)]*\)\s*$", "", name).strip()
    return Item(
        glyph=int(glyph),
        name=name,
        position=position,
        slot=slot,
        quantity=qty,
        blessed_cursed_unknown=buc,
        identified=identified,
        object_class=cls,
        text=text,
        equipped=equipped,
        corpse_of=corpse_of,
    )


def inventory(obs: dict) -> list[Item]:
    letters = obs["inv_letters"]
    out = []
    for i in range(len(letters)):
        code = int(letters[i])
        if code == 0:
            break
        text = obs["inv_strs"][i].tobytes().rstrip(b"\0").decode("latin-1")
        cls_id = int(obs["inv_oclasses"][i])
        cls = G.OBJECT_CLASS_NAMES.get(cls_id, "unknown")
        out.append(make_item(int(obs["inv_glyphs"][i]), text, chr(code), None, cls))
    return out


def item_on_map(obs: dict, pos: Position) -> Optional[Item]:
    """The top object NetHack shows at ``pos`` (the map shows one per square)."""
    g = int(obs["glyphs"][pos.y, pos.x])
    if not G.IS_ITEM[g]:
        return None
    desc = screen_description(obs, pos) or G.description(g)
    return make_item(g, desc, None, pos)

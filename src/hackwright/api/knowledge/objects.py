"""Object types from NetHack's ``objects[]`` table, by real name or by appearance.

``lookup_item(name)`` -> ``ItemInfo`` for "long sword", "potion of healing",
"healing" or an unidentified appearance ("balsa wand", with
``extra["possible_identities"]``); ``object_info(index)``, ``full_name``,
``appearance``, ``armor_slot_of`` and ``shuffle_group`` (o_init.c's
appearance shuffling) work by object index.
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from .. import nethack_tables as tables
from ..glyphs import OBJECT_CLASS_NAMES
from ..models import ItemInfo
from .names import UnknownNameError, _suggest

# Skills (skills.h P_*), used as oc_subtyp of weapons, weapon-tools, gems, spellbooks.
SKILL_NAMES = {
    1: "dagger",
    2: "knife",
    3: "axe",
    4: "pick-axe",
    5: "short sword",
    6: "broadsword",
    7: "long sword",
    8: "two-handed sword",
    9: "scimitar",
    10: "saber",
    11: "club",
    12: "mace",
    13: "morning star",
    14: "flail",
    15: "hammer",
    16: "quarterstaff",
    17: "polearms",
    18: "spear",
    19: "trident",
    20: "lance",
    21: "bow",
    22: "sling",
    23: "crossbow",
    24: "dart",
    25: "shuriken",
    26: "boomerang",
    27: "whip",
    28: "unicorn horn",
    29: "attack spells",
    30: "healing spells",
    31: "divination spells",
    32: "enchantment spells",
    33: "clerical spells",
    34: "escape spells",
    35: "matter spells",
}
_LAUNCHER_SKILLS = {21, 22, 23}  # negative subtyp with these = ammunition
ARMOR_SLOTS = {0: "body armor", 1: "shield", 2: "helmet", 3: "gloves", 4: "boots", 5: "cloak", 6: "shirt"}
WAND_DIRECTIONS = {1: "non-directional", 2: "directional (beam)", 3: "ray"}
MINERAL = 21  # oc_material of gray stones and rocks: shown as "... stone"

# Classes whose objects are called "<class> of <name>" once identified.
_PREFIXED_CLASSES = {8: "potion", 9: "scroll", 11: "wand", 4: "ring", 10: "spellbook"}
# When a bare name ("healing", "light") fits several classes, prefer in this order.
_BARE_NAME_PREFERENCE = (2, 3, 6, 7, 13, 14, 12, 15, 16, 5, 8, 9, 11, 4, 10, 17, 1, 0)
WEAPON_CLASS, ARMOR_CLASS, RING_CLASS, AMULET_CLASS, TOOL_CLASS, FOOD_CLASS = 2, 3, 4, 5, 6, 7
POTION_CLASS, SCROLL_CLASS, SPBOOK_CLASS, WAND_CLASS, GEM_CLASS, ROCK_CLASS, VENOM_CLASS = 8, 9, 10, 11, 13, 14, 17


def full_name(index: int) -> str:
    """The identified name as NetHack prints it: "potion of healing", "long sword"."""
    o = tables.objects()[index]
    name = o.name or ""
    prefix = _PREFIXED_CLASSES.get(o.oc_class)
    if not prefix or (o.oc_class == SPBOOK_CLASS and (o.oc_unique or name == "novel")):
        return name
    return f"{prefix} of {name}"


def appearance(index: int) -> Optional[str]:
    """How the unidentified object is shown with its default appearance ("balsa wand")."""
    o = tables.objects()[index]
    d = o.description
    if not d:
        return None
    c = o.oc_class
    if c in (POTION_CLASS, RING_CLASS, WAND_CLASS, SPBOOK_CLASS) or (c == AMULET_CLASS and d != "Amulet of Yendor"):
        return f"{d} {OBJECT_CLASS_NAMES[c] if c != SPBOOK_CLASS else 'spellbook'}"
    if c == SCROLL_CLASS:
        return f"scroll labeled {d}" if o.oc_magic else f"{d} scroll"
    if c == GEM_CLASS:
        return f"{d} stone" if o.oc_material == MINERAL else f"{d} gem"
    return d


@functools.lru_cache(maxsize=1)
def _object_ids() -> dict[str, int]:
    return {o.name: o.index for o in tables.objects() if o.name}


def _obj(name: str) -> int:
    return _object_ids()[name]


def shuffle_group(index: int) -> tuple[int, ...]:
    """Objects whose appearances NetHack shuffles together with ``index`` at game start.

    Mirrors o_init.c: whole classes for amulets, potions (not water), rings,
    scrolls and spellbooks (only the magical, non-unique ones), wands, venom;
    four armour ranges (helmets, gloves, cloaks, boots). Objects outside any
    range keep their appearance and form a group of one.
    """
    objs = tables.objects()
    o = objs[index]
    c = o.oc_class
    lo = hi = index
    if c == ARMOR_CLASS:
        for first, last in (
            ("helmet", "helm of telepathy"),
            ("leather gloves", "gauntlets of dexterity"),
            ("cloak of protection", "cloak of displacement"),
            ("speed boots", "levitation boots"),
        ):
            if _obj(first) <= index <= _obj(last):
                lo, hi = _obj(first), _obj(last)
    elif c in (POTION_CLASS, AMULET_CLASS, SCROLL_CLASS, SPBOOK_CLASS, RING_CLASS, WAND_CLASS, VENOM_CLASS):
        members = [x for x in objs if x.oc_class == c]
        lo, hi = members[0].index, members[-1].index
        if c == POTION_CLASS:
            hi = _obj("water") - 1  # water's "clear" is the one fixed potion appearance
        elif c in (AMULET_CLASS, SCROLL_CLASS, SPBOOK_CLASS):
            stop = next((x.index for x in members if x.oc_unique or not x.oc_magic), hi + 1)
            hi = stop - 1
    if not lo <= index <= hi:
        return (index,)
    return tuple(i for i in range(lo, hi + 1) if not objs[i].oc_name_known)


def _material_shuffles(index: int) -> bool:
    """Whole-class shuffles move the material with the appearance (o_init.c)."""
    c = tables.objects()[index].oc_class
    return len(shuffle_group(index)) > 1 and c != ARMOR_CLASS


@functools.lru_cache(maxsize=1)
def _gem_color_extras() -> dict[str, list[int]]:
    """Gems that init_objects may recolour: turquoise and aquamarine to blue,
    fluorite to blue, white or green. Keyed by the appearance they borrow."""
    objs = tables.objects()
    blue = objs[_obj("sapphire")].description
    white = objs[_obj("diamond")].description
    green = objs[_obj("emerald")].description
    turq, aqua, fluor = _obj("turquoise"), _obj("aquamarine"), _obj("fluorite")
    return {f"{blue} gem": [turq, aqua, fluor], f"{white} gem": [fluor], f"{green} gem": [fluor]}


def possible_identities(appearance_text: str) -> list[int]:
    """Object indices that an unidentified appearance ("balsa wand") could be."""
    key = appearance_text.lower()
    found: list[int] = []
    for o in tables.objects():
        shown = appearance(o.index)
        if shown and shown.lower() == key:
            found.extend(shuffle_group(o.index))
    found.extend(_gem_color_extras().get(key, []))
    objs = tables.objects()
    return sorted({i for i in found if objs[i].name})


def _material_name(index: int) -> str:
    names = tables.material_names()
    m = tables.objects()[index].oc_material
    return names[m] if 0 <= m < len(names) else f"material {m}"


def _skill_name(subtyp: int) -> Optional[str]:
    return SKILL_NAMES.get(abs(subtyp)) if subtyp else None


def armor_slot_of(object_index: int) -> Optional[str]:
    """Where a piece of armour is worn ("body armor", "shield", "helmet", "gloves",
    "boots", "cloak", "shirt"); None for anything that is not armour."""
    o = tables.objects()[object_index]
    return ARMOR_SLOTS.get(o.oc_subtyp) if o.oc_class == ARMOR_CLASS else None


def object_info(object_index: int) -> ItemInfo:
    """``ItemInfo`` for the identified object type with NetHack index ``object_index``.

    For objects whose appearance is random each game (potions, scrolls, wands,
    rings, amulets, spellbooks, magic helmets/gloves/cloaks/boots) the
    ``description`` is None and ``extra["possible_appearances"]`` lists them;
    for wands and rings the material goes with the appearance, so ``material``
    is "varies" when the candidates differ.
    """
    objs = tables.objects()
    o = objs[object_index]
    cls = o.oc_class
    group = shuffle_group(object_index)
    shuffled = len(group) > 1
    extra: dict = {"index": object_index}
    if o.oc_prob:  # 0 for classes whose odds NetHack spreads evenly at start-up
        extra["probability"] = o.oc_prob
    material = _material_name(object_index)
    if shuffled:
        extra["possible_appearances"] = sorted({a for i in group if (a := appearance(i))})
        if _material_shuffles(object_index):
            mats = sorted({_material_name(i) for i in group})
            if len(mats) > 1:
                material = "varies"
                extra["possible_materials"] = mats
    shown = None if shuffled else appearance(object_index)
    if shown:
        twins = [full_name(i) for i in possible_identities(shown) if i != object_index]
        if twins:
            extra["shares_appearance_with"] = twins
    info = ItemInfo(
        name=full_name(object_index),
        object_class=OBJECT_CLASS_NAMES.get(cls, f"class {cls}"),
        weight=o.oc_weight,
        base_price=o.oc_cost,
        material=material,
        description=shown,
        magical=bool(o.oc_magic),
        extra=extra,
    )
    is_weptool = cls == TOOL_CLASS and o.oc_subtyp != 0
    if cls in (WEAPON_CLASS, GEM_CLASS, ROCK_CLASS) or is_weptool:
        if o.oc_wsdam or o.oc_wldam:
            info.damage_small = f"d{o.oc_wsdam}"
            info.damage_large = f"d{o.oc_wldam}"
        info.skill = _skill_name(o.oc_subtyp)
        if cls in (WEAPON_CLASS, TOOL_CLASS):
            extra["hit_bonus"] = o.oc_oc1
            extra["two_handed"] = bool(o.oc_big)
            # oc_dir holds the damage kinds for weapons: 1 pierce, 2 slash, 0 blunt.
            kinds = [k for bit, k in ((1, "piercing"), (2, "slashing")) if o.oc_dir & bit]
            extra["damage_kind"] = kinds or ["blunt"]
        if o.oc_subtyp < 0:
            extra["ammo_or_missile"] = "ammunition" if -o.oc_subtyp in _LAUNCHER_SKILLS else "missile"
    if cls == ARMOR_CLASS:
        info.armor_class = o.oc_oc1
        info.armor_slot = ARMOR_SLOTS.get(o.oc_subtyp)
        extra["magic_cancellation"] = o.oc_oc2
        extra["turns_to_put_on"] = o.oc_delay
    if cls == FOOD_CLASS:
        info.nutrition = o.oc_nutrition
        extra["turns_to_eat"] = o.oc_delay
    if cls == SPBOOK_CLASS and o.name not in ("blank paper", "novel") and not o.oc_unique:
        info.skill = _skill_name(o.oc_subtyp)
        extra["spell_level"] = o.oc_oc2
        extra["direction"] = WAND_DIRECTIONS.get(o.oc_dir, "unknown")
    if cls == WAND_CLASS:
        # (wand of nothing's direction is re-rolled each game)
        extra["direction"] = WAND_DIRECTIONS.get(o.oc_dir, "unknown")
    if o.oc_unique:
        extra["unique"] = True
    return info


@functools.lru_cache(maxsize=1)
def _item_tables() -> tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]]:
    """(full names, bare names, appearances) -> object indices, all lower-case."""
    full: dict[str, list[int]] = {}
    bare: dict[str, list[int]] = {}
    looks: dict[str, list[int]] = {}
    for o in tables.objects():
        if o.name:
            full.setdefault(full_name(o.index).lower(), []).append(o.index)
            bare.setdefault(o.name.lower(), []).append(o.index)
        shown = appearance(o.index)
        if shown:
            looks.setdefault(shown.lower(), []).append(o.index)
            if o.description and o.description.lower() != shown.lower():
                looks.setdefault(o.description.lower(), []).append(o.index)  # "balsa" alone
    return full, bare, looks


_NOISE = re.compile(
    r"^(an? |the |\d+ |blessed |uncursed |cursed |[+-]\d+ |partly eaten |very |thoroughly |rusty |rusted "
    r"|corroded |burnt |rotted |greased |fireproof |rustproof |corrodeproof |poisoned |diluted |lit )+"
)


def _clean_item_query(name: str) -> str:
    s = " ".join(str(name).strip().lower().split())
    s = re.sub(r"\s*\(.*?\)", "", s)  # "(weapon in hand)", "(0:4)"
    s = re.sub(r" (named|called) .*$", "", s)
    s = _NOISE.sub("", s)
    return s.strip()


def _singular_forms(s: str) -> list[str]:
    out = []
    head, sep, tail = s.partition(" of ")
    for h in (head[:-2] if head.endswith("es") else None, head[:-1] if head.endswith("s") else None):
        if h:
            out.append(h + sep + tail)
    return out


def _pick_bare(indices: list[int]) -> tuple[int, list[int]]:
    objs = tables.objects()
    ranked = sorted(indices, key=lambda i: _BARE_NAME_PREFERENCE.index(objs[i].oc_class))
    return ranked[0], ranked[1:]


def _appearance_info(shown: str, indices: list[int]) -> ItemInfo:
    objs = tables.objects()
    cands = possible_identities(shown)
    cls = objs[indices[0]].oc_class
    extra: dict = {"possible_identities": [full_name(i) for i in cands]}
    if len(cands) == 1:
        info = object_info(cands[0])
        info.description = shown
        info.extra.update(extra)
        return info
    weights = sorted({objs[i].oc_weight for i in cands})
    prices = sorted({objs[i].oc_cost for i in cands})
    base = objs[indices[0]]
    if _material_shuffles(indices[0]):
        material = _material_name(indices[0])  # the material travels with the appearance
    else:
        mats = sorted({_material_name(i) for i in cands}) or [_material_name(indices[0])]
        material = mats[0] if len(mats) == 1 else "varies"
        if len(mats) > 1:
            extra["possible_materials"] = mats
    extra["possible_prices"] = prices
    if len(weights) > 1:
        extra["possible_weights"] = weights
    info = ItemInfo(
        name=shown,
        object_class=OBJECT_CLASS_NAMES.get(cls, f"class {cls}"),
        weight=weights[0] if len(weights) == 1 else base.oc_weight,
        base_price=prices[0] if len(prices) == 1 else 0,
        material=material,
        description=shown,
        magical=bool(cands) and all(objs[i].oc_magic for i in cands),
        extra=extra,
    )
    slots = {armor_slot_of(i) for i in cands}
    if cls == ARMOR_CLASS and len(slots) == 1:
        info.armor_slot = slots.pop()
    return info


def lookup_item(name: str) -> ItemInfo:
    """Look an object type up by name or by unidentified appearance.

    Real names work with or without the class word: "long sword",
    "potion of healing", "healing" (a bare name shared by several classes
    picks potion, then scroll, wand, ring, spellbook and lists the others in
    ``extra["other_matches"]``). Inventory noise such as "2 uncursed +1
    daggers (in quiver)" is tolerated.

    An appearance ("balsa wand", "scroll labeled FOO", "bag", "white gem")
    returns ``name`` = the appearance and ``extra["possible_identities"]`` =
    what it could be this game (appearances are shuffled at the start of each
    game). When the candidates differ, ``base_price`` is 0 and
    ``extra["possible_prices"]`` lists them (price-identification).

    Weapons carry ``damage_small``/``damage_large`` ("d8") and ``skill``;
    armour ``armor_class`` and ``armor_slot``; food ``nutrition``.
    Raises ``UnknownNameError`` (a ``ValueError``) with the closest names.
    """
    full, bare, looks = _item_tables()
    query = _clean_item_query(name)
    for q in [query, *_singular_forms(query)]:
        if q in full:
            return object_info(full[q][0])
        if q in bare:
            best, others = _pick_bare(bare[q])
            info = object_info(best)
            if others:
                info.extra["other_matches"] = [full_name(i) for i in others]
            return info
        if q in looks:
            idx = looks[q]
            shown = appearance(idx[0]) or q
            return _appearance_info(shown, idx)
    raise UnknownNameError("item", str(name), _suggest(query, [*full, *looks]))

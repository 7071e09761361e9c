"""What NetHack itself knows about monsters, objects, food and prayer.

Everything here is read from NetHack's own tables (see ``nethack_tables``) or
follows the NetHack 3.6 rules in ``eat.c`` and ``pray.c``; nothing is typed in
from a spoiler. Public entry points:

* ``lookup_monster(name)`` -> ``MonsterInfo``: attacks, resistances, flags …
* ``lookup_item(name)`` -> ``ItemInfo``: by real name ("long sword",
  "potion of healing", "healing") or by unidentified appearance ("balsa wand",
  with ``extra["possible_identities"]``).
* ``object_info(index)`` / ``armor_slot_of(index)``: the same by object index.
* ``is_safe_to_eat`` / ``corpse_verdict``: should this hero eat that corpse?
* ``PrayerClock``, ``major_trouble`` and ``prayer_trouble``: when is praying likely to work?

Unknown names raise ``UnknownNameError`` (a ``ValueError``) that lists the
closest real names.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Union

from nle import nethack as nh

from . import nethack_tables as tables
from .glyphs import OBJECT_CLASS_NAMES
from .models import HungerState, ItemInfo, MonsterInfo

# ---------------------------------------------------------------- constants
# Attack types (monattk.h AT_*) and damage types (AD_*) in plain English.
ATTACK_TYPES = {
    0: "passive",  # AT_NONE: only hurts whoever hits it
    1: "claw",
    2: "bite",
    3: "kick",
    4: "butt",
    5: "touch",
    6: "sting",
    7: "hug",
    10: "spit",
    11: "engulf",
    12: "breath",
    13: "explosion",
    14: "explodes when killed",
    15: "gaze",
    16: "tentacles",
    254: "weapon",
    255: "spell",
}
DAMAGE_TYPES = {
    0: "physical",
    1: "magic missile",
    2: "fire",
    3: "cold",
    4: "sleep",
    5: "disintegration",
    6: "shock",
    7: "poison",  # AD_DRST: poison that drains strength
    8: "acid",
    9: "special",
    10: "special",
    11: "blinding",
    12: "stun",
    13: "slow",
    14: "paralysis",
    15: "level drain",
    16: "energy drain",
    17: "leg wounding",
    18: "petrification",
    19: "sticky",
    20: "gold theft",
    21: "item theft",
    22: "seduction",
    23: "teleportation",
    24: "rust",
    25: "confusion",
    26: "digestion",
    27: "healing",
    28: "drowning wrap",
    29: "lycanthropy",
    30: "dexterity poison",
    31: "constitution poison",
    32: "brain eating",
    33: "disease",
    34: "rot",
    35: "seduction",
    36: "hallucination",
    37: "death touch",
    38: "pestilence",
    39: "famine",
    40: "sliming",
    41: "disenchantment",
    42: "corrosion",
    240: "clerical spell",
    241: "mage spell",
    242: "random breath",
    252: "amulet theft",
    253: "curse",
}
AD_STUN, AD_HALU = 12, 36

# MR_* bits of mresists/mconveys, in bit order.
RESISTANCE_BITS = ("fire", "cold", "sleep", "disintegration", "shock", "poison", "acid", "petrification")
SIZES = {0: "tiny", 1: "small", 2: "medium", 3: "large", 4: "huge", 7: "gigantic"}

# monflag.h bits; the words are what ``MonsterInfo.flags`` lists.
_M1_FLAGS = (
    (0x00000001, "flies"),
    (0x00000002, "swims"),
    (0x00000004, "amorphous"),
    (0x00000008, "phases through walls"),
    (0x00000010, "clings to ceiling"),
    (0x00000020, "tunnels"),
    (0x00000040, "needs a pick to tunnel"),
    (0x00000080, "hides under objects"),
    (0x00000100, "hides"),
    (0x00000200, "amphibious"),
    (0x00000400, "breathless"),
    (0x00000800, "cannot pick up objects"),
    (0x00001000, "eyeless"),
    (0x00002000, "no hands"),
    (0x00008000, "headless"),
    (0x00010000, "mindless"),
    (0x00020000, "humanoid"),
    (0x00040000, "animal"),
    (0x00080000, "serpentine"),
    (0x00100000, "unsolid"),
    (0x00200000, "thick hide"),
    (0x00400000, "lays eggs"),
    (0x00800000, "regenerates"),
    (0x01000000, "sees invisible"),
    (0x02000000, "teleports"),
    (0x04000000, "teleport control"),
    (0x08000000, "acidic"),
    (0x10000000, "poisonous"),
    (0x20000000, "carnivore"),
    (0x40000000, "herbivore"),
    (0x80000000, "metallivore"),
)
M1_NOLIMBS = 0x00006000  # two bits: no hands *and* no limbs
M1_ACID, M1_POIS, M1_TPORT, M1_TPORT_CNTRL = 0x08000000, 0x10000000, 0x02000000, 0x04000000
_M2_FLAGS = (
    (0x00000001, "cannot be polymorphed into"),
    (0x00000002, "undead"),
    (0x00000004, "were"),
    (0x00000008, "human"),
    (0x00000010, "elf"),
    (0x00000020, "dwarf"),
    (0x00000040, "gnome"),
    (0x00000080, "orc"),
    (0x00000100, "demon"),
    (0x00000200, "mercenary"),
    (0x00000400, "lord"),
    (0x00000800, "prince"),
    (0x00001000, "minion"),
    (0x00002000, "giant"),
    (0x00004000, "shapeshifter"),
    (0x00010000, "male"),
    (0x00020000, "female"),
    (0x00040000, "neuter"),
    (0x00080000, "proper name"),
    (0x00100000, "always hostile"),
    (0x00200000, "always peaceful"),
    (0x00400000, "domestic"),
    (0x00800000, "wanders"),
    (0x01000000, "follows you"),
    (0x02000000, "nasty"),
    (0x04000000, "strong"),
    (0x08000000, "throws boulders"),
    (0x10000000, "likes gold"),
    (0x20000000, "likes gems"),
    (0x40000000, "collects items"),
    (0x80000000, "likes magic items"),
)
M2_WERE, M2_GIANT = 0x4, 0x2000
# Races a hero can be, as M2_* bits: eating one's own race is cannibalism.
RACE_BITS = {"human": 0x08, "elf": 0x10, "dwarf": 0x20, "gnome": 0x40, "orc": 0x80}
_M3_FLAGS = (
    (0x001F, "covetous"),
    (0x0040, "waits for you"),
    (0x0080, "lets you close"),
    (0x0100, "infravision"),
    (0x0200, "infravisible"),
    (0x0400, "displaces monsters"),
)
_GENO_FLAGS = (
    (0x1000, "unique"),
    (0x0800, "not in Gehennom"),
    (0x0400, "only in Gehennom"),
    (0x0200, "not randomly generated"),
    (0x0080, "small groups"),
    (0x0040, "large groups"),
    (0x0020, "genocidable"),
    (0x0010, "nocorpse"),
)
G_NOCORPSE = 0x0010

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


class UnknownNameError(ValueError):
    """A monster or item name NetHack does not know; ``suggestions`` holds the closest ones."""

    def __init__(self, kind: str, name: str, suggestions: list[str]):
        self.kind, self.name, self.suggestions = kind, name, suggestions
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else "; no similar name found"
        super().__init__(f"no {kind} named {name!r}{hint}")


def _suggest(query: str, candidates: Iterable[str], n: int = 5) -> list[str]:
    cands = sorted(set(candidates))
    lower = {c.lower(): c for c in cands}
    hits = difflib.get_close_matches(query.lower(), list(lower), n=n, cutoff=0.6)
    if not hits:  # a looser net beats an empty answer
        hits = difflib.get_close_matches(query.lower(), list(lower), n=3, cutoff=0.4)
    return [lower[h] for h in hits]


# ================================================================ monsters
@functools.lru_cache(maxsize=1)
def _monster_names() -> dict[str, list[int]]:
    names: dict[str, list[int]] = {}
    for m in tables.monsters():
        names.setdefault(m.mname.lower(), []).append(m.index)
    return names


def _clean_monster_query(name: str) -> str:
    s = " ".join(str(name).strip().lower().split())
    s = re.sub(r"^(an? |the |\d+ )", "", s)
    s = re.sub(r"^(peaceful |tame |partly eaten |invisible )+", "", s)
    s = re.sub(r" corpses?$", "", s)
    return s


def monster_index(name: str, symbol: Optional[str] = None, prefer_corpse: bool = False) -> int:
    """NetHack's monster index for a species name (case-insensitive).

    Three names belong to two species each (wererat, werejackal, werewolf: the
    animal and the @ human form); ``symbol`` ("r", "@") picks one, otherwise the
    first in the table is used, or the one that leaves a corpse when
    ``prefer_corpse`` is set. Raises ``UnknownNameError``.
    """
    hits = _monster_names().get(_clean_monster_query(name))
    if not hits:
        raise UnknownNameError("monster", str(name), _suggest(str(name), (m.mname for m in tables.monsters())))
    if symbol is not None:
        for i in hits:
            if _monster_symbol(tables.monsters()[i]) == symbol:
                return i
    if prefer_corpse:
        for i in hits:
            if not tables.monsters()[i].geno & G_NOCORPSE:
                return i
    return hits[0]


def _monster_symbol(m: tables.MonsterRecord) -> str:
    sym = nh.class_sym.from_mlet(chr(m.mlet)).sym
    return sym if isinstance(sym, str) else chr(sym)


def _attack_words(a: tables.Attack) -> str:
    at = ATTACK_TYPES.get(a.aatyp, f"attack type {a.aatyp}")
    ad = DAMAGE_TYPES.get(a.adtyp, f"damage type {a.adtyp}")
    return f"{at} {a.damn}d{a.damd} {ad}"


def _bits_to_words(value: int) -> list[str]:
    return [w for i, w in enumerate(RESISTANCE_BITS) if value & (1 << i)]


def _has_damage_type(m: tables.MonsterRecord, adtyp: int) -> bool:
    return any(a.adtyp == adtyp for a in m.attacks)


def _name_is(m: tables.MonsterRecord, *names: str) -> bool:
    return m.mname in names


def _flesh_petrifies(m: tables.MonsterRecord) -> bool:
    """eat.c's flesh_petrifies: touching petrifies (cockatrices) or Medusa."""
    touch = any(a.adtyp == 18 and a.aatyp in (0, 5) for a in m.attacks)  # AD_STON by touch or passive
    return touch or m.mname == "Medusa"


_RIDERS = ("Death", "Pestilence", "Famine")
_NONROTTING = ("lichen", "lizard") + _RIDERS
_DOMESTIC_PETS = ("little dog", "dog", "large dog", "kitten", "housecat", "large cat")
_POLYMORPHERS = ("chameleon", "doppelganger", "sandestin")
_MIMICS = {"small mimic": 20, "large mimic": 40, "giant mimic": 50}
_STUNNERS = {"bat": 30, "giant bat": 60, "yellow light": 60, "stalker": 60}
_TELEPATHIC = ("floating eye", "mind flayer", "master mind flayer")


def _hallucinogenic(m: tables.MonsterRecord) -> bool:
    """cpostfx: eating anything with a stun or hallucination attack, or a violet fungus."""
    if _name_is(m, *_STUNNERS, *_MIMICS, *_POLYMORPHERS, "quantum mechanic", "lizard", "disenchanter"):
        return False  # these have their own after-effect instead (no intrinsic check)
    return _has_damage_type(m, AD_STUN) or _has_damage_type(m, AD_HALU) or m.mname == "violet fungus"


def _conveys(m: tables.MonsterRecord) -> list[str]:
    """Intrinsics eating the corpse can grant (eat.c intrinsic_possible)."""
    out = [w for w in _bits_to_words(m.mconveys) if w not in ("acid", "petrification")]  # never granted
    if m.mflags1 & M1_TPORT:
        out.append("teleportitis")
    if m.mflags1 & M1_TPORT_CNTRL:
        out.append("teleport control")
    if m.mname in _TELEPATHIC:
        out.append("telepathy")
    if m.mflags2 & M2_GIANT:
        out.append("strength")
    return out


def _flags(m: tables.MonsterRecord) -> list[str]:
    out: list[str] = []
    for bit, word in _M1_FLAGS:
        if m.mflags1 & bit:
            out.append(word)
    if m.mflags1 & M1_NOLIMBS == M1_NOLIMBS:
        out.append("no limbs")
    if m.mflags1 & 0x80:  # "hides under objects" is hiding too
        out.append("hides")
    for bit, word in _M2_FLAGS:
        if m.mflags2 & bit:
            out.append(word)
    if m.mflags2 & M2_WERE:
        out.append("lycanthrope")
    for bit, word in _M3_FLAGS:
        if m.mflags3 & bit:
            out.append(word)
    for bit, word in _GENO_FLAGS:
        if m.geno & bit:
            out.append(word)
    # What eating the corpse does, from eat.c's special cases.
    if _flesh_petrifies(m):
        out.append("petrifies")
    if _hallucinogenic(m):
        out.append("hallucinogenic")
    if m.mname in _STUNNERS:
        out.append("stuns when eaten")
    if m.mname == "green slime":
        out.append("slimes when eaten")
    if m.mname in _POLYMORPHERS:
        out.append("polymorphs when eaten")
    if m.mname in _MIMICS:
        out.append("mimicry when eaten")
    if m.mname in _RIDERS:
        out.append("fatal to eat")
    if m.mname in _DOMESTIC_PETS:
        out.append("aggravates when eaten")
    if m.mname in _NONROTTING:
        out.append("never rots")
    if m.mname == "lizard" or m.mflags1 & M1_ACID:
        out.append("cures stoning")
    if m.mname == "disenchanter":
        out.append("removes an intrinsic when eaten")
    if m.mname == "quantum mechanic":
        out.append("toggles speed when eaten")
    if m.mname == "nurse":
        out.append("heals when eaten")
    if m.mname == "wraith":
        out.append("gain level when eaten")
    return list(dict.fromkeys(out))  # drop repeats, keep order


def monster_info(index: int) -> MonsterInfo:
    """``MonsterInfo`` for NetHack's monster index ``index`` (as in ``permonst(i)``)."""
    m = tables.monsters()[index]
    return MonsterInfo(
        name=m.mname,
        symbol=_monster_symbol(m),
        level=m.mlevel,
        speed=m.mmove,
        ac=m.ac,
        mr=m.mr,
        alignment=m.maligntyp,
        difficulty=m.difficulty,
        attacks=[_attack_words(a) for a in m.attacks],
        resistances=_bits_to_words(m.mresists),
        conveys=_conveys(m),
        corpse_weight=m.cwt,
        corpse_nutrition=m.cnutrit,
        size=SIZES.get(m.msize, f"size {m.msize}"),
        flags=_flags(m),
        leaves_corpse=not m.geno & G_NOCORPSE,
    )


def lookup_monster(name: str, symbol: Optional[str] = None) -> MonsterInfo:
    """Look a monster species up by name, case-insensitively ("newt", "Floating Eye").

    ``attacks`` read like "bite 1d3 physical" or "passive 0d70 paralysis"
    (attack type, dice, damage type). ``resistances`` uses fire, cold, sleep,
    disintegration, shock, poison, acid, petrification. ``conveys`` lists what
    eating the corpse may grant. ``flags`` holds NetHack's monster flags in
    words ("flies", "poisonous", "undead", "nocorpse", "unique", …) plus what
    eating it does ("petrifies", "hallucinogenic", "never rots", …).
    ``symbol`` picks between two species of the same name ("r" or "@" wererat).
    Raises ``UnknownNameError`` (a ``ValueError``) with the closest names.
    """
    return monster_info(monster_index(name, symbol=symbol))


# ================================================================ objects
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


# ================================================================ eating
_ROLE_KEYS = ("arc", "bar", "cav", "hea", "kni", "mon", "pri", "ran", "rog", "sam", "tou", "val", "wiz")
_RACE_ALIASES = {"elven": "elf", "dwarvish": "dwarf", "gnomish": "gnome", "orcish": "orc", "humans": "human"}
_RESISTANCE_ALIASES = {
    "stone": "petrification",
    "petrify": "petrification",
    "electricity": "shock",
    "elec": "shock",
    "sick": "sickness",
    "disease": "sickness",
    "disint": "disintegration",
}
# Intrinsics the hero is born with or gains by experience level (attrib.c, 3.6).
_ROLE_INTRINSICS = {
    "arc": ((1, "fast"),),
    "bar": ((1, "poison"), (7, "fast")),
    "cav": ((7, "fast"),),
    "hea": ((1, "poison"),),
    "kni": ((7, "fast"),),
    "mon": ((1, "fast"), (1, "sleep"), (3, "poison"), (11, "fire"), (13, "cold"), (15, "shock")),
    "pri": ((20, "fire"),),
    "sam": ((1, "fast"),),
    "tou": ((20, "poison"),),
    "val": ((1, "cold"), (7, "fast")),
}
_RACE_INTRINSICS = {"elf": ((4, "sleep"),), "orc": ((1, "poison"),)}


def _role_key(role: str) -> str:
    r = (role or "").strip().lower()
    return r[:3] if r[:3] in _ROLE_KEYS else r


def _race_key(race: str) -> str:
    r = (race or "").strip().lower()
    return _RACE_ALIASES.get(r, r)


@dataclass
class Eater:
    """Who is eating: enough of the hero for NetHack's corpse rules.

    ``race`` is "human", "elf", "dwarf", "gnome" or "orc" ("" = unknown, which
    makes every playable race's corpse count as possible cannibalism);
    ``role`` e.g. "Caveman" (Cavemen and orcs may eat their own race and pets'
    kinds without penalty); ``resistances`` uses the names of
    ``MonsterInfo.resistances`` plus "sickness"; ``fast`` is intrinsic speed
    (a quantum mechanic would take it away); ``polymorphed_into`` the species
    the hero currently is, if polymorphed.
    """

    race: str = "human"
    role: str = ""
    resistances: set[str] = field(default_factory=set)
    fast: bool = False
    polymorphed_into: Optional[str] = None

    def resists(self, what: str) -> bool:
        have = {_RESISTANCE_ALIASES.get(r.lower(), r.lower()) for r in self.resistances}
        return what in have

    @property
    def cannibal_allowed(self) -> bool:
        """eat.c CANNIBAL_ALLOWED: Cavemen and orcs."""
        return _role_key(self.role) == "cav" or _race_key(self.race) == "orc"


def eater_for(race: str, role: str = "", xp_level: int = 1, resistances: Iterable[str] = ()) -> Eater:
    """An ``Eater`` for a hero of this race/role, with the resistances and speed
    the role and race grant by ``xp_level`` (Healers resist poison from level
    1, elves sleep from 4, …) added to ``resistances`` the caller knows of."""
    known = {_RESISTANCE_ALIASES.get(r.lower(), r.lower()) for r in resistances}
    gains = _ROLE_INTRINSICS.get(_role_key(role), ()) + _RACE_INTRINSICS.get(_race_key(race), ())
    fast = False
    for level, what in gains:
        if xp_level >= level:
            if what == "fast":
                fast = True
            else:
                known.add(what)
    return Eater(race=_race_key(race), role=role, resistances=known, fast=fast)


# A corpse's rot is age / (10 + rn2(20)), +2 if cursed: above 5 it is tainted
# (deadly food poisoning), above 3 it may make you ill. Uncursed corpses are
# tainted at the earliest at age 60 and can sicken from age 40 (cursed ones:
# 40 and 20). Corpses of kills are uncursed, and the API counts their age from
# the kill message, so anything up to 39 turns is safe and older is refused.
SAFE_CORPSE_AGE = 39
# Weak from hunger, a kill up to this old is worth it: never tainted, at worst
# "rotten" (a few turns confused, blind or asleep) — fainting kills more heroes.
STARVING_CORPSE_AGE = 55


def corpse_verdict(corpse_name: str, turns_old: Optional[int], eater: Optional[Eater] = None,
                   starving_hp: Optional[int] = None) -> tuple[bool, str]:
    """Whether eating this corpse is safe, and why, by NetHack 3.6's eat.c.

    ``corpse_name`` is the species ("newt", "a newt corpse" works too);
    ``turns_old`` the turns since it died (None = unknown age); ``eater`` the
    hero (None = unknown race/role, no resistances: the most careful answer).
    ``starving_hp``: the hero is Weak or worse from hunger with this many HP, so
    lesser harms beat fainting to death: a dog or cat (aggravation) is eaten, a
    poisonous corpse too with more than 15 HP (its poison takes at most 15), and a
    kill up to ``STARVING_CORPSE_AGE`` turns old (never tainted; at worst rotten).

    Refused: Riders (fatal); cockatrice, chickatrice, Medusa (stoning; refused
    even for a stone-resistant hero: the gain is tiny and a wrong belief about
    resistance is death); green slime; anything older than
    ``SAFE_CORPSE_AGE`` turns unless it never rots (lichen, lizard) or the hero
    resists sickness; zombie and mummy remains (born old); acidic corpses
    without acid resistance (up to 15 HP of stomach acid; an acid blob never
    becomes tainted, so with acid resistance it is fine at any age);
    poisonous ones without poison resistance; your own race (cannibalism:
    Luck penalty and aggravation) unless Caveman or orc; dogs and cats
    (aggravation) unless Caveman or orc; were-creatures (lycanthropy);
    shapeshifters (uncontrolled polymorph); mimics (stuck mimicking gold);
    disenchanter (loses an intrinsic); bats, stalkers (stun); violet fungus
    and anything with a stun or hallucination attack (hallucination); a
    quantum mechanic for a hero with intrinsic speed (it toggles speed).
    Unknown names raise ``UnknownNameError``.
    """
    index = monster_index(corpse_name, prefer_corpse=True)
    m = tables.monsters()[index]
    e = eater or Eater(race="", role="")
    name = m.mname
    if turns_old is not None and turns_old < 0:
        raise ValueError(f"turns_old must be 0 or more, got {turns_old}")

    if name.endswith((" zombie", " mummy")):
        return False, (
            f"{_a(name)} leaves {_a(name.rsplit(' ', 1)[0])} corpse that is already about 100 turns old: tainted"
        )
    if name in _RIDERS:
        return False, f"eating {name} is instantly fatal (and the corpse revives)"
    if _flesh_petrifies(m):
        return False, f"{name} meat turns you to stone"
    if name == "green slime":
        return False, "eating green slime turns you into green slime"
    if m.mflags2 & M2_WERE:
        return False, f"{_a(name)} corpse gives you lycanthropy"

    # Rot: the deadliest ordinary risk.
    never_rots = name in _NONROTTING
    if not never_rots and not e.resists("sickness"):
        if name == "acid blob":
            pass  # eat.c exempts acid blobs from tainting; old ones at worst cause mild illness
        elif turns_old is None:
            return False, "unknown age: an old corpse may be tainted (deadly food poisoning)"
        elif turns_old > (SAFE_CORPSE_AGE if starving_hp is None else STARVING_CORPSE_AGE):
            limit = SAFE_CORPSE_AGE if starving_hp is None else STARVING_CORPSE_AGE
            return False, (
                f"{turns_old} turns old: corpses older than {limit} turns may be rotten or "
                "tainted (deadly food poisoning)"
            )

    if m.mflags1 & M1_ACID and not e.resists("acid"):
        return False, f"{name} is acidic: up to 15 HP of damage without acid resistance"
    if m.mflags1 & M1_POIS and not e.resists("poison") and not (starving_hp is not None and starving_hp > 15):
        return False, f"{name} is poisonous: loses Strength and up to 15 HP without poison resistance"

    # Cannibalism: your own race (or your current form when polymorphed).
    if not e.cannibal_allowed:
        race = _race_key(e.race)
        own = RACE_BITS.get(race, 0) if race else sum(RACE_BITS.values())
        if e.polymorphed_into:
            try:
                form = tables.monsters()[monster_index(e.polymorphed_into)]
                own |= form.mflags2 & sum(RACE_BITS.values())
                if form.index == index:
                    own = -1  # same species: always counts
            except UnknownNameError:
                pass
        if own == -1 or m.mflags2 & own:
            who = f"for {_a(race)}" if race else "if you are of its race (race unknown)"
            return False, f"eating {_a(name)} is cannibalism {who}: Luck penalty and permanent aggravation"
    if name in _DOMESTIC_PETS and not e.cannibal_allowed and starving_hp is None:
        return False, f"eating {_a(name)} permanently aggravates monsters (only Cavemen and orcs may)"
    if name in _POLYMORPHERS:
        return False, f"{_a(name)} corpse polymorphs you uncontrollably"
    if name in _MIMICS:
        return False, f"{_a(name)} corpse leaves you helpless, mimicking gold, for {_MIMICS[name]} turns"
    if name == "disenchanter":
        return False, "a disenchanter corpse removes one of your intrinsics"
    if name in _STUNNERS:
        return False, f"{_a(name)} corpse stuns you for about {_STUNNERS[name]} turns"
    if _hallucinogenic(m):
        return False, f"{_a(name)} corpse makes you hallucinate for about 200 turns"
    if name == "quantum mechanic" and e.fast:
        return False, "a quantum mechanic corpse toggles speed: you would lose your intrinsic speed"

    # Safe: say what it is good for.
    if never_rots:
        why = "never rots"
    elif name == "acid blob":
        why = "acid blobs never become tainted"
    elif e.resists("sickness"):
        why = "you resist sickness, so rot cannot hurt you"
    else:
        why = f"{turns_old} turn{'s' if turns_old != 1 else ''} old, fresh enough"
    good = [f"{g} resistance" if g in RESISTANCE_BITS else g for g in _conveys(m)]
    notes = []
    if good:
        notes.append("may grant " + ", ".join(good))
    if name == "acid blob" or m.mflags1 & M1_ACID:
        notes.append("cures stoning")
    for special, text in (
        ("lizard", "cures stoning"),
        ("nurse", "heals you fully"),
        ("wraith", "raises your experience level"),
        ("newt", "may restore a little energy"),
        ("quantum mechanic", "makes you fast"),
    ):
        if name == special and text not in notes:
            notes.append(text)
    return True, f"{name}: {why}" + (f"; {'; '.join(notes)}" if notes else "")


def _a(noun: str) -> str:
    """English indefinite article, skipped for proper names ("Medusa")."""
    if noun[:1].isupper():
        return noun
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def is_safe_to_eat(corpse_name: str, turns_old: Optional[int], eater: Optional[Eater] = None,
                   starving_hp: Optional[int] = None) -> bool:
    """True if eating this corpse is safe for ``eater`` (see ``corpse_verdict`` for the rules and the reason)."""
    return corpse_verdict(corpse_name, turns_old, eater, starving_hp)[0]


# ================================================================ prayer
_TROUBLE_LIMITS = {"major": 200, "minor": 100, "none": 0}


@functools.lru_cache(maxsize=4)
def _rnz_distribution(i: int) -> tuple[tuple[int, float], ...]:
    """Exact distribution of NetHack's rnz(i) for a hero below level 15.

    rnz: t = (1000 + rn2(1000)) * rne(4); then i*t/1000 or i*1000/t, each
    half the time. rne(4) is k with probability (1/4)^(k-1)*3/4, capped at 5.
    """
    rne = [(k, (0.25 ** (k - 1)) * (0.75 if k < 5 else 1.0)) for k in range(1, 6)]
    dist: dict[int, float] = {}
    for r in range(1000):
        for k, pk in rne:
            t = (1000 + r) * k
            p = pk / 1000 / 2
            for x in (i * t // 1000, i * 1000 // t):
                dist[x] = dist.get(x, 0.0) + p
    return tuple(sorted(dist.items()))


class PrayerClock:
    """An estimate of the prayer timeout that the hero could know, not the game's hidden value.

    NetHack starts the timeout at 300 on turn 1 and lowers it by one each turn.
    Prayer works when it is at most 200 with major trouble, at most 100 with
    minor trouble, and 0 with none (and only with Luck >= 0, a god who is not
    angry and a non-negative alignment record, which this clock cannot see).

    A successful prayer resets the timeout to rnz(350): median 350, but 10% of
    draws exceed ~900 and 5% exceed ~1,230. This clock assumes the
    conservative ``assumed_reset`` (1000 by default: about 91% of draws are at
    or below it) rather than the median, because praying too soon angers the
    god. ``chance_ok`` gives the actual probability instead.

    A failed prayer (god displeased, smiting, "You feel that Mitra is
    displeased.") angers the god and sets the timeout to rnz(300); prayer stays
    hopeless until the anger is appeased, so ``can_pray`` answers False and
    ``estimate`` returns ``UNKNOWN`` until ``record_appeased`` is called.
    Crowning and killing the Wizard add rnz(1000) more per event, not modelled.
    """

    START_TIMEOUT = 300
    MEDIAN_RESET = 350
    UNKNOWN = 10_000  # "do not count on prayer"

    def __init__(self, assumed_reset: int = 1000):
        self.assumed_reset = assumed_reset
        self.last_prayer_turn: Optional[int] = None
        self.last_prayer_succeeded: Optional[bool] = None
        self.god_angry = False

    def record_prayer(self, turn: int, succeeded: bool) -> None:
        """Note a prayer made on game turn ``turn`` and whether the god was pleased."""
        self.last_prayer_turn = turn
        self.last_prayer_succeeded = succeeded
        self.god_angry = not succeeded

    def record_appeased(self, turn: int) -> None:
        """The god's anger is gone (e.g. "You have a hopeful feeling" after a sacrifice);
        the timeout is then taken to be a fresh rnz(300) from ``turn``, counted as ``assumed_reset``."""
        self.god_angry = False
        self.last_prayer_turn = turn
        self.last_prayer_succeeded = True

    def estimate(self, turn: int) -> int:
        """Turns until prayer is likely safe even without trouble (0 = now).

        Before any prayer this is exact: 300 - (turn - 1). After a successful
        prayer it counts down from ``assumed_reset``; after a failed one it is
        ``UNKNOWN``.
        """
        if self.god_angry:
            return self.UNKNOWN
        if self.last_prayer_turn is None:
            return max(0, self.START_TIMEOUT - (turn - 1))
        return max(0, self.assumed_reset - (turn - self.last_prayer_turn))

    def can_pray(self, turn: int, trouble: str = "none") -> bool:
        """Whether praying on ``turn`` is likely to work, given the hero's trouble:
        "major" (timeout may be up to 200), "minor" (up to 100) or "none" (must be 0)."""
        if trouble not in _TROUBLE_LIMITS:
            raise ValueError(f"trouble must be 'none', 'minor' or 'major', not {trouble!r}")
        if self.god_angry:
            return False
        return self.estimate(turn) <= _TROUBLE_LIMITS[trouble]

    def chance_ok(self, turn: int, trouble: str = "none") -> float:
        """Probability that the real timeout is low enough for ``trouble`` on ``turn``
        (0 or 1 before the first prayer; from rnz(350)'s distribution after one)."""
        if trouble not in _TROUBLE_LIMITS:
            raise ValueError(f"trouble must be 'none', 'minor' or 'major', not {trouble!r}")
        if self.god_angry:
            return 0.0
        limit = _TROUBLE_LIMITS[trouble]
        if self.last_prayer_turn is None:
            return 1.0 if self.START_TIMEOUT - (turn - 1) <= limit else 0.0
        elapsed = turn - self.last_prayer_turn
        return sum(p for x, p in _rnz_distribution(self.MEDIAN_RESET) if x - elapsed <= limit)

    def too_soon(self, turn: int, trouble: str = "none") -> Optional[str]:
        """Why praying on ``turn`` would anger the god by this clock, in one line
        (None when ``can_pray`` says it is likely to work)."""
        if self.can_pray(turn, trouble):
            return None
        if self.god_angry:
            return (f"your god has been angry since the prayer on turn {self.last_prayer_turn}, "
                    "and every prayer before the anger is appeased makes it worse")
        limit = _TROUBLE_LIMITS[trouble]
        need = {"none": "0 without trouble", "minor": "at most 100 with minor trouble",
                "major": "at most 200 with major trouble"}[trouble]
        since = ("" if self.last_prayer_turn is None
                 else f" (counted from the prayer on turn {self.last_prayer_turn})")
        return (f"the prayer timeout is about {self.estimate(turn)}{since} and must be {need}, "
                f"so praying is likely safe in {self.estimate(turn) - limit} turns")


_MAJOR_CONDITIONS = {
    "stone",
    "stoned",
    "petrifying",
    "slime",
    "slimed",
    "strangled",
    "strangling",
    "food poisoning",
    "food poisoned",
    "foodpois",
    "ill",
    "termill",
    "sick",
    "lycanthropy",
    "lava",
}


def major_trouble(
    hp: int,
    max_hp: int,
    hunger_state_name: Union[str, HungerState, None] = None,
    xp_level: Optional[int] = None,
    conditions: Iterable[str] = (),
) -> bool:
    """Whether the hero is in *major* trouble by pray.c's rules (prayer then works
    with a timeout up to 200).

    Low HP: HP <= 5 or HP <= max/7. With ``xp_level`` given, NetHack 3.6's exact
    rule is used instead: the divisor is 5 at levels 1-5, 6 at 6-13, 7 at
    14-21, 8 at 22-29, 9 at 30, and max HP counts at most 15 per level.
    Hunger: Weak or worse. ``conditions``: status words such as "stone",
    "slime", "strangled", "food poisoning", "ill", "lycanthropy" also count.
    """
    if hunger_state_name is not None:
        hunger = hunger_state_name.value if isinstance(hunger_state_name, HungerState) else str(hunger_state_name)
        if hunger.strip().lower() in ("weak", "fainting", "fainted", "starved"):
            return True
    if any(str(c).strip().lower() in _MAJOR_CONDITIONS for c in conditions):
        return True
    if hp <= 5:
        return True
    if xp_level is None:
        return hp * 7 <= max_hp
    cap = min(max_hp, 15 * max(1, xp_level))
    divisor = 5 if xp_level <= 5 else 6 if xp_level <= 13 else 7 if xp_level <= 21 else 8 if xp_level <= 29 else 9
    return hp * divisor <= cap


# Minor troubles the status line shows (pray.c also counts being punished, fumbling,
# cursed items and wounded legs, which it does not show).
_MINOR_CONDITIONS = {"blind", "stunned", "stun", "confused", "conf", "hallucinating", "hallu"}


def prayer_trouble(
    hp: int,
    max_hp: int,
    hunger_state_name: Union[str, HungerState, None] = None,
    xp_level: Optional[int] = None,
    conditions: Iterable[str] = (),
) -> str:
    """The hero's trouble as prayer sees it: "major" (see ``major_trouble``),
    "minor" (Hungry, Blind, Stunned, Confused or Hallucinating) or "none"."""
    conditions = list(conditions)
    if major_trouble(hp, max_hp, hunger_state_name, xp_level, conditions):
        return "major"
    hunger = hunger_state_name.value if isinstance(hunger_state_name, HungerState) else str(hunger_state_name or "")
    if hunger.strip().lower() == "hungry" or any(str(c).strip().lower() in _MINOR_CONDITIONS for c in conditions):
        return "minor"
    return "none"

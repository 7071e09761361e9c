"""Monster species from NetHack's ``mons[]`` table, in words.

``lookup_monster(name)`` / ``monster_info(index)`` -> ``MonsterInfo``: attacks
(monattk.h AT_*/AD_*), resistances (MR_*), monflag.h flags, and what eating the
corpse does (eat.c's special cases, which ``corpses`` also relies on).
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from nle import nethack as nh

from .. import nethack_tables as tables
from ..models import MonsterInfo
from .names import UnknownNameError, _suggest

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

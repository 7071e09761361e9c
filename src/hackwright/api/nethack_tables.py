"""NetHack's monster and object tables, read straight out of NLE's library.

NLE binds only part of NetHack's ``struct permonst`` and ``struct objclass``:
monster attacks and alignment, and object material, damage, armour class and
nutrition are not exposed. The whole ``mons[]``, ``objects[]`` and
``materialnm[]`` arrays are exported symbols of the ``_pynethack`` extension
module, so this module reads them with ``ctypes`` and turns every entry into a
small frozen dataclass, once, on first use.

Layouts follow NetHack 3.6 (``include/permonst.h``, ``include/objclass.h``) as
compiled for x86-64 Linux by GCC; ``tests/api/test_knowledge.py`` checks every
field against NLE's own bindings where a binding exists, and the rest against
well-known facts (a long sword is iron and does d8/d12, and so on).

Two things to know about the copy read here:

* It is the *pristine* table inside ``_pynethack``. Each game runs in its own
  copy of ``libnethack.so`` whose object descriptions get shuffled at start-up;
  that live copy is never touched here, so ``description`` is the default
  appearance from ``objects.c`` ("balsa" for the wand of digging), which is
  exactly what is needed to say which appearances a class can have.
* ``oc_name_idx``/``oc_descr_idx`` are zero in the static table until
  something initialises them (NetHack's ``init_objects``; NLE's ``objclass``
  binding writes ``i`` into entry ``i`` when constructed). Entry ``i`` is
  always reported here with index ``i``, which is what both do.
"""

from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass
from typing import Optional

from nle import _pynethack
from nle import nethack as nh

NATTK = 6  # attacks per monster in NetHack 3.6
PERMONST_SIZE = 72
OBJCLASS_SIZE = 40
NUM_MATERIALS = 22  # materialnm[] has entries 0 (unused) .. 21 (MINERAL)


class _Attack(ctypes.Structure):
    _fields_ = [
        ("aatyp", ctypes.c_ubyte),
        ("adtyp", ctypes.c_ubyte),
        ("damn", ctypes.c_ubyte),
        ("damd", ctypes.c_ubyte),
    ]


class _Permonst(ctypes.Structure):
    """struct permonst (permonst.h, NetHack 3.6); no bitfields, natural alignment."""

    _fields_ = [
        ("mname", ctypes.c_char_p),
        ("mlet", ctypes.c_byte),
        ("mlevel", ctypes.c_byte),
        ("mmove", ctypes.c_byte),
        ("ac", ctypes.c_byte),
        ("mr", ctypes.c_byte),
        ("maligntyp", ctypes.c_byte),  # aligntyp is a schar in 3.6
        ("geno", ctypes.c_ushort),
        ("mattk", _Attack * NATTK),
        ("cwt", ctypes.c_ushort),
        ("cnutrit", ctypes.c_ushort),
        ("msound", ctypes.c_ubyte),
        ("msize", ctypes.c_ubyte),
        ("mresists", ctypes.c_ubyte),
        ("mconveys", ctypes.c_ubyte),
        ("mflags1", ctypes.c_ulong),
        ("mflags2", ctypes.c_ulong),
        ("mflags3", ctypes.c_ushort),
        ("difficulty", ctypes.c_ubyte),
        ("mcolor", ctypes.c_ubyte),
    ]


class _Objclass(ctypes.Structure):
    """struct objclass (objclass.h, NetHack 3.6).

    The twelve ``Bitfield`` members are ``unsigned`` bitfields that GCC packs,
    lowest bit first, into the unit at offset 16: they use 17 bits, so the
    next member (the ``schar oc_subtyp``) lands at offset 19. ctypes' own
    bitfield layout is not trusted here; the three bytes are decoded by hand.
    """

    _fields_ = [
        ("oc_name_idx", ctypes.c_short),
        ("oc_descr_idx", ctypes.c_short),
        ("oc_uname", ctypes.c_char_p),
        ("bits", ctypes.c_ubyte * 3),
        ("oc_subtyp", ctypes.c_byte),
        ("oc_oprop", ctypes.c_ubyte),
        ("oc_class", ctypes.c_byte),
        ("oc_delay", ctypes.c_byte),
        ("oc_color", ctypes.c_ubyte),
        ("oc_prob", ctypes.c_short),
        ("oc_weight", ctypes.c_ushort),
        ("oc_cost", ctypes.c_short),
        ("oc_wsdam", ctypes.c_byte),
        ("oc_wldam", ctypes.c_byte),
        ("oc_oc1", ctypes.c_byte),
        ("oc_oc2", ctypes.c_byte),
        ("oc_nutrition", ctypes.c_ushort),
    ]


# (name, width) of the bitfields in declaration order, lowest bit first.
_OBJ_BITFIELDS = (
    ("oc_name_known", 1),
    ("oc_merge", 1),
    ("oc_uses_known", 1),
    ("oc_pre_discovered", 1),
    ("oc_magic", 1),
    ("oc_charged", 1),
    ("oc_unique", 1),
    ("oc_nowish", 1),
    ("oc_big", 1),
    ("oc_tough", 1),
    ("oc_dir", 2),
    ("oc_material", 5),
)

assert ctypes.sizeof(_Permonst) == PERMONST_SIZE, ctypes.sizeof(_Permonst)
assert ctypes.sizeof(_Objclass) == OBJCLASS_SIZE, ctypes.sizeof(_Objclass)


@dataclass(frozen=True)
class Attack:
    """One entry of a monster's attack matrix (raw AT_*/AD_* numbers)."""

    aatyp: int  # attack type, AT_* (0 = none/passive)
    adtyp: int  # damage type, AD_*
    damn: int  # number of dice
    damd: int  # sides per die


@dataclass(frozen=True)
class MonsterRecord:
    """One ``mons[]`` entry, fields named as in permonst.h."""

    index: int
    mname: str
    mlet: int  # monster class number (S_ANT = 1, …), not the display character
    mlevel: int
    mmove: int
    ac: int
    mr: int
    maligntyp: int
    geno: int
    mattk: tuple[Attack, ...]  # always NATTK entries; unused ones are all zero
    cwt: int
    cnutrit: int
    msound: int
    msize: int
    mresists: int
    mconveys: int
    mflags1: int
    mflags2: int
    mflags3: int
    difficulty: int
    mcolor: int

    @property
    def attacks(self) -> tuple[Attack, ...]:
        """The attacks actually used (entries whose type and damage are not both zero)."""
        return tuple(a for a in self.mattk if a.aatyp or a.adtyp or a.damn or a.damd)


@dataclass(frozen=True)
class ObjectRecord:
    """One ``objects[]`` entry plus its ``obj_descr[]`` name and appearance."""

    index: int
    name: Optional[str]  # None for the spare scroll/spellbook/… appearances
    description: Optional[str]  # default (unshuffled) appearance, if any
    oc_name_idx: int
    oc_descr_idx: int
    oc_name_known: int
    oc_merge: int
    oc_uses_known: int
    oc_pre_discovered: int
    oc_magic: int
    oc_charged: int
    oc_unique: int
    oc_nowish: int
    oc_big: int  # two-handed weapon / bulky armour
    oc_tough: int
    oc_dir: int  # wands/spells: 1 NODIR, 2 IMMEDIATE, 3 RAY; weapons: 1 pierce, 2 slash (bits)
    oc_material: int
    oc_subtyp: int  # weapons/tools/gems: skill (negative for ammo and missiles); armour: ARM_*
    oc_oprop: int
    oc_class: int
    oc_delay: int
    oc_color: int
    oc_prob: int
    oc_weight: int
    oc_cost: int
    oc_wsdam: int
    oc_wldam: int
    oc_oc1: int  # weapons: to-hit bonus; armour: AC (a_ac)
    oc_oc2: int  # armour: magic cancellation (a_can); spellbooks: spell level
    oc_nutrition: int


@functools.lru_cache(maxsize=1)
def library() -> ctypes.CDLL:
    """The already-loaded ``_pynethack`` extension, opened again for its symbols."""
    return ctypes.CDLL(_pynethack.__file__)


def _symbol_address(name: str) -> int:
    return ctypes.addressof(ctypes.c_char.in_dll(library(), name))


def _text(p: Optional[bytes]) -> Optional[str]:
    return p.decode("latin-1") if p is not None else None


@functools.lru_cache(maxsize=1)
def monsters() -> tuple[MonsterRecord, ...]:
    """All ``NUMMONS`` monster species, indexed like NLE's ``permonst(i)``."""
    raw = (_Permonst * nh.NUMMONS).from_address(_symbol_address("mons"))
    out = []
    for i, m in enumerate(raw):
        out.append(
            MonsterRecord(
                index=i,
                mname=_text(m.mname) or "",
                mlet=m.mlet,
                mlevel=m.mlevel,
                mmove=m.mmove,
                ac=m.ac,
                mr=m.mr,
                maligntyp=m.maligntyp,
                geno=m.geno,
                mattk=tuple(Attack(a.aatyp, a.adtyp, a.damn, a.damd) for a in m.mattk),
                cwt=m.cwt,
                cnutrit=m.cnutrit,
                msound=m.msound,
                msize=m.msize,
                mresists=m.mresists,
                mconveys=m.mconveys,
                mflags1=m.mflags1,
                mflags2=m.mflags2,
                mflags3=m.mflags3,
                difficulty=m.difficulty,
                mcolor=m.mcolor,
            )
        )
    return tuple(out)


def _decode_bits(three: bytes) -> dict[str, int]:
    word = int.from_bytes(three, "little")
    values, shift = {}, 0
    for name, width in _OBJ_BITFIELDS:
        values[name] = (word >> shift) & ((1 << width) - 1)
        shift += width
    return values


@functools.lru_cache(maxsize=1)
def objects() -> tuple[ObjectRecord, ...]:
    """All ``NUM_OBJECTS`` object types, indexed like NLE's ``objclass(i)``."""
    raw = (_Objclass * nh.NUM_OBJECTS).from_address(_symbol_address("objects"))
    out = []
    for i, o in enumerate(raw):
        d = nh.objdescr.from_idx(i)
        out.append(
            ObjectRecord(
                index=i,
                name=d.oc_name,
                description=d.oc_descr,
                oc_name_idx=o.oc_name_idx or i,  # see module docstring
                oc_descr_idx=o.oc_descr_idx or i,
                **_decode_bits(bytes(o.bits)),
                oc_subtyp=o.oc_subtyp,
                oc_oprop=o.oc_oprop,
                oc_class=o.oc_class,
                oc_delay=o.oc_delay,
                oc_color=o.oc_color,
                oc_prob=o.oc_prob,
                oc_weight=o.oc_weight,
                oc_cost=o.oc_cost,
                oc_wsdam=o.oc_wsdam,
                oc_wldam=o.oc_wldam,
                oc_oc1=o.oc_oc1,
                oc_oc2=o.oc_oc2,
                oc_nutrition=o.oc_nutrition,
            )
        )
    return tuple(out)


@functools.lru_cache(maxsize=1)
def material_names() -> tuple[str, ...]:
    """NetHack's ``materialnm[]``: index = oc_material ("iron" is 11, "mithril" 17)."""
    raw = (ctypes.c_char_p * NUM_MATERIALS).from_address(_symbol_address("materialnm"))
    return tuple(_text(p) or "" for p in raw)

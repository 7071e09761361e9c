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

The code lives in one module per subject, and every public name is
re-exported here (``from hackwright.api.knowledge import X``):
``monsters`` (``mons[]``), ``objects`` (``objects[]``), ``corpses`` (eat.c),
``prayer`` (pray.c) and ``names`` (``UnknownNameError``).
"""

from __future__ import annotations

from .corpses import SAFE_CORPSE_AGE, STARVING_CORPSE_AGE, Eater, corpse_verdict, eater_for, is_safe_to_eat
from .monsters import (
    AD_HALU,
    AD_STUN,
    ATTACK_TYPES,
    DAMAGE_TYPES,
    G_NOCORPSE,
    M1_ACID,
    M1_NOLIMBS,
    M1_POIS,
    M1_TPORT,
    M1_TPORT_CNTRL,
    M2_GIANT,
    M2_WERE,
    RACE_BITS,
    RESISTANCE_BITS,
    SIZES,
    lookup_monster,
    monster_index,
    monster_info,
)
from .names import UnknownNameError
from .objects import (
    AMULET_CLASS,
    ARMOR_CLASS,
    ARMOR_SLOTS,
    FOOD_CLASS,
    GEM_CLASS,
    MINERAL,
    POTION_CLASS,
    RING_CLASS,
    ROCK_CLASS,
    SCROLL_CLASS,
    SKILL_NAMES,
    SPBOOK_CLASS,
    TOOL_CLASS,
    VENOM_CLASS,
    WAND_CLASS,
    WAND_DIRECTIONS,
    WEAPON_CLASS,
    appearance,
    armor_slot_of,
    full_name,
    lookup_item,
    object_info,
    possible_identities,
    shuffle_group,
)
from .prayer import PrayerClock, major_trouble, prayer_trouble

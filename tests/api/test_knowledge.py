"""NetHack's tables read through ctypes, and the knowledge built on them."""

from __future__ import annotations

import ctypes

import pytest
from nle import nethack as nh

from hackwright.api import knowledge as k
from hackwright.api import nethack_tables as tables
from hackwright.api.models import HungerState


def obj(name: str) -> tables.ObjectRecord:
    return next(o for o in tables.objects() if o.name == name)


def mon(name: str) -> tables.MonsterRecord:
    return next(m for m in tables.monsters() if m.mname == name)


# ---------------------------------------------------------------- raw tables
def test_struct_sizes_match_the_x86_64_layout():
    assert ctypes.sizeof(tables._Permonst) == 72
    assert ctypes.sizeof(tables._Objclass) == 40
    assert len(tables.monsters()) == nh.NUMMONS
    assert len(tables.objects()) == nh.NUM_OBJECTS


def test_ctypes_mons_table_agrees_with_nles_bound_permonst_for_every_monster():
    fields = (
        "mlevel mmove ac mr geno cwt cnutrit msound msize mresists mconveys "
        "mflags1 mflags2 mflags3 difficulty mcolor"
    ).split()
    for m in tables.monsters():
        bound = nh.permonst(m.index)
        assert m.mname == bound.mname
        assert m.mlet == ord(bound.mlet)
        for f in fields:
            assert getattr(m, f) == getattr(bound, f), (m.mname, f)


def test_ctypes_objects_table_agrees_with_nles_bound_objclass_for_every_object():
    fields = "oc_name_idx oc_descr_idx oc_oprop oc_delay oc_color oc_prob oc_weight oc_cost".split()
    for o in tables.objects():
        bound = nh.objclass(o.index)
        assert o.oc_class == ord(bound.oc_class), o.name
        for f in fields:
            assert getattr(o, f) == getattr(bound, f), (o.name, f)
        d = nh.objdescr.from_idx(o.index)
        assert (o.name, o.description) == (d.oc_name, d.oc_descr)


def test_unbound_monster_fields_hold_known_values():
    # Every attack and damage type is one monattk.h defines, so mattk is aligned.
    for m in tables.monsters():
        assert len(m.mattk) == tables.NATTK
        for a in m.attacks:
            assert a.aatyp in k.ATTACK_TYPES, (m.mname, a)
            assert a.adtyp in k.DAMAGE_TYPES, (m.mname, a)
    medusa = mon("Medusa")
    assert medusa.maligntyp == -15
    assert [(a.aatyp, a.adtyp, a.damn, a.damd) for a in medusa.attacks] == [
        (254, 0, 2, 4),
        (1, 0, 1, 8),
        (15, 18, 0, 0),
        (2, 7, 1, 6),
    ]
    assert mon("giant ant").attacks == (tables.Attack(2, 0, 1, 4),)
    assert mon("Archon").maligntyp == 15


def test_unbound_object_fields_hold_known_values():
    ls = obj("long sword")
    assert (ls.oc_wsdam, ls.oc_wldam, ls.oc_subtyp, ls.oc_material) == (8, 12, 7, 11)
    assert (ls.oc_merge, ls.oc_big, ls.oc_magic) == (0, 0, 0)
    assert obj("two-handed sword").oc_big == 1
    pm = obj("plate mail")
    assert (pm.oc_oc1, pm.oc_oc2, pm.oc_subtyp, pm.oc_material) == (7, 2, 0, 11)
    arrow = obj("arrow")
    assert arrow.oc_merge == 1 and arrow.oc_subtyp == -21  # ammunition for bows
    assert obj("elven mithril-coat").oc_material == 17
    assert obj("gray dragon scale mail").oc_material == 10
    assert obj("food ration").oc_nutrition == 800
    assert obj("force bolt").oc_oc2 == 1  # spell level
    assert (obj("light").oc_magic, obj("Amulet of Yendor").oc_unique) == (1, 1)
    wands = {o.name: o.oc_dir for o in tables.objects() if o.oc_class == 11}
    assert (wands["light"], wands["striking"], wands["fire"]) == (1, 2, 3)
    assert {o.oc_subtyp for o in tables.objects() if o.oc_class == 3} == set(range(7))
    # objects.c gives the worm tooth no material at all (0, "mysterious")
    odd = [o.name for o in tables.objects() if not 1 <= o.oc_material <= 21]
    assert odd == ["strange object", "worm tooth"]


def test_material_names_come_from_materialnm():
    names = tables.material_names()
    assert (names[11], names[14], names[17], names[21]) == ("iron", "silver", "mithril", "stone")


# ---------------------------------------------------------------- monsters
def test_a_floating_eyes_passive_attack_paralyses():
    info = k.lookup_monster("Floating Eye")
    assert info.attacks == ["passive 0d70 paralysis"]
    assert "telepathy" in info.conveys
    assert info["speed"] == 1 and info.symbol == "e"


def test_a_cockatrice_bites_and_touches_to_stone():
    info = k.lookup_monster("cockatrice")
    assert info.attacks == ["bite 1d3 physical", "touch 0d0 petrification", "passive 0d0 petrification"]
    assert set(info.resistances) == {"poison", "petrification"}
    assert "petrifies" in info.flags


def test_what_a_monster_can_deal_in_one_turn_counts_weapons_as_a_d8_and_fast_monsters_twice():
    assert k.lookup_monster("jackal").max_damage_per_turn == 2  # bite 1d2 at speed 12
    assert k.lookup_monster("goblin").max_damage_per_turn == 8  # weapon 1d6, wielding up to a d8
    assert k.lookup_monster("pony").max_damage_per_turn == 16  # kick 1d6 + bite 1d2, speed 16: two moves
    assert k.lookup_monster("floating eye").max_damage_per_turn == 0  # only a passive paralysis


def test_monster_flags_and_sizes_read_as_words():
    newt = k.lookup_monster("NEWT")
    assert newt.size == "tiny" and "swims" in newt.flags and newt.attacks == ["bite 1d2 physical"]
    blob = k.lookup_monster("acid blob")
    assert {"acidic", "amorphous", "cures stoning"} <= set(blob.flags)
    assert "acid" in blob.resistances
    assert "poisonous" in k.lookup_monster("kobold").flags
    assert {"unique", "fatal to eat"} <= set(k.lookup_monster("Death").flags)
    assert "nocorpse" in k.lookup_monster("yellow light").flags
    assert not k.lookup_monster("yellow light").leaves_corpse
    assert {"undead", "elf"} <= set(k.lookup_monster("elf zombie").flags)
    assert "regenerates" in k.lookup_monster("troll").flags
    assert "hallucinogenic" in k.lookup_monster("violet fungus").flags
    assert "strength" in k.lookup_monster("hill giant").conveys
    assert k.lookup_monster("gnome lord").alignment == 0
    assert k.lookup_monster("jabberwock").size == "large"


def test_a_were_name_picks_either_form_by_symbol():
    assert k.lookup_monster("wererat").symbol == "r"
    human = k.lookup_monster("wererat", symbol="@")
    assert human.symbol == "@" and human.leaves_corpse and "lycanthrope" in human.flags


def test_a_misspelt_monster_name_suggests_the_closest_names():
    with pytest.raises(k.UnknownNameError) as err:
        k.lookup_monster("newtt")
    assert isinstance(err.value, ValueError)
    assert str(err.value).startswith("no monster named 'newtt'; did you mean: newt")
    assert err.value.suggestions[0] == "newt"


# ---------------------------------------------------------------- items
def test_a_long_sword_does_d8_d12():
    info = k.lookup_item("long sword")
    assert (info.damage_small, info.damage_large, info.skill) == ("d8", "d12", "long sword")
    assert (info.object_class, info.material, info.weight, info.base_price) == ("weapon", "iron", 40, 15)


def test_plate_mail_gives_ac_7_and_is_body_armor():
    info = k.lookup_item("plate mail")
    assert (info.armor_class, info.armor_slot, info.extra["magic_cancellation"]) == (7, "body armor", 2)
    assert k.armor_slot_of(obj("elven cloak").index) == "cloak"
    assert k.armor_slot_of(obj("long sword").index) is None


def test_balsa_wand_lists_possible_wands():
    info = k.lookup_item("balsa wand")
    wands = sorted(f"wand of {o.name}" for o in tables.objects() if o.oc_class == 11 and o.name)
    assert info.name == "balsa wand" and info.object_class == "wand"
    assert sorted(info.extra["possible_identities"]) == wands
    assert info.material == "wooden"  # the material travels with the appearance
    assert 500 in info.extra["possible_prices"]


def test_potions_answer_to_their_full_and_bare_names():
    full = k.lookup_item("potion of healing")
    bare = k.lookup_item("healing")
    assert full.name == bare.name == "potion of healing"
    assert bare.extra["other_matches"] == ["spellbook of healing"]
    assert full.description is None and "ruby potion" in full.extra["possible_appearances"]


def test_inventory_text_is_tolerated():
    info = k.lookup_item("2 uncursed +1 daggers (in quiver)")
    assert info.name == "dagger" and info.damage_small == "d4"


def test_fixed_appearances_resolve_to_their_one_object():
    info = k.lookup_item("runed dagger")
    assert info.name == "elven dagger" and info.material == "wooden"
    assert k.lookup_item("clear potion").name == "potion of water"


def test_shared_appearances_list_every_candidate():
    assert set(k.lookup_item("bag").extra["possible_identities"]) == {
        "sack",
        "oilskin sack",
        "bag of holding",
        "bag of tricks",
    }
    white = k.lookup_item("white gem").extra["possible_identities"]
    assert {"diamond", "fluorite", "worthless piece of white glass"} <= set(white)
    stones = k.lookup_item("gray stone").extra["possible_identities"]
    assert set(stones) == {"luckstone", "loadstone", "touchstone", "flint"}
    boots = k.lookup_item("snow boots")
    assert boots.armor_slot == "boots" and "levitation boots" in boots.extra["possible_identities"]


def test_food_gives_nutrition_and_object_info_works_by_index():
    assert k.lookup_item("food ration").nutrition == 800
    assert k.object_info(obj("lembas wafer").index).nutrition == 800


def test_a_misspelt_item_name_suggests_the_closest_names():
    with pytest.raises(k.UnknownNameError, match="long sword"):
        k.lookup_item("lng sword")


# ---------------------------------------------------------------- eating
def test_a_cockatrice_corpse_is_never_safe_to_eat():
    eaters = [None, k.eater_for("human", "Valkyrie"), k.Eater(resistances={"petrification", "poison"})]
    for eater in eaters:
        for age in (0, 10):
            assert not k.is_safe_to_eat("cockatrice", age, eater)
    ok, why = k.corpse_verdict("chickatrice", 0)
    assert not ok and "stone" in why
    assert not k.is_safe_to_eat("Medusa", 0, k.Eater(resistances={"poison"}))


def test_a_lichen_corpse_is_safe_at_any_age():
    for age in (0, 31, 500, 10_000, None):
        assert k.is_safe_to_eat("lichen", age)
    assert k.is_safe_to_eat("lizard corpse", 2000, k.eater_for("elf", "Wizard"))


def test_a_100_turn_old_newt_corpse_is_unsafe():
    assert not k.is_safe_to_eat("newt", 100, k.eater_for("human", "Valkyrie"))
    assert k.is_safe_to_eat("newt", 10, k.eater_for("human", "Valkyrie"))
    assert k.is_safe_to_eat("newt", k.SAFE_CORPSE_AGE)
    assert not k.is_safe_to_eat("newt", k.SAFE_CORPSE_AGE + 1)
    assert not k.is_safe_to_eat("newt", None)  # unknown age


def test_an_elf_must_not_eat_an_elf_corpse_but_a_dwarf_may():
    ok, why = k.corpse_verdict("Woodland-elf", 1, k.eater_for("elf", "Priest"))
    assert not ok and "cannibalism" in why
    assert k.is_safe_to_eat("Woodland-elf", 1, k.eater_for("dwarf", "Valkyrie"))
    assert not k.is_safe_to_eat("Woodland-elf", 1)  # race unknown: careful


def test_cavemen_and_orcs_may_eat_their_own_kind_and_pets():
    assert not k.is_safe_to_eat("human", 1, k.eater_for("human", "Valkyrie"))
    assert k.is_safe_to_eat("human", 1, k.eater_for("human", "Caveman"))
    assert k.is_safe_to_eat("hill orc", 1, k.eater_for("orc", "Barbarian"))
    assert not k.is_safe_to_eat("kitten", 1, k.eater_for("gnome", "Wizard"))
    assert k.is_safe_to_eat("little dog", 1, k.eater_for("orc", "Wizard"))


def test_poison_and_acid_need_the_matching_resistance():
    assert not k.is_safe_to_eat("kobold", 1, k.eater_for("human", "Samurai"))
    assert k.is_safe_to_eat("kobold", 1, k.eater_for("human", "Healer"))  # poison resistant from level 1
    assert not k.is_safe_to_eat("acid blob", 1, k.eater_for("human", "Healer"))
    # acid blobs never become tainted, so an acid-resistant hero may eat old ones
    assert k.is_safe_to_eat("acid blob", 400, k.Eater(resistances={"acid"}))


def test_corpses_with_lasting_side_effects_are_refused():
    hero = k.eater_for("dwarf", "Valkyrie")
    for name in ("wererat", "chameleon", "green slime", "Death", "small mimic", "bat", "violet fungus", "disenchanter"):
        ok, why = k.corpse_verdict(name, 1, hero)
        assert not ok and why, name
    assert not k.is_safe_to_eat("kobold zombie", 0, hero)
    assert k.is_safe_to_eat("floating eye", 3, hero)
    assert "telepathy" in k.corpse_verdict("floating eye", 3, hero)[1]


def test_an_unknown_corpse_name_raises():
    with pytest.raises(k.UnknownNameError):
        k.is_safe_to_eat("jackall", 1)


def test_eater_for_grants_role_and_race_intrinsics_by_level():
    assert k.eater_for("elf", "Wizard", 3).resistances == set()
    assert k.eater_for("elf", "Wizard", 4).resistances == {"sleep"}
    monk = k.eater_for("human", "Monk", 3)
    assert {"poison", "sleep"} <= monk.resistances and monk.fast
    assert not k.is_safe_to_eat("quantum mechanic", 1, monk)


# ---------------------------------------------------------------- prayer
def test_the_prayer_timeout_starts_at_300_and_falls_one_a_turn():
    clock = k.PrayerClock()
    assert clock.estimate(1) == 300
    assert clock.estimate(101) == 200
    assert clock.estimate(301) == 0
    assert not clock.can_pray(100, "major") and clock.can_pray(101, "major")
    assert not clock.can_pray(200, "minor") and clock.can_pray(201, "minor")
    assert not clock.can_pray(300) and clock.can_pray(301, "none")
    assert clock.chance_ok(101, "major") == 1.0 and clock.chance_ok(100, "major") == 0.0


def test_after_a_good_prayer_the_clock_assumes_a_conservative_reset():
    clock = k.PrayerClock()
    clock.record_prayer(500, succeeded=True)
    assert clock.estimate(500) == 1000
    assert not clock.can_pray(1000, "major")
    assert clock.can_pray(1300, "major")
    # rnz(350) lands at or below 200 about 22% of the time
    assert 0.18 < clock.chance_ok(500, "major") < 0.26
    assert clock.chance_ok(1300, "major") > 0.9


def test_after_a_failed_prayer_the_god_must_be_appeased_first():
    clock = k.PrayerClock()
    clock.record_prayer(400, succeeded=False)
    assert clock.estimate(5000) == k.PrayerClock.UNKNOWN
    assert not clock.can_pray(5000, "major") and clock.chance_ok(5000, "major") == 0.0
    clock.record_appeased(6000)
    assert clock.can_pray(7000, "major")
    with pytest.raises(ValueError):
        clock.can_pray(7000, "dire")


def test_major_trouble_means_low_hp_or_weak_from_hunger():
    assert k.major_trouble(5, 40, "Not Hungry")
    assert k.major_trouble(6, 42, None)  # 6 <= 42/7
    assert not k.major_trouble(7, 42, "Hungry")
    assert k.major_trouble(30, 40, "Weak") and k.major_trouble(30, 40, HungerState.FAINTING)
    assert k.major_trouble(30, 40, "Not Hungry", conditions=["Stone"])
    # NetHack 3.6 divides by 5 at experience levels 1-5
    assert k.major_trouble(8, 40, None, xp_level=3) and not k.major_trouble(8, 40, None)


def test_stats_say_hp_is_critical_by_nethacks_own_rule():
    """pray.c critically_low_hp: HP <= 5, or HP * divisor <= max HP (capped at 15 per XL),
    the divisor 5 at XL 1-5, 6 at 6-13, 7 at 14-21."""
    from dataclasses import replace

    from hackwright.api.models import Alignment, Stats

    s = Stats(hp=8, max_hp=40, pw=0, max_pw=0, ac=5, xp_level=4, xp_points=30, gold=0, strength=16,
              dexterity=12, constitution=14, intelligence=10, wisdom=10, charisma=10,
              hunger=HungerState.NOT_HUNGRY, encumbrance="Unencumbered", alignment=Alignment.LAWFUL,
              dungeon_level=5, turn=900)
    assert s.hp_critical  # 8 * 5 <= 40
    assert not replace(s, hp=9).hp_critical
    assert not replace(s, xp_level=7).hp_critical and replace(s, xp_level=7, hp=6).hp_critical  # 1/6
    assert replace(s, hp=5, max_hp=200).hp_critical  # 5 HP is always critical
    assert replace(s, xp_level=1, hp=3, max_hp=60).hp_critical  # max HP counts 15 per XL: 3 * 5 <= 15
    assert not replace(s, xp_level=1, hp=6, max_hp=60).hp_critical


def test_a_starving_hero_eats_a_fresh_little_dog_or_kobold_but_never_a_cockatrice_or_old_meat():
    """Heroes fainted to death beside the corpse of the little dog they had just killed."""
    priest = k.eater_for("human", "Priest")
    assert not k.is_safe_to_eat("little dog", 3, priest)
    assert k.is_safe_to_eat("little dog", 3, priest, starving_hp=20)
    assert not k.is_safe_to_eat("kobold", 3, priest, starving_hp=12)  # poison takes up to 15 HP
    assert k.is_safe_to_eat("kobold", 3, priest, starving_hp=20)
    assert not k.is_safe_to_eat("cockatrice", 3, priest, starving_hp=60)
    assert not k.is_safe_to_eat("little dog", 200, priest, starving_hp=60)  # rot is never worth it
    # never tainted before 60 turns: a Weak hero takes a kill up to 55 turns old
    assert not k.is_safe_to_eat("jackal", 50, priest)
    assert k.is_safe_to_eat("jackal", 50, priest, starving_hp=20)
    assert not k.is_safe_to_eat("jackal", 56, priest, starving_hp=20)
    assert not k.is_safe_to_eat("werejackal", 3, priest, starving_hp=60)

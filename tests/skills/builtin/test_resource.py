"""Scenarios for the resource skills (eat_when_hungry, pray_when_safe, rest_until_healed).

Fresh kills eaten (the API's memory of deaths): tests/skills/test_kills_memory.py."""

from __future__ import annotations

from hackwright.api import HungerState

from tests.conftest import room_des

from .conftest import message_log, run_skill, starve


async def test_a_hungry_valkyrie_eats_her_food_ration(play):
    api = play("empty_room")
    await starve(api, HungerState.HUNGRY)
    assert any(i.name.endswith("food ration") for i in await api.get_inventory())
    r = (await run_skill(api, "eat_when_hungry")).result
    assert r.stopped_reason == "ate" and r.success, r
    assert "food ration" in r.data["food"] and r.data["source"] == "inventory"
    assert (await api.get_stats()).hunger in (HungerState.NOT_HUNGRY, HungerState.SATIATED)
    assert not any("food ration" in i.name for i in await api.get_inventory())


async def test_a_hero_who_is_not_hungry_does_not_eat(play):
    api = play("empty_room")
    r = (await run_skill(api, "eat_when_hungry")).result
    assert r.stopped_reason == "not_hungry" and r.actions_taken == 0


async def test_a_newt_corpse_of_unknown_age_is_left_and_the_ration_eaten_instead(play):
    api = play("newt_corpse")
    r = (await run_skill(api, "eat_when_hungry", force=True)).result
    assert r.stopped_reason == "ate" and r.data["source"] == "inventory", r
    assert any(i.corpse_of == "newt" for i in await api.get_items_here())


async def test_pray_when_safe_does_not_pray_without_trouble(play):
    api = play("empty_room")
    r = (await run_skill(api, "pray_when_safe")).result
    assert r.stopped_reason == "no_trouble" and r.actions_taken == 0
    assert "pray" not in (await message_log(api)).lower()


async def test_pray_when_safe_prays_when_weak_from_hunger_and_the_god_fixes_it(play):
    # A god fixes trouble surely only with a good alignment record: kill a hostile first
    # (with a record near 0 a prayer may be "satisfied" and fix nothing — data.fixed says so).
    api = play("newt_adjacent")
    assert (await run_skill(api, "melee_fight")).result.stopped_reason == "target_dead"
    await starve(api, HungerState.WEAK)
    assert await api.get_prayer_timeout() <= 200
    r = (await run_skill(api, "pray_when_safe")).result
    assert r.stopped_reason == "prayed" and r.success, r
    assert "Weak" in r.data["trouble"]
    # Usually the hunger is gone; with little alignment the god may be merely "satisfied".
    assert r.data["fixed"] == ((await api.get_stats()).hunger == HungerState.NOT_HUNGRY)
    # Right after a prayer the timeout is high: a second prayer is refused even when in trouble.
    await starve(api, HungerState.HUNGRY, limit=5000)
    r = (await run_skill(api, "pray_when_safe", allow_minor=True)).result
    assert r.stopped_reason == "too_soon" and r.actions_taken == 0


async def test_rest_until_healed_after_a_rock_falls_on_the_heros_head(play):
    api = play("falling_rocks")
    await api.move("e")
    hurt = await api.get_stats()
    assert hurt.hp < hurt.max_hp * 0.9
    r = (await run_skill(api, "rest_until_healed", max_turns=800)).result
    assert r.stopped_reason == "healed" and r.success, r
    after = await api.get_stats()
    assert after.hp >= after.max_hp * 0.9 and r.turns_elapsed > 10


async def test_rest_until_healed_stops_for_a_newt_next_to_the_hero(play):
    api = play("newt_adjacent")
    r = (await run_skill(api, "rest_until_healed", hp_fraction=1.01)).result
    assert r.stopped_reason == "monster" and r.data["monsters"][0]["name"] == "newt"


async def test_rest_until_healed_waits_on_beside_a_gas_spore_which_cannot_attack(play):
    api = play("gas_spore_adjacent")
    r = (await run_skill(api, "rest_until_healed", hp_fraction=1.01, max_turns=30)).result
    assert r.stopped_reason == "budget" and r.turns_elapsed >= 30, r
    assert any(m.name == "gas spore" for m in await api.get_adjacent_monsters())


async def test_a_hero_already_weak_rests_on_and_stops_only_when_fainting_comes(play):
    """Weak with no food and no prayer left, heroes at 6 HP had their rests on Elbereth
    end at once ("hungry"), walked off the square and died (seed 59): resting is then
    the best there is, until hunger grows worse."""
    api = play("empty_room")
    await starve(api, HungerState.WEAK)
    weak = await api.get_stats()
    assert weak.hunger == HungerState.WEAK
    r = (await run_skill(api, "rest_until_healed", hp_fraction=1.01, max_turns=20)).result
    assert r.stopped_reason == "budget" and r.turns_elapsed >= 20, r
    r = (await run_skill(api, "rest_until_healed", hp_fraction=1.01, max_turns=400)).result
    # (the hunger trigger, or the skill's own check: whichever sees Fainting first)
    assert r.stopped_reason in ("hungry", "interrupted:hunger") and r.data["hunger"] in ("Fainting", "Fainted"), r


async def test_a_priest_bitten_by_a_werejackal_eats_his_wolfsbane_and_is_cured(make_api):
    """Heroes with lycanthropy turned into jackals, dropped their armour and died under
    their load; a Priest carries the cure from turn 1 and keeps his prayer for later."""
    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('d',\"werejackal\"),(2,1),hostile", hero=(1, 1))
    api = make_api(des, seed=5, role="priest", race="human", gender="male", alignment="neutral")
    assert (await run_skill(api, "cure_lycanthropy")).result.stopped_reason == "not_infected"
    for _ in range(60):
        if "Lycanthropy" in await api.get_status_effects():
            break
        await api.search()
    assert "Lycanthropy" in await api.get_status_effects()
    r = (await run_skill(api, "cure_lycanthropy")).result
    assert r.stopped_reason == "cured" and "wolfsbane" in r.data["item"], r
    assert "Lycanthropy" not in await api.get_status_effects()


async def test_a_healer_at_full_hp_drinks_all_but_two_healing_potions_and_her_max_hp_grows(play):
    # (seed 1: on seed 0 her potions of extra healing are milky, and a ghost comes out of one)
    api = play("empty_room", hero="healer", seed=1)
    before = await api.get_stats()
    r = (await run_skill(api, "drink_for_max_hp")).result
    assert r.stopped_reason == "drank" and r.success, r
    # A Healer starts with four potions of healing and four of extra healing: the
    # healing ones go first, two extra healing stay for an emergency.
    assert r.data["potions"] == ["healing"] * 4 + ["extra healing"] * 2, r.data
    after = await api.get_stats()
    assert after.max_hp >= before.max_hp + 4 + 2 * 2 and r.data["max_hp"] == after.max_hp
    kept = [i for i in await api.get_inventory() if i.object_class == "potion" and "healing" in i.name]
    assert sum(i.quantity for i in kept) == 2 and "extra healing" in kept[0].name
    again = (await run_skill(api, "drink_for_max_hp")).result
    assert again.stopped_reason == "nothing_spare" and again.actions_taken == 0


async def test_a_healer_beside_a_jackal_drinks_nothing(play):
    api = play("jackal_adjacent", hero="healer")
    r = (await run_skill(api, "drink_for_max_hp")).result
    assert r.stopped_reason == "monster" and not r.success and r.actions_taken == 0, r


async def test_a_chaotic_priest_bitten_to_3_hp_keeps_his_holy_water_which_would_burn_him(make_api):
    """Holy water cures lycanthropy but burns a chaotic hero for 2d6: at 12 HP or fewer
    cure_lycanthropy will not drink it (a Priestess at 4 HP died of it)."""
    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('d',\"werejackal\"),(2,1),hostile", hero=(1, 1))
    api = make_api(des, seed=5, role="priest", race="human", gender="male", alignment="chaotic")
    wolfsbane = next(i for i in await api.get_inventory() if "wolfsbane" in i.text)
    assert (await api.drop(wolfsbane.slot)).success
    for _ in range(60):
        if "Lycanthropy" in await api.get_status_effects():
            break
        await api.search()
    assert "Lycanthropy" in await api.get_status_effects()
    hp = (await api.get_stats()).hp
    assert hp <= 12
    r = (await run_skill(api, "cure_lycanthropy")).result
    assert r.stopped_reason == "too_hurt" and r.data["hp"] == hp and r.actions_taken == 0, r
    assert any("4 potions of holy water" in i.text for i in await api.get_inventory())


FOUNTAIN_ROOM = ["-------------", "|...........|", "|...........|", "|...........|", "-------------"]
FIVE_FOUNTAINS = "\n".join(f"FOUNTAIN:({x},3)" for x in (2, 4, 6, 8, 10))
FOUR_GAIN_LEVELS = "\n".join(["OBJECT:('!',\"gain level\"),(1,1),blessed"] * 4)


async def grow_to_xl5(api):
    """Pick up the four blessed potions of gain level underfoot and drink them all."""
    assert (await api.pickup()).success
    for potion in [i.slot for i in await api.get_inventory() if i.object_class == "potion"]:
        while any(i.slot == potion for i in await api.get_inventory()):
            assert (await api.quaff(potion)).success
    assert (await api.get_stats()).xp_level == 5


async def test_a_lawful_knight_of_xl_5_dips_his_long_sword_in_the_fountains_until_it_is_excalibur(make_api):
    # (a floating eye beside the fountains is no reason to stop: it hardly moves)
    eye = "MONSTER:('e',\"floating eye\"),(3,2),hostile"
    api = make_api(room_des(FOUNTAIN_ROOM, "\n".join([FOUR_GAIN_LEVELS, FIVE_FOUNTAINS, eye])), seed=1, role="knight")
    r = (await run_skill(api, "dip_for_excalibur")).result
    assert r.stopped_reason == "too_low_level" and r.actions_taken == 0 and r.data["xl"] == 1
    await grow_to_xl5(api)
    r = (await run_skill(api, "dip_for_excalibur")).result
    assert r.stopped_reason == "excalibur" and r.success, r
    assert r.data["dips"] >= 1 and "Excalibur (weapon in hand)" in r.data["sword"]
    assert "reaches up to bless the sword" in await message_log(api)
    again = (await run_skill(api, "dip_for_excalibur")).result
    assert again.stopped_reason == "have_excalibur" and again.actions_taken == 0


async def test_a_water_nymph_let_out_of_the_fountain_stops_the_dipping(make_api):
    api = make_api(room_des(FOUNTAIN_ROOM, FOUR_GAIN_LEVELS + "\n" + FIVE_FOUNTAINS), seed=0, role="knight")
    await grow_to_xl5(api)
    r = (await run_skill(api, "dip_for_excalibur")).result
    assert r.stopped_reason == "monster" and r.data["monster"] == "water nymph", r
    assert not any("Excalibur" in i.text for i in await api.get_inventory())


async def test_a_neutral_valkyrie_never_dips_her_long_sword(make_api):
    api = make_api(room_des(FOUNTAIN_ROOM, FIVE_FOUNTAINS), role="valkyrie", race="human", alignment="neutral")
    r = (await run_skill(api, "dip_for_excalibur")).result
    assert r.stopped_reason == "not_lawful" and r.actions_taken == 0

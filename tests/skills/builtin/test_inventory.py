"""Scenarios for the inventory skills (pickup_useful, lighten_load, wear_better_armor, wield_better_weapon)."""

from __future__ import annotations

from .conftest import QUIET, run_skill, spot


async def test_pickup_useful_takes_the_useful_things_from_a_pile_and_leaves_the_junk(play):
    api = play("item_pile")
    r = (await run_skill(api, "pickup_useful")).result
    assert r.stopped_reason == "picked_up" and r.success, r
    carried = " | ".join(i.text for i in await api.get_inventory())
    for wanted in ("wand", "ring", "potion", "scroll", "lichen corpse", "leather gloves", "plate mail"):
        assert wanted in carried, (wanted, carried)
    daggers = [i for i in await api.get_inventory() if "dagger" in i.name and not i.equipped]
    assert sum(i.quantity for i in daggers) == 2  # the pile's two (they stack only with the same BUC)
    assert sum("food ration" in i.text for i in await api.get_inventory()) == 2  # hers and the one found
    assert (await api.get_stats()).gold == 1
    for junk in ("gray stone", "iron chain", "statue", "large box", "newt corpse"):
        assert junk not in carried, junk
    left = " | ".join(i.text for i in await api.get_items_here())
    for junk in ("gray stone", "iron chain", "statue", "large box", "newt corpse"):
        assert junk in left, junk
    assert set(r.data["left"]) == {i.text for i in await api.get_items_here()}


async def test_pickup_useful_puts_back_what_would_burden_a_wizard_and_stops(play):
    api = play("two_plate_mails", hero="wizard")
    r = (await run_skill(api, "pickup_useful")).result
    assert r.stopped_reason == "burdened", r
    stats = await api.get_stats()
    assert stats.encumbrance == "Unencumbered"
    assert "potion" in " ".join(r.data["items"])  # light things first
    assert sum("plate mail" in i.text for i in await api.get_inventory()) <= 1
    assert any("plate mail" in i.text for i in await api.get_items_here())


async def test_pickup_useful_on_an_empty_square_finds_nothing(play):
    api = play("empty_room")
    r = (await run_skill(api, "pickup_useful")).result
    assert r.stopped_reason == "nothing_here" and r.actions_taken == 0


async def test_wear_better_armor_wears_a_helm_and_armour_but_keeps_the_better_small_shield(play):
    api = play("armor_pile")
    assert (await api.pickup()).success
    ac_before = (await api.get_stats()).ac
    r = (await run_skill(api, "wear_better_armor")).result
    assert r.stopped_reason == "wore" and r.success, r
    eq = await api.get_equipment()
    assert "dwarvish iron helm" in eq["helmet"].name
    assert "leather armor" in eq["body armor"].name
    assert "small shield" in eq["shield"].name  # +3 small shield (AC 4) beats a large shield (AC 2)
    assert (await api.get_stats()).ac < ac_before  # (the pieces' enchantments are random)
    again = (await run_skill(api, "wear_better_armor")).result
    assert again.stopped_reason == "nothing_better" and again.actions_taken == 0


async def test_wield_better_weapon_gives_a_wizard_the_katana_he_found(play):
    api = play("katana", hero="wizard")
    assert (await api.pickup()).success  # a wizard does not know it: "a samurai sword"
    r = (await run_skill(api, "wield_better_weapon")).result
    # d10 (5.5) against his +1 quarterstaff (d6 + 1 = 4.5): not better by the default 1.5 …
    assert r.stopped_reason == "keep_current" and r.data["best"] == "a samurai sword"
    r = (await run_skill(api, "wield_better_weapon", min_gain=0.5)).result
    assert r.stopped_reason == "wielded" and r.success, r  # … but by 0.5
    assert "samurai sword" in (await api.get_equipment())["weapon"].name


async def test_wield_better_weapon_keeps_a_valkyries_long_sword_over_a_katana(play):
    api = play("katana")
    assert (await api.pickup("katana")).success
    r = (await run_skill(api, "wield_better_weapon")).result
    assert r.stopped_reason == "keep_current" and r.actions_taken == 0
    assert "long sword" in (await api.get_equipment())["weapon"].name


async def test_a_monk_fighting_bare_handed_neither_wields_the_katana_nor_wears_leather_armour(play):
    """A Monk's martial arts beat any weapon he is unskilled in, and body armour costs him
    his martial arts' to-hit bonus: both skills ask the API for the role (nh.get_role)."""
    api = play("katana", hero="monk")
    assert await api.get_role() == "Monk"
    assert (await api.pickup()).success
    r = (await run_skill(api, "wield_better_weapon", min_gain=0.0)).result
    assert r.stopped_reason == "keep_martial_arts" and r.actions_taken == 0, r
    assert (await api.get_equipment())["weapon"] is None
    api = play("leather_armor", hero="monk")
    assert (await api.pickup()).success
    r = (await run_skill(api, "wear_better_armor")).result
    assert (await api.get_equipment())["body armor"] is None, r


async def test_wear_better_armor_takes_a_wizards_cloak_off_to_put_leather_armour_on_and_back(play):
    api = play("leather_armor", hero="wizard")
    assert (await api.pickup()).success
    r = (await run_skill(api, "wear_better_armor")).result
    assert r.stopped_reason == "wore", r
    eq = await api.get_equipment()
    assert "leather armor" in eq["body armor"].name
    assert "cloak" in eq["cloak"].name  # back on
    assert r.actions_taken == 3  # cloak off, armour on, cloak on


async def test_a_wizard_loaded_with_rocks_and_plate_mail_drops_them_and_keeps_daggers_and_food(play):
    # (a game that lets a pick-up burden the hero, as NetHack's default does)
    api = play("loaded_wizard", hero="wizard",
               options=tuple(o for o in QUIET if not o.startswith("pickup_burden")))
    await api.pickup()
    assert (await api.get_stats()).encumbrance != "Unencumbered"
    r = (await run_skill(api, "lighten_load")).result
    assert r.stopped_reason == "unburdened" and r.success, r
    assert (await api.get_stats()).encumbrance == "Unencumbered"
    assert "rocks" in r.data["dropped"][0]  # junk first
    carried = " | ".join(i.text for i in await api.get_inventory())
    assert "rock" not in carried and "dagger" in carried and "apple" in carried
    assert "quarterstaff" in carried and "cloak" in carried  # wielded and worn things stay
    # A pick-axe digs down and through any gap too narrow to squeeze by: worth its weight
    # (a Barbarian who dropped his to squeeze past a rock corner was shut in the Mines).
    assert "pick-axe" in carried
    again = (await run_skill(api, "lighten_load")).result
    assert again.stopped_reason == "not_burdened" and again.actions_taken == 0


async def test_a_barbarian_too_heavy_for_a_gap_explores_no_further_then_drops_his_axe_and_squeezes_through(play):
    # Chain mail, a two-handed sword and a spare axe kept a Barbarian on the wrong side of
    # a gap in the Gnomish Mines: exploring picked the frontier past it again and again,
    # and every walk there failed (the whole hunt for a pick went so, seed 42).
    api = play("squeeze_gap", hero="barbarian", seed=1)  # a two-handed sword, a spare axe
    assert (await api.pickup()).success  # eight potions and his food ration: 640 weight units in all
    gap, beyond = spot(api, 3, 2), spot(api, 4, 3)
    assert (await api.get_position()) == gap
    refused = await api.move("se")
    assert "carrying too much to get through" in " ".join(refused.messages)
    assert (await api.get_position()) == gap
    assert await api.find_unexplored() is None  # the dark room lies only past the gap
    r = (await run_skill(api, "explore_and_fight")).result
    assert r.stopped_reason == "level_done", r
    r = (await run_skill(api, "lighten_load", squeeze=True)).result
    assert any("axe" in d for d in r.data["dropped"]), r  # the weapon in reserve, not the potions
    carried = " | ".join(i.text for i in await api.get_inventory())
    assert "two-handed sword" in carried and "clear potions" in carried
    assert await api.find_unexplored() == beyond
    assert (await api.move("se")).success and (await api.get_position()) == beyond


async def test_a_samurai_drops_his_bow_and_arrows_last_to_squeeze_through_a_gap(play):
    # Splint mail, katana, wakizashi, yumi and ya: a Samurai with a few potions is over
    # 600 and was shut out of the way down so (seed 50). His bow goes, his potions stay.
    api = play("squeeze_gap", hero="samurai")
    assert (await api.pickup()).success
    assert "carrying too much" in " ".join((await api.move("se")).messages)
    r = (await run_skill(api, "lighten_load", squeeze=True)).result
    assert r.stopped_reason == "unburdened", r
    dropped = " | ".join(r.data["dropped"])
    assert "wakizashi" in dropped and "yumi" in dropped and " ya " in dropped, dropped
    carried = " | ".join(i.text for i in await api.get_inventory())
    assert "katana" in carried and "splint mail" in carried and "clear potion" in carried
    assert (await api.move("se")).success and (await api.get_position()) == spot(api, 4, 3)


async def test_an_overtaxed_wizard_drops_even_the_iron_ball_at_the_ready(play):
    # Overtaxed or Overloaded a hero cannot move or eat; a quivered load must go too
    # (a Cavewoman turned wererat starved so, keeping her quivered flint stones).
    api = play("overloaded_wizard", hero="wizard",
               options=tuple(o for o in QUIET if not o.startswith("pickup_burden")))
    for _ in range(3):
        res = await api.send_keys(",")
        while res.prompt:
            res = await api.send_keys("y" if "Continue" in res.prompt else ",\r")
    balls = [i.slot for i in await api.get_inventory() if "iron ball" in i.text]
    assert len(balls) == 3
    await api.send_keys("Q" + balls[0])
    assert (await api.get_stats()).encumbrance in ("Overtaxed", "Overloaded")
    r = (await run_skill(api, "lighten_load")).result
    assert r.stopped_reason == "unburdened" and r.success, r
    assert not any("iron ball" in i.text for i in await api.get_inventory())


async def test_a_wizard_puts_on_his_ring_of_slow_digestion_and_leaves_fire_resistance_in_the_pack(make_api):
    """A Wizard who carried a ring of slow digestion from turn 1 lived on prayers for
    hunger, one every 850 turns, and starved once the prayers ran out (seed 19)."""
    api = make_api(seed=6, role="wizard", race="human", gender="male", alignment="neutral")
    assert (await run_skill(api, "melee_fight")).result.stopped_reason == "target_dead"  # a newt at hand
    r = (await run_skill(api, "wear_better_armor")).result
    assert r.stopped_reason == "wore", r
    worn = [i.text for i in await api.get_inventory() if i.object_class == "ring" and i.equipped]
    assert len(worn) == 1 and "slow digestion" in worn[0], worn


async def test_a_healer_who_picked_up_shop_goods_pays_for_them_and_owes_nothing_after(play):
    # A shopkeeper who is owed never leaves his door: heroes who ate a corpse on a shop
    # floor waited there for thousands of turns.
    api = play("tool_shop_keeper_at_door", hero="healer")
    first = await run_skill(api, "pay_shopkeeper")
    assert first.result.stopped_reason == "nothing_owed", first.result
    for d in ("w", "n", "s", "e"):
        here = await api.get_items_here()
        if here:
            break
        await api.move(d)
    here = await api.get_items_here()
    assert here and "for sale" in here[0].text, here
    assert (await api.pickup(here[0].name)).success
    assert any("unpaid" in i.text for i in await api.get_inventory())
    gold = (await api.get_stats()).gold
    r = (await run_skill(api, "pay_shopkeeper")).result
    assert r.stopped_reason == "paid" and r.success, r
    assert r.data["gold_spent"] > 0 and (await api.get_stats()).gold == gold - r.data["gold_spent"]
    assert not any("unpaid" in i.text for i in await api.get_inventory())


async def test_a_caveman_bashes_open_a_locked_box_and_takes_the_wand_and_a_valkyrie_leaves_it_shut(make_api):
    """A blunt weapon forces a lock safely; a blade may snap, and a Valkyrie's long sword
    is all she fights with."""
    from tests.conftest import room_des

    from .conftest import CHARACTERS

    box = "CONTAINER:('(',\"large box\"),(2,1),locked {\nOBJECT:('/',\"striking\")\n}"
    rows = ["-------", "|.....|", "|.....|", "-------"]
    for hero, opens in (("caveman", True), ("valkyrie", False)):
        api = make_api(room_des(rows, box, hero=(2, 1)), seed=0, extra={"options": QUIET}, **CHARACTERS[hero])
        r = (await run_skill(api, "pickup_useful")).result
        wands = [i for i in await api.get_inventory() if i.object_class == "wand"]
        if opens:
            assert r.data.get("box") == "forced" and r.success, r
            assert len(wands) == 1, await api.get_inventory()
        else:
            assert r.data.get("box") == "locked" and not wands, r

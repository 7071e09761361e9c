"""read_or_zap_to_find_way: a hero walled into a room reads or zaps its way out."""

from __future__ import annotations

from tests.conftest import room_des

from .conftest import run_skill

# Two rooms with a wall and no door between them: the hero's (left) and the one with the stairs.
WALLED_IN = ["-----------", "|...|.....|", "|...|.....|", "|...|.....|", "-----------"]


async def test_a_hero_walled_into_a_room_reads_a_scroll_of_teleportation_and_lands_elsewhere(make_api):
    des = room_des(WALLED_IN, "OBJECT:('?',\"teleportation\"),(2,2)\nSTAIR:(7,2),down", hero=(2, 2))
    des = des.replace("FLAGS:noteleport", "FLAGS:hardfloor")  # teleportation must work here
    api = make_api(des, seed=0)
    assert (await run_skill(api, "pickup_useful")).result.success
    assert any(i.object_class == "scroll" for i in await api.get_inventory())
    start = await api.get_position()
    r = (await run_skill(api, "read_or_zap_to_find_way")).result
    assert r.stopped_reason == "used" and r.success, r
    assert r.data["moved"] and (await api.get_position()) != start
    assert not any(i.object_class == "scroll" for i in await api.get_inventory())
    # Nothing left to read: says so, and takes no turn.
    again = (await run_skill(api, "read_or_zap_to_find_way")).result
    assert again.stopped_reason == "nothing_to_use" and again.turns_elapsed == 0


async def test_a_walled_in_hero_zaps_an_unknown_wand_of_digging_down_and_falls_to_the_next_level(make_api):
    des = room_des(WALLED_IN, "OBJECT:('/',\"digging\"),(2,2)\nSTAIR:(7,2),down", hero=(2, 2))
    api = make_api(des, seed=0)
    assert (await run_skill(api, "pickup_useful")).result.success
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    assert "digging" not in wand.text  # unidentified
    # (the hero starts on the up stairs, where a beam zapped down would bounce: it steps off)
    r = (await run_skill(api, "read_or_zap_to_find_way")).result
    assert r.stopped_reason == "used" and r.data["slot"] == wand.slot, r
    assert r.data["level_changed"] and "You dig a hole through the floor" in " ".join(r.data["messages"])


async def test_a_walled_in_archeologist_digs_down_with_his_pick_axe(make_api):
    des = room_des(WALLED_IN, "STAIR:(7,2),down", hero=(2, 2))
    api = make_api(des, seed=0, role="archeologist", race="human", gender="male", alignment="lawful")
    assert any("pick-axe" in i.text for i in await api.get_inventory())
    r = (await run_skill(api, "read_or_zap_to_find_way")).result
    assert r.stopped_reason == "used" and "pick-axe" in r.data["item"], r
    assert r.data["level_changed"], r.data


async def test_an_archeologist_beside_a_shop_walks_well_away_before_digging_down(play):
    # A hole dug in sight of a shopkeeper may be his; an Archeologist kept at a shop
    # door gave up digging there sixty times.
    api = play("pick_axe_by_a_shop", hero="archeologist")
    keeper = next(m.position for m in await api.get_visible_monsters() if m.name == "shopkeeper")
    assert (await api.get_position()).steps_to(keeper) < 8
    r = (await run_skill(api, "read_or_zap_to_find_way")).result
    assert r.stopped_reason == "used" and r.data["level_changed"], r
    assert (await api.get_stats()).dungeon_level == 2

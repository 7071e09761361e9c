"""Accessories, dipping, skills and sacrifice on real games: rings on both hands,
a cursed ring, #enhance after training an axe, holy water and a fountain,
offering corpses at an altar."""

from __future__ import annotations

from hackwright.api import EnhanceResult, NetHackAPI
from hackwright.api.keyboard import PromptKind
from tests.conftest import room_des

ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]
STEPS = {(0, -1): "n", (0, 1): "s", (1, 0): "e", (-1, 0): "w", (1, -1): "ne", (-1, -1): "nw", (1, 1): "se",
         (-1, 1): "sw"}

RINGS = (
    "OBJECT:('=',\"protection\"),(1,1),uncursed\n"
    "OBJECT:('=',\"searching\"),(1,1),uncursed\n"
    "OBJECT:('=',\"adornment\"),(1,1),uncursed\n"
    "OBJECT:('\"',\"amulet of ESP\"),(1,1),uncursed\n"
    "OBJECT:('(',\"blindfold\"),(1,1),uncursed"
)


def at_command_prompt(api: NetHackAPI) -> bool:
    return api.game_over or api._kb.prompt().kind is PromptKind.NONE


async def picked_up(api: NetHackAPI) -> dict[str, str]:
    """Pick up everything here; the new items' names (as the pack shows them) by letter."""
    before = {i.slot for i in await api.get_inventory()}
    assert (await api.pickup()).success
    return {i.slot: i.name for i in await api.get_inventory() if i.slot not in before}


async def test_a_ring_put_on_is_worn_and_removed_again(make_api):
    api = make_api(room_des(ROOM, RINGS), role="valkyrie")
    new = await picked_up(api)
    first, second, third = sorted(s for s, n in new.items() if n.endswith("ring"))

    res = await api.put_on(first)
    assert res.success, res
    eq = await api.get_equipment()
    assert eq["left ring"] is not None and eq["left ring"].slot == first
    assert "(on left hand)" in next(i.text for i in await api.get_inventory() if i.slot == first)

    assert (await api.put_on(second)).success
    assert (await api.get_equipment())["right ring"].slot == second
    full = await api.put_on(third)
    assert not full.success and "both ring hands are full" in full.error
    again = await api.put_on(first)
    assert not again.success and "already worn" in again.error

    res = await api.remove(first)
    assert res.success, res
    eq = await api.get_equipment()
    assert eq["left ring"] is None and eq["right ring"].slot == second
    assert "(on left hand)" not in next(i.text for i in await api.get_inventory() if i.slot == first)
    assert at_command_prompt(api)


async def test_an_amulet_and_a_blindfold_go_on_and_come_off(make_api):
    api = make_api(room_des(ROOM, RINGS), role="valkyrie")
    new = await picked_up(api)
    amulet = next(s for s, n in new.items() if n.endswith("amulet"))
    blindfold = next(s for s, n in new.items() if n == "blindfold")
    assert (await api.put_on(amulet)).success
    assert (await api.get_equipment())["amulet"].slot == amulet
    assert (await api.put_on(blindfold)).success
    assert "Blind" in await api.get_status_effects()
    assert (await api.remove(blindfold)).success
    assert "Blind" not in await api.get_status_effects()
    assert (await api.get_equipment())["eyewear"] is None


async def test_putting_on_what_is_no_accessory_fails_and_names_the_accessories(make_api):
    api = make_api(room_des(ROOM, RINGS), role="valkyrie")
    new = await picked_up(api)
    res = await api.put_on("a")  # the long sword
    assert not res.success and "not an accessory" in res.error
    assert all(f"{s} (" in res.error for s in new)
    res = await api.put_on("c")  # the shield
    assert not res.success and "wear(letter)" in res.error
    res = await api.put_on("z")
    assert not res.success and "'z'" in res.error
    res = await api.remove(next(iter(new)))  # not worn
    assert not res.success and "not a worn accessory" in res.error
    assert all(i.equipped not in ("left ring", "right ring", "amulet", "eyewear") for i in await api.get_inventory())


async def test_a_cursed_ring_stays_on(make_api):
    api = make_api(room_des(ROOM, "OBJECT:('=',\"adornment\"),(1,1),cursed"), role="valkyrie")
    (ring,) = await picked_up(api)
    assert (await api.put_on(ring)).success
    res = await api.remove(ring)
    assert not res.success and "cursed" in res.error
    assert (await api.get_equipment())["left ring"].slot == ring


async def test_enhance_with_nothing_to_advance_succeeds_with_no_skills(make_api):
    api = make_api(room_des(ROOM), role="valkyrie")
    res = await api.enhance()
    assert isinstance(res, EnhanceResult)
    assert res.success and res.advanced == [] and not res.turn_elapsed
    assert "no skill can be advanced now" in res.messages
    assert at_command_prompt(api)


async def test_enhance_advances_the_axe_after_a_valkyrie_hits_enough_lichens(make_api):
    # Unskilled -> Basic takes 20 hits that do more than 1 damage, and a skill slot,
    # which the levels gained from the kills bring. Lichens do no damage.
    w, h = 9, 5
    rows = ["-" * (w + 2)] + ["|" + "." * w + "|" for _ in range(h)] + ["-" * (w + 2)]
    lichens = "\n".join(f"MONSTER:('F',\"lichen\"),({x},{y}),asleep"
                        for x in range(1, w + 1) for y in range(1, h + 1) if (x, y) != (1, 1))
    api = make_api(room_des(rows, "OBJECT:(')',\"axe\"),(1,1)\n" + lichens), role="valkyrie")
    assert (await api.pickup("axe")).success
    axe = next(i.slot for i in await api.get_inventory() if i.name == "axe")
    assert (await api.wield(axe)).success

    assert not (await api.get_hero()).skill_ready
    confident = False
    for _ in range(300):
        adjacent = await api.get_adjacent_monsters()
        if not adjacent:
            seen = await api.get_visible_monsters()
            assert seen, "every lichen died before the axe could be advanced"
            await api.move_to(seen[0].position)
            continue
        hero, target = await api.get_position(), adjacent[0].position
        res = await api.attack(STEPS[(target.x - hero.x, target.y - hero.y)])
        if any("You feel more confident in your weapon skills" in m for m in res.messages):
            confident = True
            break
    assert confident
    assert (await api.get_hero()).skill_ready  # said once, and it holds until #enhance
    await api.search()
    assert (await api.get_hero()).skill_ready

    res = await api.enhance()
    assert res.success, res
    assert res.advanced == ["axe"]
    assert not (await api.get_hero()).skill_ready
    assert "You are now more skilled in axe." in res.messages
    again = await api.enhance()
    assert again.success and again.advanced == []
    assert at_command_prompt(api)


async def test_a_dagger_dipped_into_holy_water_is_blessed(make_api):
    api = make_api(room_des(ROOM, "OBJECT:('!',\"water\"),(1,1),blessed"), role="valkyrie")
    (potion,) = await picked_up(api)
    res = await api.dip("b", potion)
    assert res.success, res
    dagger = next(i for i in await api.get_inventory() if i.slot == "b")
    assert dagger.blessed_cursed_unknown == "blessed"
    assert potion not in {i.slot for i in await api.get_inventory()}


async def test_a_dagger_dipped_into_a_fountain_only_where_there_is_one(make_api):
    api = make_api(room_des(ROOM, "FOUNTAIN:(2,1)"), role="valkyrie")
    res = await api.dip("b", "fountain")
    assert not res.success and "no fountain" in res.error
    res = await api.dip("b", "x")
    assert not res.success and "'fountain'" in res.error
    assert (await api.move("e")).success
    turn = (await api.get_stats()).turn
    res = await api.dip("b", "fountain")
    assert res.success, res
    assert any("into the fountain?" in m and m.endswith(" y") for m in res.messages)
    assert (await api.get_stats()).turn > turn
    assert at_command_prompt(api)


async def test_offering_off_an_altar_fails(make_api):
    api = make_api(room_des(ROOM, "OBJECT:('%',\"corpse\"),(1,1),montype:\"newt\""), role="valkyrie")
    res = await api.offer()
    assert not res.success and "not standing on an altar" in res.error
    assert any("newt corpse" in i.text for i in await api.get_items_here())


async def test_a_fresh_newt_corpse_on_an_altar_is_offered_and_consumed(make_api):
    des = room_des(ROOM, "ALTAR:(2,1),coaligned,altar\nOBJECT:('%',\"corpse\"),(2,1),montype:\"newt\"")
    api = make_api(des, role="valkyrie")
    assert (await api.move("e")).success
    res = await api.offer()
    assert res.success, res
    assert any("sacrifice it?" in m for m in res.messages)
    assert any("Your sacrifice is consumed" in m for m in res.messages)
    assert not any("corpse" in i.text for i in await api.get_items_here())
    again = await api.offer()
    assert not again.success and "no corpse" in again.error


async def test_a_corpse_of_the_heros_own_race_is_not_offered(make_api):
    des = room_des(ROOM, "ALTAR:(2,1),coaligned,altar\nOBJECT:('%',\"corpse\"),(2,1),montype:\"human\"")
    api = make_api(des, role="valkyrie", race="human")
    assert (await api.move("e")).success
    res = await api.offer()
    assert not res.success and "own race" in res.error
    assert any("human corpse" in i.text for i in await api.get_items_here())

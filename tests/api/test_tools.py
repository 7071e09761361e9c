"""Tools and digging: apply, dig (pick and wand), force_lock and untrap on real games."""

from __future__ import annotations

from pathlib import Path

from minihack.base import MH_NETHACKOPTIONS

from hackwright.api.keyboard import PromptKind
from tests.conftest import room_des

LEVELS = Path(__file__).resolve().parents[1] / "levels"
# MiniHack's "no pet" option is dropped once a character is chosen: name it here.
QUIET = MH_NETHACKOPTIONS + ("!autopickup", "pettype:none")
ARCHEOLOGIST = dict(role="archeologist", race="dwarf", gender="male", alignment="lawful")
VALKYRIE = dict(role="valkyrie", race="human", gender="female", alignment="neutral")

# Two rooms with a wall and no door between them; the hero starts (on the up stairs)
# in the left one, one step from the dividing wall when at (3, 2).
WALLED_IN = ["-----------", "|...|.....|", "|...|.....|", "|...|.....|", "-----------"]


def game(make_api, rows=WALLED_IN, extra="", hero=(2, 2), character=ARCHEOLOGIST):
    return make_api(room_des(rows, extra, hero=hero), seed=0, extra={"options": QUIET}, **character)


def at_prompt(api) -> bool:
    return api._kb.prompt().kind is PromptKind.NONE


async def pick_letter(api) -> str:
    return next(i.slot for i in await api.get_inventory() if "pick-axe" in i.text)


async def test_an_archeologist_digs_down_through_the_floor_and_lands_on_the_next_level(make_api):
    api = game(make_api)
    await api.move("e")  # off the up stairs
    assert (await api.get_stats()).dungeon_level == 1
    r = await api.dig("down")
    assert r.success, (r.error, r.messages)
    text = " ".join(r.messages)
    assert "You dig a pit in the floor" in text and "You dig a hole through the floor" in text
    assert (await api.get_stats()).dungeon_level == 2
    assert r.messages[-1].startswith("Now on Dlvl 2") and r.turn_elapsed
    # applying the pick wielded it
    assert (await api.get_equipment())["weapon"].text.endswith("(weapon in hand)")
    assert "pick-axe" in (await api.get_equipment())["weapon"].text
    assert at_prompt(api)


async def test_digging_east_into_the_wall_opens_it(make_api):
    api = game(make_api)
    assert (await api.move("e")).success  # off the stairs, now beside the dividing wall
    wall = (await api.get_position()).offset("e")
    level = await api.get_current_level()
    assert not level.tile_at(wall).is_walkable
    r = await api.apply(await pick_letter(api), "e")  # apply routes a pick to dig
    assert r.success, (r.error, r.messages)
    assert any("You make an opening in the wall" in m for m in r.messages)
    assert (await api.get_current_level()).tile_at(wall).is_walkable
    step = await api.move("e")
    assert step.success and await api.get_position() == wall


async def test_digging_towards_open_floor_fails_listing_the_directions_with_something_to_dig(make_api):
    api = game(make_api)
    assert (await api.move("e")).success  # beside the dividing wall
    turn = (await api.get_stats()).turn
    r = await api.dig("w")  # the room's floor: nothing to dig
    assert not r.success and "nothing to dig to the w" in r.error
    assert "ne, e, se" in r.error and "down" in r.error
    bad = await api.dig("sideways")
    assert not bad.success and "invalid dig direction 'sideways'" in bad.error
    assert "n, ne, e, se, s, sw, w, nw, down" in bad.error
    assert (await api.get_stats()).turn == turn and at_prompt(api)


async def test_digging_down_on_the_stairs_is_refused_before_anything_is_done(make_api):
    api = game(make_api)  # the hero starts on the up stairs
    turn = (await api.get_stats()).turn
    weapon = (await api.get_equipment())["weapon"].text
    r = await api.dig("down")
    assert not r.success and "stairs" in r.error and "step off" in r.error
    assert not r.turn_elapsed and (await api.get_stats()).turn == turn
    assert (await api.get_equipment())["weapon"].text == weapon  # the pick was not even wielded


async def test_without_a_digging_tool_dig_fails_naming_what_is_needed(make_api):
    api = game(make_api, character=VALKYRIE)
    r = await api.dig("down")
    assert not r.success and "pick-axe" in r.error and "dwarvish mattock" in r.error
    assert "wand of digging" in r.error
    sword = next(i.slot for i in await api.get_inventory() if "long sword" in i.text)
    r = await api.dig("e", sword)
    assert not r.success and "cannot dig" in r.error


async def test_a_wand_of_digging_zapped_down_drops_the_hero_to_the_next_level(make_api):
    api = game(make_api, extra="OBJECT:('/',\"digging\"),(3,2)", character=VALKYRIE)
    await api.move("e")
    assert (await api.pickup()).success
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    r = await api.dig("down", wand.slot)
    assert r.success, (r.error, r.messages)
    assert (await api.get_stats()).dungeon_level == 2 and "Now on Dlvl 2" in r.messages[-1]


async def test_a_valkyrie_digs_down_with_a_dwarvish_mattock_taking_off_her_shield_first(make_api):
    # NetHack refuses a two-handed tool while a shield is worn; a Valkyrie stood 5,000
    # turns in the Mines so, with a mattock she could not swing.
    api = game(make_api, extra="OBJECT:(')',\"dwarvish mattock\"),(3,2)", character=VALKYRIE)
    await api.move("e")
    assert (await api.pickup()).success
    assert (await api.get_equipment())["shield"] is not None
    r = await api.dig("down")
    assert r.success, (r.error, r.messages)
    assert (await api.get_stats()).dungeon_level == 2
    eq = await api.get_equipment()
    assert eq["shield"] is None and "mattock" in eq["weapon"].text


async def test_a_wall_nethack_calls_too_hard_fails_and_is_not_dug_at_again(make_api):
    api = game(make_api, extra="NON_DIGGABLE:(0,0,10,4)")
    assert (await api.move("e")).success
    r = await api.dig("e")
    assert not r.success and r.error == "undiggable: This wall is too hard to dig into."
    turn = (await api.get_stats()).turn
    again = await api.dig("e")
    assert not again.success and "too hard to dig" in again.error and not again.turn_elapsed
    assert (await api.get_stats()).turn == turn


async def test_a_monster_next_to_the_hero_interrupts_digging_and_digging_again_continues(make_api):
    api = game(make_api, extra="MONSTER:('F',\"lichen\"),(3,3)")
    assert (await api.move("e")).success  # off the stairs, the lichen now next to the hero
    r = await api.dig("down")
    assert not r.success and r.error.startswith("digging interrupted: a lichen at") and "next to you" in r.error
    again = await api.dig("down")
    assert not again.success and "interrupted" in again.error
    assert any("You continue digging downward" in m for m in again.messages)
    assert (await api.get_stats()).dungeon_level == 1 and at_prompt(api)


async def test_a_rogue_unlocks_a_locked_door_with_his_lock_pick(make_api):
    rows = ["-------", "|.....|", "|.....+", "|.....|", "-------"]
    rogue = dict(role="rogue", race="human", gender="male", alignment="chaotic")
    api = game(make_api, rows, "DOOR:locked,(6,2)", hero=(4, 2), character=rogue)
    assert (await api.move("e")).success  # next to the door
    pick = next(i.slot for i in await api.get_inventory() if "lock pick" in i.text)
    assert not (await api.open_door("e")).success  # locked
    no_dir = await api.apply(pick)
    assert not no_dir.success and "pass direction=" in no_dir.error and not no_dir.turn_elapsed
    r = await api.apply(pick, "e")
    assert r.success and any("You succeed in picking the lock" in m for m in r.messages), (r.error, r.messages)
    again = await api.apply(pick, "e")
    assert not again.success and "not locked" in again.error
    assert (await api.open_door("e")).success


async def test_digging_in_a_shop_in_view_of_its_keeper_is_refused(make_api):
    api = make_api((LEVELS / "tool_shop_keeper_at_door.des").read_text(), seed=0, extra={"options": QUIET},
                   **ARCHEOLOGIST)
    assert any(m.name == "shopkeeper" for m in await api.get_visible_monsters())
    assert (await api.move("n")).success  # inside the shop, off the stairs, below its top wall
    turn = (await api.get_stats()).turn
    down = await api.dig("down")
    assert not down.success and "shop" in down.error and "grab your pack" in down.error
    wall = await api.dig("n")
    assert not wall.success and "shop's wall" in wall.error
    assert (await api.get_stats()).turn == turn and at_prompt(api)


async def test_owing_nothing_an_archeologist_digs_down_through_a_shop_floor_with_in_shop_and_keeps_his_pack(make_api):
    """A shopkeeper grabs the pack only of a customer who owes him (NetHack's shopdig):
    one who blocks his door because of the pick-axe lets the hero dig out below."""
    api = make_api((LEVELS / "tool_shop_keeper_at_door.des").read_text(), seed=0, extra={"options": QUIET},
                   **ARCHEOLOGIST)
    assert (await api.move("n")).success  # inside the shop, off the stairs
    if await api.get_items_here():  # goods here would fall through the hole with him
        refused = await api.dig("down", in_shop=True)
        assert not refused.success and "goods lie on this square" in refused.error, refused.error
        for _ in range(6):  # a stocked shop is bare only by its door, where the keeper paces
            hero = await api.get_position()
            taken = {m.position for m in await api.get_visible_monsters()}
            bare = [t.position for row in (await api.get_current_level()).tiles for t in row
                    if t.char == "." and t.feature is None and 0 < t.position.steps_to(hero) <= 3
                    and t.position not in taken]
            if bare:
                await api.move_to(bare[0])
                if await api.get_position() == bare[0]:
                    break
            await api.search(2)
        assert not await api.get_items_here()
    pack = len(await api.get_inventory())
    down = await api.dig("down", in_shop=True)
    assert down.success, "\n".join(down.messages)
    assert (await api.get_stats()).dungeon_level == 2
    assert not any("backpack" in m for m in down.messages)
    assert len(await api.get_inventory()) == pack


async def test_carrying_unpaid_goods_dig_in_shop_is_still_refused_naming_them(make_api):
    api = make_api((LEVELS / "tool_shop_keeper_at_door.des").read_text(), seed=0, extra={"options": QUIET},
                   **ARCHEOLOGIST)
    assert (await api.move("n")).success
    for d in ("e", "e", "s"):
        if any("unpaid" in i.text for i in await api.get_inventory()):
            break
        await api.pickup()
        await api.move(d)
    unpaid = [i.slot for i in await api.get_inventory() if "unpaid" in i.text]
    assert unpaid, [i.text for i in await api.get_inventory()]
    turn = (await api.get_stats()).turn
    down = await api.dig("down", in_shop=True)
    assert not down.success and "unpaid" in down.error and unpaid[0] in down.error, down.error
    assert (await api.get_stats()).turn == turn and (await api.get_stats()).dungeon_level == 1


async def test_apply_with_a_letter_that_is_not_a_tool_fails_naming_the_tools(make_api):
    api = game(make_api)
    food = next(i.slot for i in await api.get_inventory() if i.object_class == "food")
    r = await api.apply(food)
    assert not r.success and "is not a tool" in r.error
    assert "pick-axe" in r.error and "tinning kit" in r.error
    missing = await api.apply("Z")
    assert not missing.success and "no inventory item with letter 'Z'" in missing.error
    sack = next(i.slot for i in await api.get_inventory() if "sack" in i.text)
    bag = await api.apply(sack)
    assert not bag.success and "loot()" in bag.error and "put_in" in bag.error
    assert at_prompt(api)


async def test_applying_the_oil_lamp_lights_it_and_again_snuffs_it(make_api):
    api = game(make_api)
    lamp = next(i.slot for i in await api.get_inventory() if "lamp" in i.text)
    on = await api.apply(lamp)
    assert on.success, (on.error, on.messages)
    assert "(lit)" in next(i.text for i in await api.get_inventory() if i.slot == lamp)
    off = await api.apply(lamp)
    assert off.success and "(lit)" not in next(i.text for i in await api.get_inventory() if i.slot == lamp)


async def test_a_valkyrie_forces_a_locked_large_box_open_with_her_sword(make_api):
    api = game(make_api, extra="OBJECT:('(',\"large box\"),(2,2),locked", character=VALKYRIE)
    r = await api.force_lock()
    assert r.success, (r.error, r.messages)
    assert any("You succeed in forcing the lock" in m for m in r.messages) and r.turn_elapsed
    again = await api.force_lock()  # the lock is broken now: nothing left to force
    assert not again.success and "already" in again.error
    assert at_prompt(api)


async def test_force_lock_without_a_box_or_a_weapon_fails_cleanly(make_api):
    api = game(make_api, character=VALKYRIE)
    r = await api.force_lock()
    assert not r.success and "no box or chest here" in r.error
    assert (await api.wield("-")).success
    r = await api.force_lock()
    assert not r.success and "you wield no weapon" in r.error and not r.turn_elapsed


async def test_untrap_with_no_known_trap_fails_cleanly(make_api):
    api = game(make_api, character=VALKYRIE)
    turn = (await api.get_stats()).turn
    r = await api.untrap("e")
    assert not r.success and "no known trap to the e" in r.error and "known traps next to you: none" in r.error
    here = await api.untrap("here")
    assert not here.success and "no known trap on your square" in here.error
    bad = await api.untrap("up")
    assert not bad.success and "invalid direction" in bad.error
    assert (await api.get_stats()).turn == turn and at_prompt(api)


async def test_a_squeaky_board_found_by_searching_cannot_be_untrapped_without_oil_or_grease(make_api):
    api = game(make_api, extra='TRAP:"board",(2,1)', character=VALKYRIE)
    for _ in range(15):
        await api.search()
    board = (await api.get_position()).offset("n")
    assert (await api.get_current_level()).tile_at(board).trap_type == "squeaky board"
    r = await api.untrap("n")
    assert not r.success and "can of grease or a potion of oil" in r.error
    assert not r.turn_elapsed and at_prompt(api)


async def test_dig_down_with_stop_at_pit_leaves_the_hero_in_the_pit_and_a_second_dig_finishes_the_hole(make_api):
    api = game(make_api)
    await api.move("e")
    r = await api.dig("down", stop_at_pit=True)
    assert r.success and "You dig a pit in the floor" in " ".join(r.messages), (r.error, r.messages)
    assert (await api.get_stats()).dungeon_level == 1 and at_prompt(api)
    assert (await api.engrave("Elbereth")).success  # an engraving made now lasts until the hole
    r = await api.dig("down")
    assert r.success and "You dig a hole through the floor" in " ".join(r.messages)
    assert (await api.get_stats()).dungeon_level == 2


async def test_inside_a_shop_shop_exit_names_its_door_and_the_square_beyond(make_api):
    api = make_api((LEVELS / "tool_shop_keeper_at_door.des").read_text(), seed=0, extra={"options": QUIET},
                   **ARCHEOLOGIST)
    keeper = next(m.position for m in await api.get_visible_monsters() if m.name == "shopkeeper")
    way = await api.shop_exit()
    assert way is not None and way.door == keeper.offset("e") and way.direction == "e", way
    assert way.outside == way.door.offset("e") and way.shopkeeper == keeper


async def test_with_no_shopkeeper_in_view_there_is_no_shop_to_leave(make_api):
    assert await game(make_api).shop_exit() is None


async def test_a_vault_guard_coming_stops_digging_down_so_the_hero_can_follow_him(make_api):
    """He attacks within about six turns a hero who keeps digging with the vault's gold:
    dig() hands back when he comes, as it does for a monster next to the hero."""
    api = make_api((LEVELS / "gold_vault.des").read_text(), seed=0, extra={"options": QUIET}, **ARCHEOLOGIST)
    assert (await api.move("e")).success  # off the up stairs
    while (await api.get_stats()).turn < 27:  # (an Archeologist is fast: some searches take no turn)
        await api.search(1)
    turn = (await api.get_stats()).turn
    r = await api.dig("down")
    assert not r.success and r.error.startswith("digging interrupted: a vault's guard came"), (turn, r.messages)
    assert (await api.get_stats()).dungeon_level == 1 and at_prompt(api)

"""Scenarios for NetHackAPI on real games (MiniHack levels and the full game)."""

from __future__ import annotations

import pytest

from hackwright.api import HungerState, NetHackAPI, Position
from hackwright.api.keyboard import PromptKind
from hackwright.api.knowledge import PrayerClock
from tests.conftest import room_des

ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]


def at_command_prompt(api: NetHackAPI) -> bool:
    return api.game_over or api._kb.prompt().kind is PromptKind.NONE


# ------------------------------------------------------------------ state queries
async def test_a_valkyrie_starts_with_a_wielded_long_sword_and_a_worn_shield(make_api):
    api = make_api(seed=5, role="valkyrie")
    stats = await api.get_stats()
    assert stats.hp == stats.max_hp > 0
    assert stats.dungeon_level == 1 and stats.branch == "Dungeons of Doom"
    assert stats.hunger is HungerState.NOT_HUNGRY
    inv = {i.slot: i for i in await api.get_inventory()}
    assert "long sword" in inv["a"].name and inv["a"].object_class == "weapon"
    eq = await api.get_equipment()
    assert eq["weapon"] is not None and eq["weapon"].slot == "a"
    assert eq["shield"] is not None and "shield" in eq["shield"].name
    assert await api.get_position() == stats.position


async def test_state_queries_are_cached_within_a_turn(make_api):
    api = make_api(seed=5)
    assert await api.get_stats() is await api.get_stats()
    assert await api.get_current_level() is await api.get_current_level()
    await api.search()
    assert (await api.get_stats()).turn > 1


async def test_the_screen_is_24_lines_of_80_columns(make_api):
    api = make_api(seed=5)
    lines = (await api.get_screen()).split("\n")
    assert len(lines) == 24 and all(len(ln) == 80 for ln in lines)
    assert "Dlvl:1" in lines[-1]


async def test_a_pet_is_seen_as_tame_and_a_peaceful_watchman_as_peaceful(make_api):
    des = room_des(ROOM, 'MONSTER:(\'@\',"watchman"),(3,1),peaceful\nMONSTER:(\'d\',"jackal"),(5,3),asleep')
    api = make_api(des)
    mons = {m.name: m for m in await api.get_visible_monsters()}
    assert mons["watchman"].is_peaceful and not mons["watchman"].is_tame
    assert not mons["jackal"].is_peaceful
    assert mons["jackal"].threat_level >= 1


async def test_the_level_map_knows_the_stairs_and_its_branch(make_api):
    des = room_des(ROOM, "STAIR:(5,3),down")
    api = make_api(des)
    level = await api.get_current_level()
    assert level.branch == "Dungeons of Doom" and level.level_number == 1
    assert level.stairs_down is not None
    assert level.tiles[level.stairs_down.y][level.stairs_down.x].char == ">"
    assert level.tiles[level.stairs_down.y][level.stairs_down.x].feature == "stairs down"


async def test_down_stairs_once_crossed_are_no_longer_untried(make_api):
    # Two staircases drawn down; NetHack makes the last one drawn the level's real one.
    des = room_des(ROOM, "STAIR:(5,3),down\nSTAIR:(2,1),down")
    api = make_api(des)
    level = await api.get_current_level()
    real = level.stairs_down
    assert len(level.untried_stairs_down) == 2 and real in level.untried_stairs_down
    assert (await api.move("e")).success and await api.get_position() == real
    assert (await api.go_down()).success
    assert (await api.go_up()).success  # back on the stairs just taken
    level = await api.get_current_level()
    assert real not in level.untried_stairs_down and len(level.untried_stairs_down) == 1
    assert level.stairs_down == real  # still the way down


# ------------------------------------------------------------------ the keyboard
async def test_a_pickup_menu_with_three_items_takes_only_the_chosen_one(make_api):
    des = room_des(
        ROOM,
        "OBJECT:('%',\"apple\"),(1,1)\nOBJECT:('[',\"leather armor\"),(1,1)\nOBJECT:(')',\"dagger\"),(1,1)",
    )
    api = make_api(des)
    here = await api.get_items_here()
    assert len(here) == 3
    before = {i.slot for i in await api.get_inventory()}
    res = await api.pickup("dagger")
    assert res.success, res
    assert at_command_prompt(api)
    new = [i for i in await api.get_inventory() if i.slot not in before]
    assert len(new) == 1 and "dagger" in new[0].name
    assert len(await api.get_items_here()) == 2


async def test_a_multi_page_pickup_menu_finds_the_chosen_item_on_a_later_page(make_api):
    kinds = ["apple", "carrot", "melon", "banana", "orange", "pear", "egg", "kelp frond", "lembas wafer",
             "cream pie", "candy bar", "fortune cookie", "pancake", "tin", "meatball", "food ration",
             "cram ration", "K-ration", "C-ration", "tripe ration", "sprig of wolfsbane", "clove of garlic"]
    objs = "\n".join(f"OBJECT:('%',\"{k}\"),(1,1)" for k in kinds)
    objs += "\nOBJECT:(')',\"dagger\"),(1,1)\nOBJECT:('[',\"leather armor\"),(1,1)\nOBJECT:('(',\"towel\"),(1,1)"
    api = make_api(room_des(ROOM, objs))
    assert len(await api.get_items_here()) == len(kinds) + 3
    before = {i.slot for i in await api.get_inventory()}
    res = await api.pickup("towel")  # tools come after food: on the menu's second page
    assert res.success, res
    new = [i for i in await api.get_inventory() if i.slot not in before]
    assert [i.name for i in new] == ["towel"]
    assert at_command_prompt(api)


async def test_pickup_by_menu_letter_takes_that_entry(make_api):
    des = room_des(ROOM, "OBJECT:('%',\"apple\"),(1,1)\nOBJECT:(')',\"dagger\"),(1,1)")
    api = make_api(des)
    res = await api.pickup("a")  # the first entry of the menu: weapons come first
    assert res.success, res
    assert any("dagger" in i.name for i in await api.get_inventory())
    assert [i.name for i in await api.get_items_here()] == ["apple"]


async def test_pickup_without_a_letter_takes_everything(make_api):
    des = room_des(ROOM, "OBJECT:('%',\"apple\"),(1,1)\nOBJECT:(')',\"dagger\"),(1,1)")
    api = make_api(des)
    res = await api.pickup()
    assert res.success and at_command_prompt(api)
    assert await api.get_items_here() == []


async def test_a_pickup_that_would_burden_the_hero_is_refused_and_says_why(make_api):
    des = room_des(ROOM, "OBJECT:('0',\"heavy iron ball\"),(1,1)\nOBJECT:('0',\"heavy iron ball\"),(1,1)\n"
                         "OBJECT:('%',\"apple\"),(1,1)")
    api = make_api(des)
    res = await api.pickup("heavy iron ball")
    assert not res.success and res.error.startswith("too heavy") and "drop" in res.error
    assert at_command_prompt(api)
    assert (await api.get_stats()).encumbrance == "Unencumbered"
    res = await api.pickup()  # everything: the apple comes, the balls stay
    assert not res.success and res.error.count("too heavy") == 1
    assert sorted(i.name for i in await api.get_items_here()) == ["heavy iron ball", "heavy iron ball"]
    assert any(i.name == "apple" for i in await api.get_inventory())


async def test_pickup_of_something_not_here_says_what_is_here(make_api):
    des = room_des(ROOM, "OBJECT:('%',\"apple\"),(1,1)\nOBJECT:(')',\"dagger\"),(1,1)")
    api = make_api(des)
    res = await api.pickup("long sword")
    assert not res.success and "apple" in res.error and "dagger" in res.error
    assert at_command_prompt(api)


async def test_a_scroll_of_gold_detection_read_leaves_no_map_cursor_open(make_api):
    """Gold detection shows the gold it found and opens NetHack's map cursor for a look
    round, which NLE does not report as a prompt: the read closes it, so it counts as done
    and the next command is a command, not a cursor move."""
    rows = ["-------          -----", "|.....|          |...|", "|.....-##########....|",
            "|.....|          |...|", "-------          -----"]
    des = room_des(rows, "OBJECT:('?',\"gold detection\"),(2,2)\nOBJECT:('$',\"gold piece\"),(19,2)", hero=(2, 2))
    api = make_api(des)
    assert (await api.pickup()).success
    scroll = next(i for i in await api.get_inventory() if i.object_class == "scroll")
    res = await api.read(scroll.slot)
    assert res.success and res.error is None, res
    assert any("sense gold" in m for m in res.messages)
    assert not any(i.object_class == "scroll" for i in await api.get_inventory())
    searched = await api.search()
    assert searched.success and searched.turn_elapsed, searched
    assert not any("Unknown direction" in m for m in searched.messages)


async def test_eating_from_the_floor_answers_its_prompt(make_api):
    des = room_des(ROOM, "OBJECT:('%',\"corpse\"),(1,1),montype:\"lichen\"")
    api = make_api(des)
    res = await api.eat()
    assert res.success, res
    assert any("lichen" in m for m in res.messages)
    assert at_command_prompt(api)
    assert await api.get_items_here() == []


async def test_eating_one_named_food_from_a_pile_declines_the_others(make_api):
    des = room_des(ROOM, "OBJECT:('%',\"food ration\"),(1,1)\nOBJECT:('%',\"corpse\"),(1,1),montype:\"lichen\"\n"
                         "OBJECT:('%',\"apple\"),(1,1)")
    api = make_api(des)
    missing = await api.eat(floor_item="melon")
    assert not missing.success and "no melon" in missing.error and at_command_prompt(api)
    assert len(await api.get_items_here()) == 3
    res = await api.eat(floor_item="lichen corpse")
    assert res.success, res
    left = " ".join(i.text for i in await api.get_items_here())
    assert "lichen" not in left and "apple" in left and "food ration" in left
    assert at_command_prompt(api)


async def test_bumping_a_peaceful_monster_is_declined(make_api):
    des = room_des(ROOM, 'MONSTER:(\'@\',"watchman"),(2,1),peaceful,asleep')
    api = make_api(des)
    res = await api.move("e")
    assert not res.success and "peaceful" in res.error
    assert at_command_prompt(api)
    watchman = (await api.get_visible_monsters())[0]
    assert watchman.is_peaceful
    res = await api.attack((await api.get_position()).direction_to(watchman.position))
    assert not res.success and "peaceful" in res.error


async def test_descending_stairs_changes_dungeon_level(make_api):
    des = room_des(ROOM, "STAIR:(2,1),down")
    api = make_api(des)
    assert (await api.move("e")).success
    res = await api.go_down()
    assert res.success, res
    assert (await api.get_stats()).dungeon_level == 2
    assert at_command_prompt(api)


async def test_go_down_away_from_stairs_says_where_the_stairs_are(make_api):
    des = room_des(ROOM, "STAIR:(5,3),down")
    api = make_api(des)
    res = await api.go_down()
    assert not res.success and "stairs down are at" in res.error


async def test_going_up_from_the_first_level_is_refused(make_api):
    api = make_api(room_des(ROOM))
    res = await api.go_up()
    assert not res.success and "ends the game" in res.error
    assert not api.game_over and at_command_prompt(api)


async def test_several_more_prompts_are_all_collected(make_api):
    api = make_api(seed=5, role="valkyrie")
    res = await api.pray(force=True)  # too soon at turn 1: several messages behind --More--
    assert len(res.messages) >= 2
    assert any("pray" in m.lower() for m in res.messages)
    assert at_command_prompt(api)


async def test_a_prayer_the_god_resents_is_a_failure_and_no_later_prayer_is_counted_on(make_api):
    # A Samurai prays to "Amaterasu Omikami": a two-word god, whose displeasure was
    # once taken for success, so a fainting hero prayed eight times in a row.
    api = make_api(seed=6, role="samurai")
    for _ in range(2):
        res = await api.pray(force=True)  # turn 1: far too soon
        assert not res.success and "too soon" in res.error, res.messages
    assert "Amaterasu Omikami" in " ".join(res.messages)
    assert await api.get_prayer_timeout() == PrayerClock.UNKNOWN


async def test_send_keys_reports_an_open_prompt_and_the_next_action_closes_it(make_api):
    api = make_api(seed=5, role="valkyrie")
    res = await api.send_keys("e")
    assert res.prompt and "eat" in res.prompt.lower()
    assert not at_command_prompt(api)
    r2 = await api.search()
    assert r2.success and at_command_prompt(api)


async def test_an_incubus_question_left_open_swallows_plain_keys_but_not_a_new_command(make_api):
    """An incubus asks a mailed Samurai "Shall I remove your mail?" during his turn, after
    her search: send_keys leaves the question open. Plain keys then go into it and the game
    stands still (an autopilot's fights and searches were so typed into it 2,000 times);
    keys sent as a new command close it first (Escape: no) and search."""
    des = room_des(["--------", "|......|", "|......|", "--------"], hero=(1, 1),
                   extra="MONSTER:('&',\"incubus\"),(2,1),hostile,awake")
    api = make_api(des, seed=5, role="samurai", race="human", gender="female", alignment="lawful")
    for _ in range(10):
        res = await api.send_keys("s")
        if res.prompt:
            break
    assert res.prompt and "Shall I remove your mail" in res.prompt, res
    turn = (await api.get_stats()).turn
    stuck = await api.send_keys("s")
    assert stuck.prompt == res.prompt and (await api.get_stats()).turn == turn, stuck
    fresh = await api.send_keys("s", new_command=True)
    assert fresh.success and fresh.prompt != res.prompt, fresh
    assert any("Shall I remove your mail" in m and "[escaped]" in m for m in fresh.messages), fresh.messages
    assert (await api.get_stats()).turn > turn or fresh.game_over


async def test_wear_take_off_and_wield_on_a_valkyrie(make_api):
    api = make_api(seed=5, role="valkyrie")
    inv = {i.slot: i for i in await api.get_inventory()}
    shield = next(i for i in inv.values() if "shield" in i.name)
    r = await api.take_off(shield.slot)
    assert r.success, r
    assert (await api.get_equipment())["shield"] is None
    r = await api.wear(shield.slot)
    assert r.success, r
    dagger = next(i for i in inv.values() if "dagger" in i.name)
    r = await api.wield(dagger.slot)
    assert r.success, r
    assert (await api.get_equipment())["weapon"].slot == dagger.slot
    assert at_command_prompt(api)


# ------------------------------------------------------------------ bad input
async def test_bad_input_fails_with_an_error_that_says_what_is_valid(make_api):
    api = make_api(seed=5, role="valkyrie")
    r = await api.move("up-ish")
    assert not r.success and "n, s, e, w" in r.error
    r = await api.drop("Q")
    assert not r.success and "long sword" in r.error
    r = await api.eat("Q")
    assert not r.success and "food" in r.error
    r = await api.zap("a", "sideways")
    assert not r.success
    r = await api.move_to(Position(200, 5))
    assert not r.success and "off the map" in r.error
    r = await api.read("Z")
    assert not r.success
    r = await api.send_keys("")
    assert not r.success
    assert await api.find_path(Position(-3, 99)) == []
    assert at_command_prompt(api)


async def test_an_unknown_monster_name_suggests_close_ones(make_api):
    api = make_api(seed=5)
    with pytest.raises(ValueError, match="newt"):
        await api.lookup_monster("newtt")
    info = await api.lookup_monster("floating eye")
    assert info["speed"] == info.speed == 1


# ------------------------------------------------------------------ pathfinding
async def test_move_to_walks_around_a_wall_and_through_a_doorway_orthogonally(make_api):
    rows = [
        "-----------",
        "|....|....|",
        "|....|....|",
        "|....+....|",
        "|....|....|",
        "-----------",
    ]
    api = make_api(room_des(rows, "DOOR:open,(5,3)"))
    start = await api.get_position()
    ox, oy = start.x - 1, start.y - 1  # drawing coordinates -> map coordinates
    door, target = Position(ox + 5, oy + 3), Position(ox + 8, oy + 1)
    visited = [start]
    for goal in (door, target):  # the far room is seen only from the doorway
        for _ in range(30):
            if visited[-1] == goal:
                break
            r = await api.move_to(goal)
            assert r.success, r
            visited.append(await api.get_position())
    assert visited[-1] == target
    for a, b in zip(visited, visited[1:]):
        if door in (a, b):
            assert a.x == b.x or a.y == b.y, f"diagonal step {a} -> {b} through the doorway"
    assert door in visited


async def test_find_unexplored_is_none_once_a_closed_room_is_seen(make_api):
    api = make_api(room_des(ROOM))
    for _ in range(30):
        t = await api.find_unexplored()
        if t is None:
            break
        await api.move_to(t)
    assert await api.find_unexplored() is None
    assert (await api.get_current_level()).explored_percentage == 100.0


async def test_find_nearest_finds_the_stairs(make_api):
    api = make_api(room_des(ROOM, "STAIR:(4,2),down"))
    pos = await api.find_nearest(lambda t: t.char == ">")
    assert pos is not None
    assert (await api.get_current_level()).tile_at(pos).feature == "stairs down"


# ------------------------------------------------------------------ property
@pytest.mark.parametrize("seed", range(6))
async def test_after_any_random_sequence_of_calls_the_game_is_never_left_in_a_prompt(make_api, seed):
    import random

    rng = random.Random(seed)
    api = make_api(seed=seed)
    dirs = ["n", "s", "e", "w", "ne", "nw", "se", "sw", "x", ""]
    letters = list("abcdefghijqQz-$")
    calls = [
        lambda: api.move(rng.choice(dirs)),
        lambda: api.attack(rng.choice(dirs)),
        lambda: api.search(),
        lambda: api.pickup(rng.choice([None, "a", "dagger"])),
        lambda: api.drop(rng.choice(letters)),
        lambda: api.eat(rng.choice([None] + letters)),
        lambda: api.quaff(rng.choice(letters)),
        lambda: api.read(rng.choice(letters)),
        lambda: api.zap(rng.choice(letters), rng.choice(dirs + ["up", "self"])),
        lambda: api.wear(rng.choice(letters)),
        lambda: api.wield(rng.choice(letters)),
        lambda: api.take_off(rng.choice(letters)),
        lambda: api.open_door(rng.choice(dirs)),
        lambda: api.kick(rng.choice(dirs)),
        lambda: api.go_up(),
        lambda: api.go_down(),
        lambda: api.cast_spell(rng.choice(letters), rng.choice([None, "n"])),
        lambda: api.send_keys(rng.choice(["i", "e", "#", "Z", "\x1b", "?", "Q", "S", "o"])),
        lambda: api.move_to(Position(rng.randrange(-2, 82), rng.randrange(-2, 23))),
        lambda: api.get_items_here(),
        lambda: api.find_unexplored(),
    ]
    raw = 17  # send_keys may leave a prompt open on purpose (and reports it)
    for _ in range(60):
        if api.game_over:
            break
        i = rng.randrange(len(calls))
        r = await calls[i]()
        if i != raw:
            assert at_command_prompt(api), (i, r)
        if rng.random() < 0.3:
            r = await api.search()  # the next ordinary action always finds the command prompt
            assert at_command_prompt(api), r


def test_floor_objects_get_the_class_their_words_name():
    from hackwright.api.nethack_api import _item_from_text

    here = Position(1, 1)
    classes = {t: _item_from_text(t, here).object_class for t in
               ["2 daggers", "an emerald potion", "a gray stone", "a scroll labeled FOO", "a ring mail",
                "a jade ring", "5 gold pieces"]}
    assert classes == {"2 daggers": "weapon", "an emerald potion": "potion", "a gray stone": "gem",
                       "a scroll labeled FOO": "scroll", "a ring mail": "armor", "a jade ring": "ring",
                       "5 gold pieces": "coin"}


async def test_the_up_stairs_under_the_hero_are_known_from_the_first_turn(make_api):
    api = make_api(room_des(ROOM, "STAIR:(5,3),down"))
    level = await api.get_current_level()
    assert level.stairs_up == await api.get_position()


async def test_after_going_down_the_arrival_stairs_are_on_the_map(make_api):
    api = make_api(room_des(ROOM, "STAIR:(2,1),down"))
    await api.move("e")
    assert (await api.go_down()).success
    level = await api.get_current_level()
    assert level.stairs_up == await api.get_position()


async def test_a_wizards_force_bolt_flies_the_way_it_is_aimed(make_api):
    """Picking the spell closes NetHack's pick-one menu; no Enter may follow, or it would
    answer "In what direction?" and waste the spell ("The magical energy is released!")."""
    des = room_des(["-------", "|.....|", "|.....|", "-------"], "MONSTER:(':',\"newt\"),(3,1),hostile",
                   hero=(2, 1))
    api = make_api(des, seed=0, role="wizard", race="elf", gender="male", alignment="chaotic")
    newt = next(m for m in await api.get_visible_monsters() if m.name == "newt")
    res = await api.cast_spell("a", (await api.get_position()).direction_to(newt.position))
    text = " ".join(res.messages)
    assert res.success and "magical energy is released" not in text
    assert "the newt" in text  # hits, misses or kills it


async def test_a_door_the_map_lost_is_learned_again_from_a_refused_diagonal_step(make_api):
    """A Rogue stood 10,000 turns in a door its map took for a doorless one: every path
    planned the same diagonal step out, and NetHack refused it each time."""
    import nle.nethack as nh_bl

    from hackwright.api import glyphs as G

    des = room_des(["-------", "|.....|", "|.....|", "---.---", "   #   ", "   #   "], "DOOR:open,(3,3)", hero=(3, 2))
    api = make_api(des, seed=0)
    assert (await api.move("s")).success
    hero = await api.get_position()
    api._level_memory().remember_terrain(hero, nh_bl.GLYPH_CMAP_OFF + G.S_NDOOR)  # the map forgets
    assert (await api.get_current_level()).tile_at(hero).feature == "doorway"
    res = await api.move("nw")
    assert not res.success and "diagonally" in " ".join(res.messages)
    assert (await api.get_current_level()).tile_at(hero).feature == "open door"


async def test_no_door_is_kicked_while_the_town_watch_is_about(make_api):
    """Minetown's watch arrests door-breakers: a Valkyrie was killed by the watch so."""
    from pathlib import Path

    des = (Path(__file__).resolve().parents[1] / "levels" / "locked_door_watched.des").read_text()
    api = make_api(des, seed=0, extra={"pet": False})
    assert any(m.name == "watchman" for m in await api.get_visible_monsters())
    level = await api.get_current_level()
    door = next(t.position for row in level.tiles for t in row if t.feature == "closed door")
    while not (await api.get_position()).is_adjacent(door):
        assert (await api.move_to(door.offset("w"))).success
    res = await api.kick("e")
    assert not res.success and "watch" in res.error


async def test_on_a_level_where_a_shopkeeper_was_heard_a_door_with_worn_writing_is_not_kicked(make_api):
    """A shop's "Closed for inventory" notice wears away under feet; a Barbarian kicked such
    a door on a level full of cash-register chimes, and the shopkeeper killed him (seed 10).
    A door with nothing written before it is no shop's, and is kicked (refusing every door
    on shop levels walled heroes in for 10,000 turns)."""
    from pathlib import Path

    from hackwright.api.nethack_api import _SHOP_SOUNDS

    assert _SHOP_SOUNDS.search("You hear the chime of a cash register.")
    assert _SHOP_SOUNDS.search("You hear someone cursing shoplifters.")
    assert not _SHOP_SOUNDS.search("You hear someone counting money.")  # a vault's guard, not a shop
    des = (Path(__file__).resolve().parents[1] / "levels" / "locked_door.des").read_text()
    api = make_api(des, seed=0, extra={"pet": False})
    level = await api.get_current_level()
    door = next(t.position for row in level.tiles for t in row if t.feature == "closed door")
    while not (await api.get_position()).is_adjacent(door):
        assert (await api.move_to(door.offset("w"))).success
    api._shop_levels.add(api._where()[:2])  # as when "You hear the chime of a cash register." came
    worn = des.replace("STAIR:(21,2),down", 'ENGRAVING:(16,2),dust,"ve?tcry"\nSTAIR:(21,2),down')
    shop = make_api(worn, seed=0, extra={"pet": False})
    while not (await shop.get_position()).is_adjacent(door):
        assert (await shop.move_to(door.offset("w"))).success
    shop._shop_levels.add(shop._where()[:2])
    res = await shop.kick("e")
    assert not res.success and "shopkeeper" in res.error
    # Nothing written before this one: kicked (until it breaks).
    for _ in range(30):
        res = await api.kick("e")
        assert res.error is None or "shopkeeper" not in res.error, res.error
        if (await api.get_current_level()).tile_at(door).feature != "closed door":
            break
    assert (await api.get_current_level()).tile_at(door).feature != "closed door"


async def test_a_door_whose_shop_notice_was_read_is_not_kicked_once_the_dust_is_wiped(make_api):
    """A Valkyrie read "Closed for inventory" before a locked door, came back 400 turns
    later, the dust worn blank, kicked the door and the shopkeeper killed her."""
    from pathlib import Path

    des = (Path(__file__).resolve().parents[1] / "levels" / "closed_for_inventory.des").read_text()
    api = make_api(des, seed=0, extra={"pet": False})
    level = await api.get_current_level()
    door = next(t.position for row in level.tiles for t in row if t.feature == "closed door")
    while (await api.get_position()) != door.offset("w"):  # onto the notice: read on arrival
        assert (await api.move_to(door.offset("w"))).success
    assert "Closed for inventory" in " ".join(await api.get_messages(50))
    for text in ("x", "y", "z"):  # the notice wiped out, as feet wear it away, and long ago
        assert (await api.engrave(text)).success
    assert "Closed for inventory" not in " ".join(await api.get_messages(8))
    res = await api.kick("e")
    assert not res.success and "shop" in res.error, res


async def test_a_pet_that_bites_the_hero_counts_as_hostile_from_then_on(make_api):
    # Pets never attack the hero and are called "your kitten"; "The kitten bites!" from
    # the one kitten drawn as tame means it has gone wild (one bit a Barbarian to death
    # while the strategist took it for a pet).
    api = make_api(seed=0, role="wizard")
    pets = [m for m in await api.get_visible_monsters() if m.is_tame]
    assert [m.name for m in pets] == ["kitten"]
    api._note_turned_monsters(["The kitten bites the newt.", "Your kitten is still eating."])
    assert any(m.is_tame for m in await api.get_visible_monsters())
    api._note_turned_monsters(["The kitten bites!  You stop searching."])
    await api.search()
    kittens = [m for m in await api.get_visible_monsters() if m.name == "kitten"]
    assert kittens and not any(m.is_tame for m in kittens)


async def test_a_peaceful_werejackal_angered_where_it_stands_is_listed_hostile_though_the_game_still_says_peaceful(make_api):
    """NetHack redraws a square's description only when its glyph changes: struck where it
    stands in a closet, the werejackal growls and bites back while the screen still calls
    it "peaceful werejackal". The API lists it hostile until it moves off."""
    from hackwright.api import observe
    from tests.conftest import room_des

    des = room_des(["----", "|..|", "----"], "MONSTER:('d',\"werejackal\"),(2,1),peaceful", hero=(1, 1))
    api = make_api(des, seed=1, role="valkyrie", race="human", gender="female", alignment="neutral")
    were = lambda ms: [m for m in ms if m.name == "werejackal"]  # noqa: E731
    for _ in range(50):  # its jackal form: an @ is never attacked (murder)
        if were(await api.get_visible_monsters())[0].char == "d":
            break
        await api.search()
    [jackal] = were(await api.get_visible_monsters())
    assert jackal.is_peaceful and jackal.char == "d"
    hero = await api.get_position()
    res = await api.attack(hero.direction_to(jackal.position), peaceful_ok=True)
    assert any("werejackal growls" in m for m in res.messages), res.messages
    if not were(await api.get_visible_monsters()):
        pytest.skip("the blow killed it")
    [jackal] = were(await api.get_visible_monsters())
    assert observe.screen_description(api._obs(), jackal.position).startswith("peaceful")  # the stale text
    assert not jackal.is_peaceful and (await api.look_at(jackal.position)).peaceful is False


async def test_stairs_down_remembered_where_there_are_none_are_forgotten_when_going_down_fails(make_api):
    # A mimic may pose as stairs; once it has moved off, the memory of them misled a Monk
    # into trying ">" on the same square 1,200 times.
    from nle import nethack

    from hackwright.api import glyphs as G

    api = make_api(room_des(ROOM))
    hero = await api.get_position()
    api._level_memory().remember_terrain(hero, nethack.GLYPH_CMAP_OFF + G.S_DNSTAIR)
    assert (await api.get_current_level()).stairs_down == hero
    res = await api.go_down()
    assert not res.success
    assert (await api.get_current_level()).stairs_down is None


def test_a_shopkeepers_title_does_not_cut_the_cause_of_death_short():
    # "killed by Mr. Asidonhopo, the shopkeeper" was recorded as "killed by Mr".
    from hackwright.api.keyboard import Keyboard

    class Screen:
        _GOODBYE, _DEATH, death_reason = Keyboard._GOODBYE, Keyboard._DEATH, None
        _tombstone_cause = Keyboard._tombstone_cause

        def __init__(self, *lines):
            self.lines = list(lines)

        def screen_lines(self):
            return self.lines

    for lines, cause in (
        (("Goodbye Agent the Stripling...",
          "You were killed by Mr. Asidonhopo, the shopkeeper, on dungeon level 5 with 7412 points,"),
         "killed by Mr. Asidonhopo"),
        (("You were killed by a jackal, while helpless.",), "killed by a jackal"),
        (("killed by a wand",), "killed by a wand"),
        (("killed by the death ray!  The death ray hits you!--More-- ------------ |",), "killed by the death ray"),
        # The tombstone wraps a cause over two rows; the stone's borders and its year are
        # not part of it (the eval CSV once read "killed by a    | |    giant ant     | | …").
        (("                  |      Agent       |", "                  |      101 Au      |",
          "                  |   killed by a    |", "                  |    giant ant     |",
          "                  |                  |", "                  |       2026       |",
          "                 *|     *  *  *      | *", "Goodbye Agent the Ranger..."), "killed by a giant ant"),
    ):
        screen = Screen(*lines)
        Keyboard._read_death_reason(screen)
        assert screen.death_reason == cause


async def test_an_engraving_underfoot_is_not_listed_as_an_item_here(make_api):
    from tests.conftest import room_des

    rows = ["-------", "|.....|", "|.....|", "-------"]
    api = make_api(room_des(rows, "OBJECT:(')',\"dagger\"),(3,1)", hero=(2, 1)), seed=0)
    await api.move("e")  # onto the dagger
    assert (await api.engrave("Elbereth")).success
    here = await api.get_items_here()
    assert [i.name for i in here] == ["dagger"], [i.text for i in here]
    await api.move("e")
    assert (await api.engrave("Elbereth")).success
    assert await api.get_items_here() == []

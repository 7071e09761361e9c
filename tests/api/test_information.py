"""Scenarios for farlook, the dungeon overview, #chat and closing doors, on real games."""

from __future__ import annotations

from pathlib import Path

from hackwright.api import NetHackAPI, Position
from hackwright.api.commands.information import parse_overview
from hackwright.api.keyboard import PromptKind
from tests.conftest import room_des

LEVELS = Path(__file__).resolve().parent.parent / "levels"
ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]


def at_command_prompt(api: NetHackAPI) -> bool:
    return api.game_over or api._kb.prompt().kind is PromptKind.NONE


async def turn(api: NetHackAPI) -> int:
    return (await api.get_stats()).turn


# ------------------------------------------------------------------ look_at
async def test_looking_at_a_peaceful_watchman_names_him_as_peaceful_and_takes_no_time(make_api):
    api = make_api((LEVELS / "peaceful_watchman.des").read_text())
    watchman = (await api.get_visible_monsters())[0]
    t0 = await turn(api)
    look = await api.look_at(watchman.position)
    assert look, look.error
    assert look.glyph_char == "@" and look.monster_name == "watchman"
    assert look.peaceful and not look.tame
    assert look.description == "peaceful watchman" and "peaceful watchman" in look.text
    assert await turn(api) == t0 and at_command_prompt(api)


async def test_looking_at_the_pet_says_tame_and_at_a_bare_floor_square_says_floor(make_api):
    api = make_api(room_des(ROOM), role="valkyrie", extra={"pet": True})
    pet = next(m for m in await api.get_visible_monsters() if m.is_tame)
    look = await api.look_at(pet.position)
    assert look.tame and not look.peaceful and look.monster_name == pet.name
    assert look.description == f"tame {pet.name}"
    hero = await api.get_position()
    occupied = {m.position for m in await api.get_visible_monsters()} | {hero}
    floor = next(Position(x, y) for y in range(hero.y, hero.y + 3) for x in range(hero.x, hero.x + 5)
                 if Position(x, y) not in occupied)
    look = await api.look_at(floor)
    assert look.glyph_char == "." and look.description == "floor of a room"
    assert look.monster_name is None and not look.peaceful and not look.tame


async def test_looking_here_names_the_stairs_under_the_hero_then_an_engraving_and_a_pile(make_api):
    api = make_api(room_des(ROOM, "OBJECT:('%',\"apple\"),(2,1)\nOBJECT:(')',\"dagger\"),(2,1)"), role="valkyrie")
    t0 = await turn(api)
    here = await api.look_here()
    assert here and here.stairs == "up" and here.feature == "staircase up", here
    assert here.engraving is None and here.objects == []
    assert await turn(api) == t0 and at_command_prompt(api)
    assert (await api.move("e")).success
    assert (await api.engrave("Elbereth")).success
    here = await api.look_here()
    assert here.stairs is None and here.feature is None and here.engraving == "Elbereth", here
    assert sorted(o.split()[-1] for o in here.objects) == ["apple", "dagger"], here
    assert at_command_prompt(api)


async def test_looking_at_a_fountain_and_a_hostile_jackal(make_api):
    api = make_api(room_des(ROOM, "FOUNTAIN:(3,2)\nMONSTER:('d',\"jackal\"),(5,3),asleep"), role="valkyrie")
    hero = await api.get_position()
    fountain = await api.look_at(Position(hero.x + 2, hero.y + 1))
    assert (fountain.glyph_char, fountain.description, fountain.monster_name) == ("{", "fountain", None)
    jackal = await api.look_at(Position(hero.x + 4, hero.y + 2))
    assert jackal.monster_name == "jackal" and jackal.description == "jackal"
    assert not jackal.peaceful and not jackal.tame and jackal.symbol_meaning == "a dog or other canine"


async def test_looking_off_the_map_is_an_error_result_not_an_exception(make_api):
    api = make_api(room_des(ROOM))
    look = await api.look_at(Position(79, 3))
    assert not look and "off the map" in look.error
    look = await api.look_at("here")
    assert not look and "0..78" in look.error
    assert at_command_prompt(api)


# ------------------------------------------------------------------ overview
async def test_the_overview_remembers_the_fountain_and_altar_of_the_level_left_behind(make_api):
    des = room_des(ROOM, "FOUNTAIN:(3,1)\nALTAR:(3,3),chaos,altar\nSTAIR:(5,2),down")
    api = make_api(des, role="valkyrie")
    assert (await api.travel(">")).success
    assert (await api.go_down()).success
    t0 = await turn(api)
    overview = await api.get_dungeon_overview()
    assert overview, overview.error
    assert await turn(api) == t0 and at_command_prompt(api)
    by_depth = {lv.level: lv for lv in overview.levels}
    assert "a fountain" in by_depth[1].features and any("altar" in f for f in by_depth[1].features)
    assert not by_depth[1].is_current
    assert overview.current is by_depth[2] and by_depth[2].dungeon == "The Dungeons of Doom"


async def test_on_the_full_game_the_overview_lists_the_first_level_as_the_current_one(make_api):
    api = make_api(seed=3)
    overview = await api.get_dungeon_overview()
    assert overview.current is not None and overview.current.level == 1
    assert overview.current.dungeon == "The Dungeons of Doom"
    assert at_command_prompt(api)


def test_an_overview_window_with_branches_shops_and_annotations_is_parsed():
    window = [
        "The Dungeons of Doom: levels 1 to 4",
        '   Level 2: "stash here"',
        "      A general store, some fountains.",
        "      Stairs down to The Gnomish Mines.",
        "   Level 4: <- You are here.",
        "      Many fountains, an altar to Tyr.",
        "      A very big room.",
        "The Gnomish Mines: levels 3 to 5",
        "   Level 5:",
        "      A temple.",
    ]
    levels = parse_overview(window)
    assert [(lv.dungeon, lv.level) for lv in levels] == [
        ("The Dungeons of Doom", 2), ("The Dungeons of Doom", 4), ("The Gnomish Mines", 5)]
    two, four, five = levels
    assert two.features == ["a general store", "some fountains"] and two.annotations == ["stash here"]
    assert two.branch == "Stairs down to The Gnomish Mines" and not two.is_current
    assert four.is_current and four.features == ["many fountains", "an altar to Tyr"]
    assert four.annotations == ["A very big room"] and four.branch is None
    assert five.features == ["a temple"]


# ------------------------------------------------------------------ chat
# ------------------------------------------------------------------ get_spells
async def test_a_wizard_knows_force_bolt_as_spell_a_a_healer_healing_and_a_valkyrie_nothing(make_api):
    wizard = make_api(room_des(ROOM), role="wizard")
    t0 = await turn(wizard)
    spells = await wizard.get_spells()
    bolt = spells[0]
    assert (bolt.letter, bolt.name, bolt.level, bolt.school, bolt.pw_cost) == ("a", "force bolt", 1, "attack", 5)
    assert 0 <= bolt.fail_percent <= 100 and bolt.retention == "100%"
    assert len(spells) == 2  # and one random spell more
    assert await turn(wizard) == t0 and at_command_prompt(wizard)
    healer = make_api(room_des(ROOM), role="healer")
    assert [s.name for s in await healer.get_spells()] == ["healing", "extra healing", "stone to flesh"]
    valkyrie = make_api(room_des(ROOM), role="valkyrie")
    assert await valkyrie.get_spells() == [] and at_command_prompt(valkyrie)
    assert (await valkyrie.move("e")).success  # nothing of the menu left on the screen


async def test_chatting_with_an_awake_peaceful_watchman_gets_an_answer_and_a_sleeping_one_none(make_api):
    api = make_api(room_des(ROOM, 'MONSTER:(\'@\',"watchman"),(2,1),peaceful'), role="valkyrie")
    t0 = await turn(api)
    res = await api.chat("e")
    assert res.success, res
    assert res.messages and not any("Talk to whom" in m for m in res.messages)
    assert await turn(api) > t0 and at_command_prompt(api)

    api = make_api((LEVELS / "peaceful_watchman.des").read_text())  # asleep
    res = await api.chat("e")
    assert not res.success and "not to notice you" in res.error and "asleep" in res.error, res


async def test_a_temple_priest_asking_for_a_donation_gets_no_gold(make_api):
    des = room_des(ROOM, 'REGION:(1,1,5,3),lit,"temple"\nALTAR:(3,2),chaos,shrine\nOBJECT:(\'$\',"gold piece"),(1,1)')
    api = make_api(des, role="valkyrie")
    assert (await api.pickup()).success and (await api.get_stats()).gold == 1
    priest = next(m for m in await api.get_visible_monsters() if "priest" in m.name)
    for _ in range(6):
        hero = await api.get_position()
        if priest.position.is_adjacent(hero):
            break
        await api.move_to(Position(priest.position.x - 1, priest.position.y - 1))
        priest = next(m for m in await api.get_visible_monsters() if "priest" in m.name)
    res = await api.chat(hero.direction_to(priest.position))
    assert res.success, res
    assert any("contribution" in m for m in res.messages)
    assert (await api.get_stats()).gold == 1
    assert at_command_prompt(api)


async def walk_next_to_the_priest(api: NetHackAPI):
    priest = next(m for m in await api.get_visible_monsters() if "priest" in m.name)
    for _ in range(8):
        hero = await api.get_position()
        if priest.position.is_adjacent(hero):
            return hero.direction_to(priest.position)
        level = await api.get_current_level()
        beside = [p for p in priest.position.neighbors() if level.tile_at(p).is_walkable]
        await api.move_to(min(beside, key=hero.steps_to))
        priest = next(m for m in await api.get_visible_monsters() if "priest" in m.name)
    raise AssertionError("the priest kept out of reach")


async def test_a_healer_offering_a_temple_priest_400_gold_at_level_1_buys_protection(make_api):
    api = make_api(room_des(ROOM, 'REGION:(1,1,5,3),lit,"temple"\nALTAR:(3,2),chaos,shrine'), role="healer")
    before = await api.get_stats()
    assert before.xp_level == 1 and before.gold >= 1000  # a Healer starts with 1,001-2,000 gold
    direction = await walk_next_to_the_priest(api)

    t0 = await turn(api)
    res = await api.chat(direction, offer=before.gold + 1)
    assert not res.success and f"you carry {before.gold} gold" in res.error, res
    assert not (await api.chat(direction, offer=-5)).success
    assert await turn(api) == t0 and (await api.get_stats()).gold == before.gold  # nothing was sent

    res = await api.chat(await walk_next_to_the_priest(api), offer=400)
    assert res.success, res
    assert any("rewarded for thy devotion" in m for m in res.messages), res.messages
    after = await api.get_stats()
    assert after.gold == before.gold - 400
    assert 2 <= before.ac - after.ac <= 4  # the first protection: AC 2-4 better
    assert at_command_prompt(api)


async def test_chatting_where_nobody_stands_fails_and_names_who_is_near(make_api):
    api = make_api((LEVELS / "peaceful_watchman.des").read_text())
    t0 = await turn(api)
    res = await api.chat("w")
    assert not res.success and "nobody to talk to" in res.error and "watchman (e)" in res.error
    assert (await api.chat("up")).error.startswith("invalid direction")
    assert await turn(api) == t0 and at_command_prompt(api)


# ------------------------------------------------------------------ close_door
DOOR_ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]


async def test_an_open_door_is_closed_and_then_cannot_be_closed_again(make_api):
    api = make_api(room_des(DOOR_ROOM, "DOOR:open,(6,2)", hero=(5, 2)), role="valkyrie")
    hero = await api.get_position()
    door = Position(hero.x + 1, hero.y)
    assert (await api.get_current_level()).tile_at(door).feature == "open door"
    res = None
    for _ in range(5):  # closing fails now and then ("The door resists!")
        res = await api.close_door("e")
        if res.success or "resists" not in (res.error or ""):
            break
    assert res.success, res
    assert (await api.get_current_level()).tile_at(door).feature == "closed door"
    again = await api.close_door("e")
    assert not again.success and "already closed" in again.error


async def test_closing_a_door_with_a_dagger_in_the_doorway_says_something_is_in_the_way(make_api):
    api = make_api(room_des(DOOR_ROOM, "DOOR:open,(6,2)\nOBJECT:(')',\"dagger\"),(6,2)", hero=(5, 2)))
    res = await api.close_door("e")
    assert not res.success and "in the doorway" in res.error, res
    assert at_command_prompt(api)


async def test_closing_where_there_is_no_door_fails_and_points_to_the_open_door(make_api):
    api = make_api(room_des(DOOR_ROOM, "DOOR:open,(6,2)", hero=(5, 2)))
    res = await api.close_door("w")
    assert not res.success and "no door" in res.error and "open doors next to you: e" in res.error, res
    assert at_command_prompt(api)


# ------------------------------------------------------------------ reveal_terrain
POTION_ON_STAIRS = room_des(["-----------", "|.........|", "|.........|", "-----------"],
                            "STAIR:(8,2),down\nOBJECT:('!',\"water\"),(8,2)", hero=(1, 1))


async def test_down_stairs_under_a_potion_are_found_by_the_terrain_view_without_a_step(make_api):
    """A hero searched a level for hidden doors for 3,000 turns while its down stairs lay
    under a potion in a lit room: the map shows only the potion."""
    api = make_api(POTION_ON_STAIRS)
    level = await api.get_current_level()
    potion = next(t.position for row in level.tiles for t in row if t.char == "!")
    assert level.stairs_down is None
    t0 = await turn(api)
    found = await api.reveal_terrain()
    assert [(f.position, f.feature) for f in found] == [(potion, "stairs down")]
    assert await turn(api) == t0 and at_command_prompt(api)
    level = await api.get_current_level()
    assert level.stairs_down == potion and level.tile_at(potion).char == "!"  # the potion still shows
    assert await api.find_path(potion)
    # Asked again with nothing new in view: NetHack is not asked, nothing new is found.
    steps = api.game.steps
    assert await api.reveal_terrain() == [] and api.game.steps == steps



async def test_a_dwarf_tunnelling_through_the_rock_out_of_sight_is_heard_and_the_level_keeps_the_turn(make_api):
    """A hostile dwarf with a pick-axe digs toward the hero through the rock between two
    rooms: "You hear crashing rock." The level remembers when (digging_heard_turn)."""
    rows = ["-----       -----",
            "|...|       |...|",
            "|...|       |...|",
            "-----       -----"]
    api = make_api(room_des(rows, "MONSTER:('h',\"dwarf\"),(14,2),hostile,awake", hero=(1, 1)), seed=2,
                   role="valkyrie", race="human", gender="female", alignment="neutral")
    assert (await api.get_current_level()).digging_heard_turn is None
    heard = []
    for _ in range(20):
        res = await api.search(5)
        heard += [m for m in res.messages if "You hear crashing rock" in m]
        if heard:
            break
    assert heard
    turn = (await api.get_stats()).turn
    level = await api.get_current_level()
    assert level.digging_heard_turn is not None and turn - 5 <= level.digging_heard_turn <= turn, level.digging_heard_turn

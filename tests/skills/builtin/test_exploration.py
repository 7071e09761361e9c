"""Scenarios for the exploration skills (explore_level, cautious_explore) on MiniHack levels."""

from __future__ import annotations

import re

from hackwright.api import HungerState, Position

from .conftest import message_log, run_skill, spot, starve

HIT_THE_EYE = re.compile(r"You (hit|miss|kill) the floating eye|You are frozen|You can't move")


async def test_explore_level_finds_the_down_stairs_behind_a_secret_door_and_a_hidden_corridor(play):
    api = play("three_rooms_hidden")
    assert (await api.get_current_level()).stairs_down is None
    out = await run_skill(api, "explore_level")
    r = out.result
    assert r.stopped_reason == "fully_explored", r
    assert r.success and r.data["search_turns"] > 0
    stairs = (await api.get_current_level()).stairs_down
    assert stairs == spot(api, 52, 2)
    assert r.data["stairs_down"] == (stairs.x, stairs.y)
    assert r.actions_taken == out.actions and r.turns_elapsed > 0


async def test_explore_level_stops_as_soon_as_the_stairs_are_known_when_asked(play):
    api = play("bent_corridor")
    r = (await run_skill(api, "explore_level", stop_at_stairs=True)).result
    assert r.stopped_reason == "found_stairs" and r.success
    assert (await api.get_current_level()).stairs_down == spot(api, 13, 10)


async def test_explore_level_kicks_open_a_locked_door_to_reach_the_far_room(play):
    api = play("locked_door")
    r = (await run_skill(api, "explore_level")).result
    assert r.stopped_reason == "fully_explored", r
    assert r.data["kicks"] >= 1
    assert (await api.get_current_level()).stairs_down == spot(api, 21, 2)
    log = await message_log(api)
    assert "This door is locked" in log and re.search(r"crashes open|shatters to pieces", log)


async def test_explore_level_never_kicks_a_door_marked_closed_for_inventory(play):
    api = play("closed_for_inventory")
    r = (await run_skill(api, "explore_level", max_search_turns=60)).result
    assert r.stopped_reason in ("blocked", "search_exhausted"), r
    assert not r.success and r.data["kicks"] == 0
    door = spot(api, 17, 2)
    assert r.data["doors_left_shut"] == [(door.x, door.y)]
    log = await message_log(api)
    assert "Closed for inventory" in log and "WHAMM" not in log


async def test_explore_level_walks_round_a_floating_eye_in_a_corridor_and_never_bumps_it(play):
    api = play("floating_eye_corridor")
    r = (await run_skill(api, "explore_level")).result
    assert r.stopped_reason == "fully_explored", r
    assert not HIT_THE_EYE.search(await message_log(api))
    eyes = [m for m in await api.get_visible_monsters() if m.name == "floating eye"] or None
    assert eyes is None or eyes[0].position.x in range(spot(api, 7, 2).x, spot(api, 18, 2).x)


async def test_explore_level_reports_blocked_when_a_floating_eye_fills_the_only_corridor(play):
    api = play("floating_eye_dead_end")
    r = (await run_skill(api, "explore_level")).result
    assert r.stopped_reason == "blocked", r
    assert "floating eye" in r.data["avoided"]
    assert not HIT_THE_EYE.search(await message_log(api))


async def test_cautious_explore_stops_when_it_first_sees_the_down_stairs(play):
    api = play("bent_corridor")
    r = (await run_skill(api, "cautious_explore")).result
    assert r.stopped_reason == "found_stairs" and r.success
    stairs = spot(api, 13, 10)
    assert r.data["stairs_pos"] == (stairs.x, stairs.y) and r.data["stairs_type"] == "down"


async def test_cautious_explore_stops_for_a_newt_next_to_the_hero(play):
    api = play("newt_adjacent")
    r = (await run_skill(api, "cautious_explore")).result
    assert r.stopped_reason == "monster_spotted"
    assert r.data["monsters"][0]["name"] == "newt" and r.actions_taken == 0


async def test_cautious_explore_is_not_stopped_by_a_sleeping_floating_eye_it_walks_round(play):
    api = play("floating_eye_corridor")
    r = (await run_skill(api, "cautious_explore")).result
    assert r.stopped_reason == "fully_explored", r
    assert not HIT_THE_EYE.search(await message_log(api))


async def test_cautious_explore_stops_when_hungry(play):
    api = play("empty_room")
    await starve(api, HungerState.HUNGRY)
    r = (await run_skill(api, "cautious_explore")).result
    assert r.stopped_reason == "hungry" and r.data["hunger"] == "Hungry"


async def test_explore_level_in_a_closed_room_without_stairs_searches_then_gives_up(play):
    api = play("empty_room")
    r = (await run_skill(api, "explore_level", max_search_turns=80)).result
    assert r.stopped_reason == "search_exhausted", r
    assert 80 <= r.data["search_turns"] <= 100 and r.data["stairs_down"] is None


async def test_explore_level_pushes_a_boulder_out_of_the_only_corridor(play):
    api = play("boulder_corridor")
    r = (await run_skill(api, "explore_level")).result
    assert r.stopped_reason == "fully_explored", r
    assert r.data["boulder_pushes"] >= 1
    assert (await api.get_current_level()).stairs_down == spot(api, 23, 2)


async def test_explore_level_never_pushes_a_boulder_under_the_only_door_of_a_room(play):
    # Pushed west, the boulder would fill the one square below the room's door: a door
    # is entered straight, never on a slant, and a boulder cannot be pulled back.
    api = play("boulder_under_door")
    assert await api.find_path(spot(api, 3, 2)) is not None
    r = (await run_skill(api, "explore_level", max_search_turns=20)).result
    assert r.stopped_reason == "search_exhausted", r
    assert r.data["boulder_pushes"] == 0
    assert await api.find_path(spot(api, 3, 2)) is not None


async def test_explore_level_crosses_a_known_squeaky_board_the_api_would_walk_around(play):
    api = play("squeaky_board")
    for d in ("e", "e", "w", "w"):  # step on the board (it squeaks: now it is a known trap) and back
        await api.move(d)
    assert "squeaks" in await message_log(api)
    assert await api.find_unexplored() is None  # the API will not plan across a known trap
    r = (await run_skill(api, "explore_level")).result
    assert r.stopped_reason == "fully_explored", r
    assert (await api.get_current_level()).stairs_down == spot(api, 21, 2)


async def test_explore_level_kills_a_yellow_mold_that_shuts_the_only_corridor_and_finds_the_stairs(play):
    """Walled off from half her level by two yellow molds, a Valkyrie searched the rest of
    it for 13,000 turns and starved (seed 41). A mold never moves: it is killed when HP
    can take its sting, and a stunned hero waits before swinging again."""
    api = play("yellow_mold_corridor")
    r = (await run_skill(api, "explore_level", fight=True, stop_at_stairs=True)).result
    assert r.stopped_reason == "found_stairs", r
    assert (await api.get_current_level()).stairs_down == spot(api, 21, 2)
    assert "You kill the yellow mold" in await message_log(api)
    assert not any(m.name == "yellow mold" for m in await api.get_visible_monsters())


async def test_without_fight_explore_level_leaves_the_yellow_mold_alone(play):
    api = play("yellow_mold_corridor")
    r = (await run_skill(api, "explore_level", max_search_turns=30)).result
    assert r.stopped_reason in ("blocked", "search_exhausted"), r
    assert "You kill the yellow mold" not in await message_log(api)
    assert any(m.name == "yellow mold" for m in await api.get_visible_monsters())


async def test_explore_level_searches_the_wall_beyond_squares_that_only_count_as_searched(play):
    # Searching covers the eight squares around, so after 30 searches one square short of
    # the east wall the squares along that wall have counts of 30 while the wall has none:
    # a spot is chosen for the walls it would search, not for its own count.
    api = play("searched_beside_a_secret_door")
    for _ in range(3):
        await api.search(10)
    level = await api.get_current_level()
    assert level.tile_at(spot(api, 5, 2)).search_count >= 30
    assert level.tile_at(spot(api, 6, 2)).search_count == 0
    r = (await run_skill(api, "explore_level", searches_per_spot=15, max_search_turns=40)).result
    assert r.stopped_reason == "fully_explored", r
    assert (await api.get_current_level()).stairs_down == spot(api, 22, 2)
    assert "You find a hidden door" in await message_log(api)


async def test_down_stairs_seen_by_magic_mapping_beyond_a_secret_door_are_searched_for(play):
    """Magic mapping shows the far room's stairs but not the secret door on the way:
    stairs no walk reaches are no reason to stop exploring, and the known floor beyond
    the wall marks where to search. (A Monk starved on Dlvl 4 so, 10,000 turns.)"""
    api = play("magic_mapped_secret_door")
    assert (await api.pickup()).success
    scroll = next(i.slot for i in await api.get_inventory() if i.object_class == "scroll")
    assert (await api.read(scroll)).success
    stairs = (await api.get_current_level()).stairs_down
    assert stairs == spot(api, 22, 2) and not await api.find_path(stairs)
    r = (await run_skill(api, "explore_level", stop_at_stairs=True, max_search_turns=80)).result
    assert r.stopped_reason == "found_stairs", r
    assert await api.find_path(stairs)
    assert "You find a hidden door" in await message_log(api)


async def test_a_corridor_that_stops_dead_just_past_a_bend_is_searched_first(play):
    # The last square after a bend sees the bend's corner diagonally too, so it has two
    # open neighbours; it is still the end of the corridor, where hidden squares are likeliest.
    api = play("bend_dead_end")
    r = (await run_skill(api, "explore_level", stop_at_stairs=True, max_search_turns=30)).result
    assert r.stopped_reason == "found_stairs", r
    assert (await api.get_current_level()).stairs_down == spot(api, 8, 12)


async def test_explore_and_fight_goes_down_stairs_that_lie_under_a_potion_in_a_lit_room(make_api):
    """The map shows only the potion: exploring found no frontier and no stairs, and the
    hero would have searched the walls for hidden doors instead (run in the sandbox: the
    skill asks nh.reveal_terrain through the worker)."""
    from tests.api.test_information import POTION_ON_STAIRS

    api = make_api(POTION_ON_STAIRS)
    r = (await run_skill(api, "explore_and_fight", mode="sandbox", descend=True, dive=True, max_depth=2)).result
    assert (await api.get_stats()).dungeon_level == 2, r


async def test_explore_level_told_to_stop_at_stairs_stops_for_stairs_under_a_potion(make_api):
    from tests.api.test_information import POTION_ON_STAIRS

    api = make_api(POTION_ON_STAIRS)
    r = (await run_skill(api, "explore_level", stop_at_stairs=True)).result
    assert r.stopped_reason == "found_stairs" and r.success, r
    assert (await api.get_current_level()).stairs_down is not None


async def test_explore_and_fight_hands_back_when_a_watched_for_dwarf_comes_near(make_api):
    """A dwarf's pick-axe is what a diver needs: the caller asks to be told when one comes
    within 7 squares, rather than meet him only when he swings his mattock."""
    from tests.conftest import room_des

    hall = ["-----------------------", "|.....................|", "|.....................|", "-----------------------"]
    des = room_des(hall, "MONSTER:('h',\"dwarf\"),(20,2),hostile", hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    r = (await run_skill(api, "explore_and_fight", watch_for=["dwarf"], budget=200, linger_turns=100)).result
    assert r.stopped_reason == "sighted" and r.data["monster"] == "dwarf", r
    hero = await api.get_position()
    dwarf = next(m for m in await api.get_visible_monsters() if m.name == "dwarf")
    assert dwarf.position.steps_to(hero) <= 7
    # Without watch_for the same hero meets him in melee.
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    r = (await run_skill(api, "explore_and_fight", budget=200, linger_turns=100)).result
    assert r.stopped_reason != "sighted", r


async def test_a_dwarvish_hero_watching_for_dwarves_is_told_of_a_peaceful_one_only_when_asked(make_api):
    """A dwarf is peaceful to a dwarvish hero and walks past her; the Mines' hunt for a pick
    asks (watch_peaceful) to hear of such a one too. By default only hostile ones count."""
    from tests.conftest import room_des

    # (Behind a partition: a dwarf in sight from the start would not be news.)
    halls = ["-------------------------", "|..........|............|", "|..........|............|",
             "|.......................|", "-------------------------"]
    des = room_des(halls, "MONSTER:('h',\"dwarf\"),(22,1),peaceful", hero=(1, 1))
    hero = dict(role="valkyrie", race="dwarf", gender="female", alignment="lawful")
    api = make_api(des, seed=0, **hero)
    r = (await run_skill(api, "explore_and_fight", watch_for=["dwarf"], watch_peaceful=True, budget=200,
                         linger_turns=100)).result
    assert r.stopped_reason == "sighted" and r.data["monster"] == "dwarf", r
    api = make_api(des, seed=0, **hero)
    r = (await run_skill(api, "explore_and_fight", watch_for=["dwarf"], budget=200, linger_turns=100)).result
    assert r.stopped_reason != "sighted", r
    assert any(m.name == "dwarf" and m.is_peaceful for m in await api.get_visible_monsters()), r


# Two down staircases drawn on one level: NetHack keeps one real down staircase per level
# made from a des-file (the one at (4,1)); the other (7,2) only looks like stairs, and
# pressing '>' there says "You can't go down here." The real one is first in reading
# order, so a hero that takes the first stairs it knows never tries the other.
TWO_STAIRS = ["---------", "|.......|", "|.......|", "---------"]
TWO_STAIRS_EXTRA = "STAIR:(7,2),down\nSTAIR:(4,1),down"


async def test_explore_and_fight_looking_for_a_branch_climbs_back_and_tries_the_other_down_stairs(make_api):
    """On the levels where the Gnomish Mines may begin, a hero who wants them takes the
    stairs it has never crossed, and comes straight back up from stairs that led on in
    the same branch to try the level's other ones."""
    from tests.conftest import room_des

    des = room_des(TWO_STAIRS, TWO_STAIRS_EXTRA, hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    assert len((await api.get_current_level()).untried_stairs_down) == 2
    r = (await run_skill(api, "explore_and_fight", mode="sandbox", descend=True, dive=True, max_depth=2,
                         seek_branch_on=[1], budget=100)).result
    assert (await api.get_stats()).dungeon_level == 2, r
    log = await message_log(api)
    assert "You can't go down here" in log, "the hero never tried the second stairs"
    # Without seek_branch_on a diver goes down the stairs it knows and never tries the other.
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    r = (await run_skill(api, "explore_and_fight", mode="sandbox", descend=True, dive=True, max_depth=2,
                         budget=100)).result
    assert (await api.get_stats()).dungeon_level == 2, r
    assert "You can't go down here" not in await message_log(api)


# A dagger lies embedded in the rock at the end of a corridor (map (8,2)): the display
# shows a dagger, which looks like ground one can walk to.
DAGGER_IN_ROCK = ["------", "|....|", "|....+##", "------"]


async def test_a_dagger_embedded_in_the_rock_does_not_hold_explore_level_bumping_into_it(make_api):
    """NetHack refuses the step ("It's solid stone.") and takes no time; a map that kept
    the dagger's square as ground planned the same step again and again until the skill
    gave up "blocked" on its first turn (a Valkyrie stood 1,400 turns so on Dlvl 1)."""
    from tests.conftest import room_des

    des = room_des(DAGGER_IN_ROCK, "OBJECT:(')',\"dagger\"),(8,2)", hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    start = api.last_stats.position
    dagger = Position(start.x + 7, start.y + 1)  # drawing (8,2) from the hero's (1,1)
    r = (await run_skill(api, "explore_level", max_search_turns=20)).result
    assert r.data.get("error") != "It's solid stone.", r
    assert r.stopped_reason in ("fully_explored", "search_exhausted"), r
    assert "It's solid stone." in await message_log(api)  # it did try the dagger's square once
    assert not (await api.get_current_level()).tile_at(dagger).is_walkable  # and the map knows it now

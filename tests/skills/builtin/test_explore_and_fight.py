"""explore_and_fight: one call explores a level and deals with weak monsters on the way."""

import re

from .conftest import message_log, run_skill, spot


async def test_a_newt_next_to_the_hero_dies_and_the_room_is_explored_in_one_call(play):
    api = play("newt_adjacent")
    out = await run_skill(api, "explore_and_fight")
    assert out.result.stopped_reason == "level_done", out.result
    assert "newt" not in [m.name for m in await api.get_visible_monsters()]
    assert "You kill the newt" in await message_log(api)


async def test_a_floating_eye_in_the_corridor_is_never_meleed(play):
    api = play("floating_eye_corridor")
    out = await run_skill(api, "explore_and_fight")
    assert out.result.stopped_reason in ("level_done", "dangerous_monster", "stuck"), out.result
    log = await message_log(api)
    assert "floating eye" not in log or ("You hit the floating eye" not in log and "frozen" not in log)


async def test_a_shop_door_closed_for_inventory_is_never_kicked(play):
    api = play("closed_for_inventory")
    out = await run_skill(api, "explore_and_fight", budget=200)
    assert out.result.stopped_reason in ("stuck", "level_done"), out.result
    log = await message_log(api)
    assert "WHAMM" not in log and "How dare you" not in log
    # The API itself refuses, whoever asks: the hero stands before the door now.
    door = spot(api, 17, 2)
    hero = (await api.get_stats()).position
    if hero.is_adjacent(door):
        r = await api.kick(hero.direction_to(door))
        assert not r.success and "shop" in r.error


async def test_an_acid_blob_blocking_the_only_corridor_is_fought_and_the_way_down_reached(play):
    api = play("acid_blob_corridor")
    out = await run_skill(api, "explore_and_fight", descend=True, max_depth=2, budget=300)
    log = await message_log(api)
    assert "You kill the acid blob" in log, (out.result, log)
    assert out.result.data["levels_descended"] == 1, out.result  # and down the stairs beyond it


async def test_with_stop_on_new_level_the_hero_hands_back_on_arriving_down_the_stairs(play):
    """The caller may want a word on each new level (a Tourist reads a scroll of magic
    mapping there): the dive stops at the foot of the stairs, not after exploring."""
    api = play("acid_blob_corridor")
    out = await run_skill(api, "explore_and_fight", descend=True, max_depth=2, budget=300, stop_on_new_level=True)
    assert out.result.stopped_reason == "level_changed", out.result
    assert out.result.data["levels_descended"] == 1 and out.result.data["depth"] == 2, out.result
    stats = await api.get_stats()
    assert stats.dungeon_level == 2 and (await api.get_current_level()).stairs_up == stats.position


async def test_a_wizard_kills_the_newt_next_to_her_with_force_bolt_not_her_quarterstaff(play):
    api = play("newt_adjacent", hero="wizard")
    pw = (await api.get_stats()).pw
    out = await run_skill(api, "explore_and_fight", attack_spell="a")
    assert out.result.stopped_reason == "level_done", out.result
    log = await message_log(api)
    assert "You kill the newt" in log and re.search(r"The spell (hits|misses) the newt", log)
    assert (await api.get_stats()).pw < pw  # 5 Pw a bolt


async def test_a_wizard_never_force_bolts_a_newt_with_a_peaceful_mold_on_the_line_behind_it(play):
    """A force bolt goes on past the monster it kills (a Wizard's bolt killed a gnome in a
    shop door and went on into the shopkeeper, who killed her): with a peaceful or a pet
    on the line beyond, the staff does the job."""
    api = play("newt_before_peaceful_mold", hero="wizard")
    pw = (await api.get_stats()).pw
    await run_skill(api, "explore_and_fight", attack_spell="a", budget=60)
    log = await message_log(api)
    assert "You kill the newt" in log, log
    assert "The spell" not in log and (await api.get_stats()).pw == pw, log
    mold = [m for m in await api.get_visible_monsters() if m.name == "yellow mold"]
    assert mold and mold[0].is_peaceful, mold


async def test_a_ranger_with_archery_shoots_the_jackals_coming_down_the_room_with_her_bow(play):
    api = play("jackals_down_the_room", hero="ranger")
    arrows = sum(i.quantity for i in await api.get_inventory() if "arrow" in (i.name or ""))
    out = await run_skill(api, "explore_and_fight", archery=True, stop_for_gear=False)
    log = await message_log(api)
    assert re.search(r"You shoot \d+ arrows|The (\+\d )?arrows? (hits|misses)", log), log
    assert log.count("You kill the jackal") == 3, (out.result, log)
    assert "You hit the jackal" not in log  # shot, not stabbed
    left = sum(i.quantity for i in await api.get_inventory() if "arrow" in (i.name or ""))
    assert "You shoot" in log and left > arrows - 4, (arrows, left)  # shot, then mostly picked up again
    weapon = (await api.get_equipment())["weapon"]
    assert weapon is not None and "bow" in weapon.name  # readied once, and kept


async def test_a_ranger_walks_over_to_eat_a_jackal_she_shot_once_the_pack_is_dead(play):
    """Corpses of monsters shot at range, or killed with another at hand, were never eaten;
    a third of the deaths came while fainting or starving."""
    api = play("jackals_down_the_room", hero="ranger")
    await run_skill(api, "explore_and_fight", archery=True, stop_for_gear=False)
    log = await message_log(api)
    assert log.count("You kill the jackal") == 3, log
    assert "You finish eating the jackal corpse" in log, log


async def test_beside_a_werejackal_and_two_jackals_a_valkyrie_strikes_the_werejackal_first(play):
    """The weakest monster beside the hero is fought first, but a were-creature before
    all: it summons more jackals or rats while it lives, and a Knight who killed a fox
    and its jackals first was bitten to death by the werejackal and its new pack."""
    api = play("werejackal_and_jackals_adjacent", hero="valkyrie")
    await run_skill(api, "explore_and_fight", budget=3)
    blows = re.findall(r"You (?:hit|miss|kill|smite) the ([a-z]+)", await message_log(api))
    assert blows and blows[0] == "werejackal", blows


async def test_a_hero_set_upon_by_a_jackal_pack_backs_out_through_the_door_to_fight_them_one_by_one(play):
    api = play("jackal_pack_by_a_door")
    start, door = await api.get_position(), spot(api, 10, 2)
    where = []
    api.after_action.append(lambda a: where.append(a.last_stats.position))
    out = await run_skill(api, "explore_and_fight", budget=120, linger_turns=40)
    log = await message_log(api)
    assert where[0].x > start.x and door in where, where  # no swing in the open: off to the door
    assert log.count("You kill the jackal") == 3, (out.result, log)


async def test_a_tourist_with_archery_throws_darts_at_the_jackals_and_picks_them_up_again(play):
    api = play("jackals_down_the_room", hero="tourist")
    darts = sum(i.quantity for i in await api.get_inventory() if "dart" in (i.name or ""))
    out = await run_skill(api, "explore_and_fight", archery=True, stop_for_gear=False)
    log = await message_log(api)
    assert log.count("You kill the jackal") == 3, (out.result, log)
    assert re.search(r"The (\+\d )?darts? (hits|misses)|You throw \d+ darts", log), log
    left = sum(i.quantity for i in await api.get_inventory() if "dart" in (i.name or ""))
    assert left > darts - 4, (darts, left)


async def test_archery_never_shoots_a_gas_spore_next_to_the_hero(play):
    """A Tourist's dart killed a gas spore beside her, and its explosion killed her (seed 14)."""
    api = play("gas_spore_adjacent", hero="tourist")
    await run_skill(api, "explore_and_fight", archery=True, budget=40)
    log = await message_log(api)
    assert "explosion" not in log and not api.game_over, log


async def test_told_to_stop_when_outmatched_a_tourist_hands_back_beside_a_rothe_before_a_blow(play):
    """Three bites a turn against a Tourist's bare hands would likely cost her most of her HP
    (nh.fight_odds), though a rothe is no "dangerous monster" by difficulty: the skill hands
    the choice back (Elbereth, walking away, the stairs, an item) before swinging; a newt is fought."""
    api = play("rothe_adjacent", hero="tourist")
    hp = api.last_stats.hp
    # (in a sandbox worker: nh.fight_odds and its FightOdds cross the wire)
    out = await run_skill(api, "explore_and_fight", mode="sandbox", stop_when_outmatched=True)
    assert out.result.stopped_reason == "outmatched", out.result
    assert out.result.data["monster"] == "rothe" and out.result.data["expected_damage"] > hp / 2
    log = await message_log(api)
    assert "You hit" not in log and "You miss" not in log, log
    api = play("newt_adjacent", hero="tourist")
    out = await run_skill(api, "explore_and_fight", stop_when_outmatched=True)
    assert out.result.stopped_reason == "level_done", out.result


async def test_a_known_squeaky_board_in_the_only_gap_does_not_end_the_exploring(play):
    """The board squeaked under the hero once, so it is a known trap, and it lies in the
    only gap between the hero and the rest of the level. explore_and_fight crosses it (it
    is harmless) and finds the down stairs beyond, rather than calling a level it has
    barely seen "done" (a Monk gave up the Gnomish Mines so: a squeaky board across the
    way out of a dead end)."""
    api = play("squeaky_board_seen_beyond")
    for d in ("e", "e", "e", "e", "w", "w", "w", "w"):  # over the board (it squeaks) and back
        await api.move(d)
    assert "squeaks" in await message_log(api)
    assert await api.find_unexplored() is None  # the API's own paths keep off the known board
    out = await run_skill(api, "explore_and_fight", budget=300)
    assert out.result.stopped_reason == "level_done", out.result
    assert (await api.get_current_level()).stairs_down == spot(api, 19, 3)


async def test_a_hero_walking_to_gold_past_a_mold_in_view_gives_it_up_and_goes_down(play):
    """A mold in view pauses the walk to gold, and the walk to the stairs undoes each step:
    a Healer stepped to and fro between the two for 3,000 turns. Gold is given up on the
    level and the hero goes down."""
    api = play("gold_past_a_mold")
    out = await run_skill(api, "explore_and_fight", descend=True, max_depth=2, budget=160)
    assert out.result.data["levels_descended"] == 1, out.result


async def test_a_valkyrie_with_one_ration_fetches_the_food_ration_across_the_room_before_going_down(play):
    """Food that keeps, in view, is a prayer kept for HP: a hero carrying little (a
    Valkyrie starts with one food ration) walks to it as to gold. A Tourist, her pack
    full of food, goes straight down."""
    for hero, fetches in (("valkyrie", True), ("tourist", False)):
        api = play("food_ration_across_the_room", hero=hero)
        before = sum(i.quantity for i in await api.get_inventory() if "food ration" in (i.text or ""))
        out = await run_skill(api, "explore_and_fight", descend=True, dive=True, max_depth=2, budget=120)
        assert out.result.data["levels_descended"] == 1, (hero, out.result)
        after = sum(i.quantity for i in await api.get_inventory() if "food ration" in (i.text or ""))
        assert (after == before + 1) == fetches, (hero, before, after)


async def test_just_arrived_a_tourist_waits_on_the_up_stairs_for_a_hill_orc_and_without_the_hold_walks_off(make_api):
    """Most monsters do not follow a hero up the stairs: a strong one coming is fought
    where one step up ends the fight, not in the middle of the room."""
    room = ["--------------", "|............|", "|............|", "|............|", "--------------"]
    # The room's east half is dark: there is still exploring to do.
    des = ('MAZE: "mylevel", \' \'\nFLAGS:noteleport\nGEOMETRY:center,center\nMAP\n' + "\n".join(room) +
           '\nENDMAP\nREGION:(0,0,7,4),lit,"ordinary"\nREGION:(8,0,13,4),unlit,"ordinary"\n'
           'BRANCH:(1,2,1,2),(0,0,0,0)\nMONSTER:(\'o\',"hill orc"),(6,2),hostile\n')
    for hold in (True, False):
        api = make_api(des, seed=0, role="tourist", race="human", gender="female", alignment="neutral",
                       extra={"pet": False})
        stairs = api.last_stats.position
        where = []
        api.after_action.append(lambda a: where.append(a.last_stats.position))
        await run_skill(api, "explore_and_fight", hold_the_stairs=hold, budget=25, stop_for_gear=False)
        log = await message_log(api)
        met = re.search(r"The hill orc (hits|misses|swings|thrusts)|You (hit|miss|kill) the hill orc", log)
        if hold:
            assert met, log
            assert all(p == stairs for p in where[:5]), where  # waited there for it
        else:
            assert any(p != stairs for p in where[:5]), where  # walked off to explore
        api.close()

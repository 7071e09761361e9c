"""Scenarios for the combat skills (melee_fight, ranged_attack)."""

from __future__ import annotations

import re

from .conftest import message_log, run_skill, spot

HIT_THE_EYE = re.compile(r"You (hit|miss|kill) the floating eye|You are frozen|You can't move")


async def test_an_adjacent_newt_dies_to_melee_fight_within_20_turns(play):
    api = play("newt_adjacent")
    r = (await run_skill(api, "melee_fight", max_actions=20)).result
    assert r.stopped_reason == "target_dead" and r.success, r
    assert r.data["target"] == "newt" and r.turns_elapsed <= 20
    assert r.data["killed_turn"] == (await api.get_stats()).turn
    assert not [m for m in await api.get_visible_monsters() if m.name == "newt"]


async def test_a_wizard_beside_a_rothe_fights_it_with_force_bolt_when_given_the_spell(play):
    """With `spell` the blows are casts (5 Pw each) while Pw lasts, then blows."""
    api = play("rothe_adjacent", hero="wizard")
    pw = (await api.get_stats()).pw
    r = (await run_skill(api, "melee_fight", spell="a", hp_threshold=0.0)).result
    log = await message_log(api)
    assert r.data.get("casts", 0) >= 1 and re.search(r"The spell (hits|misses) the rothe", log), (r, log)
    assert (await api.get_stats()).pw <= pw - 5 * r.data["casts"] + 1
    # Without the spell the same fight is all blows.
    api = play("rothe_adjacent", hero="wizard")
    r = (await run_skill(api, "melee_fight", hp_threshold=0.0)).result
    assert "casts" not in r.data and "The spell" not in await message_log(api), r
    assert r.stopped_reason in ("target_dead", "game_over"), r


async def test_melee_fight_kills_the_newt_but_never_touches_the_floating_eye_beside_it(play):
    api = play("eye_and_newt_adjacent")
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "target_dead" and r.data["target"] == "newt", r
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "no_target" and r.actions_taken == 0 and r.data["attacks"] == 0
    assert "paralysis" in r.data["avoided"]["floating eye"]
    assert not HIT_THE_EYE.search(await message_log(api))
    assert any(m.name == "floating eye" for m in await api.get_visible_monsters())


async def test_melee_fight_kills_the_biting_newt_before_the_yellow_mold_beside_it(play):
    """A mold only stings whoever hits it: the newt is the fight, the mold is left alone
    (hit first, its sting stuns, and a stunned hero's blows go astray)."""
    api = play("mold_and_newt_adjacent")
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "target_dead" and r.data["target"] == "newt", r
    log = await message_log(api)
    assert not re.search(r"You (hit|miss) the yellow mold|You stagger", log), log
    assert any(m.name == "yellow mold" for m in await api.get_visible_monsters())


async def test_melee_fight_with_nobody_around_has_no_target(play):
    api = play("empty_room")
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "no_target" and r.actions_taken == 0


async def test_melee_fight_never_attacks_a_peaceful_watchman_next_to_the_hero(play):
    api = play("peaceful_watchman")
    assert [m.is_peaceful for m in await api.get_visible_monsters()] == [True]
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "no_target" and r.data["attacks"] == 0
    assert "Really attack" not in await message_log(api)


async def test_ranged_attack_kills_a_sleeping_floating_eye_with_thrown_daggers(play):
    api = play("daggers_and_eye")
    assert (await run_skill(api, "pickup_useful")).result.success
    r = (await run_skill(api, "ranged_attack", max_throws=12)).result
    assert r.stopped_reason == "target_dead" and r.success, r
    assert r.data["target"] == "floating eye" and r.data["killed_turn"] == (await api.get_stats()).turn
    assert r.data["throws"] >= 1 and set(r.data["thrown_toward"]) == {"e"}
    assert "You kill the floating eye!" in await message_log(api)
    assert not [m for m in await api.get_visible_monsters() if m.name == "floating eye"]
    assert not re.search(r"You are frozen|You can't move|You (hit|miss) the floating eye", await message_log(api))
    assert await api.get_position() == spot(api, 2, 2)  # never walked up to it


async def test_ranged_attack_at_a_blue_jelly_stops_when_a_jackal_bites_from_beside(play):
    """Throwing on at the target while another monster bites leaves its blows unanswered (a
    Healer threw darts at a green mold while a kitten bit her to death): the skill hands back
    with "attacked", naming the biter."""
    api = play("daggers_jelly_and_jackal")
    assert (await run_skill(api, "pickup_useful")).result.success
    r = (await run_skill(api, "ranged_attack", target="blue jelly", max_throws=12)).result
    assert r.stopped_reason == "attacked" and not r.success, r
    assert r.data["monster"] == "jackal" and r.data["target"] == "blue jelly", r
    hero = await api.get_position()
    assert any(m.name == "jackal" and m.position.is_adjacent(hero) for m in await api.get_visible_monsters())


async def test_ranged_attack_says_nothing_to_throw_for_a_wizard_without_missiles(play):
    api = play("daggers_and_eye", hero="wizard")
    r = (await run_skill(api, "ranged_attack")).result
    assert r.stopped_reason == "nothing_to_throw" and r.actions_taken == 0


async def test_a_wizard_casts_no_force_bolt_at_a_newt_with_a_peaceful_mold_on_the_line_behind_it(play):
    """A force bolt goes on past the monster it hits: with a peaceful or a pet beyond the
    target it is not cast (and a Wizard with nothing to throw has no shot)."""
    api = play("newt_in_line_before_peaceful_mold", hero="wizard")
    pw = (await api.get_stats()).pw
    r = (await run_skill(api, "ranged_attack", target="newt", spell="a")).result
    log = await message_log(api)
    assert "The spell" not in log and (await api.get_stats()).pw == pw, (r, log)
    assert r.stopped_reason == "out_of_ammo", r
    mold = [m for m in await api.get_visible_monsters() if m.name == "yellow mold"]
    assert mold and mold[0].is_peaceful, mold


async def test_ranged_attack_with_no_hostile_in_line_has_no_target(play):
    api = play("item_pile")
    r = (await run_skill(api, "ranged_attack")).result  # a Valkyrie carries one spare dagger
    assert r.stopped_reason == "no_target" and r.actions_taken == 0


async def test_melee_fight_leaves_a_gas_spore_alone_and_backs_away_from_it(play):
    api = play("gas_spore_adjacent")
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "no_target" and r.data["attacks"] == 0
    assert "explodes" in r.data["avoided"]["gas spore"]
    assert r.data["stepped_away"]
    hero = await api.get_position()
    spore = next(m for m in await api.get_visible_monsters() if m.name == "gas spore")
    assert not spore.position.is_adjacent(hero)
    r = (await run_skill(api, "ranged_attack")).result  # from a distance it may be shot
    assert r.stopped_reason in ("target_dead", "out_of_ammo", "no_target"), r
    assert not api.game_over and "caught in the gas spore's explosion" not in await message_log(api)


async def test_with_a_wall_at_his_back_a_valkyrie_walks_round_a_gas_spore_and_shoots_it_from_two_squares(play):
    # No step straight back keeps the spore in line; one two squares off does, past it.
    # (Heroes who found no room to step back hit the spore in the end, and its
    # explosion killed those under 25 HP one time in three.)
    api = play("gas_spore_against_the_wall")
    assert (await run_skill(api, "pickup_useful")).result.success
    r = (await run_skill(api, "ranged_attack", target="gas spore", max_throws=10)).result
    assert r.stopped_reason == "target_dead" and r.success, r
    log = await message_log(api)
    assert not api.game_over and "caught in the gas spore's explosion" not in log, log


async def test_ranged_attack_steps_into_line_with_a_floating_eye_before_throwing(play):
    api = play("daggers_and_eye_off_line")
    assert (await run_skill(api, "pickup_useful")).result.success
    start = await api.get_position()
    r = (await run_skill(api, "ranged_attack", max_throws=12)).result
    assert r.stopped_reason in ("target_dead", "out_of_ammo"), r
    assert r.data["throws"] >= 1
    assert await api.get_position() != start
    assert not re.search(r"You are frozen|You can't move|You (hit|miss) the floating eye", await message_log(api))


async def test_an_invisible_newt_that_bites_is_reported_as_an_unseen_monster_and_killed_by_melee_fight(play):
    api = play("invisible_newt_adjacent")
    assert await api.get_visible_monsters() == []  # nothing to see yet
    for _ in range(40):  # wait until it bites: NetHack then marks its square with an 'I'
        await api.search()
        unseen = [m for m in await api.get_adjacent_monsters() if m.is_invisible_marker]
        if unseen:
            break
    assert unseen and unseen[0].name == "unseen monster" and not unseen[0].is_peaceful
    r = (await run_skill(api, "melee_fight", max_actions=40)).result
    assert r.data["attacks"] >= 1, r
    assert re.search(r"You (kill|hit|miss) it|You kill the newt|thin air", await message_log(api))


async def test_a_peaceful_lichen_blocking_the_corridor_is_fought_only_when_the_caller_says_so(play):
    api = play("peaceful_lichen_in_corridor")
    lichen = [m for m in await api.get_visible_monsters() if m.name == "lichen"]
    assert lichen and lichen[0].is_peaceful
    r = (await run_skill(api, "melee_fight", target="lichen")).result
    assert r.stopped_reason == "no_target" and r.data["attacks"] == 0  # peaceful: left alone
    r = (await run_skill(api, "melee_fight", target="lichen", peaceful_ok=True, max_actions=60)).result
    assert r.stopped_reason == "target_dead" and r.data["target"] == "lichen", r


async def test_the_api_never_attacks_a_peaceful_watchman_even_when_told_peaceful_ok(play):
    api = play("peaceful_in_corridor")
    for _ in range(2):  # through the doorway into the corridor, next to the sleeping watchman
        assert (await api.move("e")).success
    watchman = [m for m in await api.get_adjacent_monsters() if m.name == "watchman"]
    assert watchman and watchman[0].is_peaceful
    asked = (await message_log(api)).count("Really attack")
    res = await api.attack((await api.get_position()).direction_to(watchman[0].position), peaceful_ok=True)
    assert not res.success and "declined" in res.error
    assert (await message_log(api)).count("Really attack") == asked  # not even asked
    assert [m.is_peaceful for m in await api.get_adjacent_monsters()] == [True]


async def test_a_samurai_wields_his_yumi_to_shoot_ya_at_a_floating_eye_then_takes_his_katana_again(play):
    api = play("daggers_and_eye", hero="samurai")
    r = (await run_skill(api, "ranged_attack")).result
    assert r.stopped_reason == "nothing_to_throw"  # a yumi in the pack is not wielded by default
    r = (await run_skill(api, "ranged_attack", wield_launcher=True, max_throws=12)).result
    assert r.data["throws"] >= 1 and r.data.get("rewielded"), r
    assert "katana" in (await api.get_equipment())["weapon"].name
    assert not re.search(r"You are frozen|You (hit|miss) the floating eye", await message_log(api))


async def test_a_hostile_kitten_five_squares_off_becomes_the_valkyries_pet_for_a_tripe_ration(play):
    api = play("kitten_down_the_room")
    assert (await api.pickup()).success  # the tripe ration under her
    r = (await run_skill(api, "tame_with_food")).result
    assert r.stopped_reason == "tamed" and r.success, r
    assert r.data["target"] == "kitten" and r.data["food"] == ["tripe ration"], r.data
    kitten = next(m for m in await api.get_visible_monsters() if m.name == "kitten")
    assert kitten.is_tame
    assert not [i for i in await api.get_inventory() if "tripe" in i.name]
    assert (await api.get_stats()).hp == (await api.get_stats()).max_hp  # it never bit


async def test_a_hostile_pony_off_the_line_is_waited_for_and_tamed_with_one_of_the_healers_apples(play):
    api = play("pony_off_the_line", hero="healer")
    apples = sum(i.quantity for i in await api.get_inventory() if "apple" in i.name)
    r = (await run_skill(api, "tame_with_food")).result
    assert r.stopped_reason == "tamed" and r.success, r
    assert r.actions_taken > r.data["throws"] >= 1  # it waited for the pony to come into line
    assert all("apple" in f for f in r.data["food"])
    assert sum(i.quantity for i in await api.get_inventory() if "apple" in i.name) == apples - r.data["throws"]
    assert next(m for m in await api.get_visible_monsters() if m.name == "pony").is_tame


async def test_an_apple_thrown_at_a_kitten_only_calms_it_and_a_samurai_with_no_food_throws_nothing(play):
    api = play("kitten_down_the_room", hero="healer")  # apples, which a kitten does not eat
    r = (await run_skill(api, "tame_with_food")).result
    assert r.stopped_reason == "pacified" and r.success, r
    kitten = next(m for m in await api.get_visible_monsters() if m.name == "kitten")
    assert kitten.is_peaceful and not kitten.is_tame

    api = play("kitten_down_the_room", hero="samurai")
    r = (await run_skill(api, "tame_with_food")).result
    assert r.stopped_reason == "no_food" and r.actions_taken == 0 and r.data["target"] == "kitten", r


async def test_a_wizard_with_only_rocks_kills_a_floating_eye_by_throwing_them_when_junk_is_allowed(play):
    api = play("rocks_and_eye", hero="wizard")
    assert (await api.pickup()).success
    missiles = await api.get_missiles()
    assert missiles.best is None and [i.name for i in missiles.junk if "rock" in i.name]
    r = (await run_skill(api, "ranged_attack")).result
    assert r.stopped_reason == "nothing_to_throw" and r.actions_taken == 0  # rocks only when asked
    r = (await run_skill(api, "ranged_attack", throw_junk=True, max_throws=25)).result
    assert r.stopped_reason == "target_dead" and r.data["target"] == "floating eye", r
    log = await message_log(api)
    assert "You kill the floating eye!" in log and not re.search(r"You are frozen|You (hit|miss) the floating eye", log)

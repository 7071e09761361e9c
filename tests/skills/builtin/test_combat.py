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


async def test_melee_fight_kills_the_newt_but_never_touches_the_floating_eye_beside_it(play):
    api = play("eye_and_newt_adjacent")
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "target_dead" and r.data["target"] == "newt", r
    r = (await run_skill(api, "melee_fight")).result
    assert r.stopped_reason == "no_target" and r.actions_taken == 0 and r.data["attacks"] == 0
    assert "paralysis" in r.data["avoided"]["floating eye"]
    assert not HIT_THE_EYE.search(await message_log(api))
    assert any(m.name == "floating eye" for m in await api.get_visible_monsters())


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
    assert r.stopped_reason in ("target_dead", "out_of_ammo"), r
    assert r.data["throws"] >= 1 and set(r.data["thrown_toward"]) == {"e"}
    assert not re.search(r"You are frozen|You can't move|You (hit|miss) the floating eye", await message_log(api))
    assert await api.get_position() == spot(api, 2, 2)  # never walked up to it


async def test_ranged_attack_says_nothing_to_throw_for_a_wizard_without_missiles(play):
    api = play("daggers_and_eye", hero="wizard")
    r = (await run_skill(api, "ranged_attack")).result
    assert r.stopped_reason == "nothing_to_throw" and r.actions_taken == 0


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


async def test_ranged_attack_steps_into_line_with_a_floating_eye_before_throwing(play):
    api = play("daggers_and_eye_off_line")
    assert (await run_skill(api, "pickup_useful")).result.success
    start = await api.get_position()
    r = (await run_skill(api, "ranged_attack", max_throws=12)).result
    assert r.stopped_reason in ("target_dead", "out_of_ammo"), r
    assert r.data["throws"] >= 1
    assert await api.get_position() != start
    assert not re.search(r"You are frozen|You can't move|You (hit|miss) the floating eye", await message_log(api))

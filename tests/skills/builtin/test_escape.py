"""Scenarios for the escape skills (engrave_elbereth, retreat_upstairs, quaff_or_zap_to_survive,
follow_vault_guard)."""

from __future__ import annotations

from .conftest import message_log, run_skill, spot


async def test_engrave_elbereth_writes_it_correctly_and_the_jackal_backs_off(play):
    api = play("jackal_adjacent")
    r = (await run_skill(api, "engrave_elbereth")).result
    assert r.stopped_reason == "safe" and r.success, r
    assert r.data["engraving"] == "Elbereth"  # dust engravings often come out smudged: re-engraved
    assert "You write in the dust" in await message_log(api)
    hero = await api.get_position()
    assert not [m for m in await api.get_visible_monsters() if m.position.is_adjacent(hero)]


async def test_a_hero_standing_on_a_good_elbereth_keeps_it_rather_than_write_it_again(play):
    # Written again, a dust Elbereth first reads wrong about one time in four (446 of
    # 1,637 in 125 fresh games), and the monster beside the hero strikes meanwhile.
    api = play("elbereth_underfoot_beside_a_jackal")
    assert (await api.look_here()).engraving == "Elbereth"
    r = (await run_skill(api, "engrave_elbereth")).result
    assert r.stopped_reason == "safe" and r.success, r
    assert r.data["attempts"] == 0 and r.data["engraving"] == "Elbereth"
    assert "You write in the dust" not in await message_log(api)


async def test_a_blindfolded_valkyrie_beside_a_jackal_writes_elbereth_without_feeling_for_it(play):
    """A blind hero cannot feel dust: looking for the word only feels the floor, a move
    the monster bites in. Read back after each try, a blind Ranger wrote Elbereth
    twice, felt the floor three times and died to a coyote. Blind, the skill writes
    it once and trusts it, writing again only after a blow lands on the square."""
    api = play("blindfold_beside_a_jackal")
    assert (await api.pickup()).success
    blindfold = next(i.slot for i in await api.get_inventory() if i.name == "blindfold")
    assert (await api.put_on(blindfold)).success and "Blind" in await api.get_status_effects()
    before = await message_log(api)
    r = (await run_skill(api, "engrave_elbereth", max_turns=20)).result
    during = (await message_log(api))[len(before):]
    assert r.stopped_reason != "cannot_engrave" and not api.game_over, (r, during)
    assert "You write in the dust" in during and "You try to feel" not in during, during


async def test_engrave_elbereth_is_useless_against_a_human(play):
    api = play("peaceful_watchman")
    r = (await run_skill(api, "engrave_elbereth")).result
    # A peaceful watchman is no threat: with nobody hostile adjacent it engraves and is safe at once.
    assert r.stopped_reason == "safe" and r.data["engraving"] == "Elbereth"


async def test_engrave_elbereth_is_useless_next_to_a_werejackal_even_in_jackal_form(play):
    # Its @ form ignores Elbereth, and it changes shape at any moment: five heroes at
    # XL 3-5 wrote Elbereth beside one and were bitten to death on it.
    api = play("werejackal_adjacent")
    near = [m for m in await api.get_visible_monsters() if m.name == "werejackal"]
    assert near and near[0].char == "d" and near[0].ignores_elbereth
    r = (await run_skill(api, "engrave_elbereth")).result
    assert r.stopped_reason == "useless" and not r.success, r
    assert r.data["monsters"] == ["werejackal"]
    assert "You write in the dust" not in await message_log(api)


async def test_retreat_upstairs_refuses_on_dungeon_level_1(play):
    api = play("stairs_across_room")
    r = (await run_skill(api, "retreat_upstairs", force=True)).result
    assert r.stopped_reason == "refused_level_1" and r.actions_taken == 0
    assert not api.game_over


async def test_retreat_upstairs_climbs_back_to_level_1_after_descending(play):
    api = play("stairs_across_room")
    assert (await run_skill(api, "descend")).result.stopped_reason == "descended"
    r = (await run_skill(api, "retreat_upstairs")).result
    assert r.stopped_reason == "hp_ok"  # full HP: no reason to flee
    r = (await run_skill(api, "retreat_upstairs", force=True)).result
    assert r.stopped_reason == "went_up" and r.success, r
    assert (await api.get_stats()).dungeon_level == 1 and r.data["depth"] == 1


async def test_a_healer_next_to_a_jackal_puts_it_to_sleep_with_her_wand(play):
    api = play("jackal_adjacent_long_room", hero="healer")
    r = (await run_skill(api, "quaff_or_zap_to_survive")).result
    assert r.stopped_reason == "zapped" and r.success, r
    assert "wand of sleep" in r.data["item"] and r.data["target"] == "jackal"
    assert "sleep ray hits the jackal" in await message_log(api)
    assert "hits you" not in await message_log(api)


async def test_a_healer_spares_the_gecko_her_ray_holds_and_puts_the_sewer_rat_to_sleep(play):
    """The most dangerous monster beside the hero is the target, unless it is spared (the
    autopilot spares one a sleep ray already holds: a Healer zapped a sleeping gecko five
    times while a sewer rat bit her to death)."""
    api = play("gecko_and_sewer_rat_adjacent_long_room", hero="healer")
    r = (await run_skill(api, "quaff_or_zap_to_survive")).result
    assert r.stopped_reason == "zapped" and r.data["target"] == "gecko", r
    api = play("gecko_and_sewer_rat_adjacent_long_room", hero="healer")
    r = (await run_skill(api, "quaff_or_zap_to_survive", spare=["gecko"])).result
    assert r.stopped_reason == "zapped" and r.data["target"] == "sewer rat", r
    assert "sleep ray hits the sewer rat" in await message_log(api)


async def test_a_tourist_beside_a_jackal_blinds_it_with_her_camera(play):
    api = play("jackal_adjacent", hero="tourist")
    r = (await run_skill(api, "quaff_or_zap_to_survive", heal_below=0.0, zap=False, flash=True)).result
    assert r.stopped_reason == "flashed" and r.success, r
    assert "expensive camera" in r.data["item"] and r.data["target"] == "jackal"
    assert "blinded by the flash" in await message_log(api)
    # The flash is asked for: without flash=True she keeps the camera in her pack.
    api = play("jackal_adjacent", hero="tourist")
    r = (await run_skill(api, "quaff_or_zap_to_survive", heal_below=0.0, zap=False)).result
    assert r.stopped_reason == "nothing_to_use" and not r.success, r


async def test_a_healer_keeps_her_sleep_ray_when_the_wall_behind_the_jackal_would_bounce_it_back(play):
    # Four open squares to the east wall: a sleep ray can come back through the zapper
    # (a Healer beside a rock mole slept through his own ray and was bitten to death).
    api = play("jackal_adjacent", hero="healer")
    r = (await run_skill(api, "quaff_or_zap_to_survive")).result
    assert r.stopped_reason == "nothing_to_use" and r.actions_taken == 0, r
    assert "bounce the ray back" in r.data["why"]
    assert "sleep ray" not in await message_log(api)


async def test_a_diagonal_sleep_ray_is_zapped_though_a_wall_is_close_behind_the_jackal(play):
    # A diagonal ray glances off a wall sideways instead of coming straight back.
    api = play("jackal_diagonal_by_a_wall", hero="healer")
    r = (await run_skill(api, "quaff_or_zap_to_survive")).result
    assert r.stopped_reason == "zapped" and r.data["target"] == "jackal", r
    assert "sleep ray hits the jackal" in await message_log(api)


async def test_with_kill_only_a_healer_keeps_her_wand_of_sleep_for_a_fight(play):
    # A sleeping floating eye still shuts a doorway: a Healer shut in a shop zapped her
    # wand of sleep at one ten times over.
    api = play("jackal_adjacent", hero="healer")
    r = (await run_skill(api, "quaff_or_zap_to_survive", kill_only=True)).result
    assert r.stopped_reason == "nothing_to_use" and r.actions_taken == 0, r
    assert "sleep ray" not in await message_log(api)


async def test_a_hurt_healer_drinks_her_smallest_healing_potion_first(play):
    api = play("empty_room", hero="healer")
    before = {i.name: i.quantity for i in await api.get_inventory() if i.object_class == "potion"}
    # (heal_below above 1: "hurt" even at full HP, as no test can wound her to order)
    r = (await run_skill(api, "quaff_or_zap_to_survive", heal_below=1.01)).result
    assert r.stopped_reason == "quaffed" and r.success, r
    assert "potion of healing" in r.data["item"] or "potions of healing" in r.data["item"], r.data
    after = {i.name: i.quantity for i in await api.get_inventory() if i.object_class == "potion"}
    assert sum(after.values()) == sum(before.values()) - 1


async def test_a_hero_with_nothing_to_drink_or_zap_says_so(play):
    api = play("jackal_adjacent")
    r = (await run_skill(api, "quaff_or_zap_to_survive", heal_below=1.01)).result
    assert r.stopped_reason == "nothing_to_use" and not r.success and r.actions_taken == 0, r
    assert "no healing potion" in r.data["why"]


async def test_engrave_elbereth_stops_when_a_gnome_lord_zaps_a_wand_at_the_hero(play):
    """Elbereth keeps a gnome lord from hitting the hero, not from zapping a wand at him
    from across the room: resting on would only give the wand more turns."""
    api = play("gnome_lord_with_wand", hero="samurai")
    r = (await run_skill(api, "engrave_elbereth", rest_to=2.0, max_turns=60)).result  # rests on at any HP
    assert r.stopped_reason == "zapped" and not r.success, (r, await message_log(api))
    assert "zaps" in r.data["message"] and not api.game_over


async def test_a_tourist_resting_on_elbereth_beside_a_dingo_writes_it_again_as_it_wears_away(play):
    """A monster frightened off by a dust Elbereth wears it away ("Elbe?eth") and bites
    the turn after. Read back only every eighth turn, the engraving failed a resting
    Tourist beside a dingo, which bit him to death; read back each turn a hostile stands
    beside him, it is written again before the dingo can bite."""
    api = play("dingo_in_a_closet", hero="tourist", seed=3)
    r = (await run_skill(api, "engrave_elbereth", rest_to=2.0, max_turns=80)).result
    assert r.stopped_reason == "budget" and not api.game_over, r
    assert (await message_log(api)).count("You write in the dust") >= 2


async def test_a_valkyrie_resting_on_elbereth_stops_when_a_gnome_lord_shoots_her_from_afar(play):
    """A gnome lord frightened off by Elbereth backs away and shoots: resting on in his
    line of fire, a Valkyrie was shot dead on a perfect Elbereth. The skill hands back
    on the first missile that hurts her, with her alive to close in on him."""
    api = play("gnome_lord_with_crossbow")
    r = (await run_skill(api, "engrave_elbereth", rest_to=2.0, max_turns=80)).result
    assert r.stopped_reason == "shot" and not api.game_over, r
    assert "shoots" in r.data["message"] and await api.recent_shooters() == ["gnome lord"]


async def _wait_for_the_vault_guard(api) -> list[str]:
    """Search in the vault until its guard comes (NetHack sends him after 30 turns there)."""
    for _ in range(12):
        res = await api.search(5)
        if any("Vault" in m for m in res.messages):
            return res.messages
    raise AssertionError("no guard came")


async def test_a_hero_who_took_the_vaults_gold_drops_it_follows_the_guard_out_and_lives(play):
    """Left to go on searching, the hero is attacked six turns after the guard comes and a
    guard kills a low-level hero in two or three blows (a Valkyrie died so on Dlvl 1)."""
    api = play("gold_vault")
    assert (await api.pickup()).success and (await api.get_stats()).gold > 0
    came = await _wait_for_the_vault_guard(api)
    assert "Suddenly one of the Vault's guards enters!" in " ".join(came)
    r = (await run_skill(api, "follow_vault_guard")).result
    assert r.stopped_reason == "escorted" and r.success, r
    s = await api.get_stats()
    assert not api.game_over and s.gold == 0 and s.hp == s.max_hp
    assert s.position.x > spot(api, 3, 2).x  # out past the vault's east wall
    assert "You've been warned" not in await message_log(api)


async def test_in_a_dark_vault_the_guard_unseen_two_squares_off_is_found_and_followed(play):
    """In the dark the guard is seen only from beside him, and he walks on as soon as the
    hero comes beside him: the skill finds the doorway he dug and takes his corridor."""
    api = play("dark_gold_vault")
    came = await _wait_for_the_vault_guard(api)
    assert "Someone else has entered the Vault." in " ".join(came)
    r = (await run_skill(api, "follow_vault_guard")).result
    assert r.stopped_reason == "escorted" and r.success, r
    assert not api.game_over and (await api.get_position()).x > spot(api, 3, 2).x
    assert "You've been warned" not in await message_log(api)


async def test_with_no_vault_guard_about_follow_vault_guard_does_nothing(play):
    api = play("gold_vault")
    turn = (await api.get_stats()).turn
    r = (await run_skill(api, "follow_vault_guard")).result
    assert r.stopped_reason == "no_guard" and not r.success and r.actions_taken == 0, r
    assert (await api.get_stats()).turn == turn

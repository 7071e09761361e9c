"""nh.fight_odds: how a melee fight would likely go, read from the hero and the monster tables."""

from __future__ import annotations

import pytest

from tests.conftest import room_des

VALKYRIE = dict(role="valkyrie", race="human", gender="female", alignment="neutral")
TOURIST = dict(role="tourist", race="human", gender="female", alignment="neutral")
ROOM = ["-------", "|.....|", "|.....|", "-------"]


async def test_a_starting_valkyrie_kills_a_newt_for_nothing_and_would_lose_to_a_soldier_ant(make_api):
    api = make_api(seed=0, **VALKYRIE)
    newt = await api.fight_odds("newt")
    ant = await api.fight_odds("soldier ant")
    assert newt.favourable and newt.expected_damage < 2, newt
    assert not ant.favourable and ant.expected_damage > api.last_stats.hp, ant
    assert ant.damage_per_turn > 5 * newt.damage_per_turn, (ant, newt)
    assert newt.hero_hp == api.last_stats.hp and newt.monsters == ["newt"]


async def test_the_blow_counts_the_weapon_in_hand(make_api):
    """A Valkyrie's +1 long sword (d8) hits harder than her +0 dagger (d4)."""
    api = make_api(seed=0, **VALKYRIE)
    sword = await api.fight_odds("jackal")
    dagger = next(i for i in await api.get_inventory() if "dagger" in i.text)
    assert (await api.wield(dagger.slot)).success
    with_dagger = await api.fight_odds("jackal")
    assert sword.damage_per_hit - with_dagger.damage_per_hit == pytest.approx(3.0), (sword, with_dagger)
    assert with_dagger.turns_to_kill > sword.turns_to_kill


async def test_a_pack_costs_far_more_than_three_times_one_of_them(make_api):
    """Fought one after another, the jackals not yet killed go on biting."""
    api = make_api(seed=0, **TOURIST)
    one = await api.fight_odds("jackal")
    pack = await api.fight_odds(["jackal", "jackal", "jackal"])
    assert pack.expected_damage > 5 * one.expected_damage, (one, pack)
    assert pack.monsters == ["jackal"] * 3 and pack.turns_to_kill == pytest.approx(3 * one.turns_to_kill, abs=0.2)


async def test_monsters_in_view_can_be_passed_and_an_unknown_name_is_refused(make_api):
    api = make_api(room_des(ROOM, "MONSTER:('q',\"rothe\"),(3,1),hostile,asleep", hero=(2, 1)), seed=0, **TOURIST)
    rothe = next(m for m in await api.get_visible_monsters() if m.name == "rothe")
    odds = await api.fight_odds(rothe)
    assert odds.monsters == ["rothe"] and not odds.favourable, odds  # three bites a turn against bare hands
    assert (await api.fight_odds([])).expected_damage == 0
    with pytest.raises(ValueError, match="no monster named"):
        await api.fight_odds("rothee")

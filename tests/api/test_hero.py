"""Scenarios for get_hero, recent_zappers and recent_shooters: what earlier messages told about the hero
and the monsters around it, read as typed answers on real games."""

from __future__ import annotations

from pathlib import Path

import pytest

from hackwright.api import Hero
from tests.conftest import room_des

LEVELS = Path(__file__).resolve().parent.parent / "levels"
ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]


async def test_a_gnomish_healer_resists_poison_from_the_start_and_her_prayer_is_remembered(make_api):
    api = make_api(room_des(ROOM), role="healer", race="gnome", gender="female", alignment="neutral")
    hero = await api.get_hero()
    assert isinstance(hero, Hero)
    assert (hero.role, hero.race) == ("Healer", "gnome")
    assert "poison" in hero.resistances and not hero.lycanthropy and not hero.in_animal_form
    assert hero.last_prayer_turn is None and hero.prayer_timeout == await api.get_prayer_timeout() > 0
    assert not hero.too_heavy_to_squeeze and not hero.skill_ready and hero.greeted_by_keeper_turn is None
    t0 = (await api.get_stats()).turn
    assert (await api.get_hero()) == hero and (await api.get_stats()).turn == t0  # a question, no time

    await api.pray(force=True)  # far too soon at turn 1: the god is angry, but it was a prayer
    after = await api.get_hero()
    assert after.last_prayer_turn is not None and after.last_prayer_turn >= t0


async def test_a_valkyrie_resists_cold_and_a_human_wizard_nothing_yet(make_api):
    valkyrie = make_api(room_des(ROOM), role="valkyrie", race="human", gender="female", alignment="neutral")
    assert "cold" in (await valkyrie.get_hero()).resistances
    wizard = make_api(room_des(ROOM), role="wizard", race="human", gender="male", alignment="neutral")
    assert (await wizard.get_hero()).resistances == []


async def test_walking_into_a_temple_the_priests_greeting_turn_is_kept(make_api):
    rows = ["-----------", "|...|.....|", "|.........|", "|...|.....|", "-----------"]
    des = room_des(rows, 'REGION:(5,1,9,3),lit,"temple"\nALTAR:(7,2),chaos,shrine', hero=(1, 2))
    api = make_api(des, role="valkyrie")
    assert (await api.get_hero()).greeted_by_keeper_turn is None
    start = await api.get_position()
    for _ in range(8):
        await api.move("e")
        if (await api.get_hero()).greeted_by_keeper_turn is not None:
            break
    greeted = (await api.get_hero()).greeted_by_keeper_turn
    assert greeted is not None and start.x < (await api.get_position()).x, await api.get_messages(5)
    assert greeted <= (await api.get_stats()).turn


async def test_a_gnome_lord_kept_off_by_elbereth_zaps_his_wand_and_is_named_a_recent_zapper(make_api):
    api = make_api((LEVELS / "gnome_lord_with_wand.des").read_text(), role="samurai", race="human",
                   gender="male", alignment="lawful")
    assert await api.recent_zappers() == []
    assert (await api.engrave("Elbereth")).success  # he cannot come to blows: the wand it is
    zapped_at = None
    for _ in range(40):
        res = await api.search()
        if any("zaps" in m for m in res.messages):
            zapped_at = (await api.get_stats()).turn
            break
    assert zapped_at is not None, await api.get_messages(10)
    assert await api.recent_zappers(30) == ["gnome lord"]
    assert await api.recent_zappers(0) == ["gnome lord"]  # this very turn
    with pytest.raises(ValueError, match="whole number"):
        await api.recent_zappers("thirty")


async def test_a_gnome_lord_kept_off_by_elbereth_shoots_from_afar_and_is_named_a_recent_shooter(make_api):
    api = make_api((LEVELS / "gnome_lord_with_crossbow.des").read_text(), role="valkyrie", race="human",
                   gender="female", alignment="neutral")
    assert await api.recent_shooters() == []
    assert (await api.engrave("Elbereth")).success  # he cannot come to blows: he shoots
    shot = False
    for _ in range(40):
        res = await api.search()
        if any("shoots" in m for m in res.messages):
            shot = True
            break
    assert shot, await api.get_messages(10)
    assert await api.recent_shooters(30) == ["gnome lord"] and await api.recent_zappers() == []
    with pytest.raises(ValueError, match="whole number"):
        await api.recent_shooters(2.5)


async def test_a_level_where_the_town_watch_stands_says_so_and_a_plain_room_does_not(make_api):
    watched = make_api((LEVELS / "peaceful_watchman.des").read_text())
    assert (await watched.get_current_level()).town_watch
    plain = make_api(room_des(ROOM))
    assert not (await plain.get_current_level()).town_watch

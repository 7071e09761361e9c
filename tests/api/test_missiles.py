"""Scenarios for get_missiles: what a hero can shoot or throw, from real starting kits."""

from __future__ import annotations

from tests.conftest import room_des

ROOM = ["-------", "|.....|", "|.....|", "-------"]


async def test_a_ranger_with_her_dagger_in_hand_is_told_to_ready_the_bow_then_fires_the_quivered_arrows(make_api):
    api = make_api(room_des(ROOM), role="ranger", race="human", gender="female", alignment="neutral")
    m = await api.get_missiles()
    assert m.launcher is None and m.ammunition == [] and m.best is None, m
    assert m.ready_launcher is not None and "bow" in m.ready_launcher.text
    t0 = (await api.get_stats()).turn
    assert (await api.get_missiles()) == m and (await api.get_stats()).turn == t0  # a question, no time
    assert (await api.wield(m.ready_launcher.slot)).success
    m = await api.get_missiles()
    assert m.launcher is not None and "bow" in m.launcher.text and m.ready_launcher is None
    assert m.ammunition and all("arrow" in i.text for i in m.ammunition)
    assert m.best is m.ammunition[0] and m.best.equipped == "quiver", m.best
    assert m.thrown and "dagger" in m.thrown[0].text  # the dagger left the hand: it may be thrown now


async def test_a_valkyrie_throws_her_dagger_but_never_her_long_sword_in_hand(make_api):
    api = make_api(room_des(ROOM), role="valkyrie", race="human", gender="female", alignment="neutral")
    m = await api.get_missiles()
    assert m.launcher is None and m.ready_launcher is None and m.ammunition == []
    assert [i.text for i in m.thrown] == [m.best.text] and "dagger" in m.best.text
    assert all("long sword" not in i.text for i in m.thrown)


async def test_a_healer_has_nothing_to_throw(make_api):
    api = make_api(room_des(ROOM), role="healer", race="human", gender="female", alignment="neutral")
    m = await api.get_missiles()
    assert m.best is None and m.thrown == [] and m.launcher is None and m.ready_launcher is None

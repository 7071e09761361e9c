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


async def test_a_rangers_quiver_wields_her_bow_once_and_knows_her_arrows_from_the_valkyries_dagger(make_api):
    """Quiver, the missiles a skill keeps between shots (explore_and_fight's archery)."""
    from hackwright.api.quiver import Quiver

    api = make_api(room_des(ROOM), role="ranger", race="human", gender="female", alignment="neutral")
    quiver = Quiver(api)
    slot, actions = await quiver.ready()
    assert actions == 1 and "bow" in (await api.get_equipment())["weapon"].text
    arrows = next(i for i in await api.get_inventory() if i.slot == slot)
    assert "arrow" in arrows.text and quiver.enabled
    assert await quiver.is_own_ammunition(arrows)
    assert await quiver.ready() == (slot, 0)  # the bow is in hand now
    quiver.note_shot(api.last_stats.position, "e", 1)
    assert (api.last_stats.position.x + 1, api.last_stats.position.y, 1) in quiver.shot_squares

    healer = make_api(room_des(ROOM), role="healer", race="human", gender="female", alignment="neutral")
    quiver = Quiver(healer)
    assert await quiver.ready() == (None, 0) and not quiver.enabled  # melee from now on


async def test_a_wizard_may_throw_a_spare_short_sword_and_glass_as_junk_but_never_a_gray_stone_or_a_mattock(make_api):
    extra = ("OBJECT:('*',\"worthless piece of red glass\"),(1,1)\nOBJECT:('*',\"luckstone\"),(1,1)\n"
             "OBJECT:(')',\"dwarvish mattock\"),(1,1)\nOBJECT:(')',\"orcish short sword\"),(1,1)")
    api = make_api(room_des(ROOM, extra), role="wizard", race="human", gender="male", alignment="neutral")
    assert (await api.pickup()).success
    m = await api.get_missiles()
    assert m.best is None  # nothing made for throwing
    junk = " ".join(i.text for i in m.junk)
    assert "red gem" in junk and "short sword" in junk, junk  # the glass, as yet unknown
    assert "stone" not in junk and "pick" not in junk and "quarterstaff" not in junk, junk


async def test_a_ranger_out_of_arrows_takes_up_her_dagger_rather_than_bash_with_her_bow_and_her_bow_again_for_arrows(make_api):
    """A launcher swung in melee hits for 1d2: Rangers whose arrows ran out bashed with
    their bows while their +1 daggers stayed in the pack."""
    from hackwright.api.quiver import Quiver

    api = make_api(room_des(ROOM), role="ranger", race="human", gender="female", alignment="neutral")
    bow = (await api.get_missiles()).ready_launcher
    assert (await api.wield(bow.slot)).success
    for arrows in [i for i in await api.get_inventory() if "arrow" in i.text]:
        assert (await api.drop(arrows.slot)).success, arrows
    m = await api.get_missiles()
    assert m.launcher is not None and m.ammunition == [] and m.melee is not None and "dagger" in m.melee.text, m
    quiver = Quiver(api)
    assert await quiver.ready() == (None, 1) and not quiver.enabled  # melee from now on, dagger in hand
    assert "dagger" in (await api.get_equipment())["weapon"].text

    assert (await api.pickup()).success  # the arrows again
    slot, actions = await Quiver(api).ready()
    assert actions == 1 and "bow" in (await api.get_equipment())["weapon"].text
    assert "arrow" in next(i for i in await api.get_inventory() if i.slot == slot).text

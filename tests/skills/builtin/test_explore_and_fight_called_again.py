"""explore_and_fight called again and again, as a model calls it: every option does what
its name says. A pile of gear is reported once, not at every call, so descend=True gets
down the stairs; hunger or low HP the hero already had when called is not handed
straight back."""

from __future__ import annotations

from hackwright.api import HungerState, Position

from tests.conftest import room_des

from .conftest import CHARACTERS, QUIET, run_skill, starve

# Two rooms and a corridor: the way to the second room and back to the stairs crosses
# the armour in the corridor twice.
TWO_ROOMS = ["-----       -----",
             "|...|       |...|",
             "|....#######....|",
             "|...|       |...|",
             "-----       -----"]
GEAR = "STAIR:(3,3),down\nOBJECT:('[',\"leather armor\"),(8,2)\nOBJECT:('[',\"orcish helm\"),(13,2)"


def game(make_api, rows, extra="", hero=(1, 2), seed=0):
    return make_api(room_des(rows, extra, hero=hero), seed=seed, extra={"pet": False, "options": QUIET},
                    **CHARACTERS["valkyrie"])


async def test_descend_reaches_the_next_level_though_gear_lies_on_the_way_each_pile_reported_once(make_api):
    api = game(make_api, TWO_ROOMS, GEAR)
    reported = []
    for _ in range(5):  # the model ignores the gear and calls again, as it did for 403 turns
        r = (await run_skill(api, "explore_and_fight", mode="sandbox", descend=True, max_depth=2,
                             budget=300)).result
        if r.stopped_reason != "items_here":
            break
        reported.append(r.data["at"])
        assert await api.pile_seen_turn(r.data["at"]) is not None
    assert (await api.get_stats()).dungeon_level == 2, r
    assert r.stopped_reason == "max_depth" and r.data["levels_descended"] == 1, r
    assert reported, "the armour in the corridor was walked over: it is reported the first time"
    assert len(reported) == len(set(reported)), f"a pile was reported again: {reported}"


async def test_a_pile_shown_before_the_call_is_passed_by_and_a_new_one_still_stops_it(make_api):
    """The model walked onto the armour in the corridor itself: the next call knows the
    hero was shown it, walks on over it and stops only for the helm in the doorway beyond."""
    api = game(make_api, TWO_ROOMS, GEAR.replace("(13,2)", "(12,2)"))
    start = await api.get_position()
    armour, helm = Position(start.x + 7, start.y), Position(start.x + 11, start.y)
    for _ in range(7):
        assert (await api.move("e")).success
    assert await api.get_position() == armour
    shown = await api.pile_seen_turn(armour)
    assert shown is not None and any(i.object_class == "armor" for i in await api.get_items_here())
    assert (await api.move("w")).success
    assert await api.pile_seen_turn(await api.get_position()) is None
    r = (await run_skill(api, "explore_and_fight")).result
    assert (r.stopped_reason, r.data["at"]) == ("items_here", helm), r
    assert "helm" in " ".join(r.data["items"])
    assert await api.pile_seen_turn(armour) == shown  # walked over again: still first shown then


async def test_a_hero_already_hungry_with_no_food_is_not_handed_hungry_back_at_once(make_api):
    api = game(make_api, TWO_ROOMS)
    await starve(api, HungerState.HUNGRY)
    ration = next(i for i in await api.get_inventory() if i.object_class == "food")
    assert (await api.drop(ration.slot)).success
    assert (await api.move("e")).success  # off the ration: no food carried nor underfoot
    r = (await run_skill(api, "explore_and_fight", pick_up=False)).result
    assert r.stopped_reason == "level_done" and r.turns_elapsed > 10, r
    assert (await api.get_stats()).hunger == HungerState.HUNGRY


async def test_a_hero_called_below_hp_threshold_with_nothing_about_rests_and_explores(make_api):
    api = game(make_api, TWO_ROOMS, "TRAP:\"falling rock\",(2,2)")
    await api.move("e")  # a rock on the head
    hurt = await api.get_stats()
    assert hurt.hp < hurt.max_hp
    r = (await run_skill(api, "explore_and_fight", hp_threshold=(hurt.hp + 1) / hurt.max_hp)).result
    assert r.stopped_reason == "level_done", r
    after = await api.get_stats()
    assert after.hp > hurt.hp and r.turns_elapsed > 10

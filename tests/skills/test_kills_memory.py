"""The API remembers every death the hero sees, whoever acts, so eat_when_hungry knows a
fresh kill from an old corpse without being told: called by a model exactly as by the
autopilot, it eats the newt just killed and leaves a stale one."""

from __future__ import annotations

from hackwright.api import HungerState, Kill

from tests.conftest import room_des
from tests.skills.builtin.conftest import CHARACTERS, QUIET, run_skill

ROOM = ["---------", "|.......|", "|.......|", "|.......|", "---------"]
NEWT = "MONSTER:(':',\"newt\"),(3,2),hostile"  # east of the hero, who starts at (2, 2)
OLD_NEWT_CORPSE = "OBJECT:('%',\"corpse\"),(6,3),montype:\"newt\""


def game(make_api, extra: str, seed: int):
    return make_api(room_des(ROOM, extra, hero=(2, 2)), seed=seed, extra={"pet": False, "options": QUIET},
                    **CHARACTERS["valkyrie"])


async def hit_east_until_dead(api) -> list[str]:
    """The model's way: 'F' and a direction, typed as keys, until the newt dies."""
    for _ in range(10):
        res = await api.send_keys("Fl")
        if any("You kill the newt" in m for m in res.messages):
            return res.messages
    raise AssertionError("the newt never died")


async def newt_killed_by_keys(make_api, corpse: bool, extra: str = NEWT):
    """A game where the model's keys killed the newt, and it left a corpse (or none)."""
    for seed in range(12):
        api = game(make_api, extra, seed)
        await hit_east_until_dead(api)
        if (await api.recent_kills())[-1].corpse_seen is corpse:
            return api
    raise AssertionError("no seed gave the wanted corpse")


async def test_a_newt_killed_by_keys_the_model_typed_is_remembered_with_its_square_and_turn(make_api):
    api = game(make_api, NEWT, seed=1)
    hero = await api.get_position()
    assert await api.recent_kills() == []
    turn = (await api.get_stats()).turn
    await hit_east_until_dead(api)
    kills = await api.recent_kills()
    assert len(kills) == 1 and isinstance(kills[0], Kill)
    k = kills[0]
    assert (k.species, k.position, k.by_hero, k.dungeon_level) == ("newt", hero.offset("e"), True, 1)
    assert turn <= k.turn < (await api.get_stats()).turn


async def test_eat_when_hungry_called_plainly_in_the_sandbox_eats_the_fresh_newt_underfoot(make_api):
    """The model's call has no kills to pass: the skill asks the API how old the corpse is."""
    api = await newt_killed_by_keys(make_api, corpse=True)
    assert (await api.move("e")).success
    here = await api.get_position()
    assert any(i.corpse_of == "newt" for i in await api.get_items_here())
    assert await api.corpse_age(here, "newt") <= 5
    assert await api.corpse_age(here, "jackal") is None
    out = await run_skill(api, "eat_when_hungry", mode="sandbox", force=True)
    assert out.stack != "in-process"
    r = out.result
    assert (r.stopped_reason, r.data["source"], r.data["food"]) == ("ate", "floor", "newt corpse"), r
    assert not any(i.corpse_of == "newt" for i in await api.get_items_here())
    assert any("food ration" in i.name for i in await api.get_inventory())  # the ration is kept


async def test_a_newt_killed_by_melee_fight_is_walked_to_and_eaten_though_the_hero_is_not_hungry(make_api):
    for seed in range(12):
        api = game(make_api, NEWT, seed)
        fight = (await run_skill(api, "melee_fight")).result
        assert fight.stopped_reason == "target_dead", fight
        if (await api.recent_kills())[-1].corpse_seen:
            break
    else:
        raise AssertionError("no seed left a corpse")
    corpse = (await api.recent_kills())[-1].position
    assert tuple(corpse) == tuple(fight.data["at"])
    assert (await api.move("w")).success  # two steps from the corpse now
    assert (await api.get_stats()).hunger == HungerState.NOT_HUNGRY
    # (in the sandbox: the kills reach the skill over the wire as Kill objects)
    r = (await run_skill(api, "eat_when_hungry", mode="sandbox", force=True, corpses_only=True)).result
    assert (r.stopped_reason, r.data["food"]) == ("ate", "newt corpse"), r
    assert tuple(r.data["walked_to"]) == (corpse.x, corpse.y)
    assert any("food ration" in i.name for i in await api.get_inventory())


async def test_a_kill_older_than_the_safe_age_is_left_and_the_ration_eaten_instead(make_api):
    api = await newt_killed_by_keys(make_api, corpse=True)
    assert (await api.move("e")).success
    assert (await api.search(45)).success
    here = await api.get_position()
    assert await api.corpse_age(here, "newt") >= 40
    r = (await run_skill(api, "eat_when_hungry", force=True)).result
    assert (r.stopped_reason, r.data["source"]) == ("ate", "inventory") and "food ration" in r.data["food"], r
    assert any(i.corpse_of == "newt" for i in await api.get_items_here())


async def test_a_newt_killed_elsewhere_does_not_make_an_old_newt_corpse_fresh(make_api):
    """A newt corpse lay on the floor from the start; a newt killed two squares off (and
    leaving none) says nothing about its age."""
    api = await newt_killed_by_keys(make_api, corpse=False, extra=NEWT + "\n" + OLD_NEWT_CORPSE)
    old = (await api.get_position()).offset("e").offset("e").offset("se").offset("e")
    assert any(i.corpse_of == "newt" for i in await api.get_items_at(old))
    assert await api.corpse_age(old) is None
    r = (await run_skill(api, "eat_when_hungry", force=True, corpses_only=True)).result
    assert r.stopped_reason == "no_safe_food" and r.actions_taken == 0, r
    for d in ("e", "e", "se", "e"):
        assert (await api.move(d)).success
    assert await api.get_position() == old
    r = (await run_skill(api, "eat_when_hungry", force=True)).result
    assert (r.stopped_reason, r.data["source"]) == ("ate", "inventory") and "food ration" in r.data["food"], r
    assert any(i.corpse_of == "newt" for i in await api.get_items_here())


async def test_a_kill_made_inside_explore_and_fight_is_remembered_too(make_api):
    api = game(make_api, NEWT, seed=0)
    newt = (await api.get_position()).offset("e")
    r = (await run_skill(api, "explore_and_fight", eat=False)).result
    assert r.stopped_reason == "level_done", r
    kills = await api.recent_kills()
    assert [(k.species, k.position, k.by_hero) for k in kills] == [("newt", newt, True)]


async def test_a_newt_killed_on_an_old_newt_corpse_does_not_make_that_corpse_fresh(make_api):
    """A corridor-wide room: the hero saw an old newt corpse beside her, then a newt came
    onto it and died there. The corpse drawn afterwards may be the old one (half of all
    deaths leave none), so its age is unknown and it is not eaten (a giant ant killed so
    made an old corpse look fresh, and a Caveman died of the tainted meat)."""
    row = ["--------", "|......|", "--------"]
    extra = "OBJECT:('%',\"corpse\"),(2,1),montype:\"newt\"\nMONSTER:(':',\"newt\"),(4,1),hostile"
    api = make_api(room_des(row, extra, hero=(1, 1)), seed=0, extra={"pet": False, "options": QUIET},
                   **CHARACTERS["valkyrie"])
    spot = (await api.get_position()).offset("e")
    assert any(i.corpse_of == "newt" for i in await api.get_items_at(spot))
    for _ in range(30):
        res = await api.send_keys("Fl")
        if any("You kill the newt" in m for m in res.messages):
            break
    else:
        raise AssertionError("the newt never died")
    kill = (await api.recent_kills())[-1]
    assert (kill.species, kill.position, kill.corpse_seen) == ("newt", spot, None), kill
    assert await api.corpse_age(spot, "newt") is None
    r = (await run_skill(api, "eat_when_hungry", force=True, corpses_only=True)).result
    assert r.stopped_reason == "no_safe_food", r
    assert any(i.corpse_of == "newt" for i in await api.get_items_at(spot))

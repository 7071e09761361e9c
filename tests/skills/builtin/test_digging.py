"""Scenarios for digging: dig_down, get_digging_tool and enhance_skills on real games
(the full dungeon, and small MiniHack rooms)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import room_des

from .conftest import CHARACTERS, QUIET, message_log, run_skill

# A lit room; the hero starts on the up stairs at (2, 2).
ROOM = ["------------", "|..........|", "|..........|", "|..........|", "------------"]
HUMAN_ARCHEOLOGIST = dict(role="archeologist", race="human", gender="male", alignment="neutral")
PICK = re.compile(r"\b(pick-axe|dwarvish mattock|broad pick)\b")


@pytest.fixture
def room(make_api, capfd):
    """room(extra="", hero="valkyrie", character=None, flags="") -> NetHackAPI in ROOM, no pet."""

    def factory(extra="", hero="valkyrie", character=None, flags=""):
        des = room_des(ROOM, extra, hero=(2, 2)).replace("FLAGS:noteleport", "FLAGS:noteleport" + flags)
        api = make_api(des, seed=0, extra={"options": QUIET}, **(character or CHARACTERS[hero]))
        # A des-file NetHack cannot parse gives a random level instead, silently but for stderr.
        assert "error" not in capfd.readouterr().err.lower()
        return api

    return factory


async def picks_carried(api) -> list[str]:
    return [i.text for i in await api.get_inventory() if PICK.search(i.text)]


# ------------------------------------------------------------------ dig_down

async def test_an_archeologist_digs_two_levels_down_from_the_first_level_of_the_real_dungeon(make_api):
    api = make_api(seed=1, **HUMAN_ARCHEOLOGIST)  # NetHack's own dungeon; he starts on the up stairs
    start = await api.get_stats()
    assert start.dungeon_level == 1
    r = (await run_skill(api, "dig_down", mode="sandbox", levels=2)).result
    assert r.stopped_reason == "dug" and r.success, r
    assert (await api.get_stats()).dungeon_level == 3
    assert r.data["levels"] == 2 and r.data["from_depth"] == 1 and r.data["to_depth"] == 3
    assert (await message_log(api)).count("You dig a hole through the floor") == 2


async def test_dig_down_on_the_up_stairs_steps_off_them_first_and_digs(room):
    api = room(hero="archeologist")
    stairs = await api.get_position()
    assert (await api.get_current_level()).tile_at(stairs).feature == "stairs up"
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.data["levels"] == 1, r
    assert (await api.get_stats()).dungeon_level == 2


async def test_a_monk_who_dug_down_with_a_pick_axe_fights_bare_handed_again(room):
    """Applying a pick wields it; a Monk's weapon is his bare hands (martial arts), so
    after digging his hands are emptied again rather than left holding the pick."""
    api = room("OBJECT:('(',\"pick-axe\"),(2,2)",
               character=dict(role="monk", race="human", gender="male", alignment="neutral"))
    assert (await api.pickup()).success
    assert not any(i.equipped == "weapon" for i in await api.get_inventory())
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.data["levels"] == 1, r
    assert r.data["wielded_again"] == "bare hands", r
    assert (await api.get_stats()).dungeon_level == 2
    assert not any(i.equipped == "weapon" for i in await api.get_inventory())
    assert await picks_carried(api)


async def test_dig_down_without_a_digging_tool_stops_before_spending_a_turn(room):
    api = room()  # a Valkyrie: a long sword and a dagger, nothing to dig with
    where = await api.get_position()
    r = (await run_skill(api, "dig_down")).result
    assert r.stopped_reason == "no_tool" and not r.success
    assert r.actions_taken == 0 and r.turns_elapsed == 0
    assert await api.get_position() == where and (await api.get_stats()).dungeon_level == 1


async def test_dig_down_with_hp_below_the_threshold_stops_low_hp_and_digs_nothing(room):
    api = room('TRAP:"falling rock",(3,2)', hero="archeologist")
    await api.move("e")  # off the stairs, onto the trap: a rock falls on the hero's head
    stats = await api.get_stats()
    assert stats.hp < stats.max_hp
    r = (await run_skill(api, "dig_down", min_hp=1.0)).result
    assert r.stopped_reason == "low_hp" and r.data["hp"] == stats.hp, r
    assert r.turns_elapsed == 0 and (await api.get_stats()).dungeon_level == 1
    assert "You dig" not in await message_log(api)


async def test_without_elbereth_dig_down_stops_for_a_hostile_next_to_the_hero(room):
    api = room("MONSTER:('r',\"sewer rat\"),(4,2),hostile,asleep", hero="archeologist")
    await api.move("e")  # off the stairs, next to the sleeping rat
    r = (await run_skill(api, "dig_down", elbereth=False)).result
    assert r.stopped_reason == "monster" and r.data["monster"] == "sewer rat", r
    assert (await api.get_stats()).dungeon_level == 1


async def test_the_pit_is_dug_then_elbereth_is_engraved_in_it_then_the_hole_is_finished(room):
    api = room(hero="archeologist")
    await api.move("e")
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.data["engravings"] >= 1, r
    log = await message_log(api)
    pit, wrote, hole = (log.index("You dig a pit in the floor"), log.index("You write in the dust"),
                        log.index("You dig a hole through the floor"))
    assert pit < wrote < hole
    assert (await api.get_stats()).dungeon_level == 2


async def test_an_archeologist_next_to_a_hostile_jackal_engraves_elbereth_and_digs_away_from_it(room):
    api = room("MONSTER:('d',\"jackal\"),(4,2),hostile", hero="archeologist")
    await api.move("e")  # off the stairs, next to the jackal
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.data["engravings"] >= 2, r  # before the pit, and in it
    assert (await api.get_stats()).dungeon_level == 2


async def test_a_sleeping_jackal_three_steps_off_gets_an_elbereth_before_the_pit_is_begun(room):
    """Its waking and coming would stop the digging, and it would bite before the pit."""
    api = room("MONSTER:('d',\"jackal\"),(6,2),hostile,asleep", hero="archeologist")
    await api.move("e")  # off the stairs, three steps from the jackal
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.data["engravings"] >= 2, r
    log = await message_log(api)
    assert log.index("You write in the dust") < log.index("You dig a pit in the floor")
    assert (await api.get_stats()).dungeon_level == 2


async def test_next_to_a_hostile_human_who_ignores_elbereth_dig_down_stops(room):
    api = room("MONSTER:('@',\"Woodland-elf\"),(4,2),hostile,asleep", hero="archeologist")
    await api.move("e")
    r = (await run_skill(api, "dig_down")).result
    assert r.stopped_reason == "monster" and r.data["monster"] == "Woodland-elf", r
    assert r.data["engravings"] == 0 and (await api.get_stats()).dungeon_level == 1


async def test_dig_down_on_a_hard_floor_says_undiggable_after_the_pit(room):
    api = room(hero="archeologist", flags=",hardfloor")
    r = (await run_skill(api, "dig_down")).result
    assert r.stopped_reason == "undiggable" and "too hard to dig" in r.data["error"], r
    assert r.data["levels"] == 0 and (await api.get_stats()).dungeon_level == 1
    assert "You dig a pit in the floor" in await message_log(api)


# ------------------------------------------------------------------ get_digging_tool

async def test_get_digging_tool_with_a_pick_axe_carried_has_it_already(room):
    api = room(hero="archeologist")
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "have_tool" and r.success and r.actions_taken == 0
    pick = next(i for i in await api.get_inventory() if "pick-axe" in i.text)
    assert r.data["slot"] == pick.slot


async def test_an_unknown_wand_engrave_tested_turns_out_a_wand_of_digging(room):
    api = room("OBJECT:('/',\"digging\"),(2,2)")  # under the hero, on the stairs
    assert (await api.pickup()).success
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    assert "digging" not in wand.text  # not known yet: "a <material> wand"
    r = (await run_skill(api, "get_digging_tool", mode="sandbox")).result
    assert r.stopped_reason == "wand_of_digging" and r.success, r
    assert r.data["slot"] == wand.slot
    now = next(i for i in await api.get_inventory() if i.slot == wand.slot)
    assert "wand of digging" in now.text
    assert "digging" in r.data["wands"][wand.slot]["hints"]  # "Gravel flies up from the floor."
    assert (await api.get_stats()).dungeon_level == 1  # tested by engraving, not zapped down
    r = (await run_skill(api, "dig_down", levels=1)).result  # now known, the wand digs when no pick is carried
    assert r.stopped_reason == "dug" and (await api.get_stats()).dungeon_level == 2, r


async def test_a_strong_valkyrie_kills_a_hostile_dwarf_and_takes_its_pick_axe(room):
    api = room("MONSTER:('h',\"dwarf\"),(5,2),hostile {\nOBJECT:('(',\"pick-axe\")\n}")
    assert await picks_carried(api) == []
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "picked_up" and r.success, r
    assert r.data["source"] == "dwarf"
    assert any("pick-axe" in t for t in await picks_carried(api))
    assert not any(m.name == "dwarf" for m in await api.get_visible_monsters())


async def test_a_wand_of_digging_found_empty_is_no_reason_to_spare_the_dwarf_with_a_pick_axe(room):
    """A wand of digging whose charges never showed reads the same once empty: told it is
    spent, the skill fights the dwarf for his pick-axe instead of reporting the wand (a
    Samurai with such a wand let three dwarves go and died on Dlvl 10)."""
    api = room("OBJECT:('/',\"digging\"),(2,2)\nMONSTER:('h',\"dwarf\"),(9,2),hostile,asleep {\n"
               "OBJECT:('(',\"pick-axe\")\n}")
    assert (await api.pickup()).success
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    assert (await api.engrave("x", wand.slot)).success  # "gravel flies up": now a known wand of digging
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "wand_of_digging" and r.data["slot"] == wand.slot, r
    r = (await run_skill(api, "get_digging_tool", spent_wands=wand.slot)).result
    assert r.stopped_reason == "picked_up" and r.data["source"] == "dwarf", r
    assert any("pick-axe" in t for t in await picks_carried(api))


async def test_a_samurai_walks_up_to_a_sleeping_dwarf_across_the_room_and_takes_its_mattock(room):
    api = room("MONSTER:('h',\"dwarf\"),(9,3),hostile,asleep {\nOBJECT:(')',\"dwarvish mattock\")\n}",
               hero="samurai")
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "picked_up" and "mattock" in r.data["tool"], r
    assert "You kill the dwarf" in await message_log(api)
    assert any("mattock" in t for t in await picks_carried(api))


async def test_a_starting_monk_with_14_hp_fights_the_dwarf_for_his_pick_axe(room):
    """Whether a dwarf is fought is what the fight likely costs (nh.fight_odds), not a fixed
    HP floor: a Monk's martial arts kill one in about two blows, though she starts with 14 HP."""
    api = room("MONSTER:('h',\"dwarf\"),(6,2),hostile {\nOBJECT:('(',\"pick-axe\")\n}",
               character=dict(role="monk", race="human", gender="female", alignment="neutral"))
    assert (await api.get_stats()).max_hp < 15
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "picked_up" and r.data["source"] == "dwarf", r


async def test_a_dwarf_seen_through_iron_bars_digs_his_way_round_and_the_valkyrie_takes_his_pick_axe(make_api, capfd):
    """No path leads to a dwarf seen behind bars (or tunnelling through rock), but a hostile
    one digs through the wall to the hero: the skill waits for him instead of giving up."""
    rows = ["------------", "|....|.....|", "|....F.....|", "|....|.....|", "------------"]
    des = room_des(rows, "MONSTER:('h',\"dwarf\"),(8,2),hostile {\nOBJECT:('(',\"pick-axe\")\n}", hero=(2, 2))
    api = make_api(des, seed=0, extra={"options": QUIET}, **CHARACTERS["valkyrie"])
    assert "error" not in capfd.readouterr().err.lower()
    dwarf = next(m for m in await api.get_visible_monsters() if m.name == "dwarf")
    assert "no known path" in (await api.move_to(dwarf.position)).error
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "picked_up" and r.data["source"] == "dwarf", r
    assert any("pick-axe" in t for t in await picks_carried(api))


async def test_a_weak_healer_leaves_the_dwarf_alone(room):
    api = room("MONSTER:('h',\"dwarf\"),(6,2),hostile {\nOBJECT:('(',\"pick-axe\")\n}", hero="healer")
    hp = (await api.get_stats()).hp
    assert hp < 15
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "too_strong" and r.data["monster"] == "dwarf", r
    assert r.actions_taken == 0 and "You hit" not in await message_log(api)


async def test_a_pick_axe_lying_across_the_room_is_fetched(room):
    api = room("OBJECT:('(',\"pick-axe\"),(9,3)")
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "picked_up" and r.data["source"] == "floor", r
    assert await picks_carried(api)


async def test_with_no_tool_no_dwarf_and_no_pick_about_it_says_no_dwarf(room):
    api = room()
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "no_dwarf" and not r.success and r.turns_elapsed == 0, r


async def test_a_dwarvish_heros_peaceful_dwarf_is_never_attacked(room):
    dwarvish = dict(role="valkyrie", race="dwarf", gender="female", alignment="lawful")
    api = room("MONSTER:('h',\"dwarf\"),(4,2),peaceful", character=dwarvish)
    r = (await run_skill(api, "get_digging_tool")).result
    assert r.stopped_reason == "no_dwarf" and r.data["peaceful_dwarves"] == ["dwarf"], r
    assert "You hit" not in await message_log(api) and "Really attack" not in await message_log(api)


async def test_asked_to_a_dwarvish_valkyrie_fights_her_peaceful_dwarf_and_takes_its_pick_axe(room):
    """In the Gnomish Mines every dwarf is peaceful to a dwarvish or gnomish hero, who
    lands the first blows; with peaceful_ok the skill takes the pick from one."""
    dwarvish = dict(role="valkyrie", race="dwarf", gender="female", alignment="lawful")
    api = room("MONSTER:('h',\"dwarf\"),(4,2),peaceful {\nOBJECT:('(',\"pick-axe\")\n}", character=dwarvish)
    r = (await run_skill(api, "get_digging_tool", peaceful_ok=True)).result
    assert r.stopped_reason == "picked_up" and r.data["source"] == "dwarf", r
    assert any("pick-axe" in t for t in await picks_carried(api))


# ------------------------------------------------------------------ enhance_skills

async def test_a_fresh_hero_has_nothing_to_advance(room):
    api = room()
    r = (await run_skill(api, "enhance_skills", mode="sandbox")).result
    assert r.stopped_reason == "nothing_to_advance" and r.success and r.data["skills"] == [], r
    assert r.turns_elapsed == 0


async def test_an_archeologist_fallen_into_a_shop_walks_out_of_its_door_and_digs_outside(play):
    # A hole dug in a shop's floor lets its keeper grab the pack: an Archeologist who
    # fell into one gave up digging there and walked the rest of his game.
    api = play("tool_shop_keeper_at_door", hero="archeologist")
    assert (await api.shop_exit()) is not None  # inside, the keeper at his post by the door
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.success, r
    assert (await api.get_stats()).dungeon_level == 2
    assert "grabs your backpack" not in await message_log(api)
    assert any(i.text and PICK.search(i.text) for i in await api.get_inventory())


async def test_an_archeologist_shut_in_a_shop_digs_through_its_floor_from_bare_ground_owing_nothing(play):
    """A keeper bars his door to a hero with a pick-axe (and this one is locked),
    but grabs the pack only of one who owes him: from a bare square (goods on the hole's
    square would fall with the hero and count as stolen) the floor is dug through.
    (An Archeologist fallen into such a shop on Dlvl 2 starved there after 8,900 turns.)"""
    api = play("tool_shop_locked_in", hero="archeologist")
    assert (await api.shop_exit()) is not None
    pack = len(await api.get_inventory())
    r = (await run_skill(api, "dig_down", levels=1)).result
    assert r.stopped_reason == "dug" and r.success, (r.data.get("error"), await api.get_screen())
    assert (await api.get_stats()).dungeon_level == 2
    log = await message_log(api)
    assert "backpack" not in log and "stole" not in log and "You owe" not in log
    assert len(await api.get_inventory()) == pack


async def test_a_wand_of_digging_zaps_down_with_a_hostile_jackal_next_to_the_hero(room):
    """A wand's hole opens in the one turn of the zap and the hero falls away from what
    stands beside it: a way out of a losing fight, where a pick (five turns a level) stops."""
    api = room("OBJECT:('/',\"digging\"),(2,2)\nMONSTER:('d',\"jackal\"),(3,2),hostile")
    assert (await api.pickup()).success
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    assert (await api.engrave("x", wand.slot)).success  # "gravel flies up": now a known wand of digging
    hero = await api.get_position()
    assert any(m.name == "jackal" and m.position.is_adjacent(hero) for m in await api.get_visible_monsters())
    r = (await run_skill(api, "dig_down", levels=1, min_hp=0.0)).result
    assert r.stopped_reason == "dug" and (await api.get_stats()).dungeon_level == 2, r

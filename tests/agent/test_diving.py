"""The autopilot dives: down as soon as the way is known, digging when it can."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from hackwright.agent.strategists.autopilot_context import MAIN_DUNGEON, level_key_of
from tests.agent.test_autopilot import decide, game_state
from tests.conftest import room_des

ROOM = ["---------", "|.......|", "|.......|", "|.......|", "---------"]
SKILLS = {"explore_and_fight", "explore_level", "descend", "dig_down", "get_digging_tool", "enhance_skills",
          "rest_until_healed", "melee_fight", "engrave_elbereth", "pickup_useful"}


def test_a_fighter_dives_from_the_first_experience_level_a_healer_from_the_third_and_a_digger_always():
    """Dlvl 10 is worth 12.6% of BALROG's progression and Dlvl 5 2.6%: over seeds 0-39,
    diving from the start took the mean progression from 4.4% to 9.1% (diving from XL 5:
    5.6%). The roles that fight poorly grow to XL 3 first: diving at XL 1, a quarter of
    them died at XL 1-2 on Dlvl 3-7."""
    from hackwright.agent.strategists.diving import DivePolicy

    policy = DivePolicy()
    for role in ("Samurai", "Valkyrie", "Archeologist", "Monk", "Knight"):
        assert policy.diving(role, SimpleNamespace(xp_level=1)), role
    for role in ("Healer", "Tourist", "Rogue", "Priestess", "Wizard"):
        assert [policy.diving(role, SimpleNamespace(xp_level=xl)) for xl in (1, 2, 3)] == [False, False, True], role
    pick = SimpleNamespace(text="a +2 pick-axe (alternate weapon; not wielded)", name="pick-axe")
    assert policy.diving("Healer", SimpleNamespace(xp_level=1), [pick])


def test_a_pick_axe_for_sale_an_unpaid_wand_or_an_empty_wand_of_digging_is_no_digging_tool():
    from hackwright.agent.strategists.diving import digging_tool

    for_sale = SimpleNamespace(text="a pick-axe (for sale, 66 zorkmids)", name="pick-axe")
    unpaid = SimpleNamespace(text="a wand of digging (unpaid, 500 zorkmids)", name="wand of digging")
    empty = SimpleNamespace(text="a wand of digging (0:0)", name="wand of digging")
    charged = SimpleNamespace(text="a wand of digging (0:4)", name="wand of digging")
    assert digging_tool([for_sale, unpaid, empty]) is None
    assert digging_tool([for_sale, empty, charged]) is charged


def test_a_wand_of_digging_found_empty_is_no_digging_tool_though_its_charges_never_showed():
    """Engrave-testing identifies a wand of digging but not its charges: once dig_down
    finds it empty, its text still reads "a wand of digging" (a Samurai asked to dig with
    one 40 times)."""
    from hackwright.agent.strategists.diving import DivePolicy

    wand = SimpleNamespace(text="a wand of digging", name="wand of digging")
    policy = DivePolicy()
    assert policy.digging_tool([wand]) is wand
    policy.note_dig_result(SimpleNamespace(stopped_reason="dug"), [wand])
    assert policy.digging_tool([wand]) is wand
    policy.note_dig_result(SimpleNamespace(stopped_reason="no_tool"), [wand])
    assert policy.digging_tool([wand]) is None


async def test_with_a_spent_wand_of_digging_the_hero_still_goes_for_the_dwarfs_pick(make_api):
    """get_digging_tool reported the empty wand as a tool and never fought: it is told the
    wand is spent (a Samurai let three dwarves go so and died on Dlvl 10)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    dwarf = "MONSTER:('h',\"dwarf\"),(7,3),hostile,asleep\nOBJECT:('/',\"digging\"),(1,1)"
    api = make_api(room_des(ROOM, dwarf, hero=(1, 1)), seed=0, role="valkyrie", race="human", gender="female",
                   alignment="neutral")
    assert (await api.pickup()).success
    pilot = Autopilot()
    hero = api.last_stats.position
    pilot.state.picked_up_at.add((*level_key_of(api.last_stats), hero.x, hero.y))  # the wand is in the pack
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    pilot.dive.empty_wands.add(wand.text)  # as note_dig_result leaves it once dig_down found it empty
    pilot.dive._wands_tested.add(wand.slot)
    d = await decide(pilot, api, SKILLS, await game_state(api))
    assert d.skill_name == "get_digging_tool" and d.params.get("spent_wands") == wand.slot, d


def test_a_skill_ready_to_advance_asks_for_enhance_first():
    from hackwright.agent.strategists.diving import DivePolicy

    stats = SimpleNamespace(xp_level=3, position=None, branch="Dungeons of Doom")
    ask = lambda ready: DivePolicy().next_step(None, "valkyrie", stats, [], [], lambda name: True, 1.0, False,
                                                (MAIN_DUNGEON, 3), skill_ready=ready)
    step = ask(True)
    assert step is not None and step.skill == "enhance_skills", step
    assert ask(False) is None or ask(False).skill != "enhance_skills"


async def test_an_archeologist_with_his_pick_axe_digs_down_instead_of_exploring(make_api):
    """An Archeologist starts with a pick-axe: each level takes him about five turns to dig
    through, where finding the stairs takes hundreds."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role="archeologist", race="human", gender="male",
                   alignment="neutral")
    d = await decide(Autopilot(), api, SKILLS, await game_state(api))
    assert d.skill_name == "dig_down", d
    d = await decide(Autopilot(), api, SKILLS - {"dig_down"}, await game_state(api))
    assert d.skill_name == "explore_and_fight" and d.params.get("dive") is True, d


async def test_an_archeologist_beside_a_jackal_digs_down_under_elbereth_rather_than_fight_it(make_api):
    """Digging is both the way out and the dive: dig_down writes Elbereth first, and the
    hole leaves the jackal a level up. Beside a Woodland-elf, who ignores Elbereth, he fights."""
    from hackwright.agent.strategists.autopilot import Autopilot

    for monster, digs in (("('d',\"jackal\")", True), ("('@',\"Woodland-elf\")", False)):
        api = make_api(room_des(ROOM, f"MONSTER:{monster},(3,2),hostile,asleep", hero=(2, 2)), seed=0,
                       role="archeologist", race="human", gender="male", alignment="neutral")
        d = await decide(Autopilot(), api, SKILLS, await game_state(api))
        assert (d.skill_name == "dig_down") == digs, (monster, d)


async def test_a_jackal_two_steps_off_does_not_hold_up_the_archeologists_digging(make_api):
    from hackwright.agent.strategists.autopilot import Autopilot

    api = make_api(room_des(ROOM, "MONSTER:('d',\"jackal\"),(4,2),hostile,asleep", hero=(2, 2)), seed=0,
                   role="archeologist", race="human", gender="male", alignment="neutral")
    d = await decide(Autopilot(), api, SKILLS, await game_state(api))
    assert d.skill_name == "dig_down", d


async def test_a_healthy_hero_without_a_digging_tool_goes_for_a_hostile_dwarfs_pick_axe(make_api):
    """Dwarves carry picks and mattocks; a hero strong enough takes one from them (a
    Valkyrie with her long sword is, at XL 1), a Tourist with bare hands leaves him be."""
    from hackwright.agent.strategists.autopilot import Autopilot

    dwarf = "MONSTER:('h',\"dwarf\"),(7,3),hostile,asleep"
    for role, wanted in (("valkyrie", True), ("tourist", False)):
        api = make_api(room_des(ROOM, dwarf, hero=(1, 1)), seed=0, role=role, race="human", gender="female",
                       alignment="neutral")
        d = await decide(Autopilot(), api, SKILLS, await game_state(api))
        assert (d.skill_name == "get_digging_tool") == wanted, (role, d)


async def test_a_dwarvish_hero_goes_for_a_peaceful_dwarfs_pick_and_a_human_leaves_it_be(make_api):
    """The Gnomish Mines' dwarves are peaceful to dwarvish and gnomish heroes, who strike
    first; a human hero has no quarrel with a peaceful dwarf."""
    from hackwright.agent.strategists.autopilot import Autopilot

    dwarf = "MONSTER:('h',\"dwarf\"),(7,3),peaceful"
    for race, wanted in (("dwarf", True), ("human", False)):
        api = make_api(room_des(ROOM, dwarf, hero=(1, 1)), seed=0, role="valkyrie", race=race, gender="female",
                       alignment="lawful" if race == "dwarf" else "neutral")
        state = await game_state(api)
        state["stats"].xp_level = 3
        d = await decide(Autopilot(), api, SKILLS, state)
        if wanted:
            assert d.skill_name == "get_digging_tool" and d.params.get("peaceful_ok") is True, d
        else:
            assert d.skill_name != "get_digging_tool", d


async def test_an_unknown_wand_is_engrave_tested_once_for_digging(make_api):
    """A wand of digging digs down as well as a pick; engraving with an unknown wand
    tells (a wand of digging identifies itself so), one turn per wand."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.skills.builtin.conftest import run_skill

    api = make_api(room_des(ROOM, "OBJECT:('/',\"striking\"),(2,2)", hero=(2, 2)), seed=0, role="valkyrie",
                   race="human", gender="female", alignment="neutral")
    assert (await run_skill(api, "pickup_useful")).result.success
    pilot, names = Autopilot(), SKILLS - {"pickup_useful"}
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "get_digging_tool" and d.params["fight"] is False, d
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name != "get_digging_tool", d  # tested once is enough


async def test_in_the_gnomish_mines_a_fit_hero_hunts_dwarves_and_a_hero_with_a_pick_climbs_out(make_api):
    """Most of the Mines' dwarves carry a pick-axe or a mattock. A hero able to fight them
    explores the Mines' first two levels for one (and no further); a weak one does not; a
    hero who has a digging tool climbs back to the main dungeon, which goes down fifty
    levels where the Mines end after about eight."""
    from hackwright.agent.strategists.autopilot import Autopilot

    names = SKILLS | {"retreat_upstairs"}
    for role, fit in (("valkyrie", True), ("healer", False)):
        api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role=role, race="human", gender="female",
                       alignment="neutral")
        state = await game_state(api)
        state["stats"].branch, state["stats"].level_in_branch = "Gnomish Mines", 1
        state["stats"].dungeon_level, state["stats"].xp_level = 4, 3
        d = await decide(Autopilot(), api, names, state)
        if fit:
            assert d.skill_name == "explore_and_fight" and "dwarves" in d.reasoning, d
            assert d.params["max_depth"] == 5 and d.params["avoid_branches"] == [], d
        else:
            assert "dwarves" not in (d.reasoning or ""), d
    api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role="archeologist", race="human", gender="male",
                   alignment="neutral")
    state = await game_state(api)
    state["stats"].branch, state["stats"].level_in_branch = "Gnomish Mines", 2
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "retreat_upstairs" and d.params.get("force") is True, d


async def test_a_lawful_human_valkyrie_leaves_the_mines_peaceful_dwarves_be_and_a_neutral_one_hunts_them(make_api):
    """Dwarves are lawful: about four in five of those a lawful hero meets are peaceful to
    her (makemon.c peace_minded), so a hunt in the Mines brings her few picks for the
    fights with its gnome lords and hill orcs. Only a hero to whom they are hostile, or
    one of their kin who may strike first, hunts there."""
    from hackwright.agent.strategists.autopilot import Autopilot

    for alignment, hunts in (("lawful", False), ("neutral", True)):
        api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role="valkyrie", race="human", gender="female",
                       alignment=alignment)
        state = await game_state(api)
        state["stats"].branch, state["stats"].level_in_branch = "Gnomish Mines", 1
        state["stats"].dungeon_level, state["stats"].xp_level = 4, 3
        pilot = Autopilot()
        d = await decide(pilot, api, SKILLS | {"retreat_upstairs"}, state)
        assert ("dwarves" in (d.reasoning or "")) == hunts, (alignment, d)
        main = dataclasses.replace(state["stats"], branch=MAIN_DUNGEON, level_in_branch=3, dungeon_level=3)
        assert pilot._avoid_branches(api, pilot.state, (MAIN_DUNGEON, 3), main) == \
            (() if hunts else ("Gnomish Mines",)), alignment


async def test_a_gnomish_healer_keeps_out_of_the_mines_like_a_human_one_and_a_gnomish_ranger_hunts_there(make_api):
    """The Mines' gnomes and dwarves are peaceful to a gnomish hero, but their levels are
    wide and their random monsters are not: gnomish and dwarvish heroes who went down them
    freely reached Dlvl 10 less often than human heroes of their roles. Like anyone else, a
    gnome goes there only to hunt dwarves for a pick, if it is fit to (a Ranger's arrows
    are; a Healer's scalpel is not)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    for role, welcome in (("healer", False), ("ranger", True)):
        api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role=role, race="gnome", gender="female",
                       alignment="neutral")
        state = await game_state(api)
        pilot = Autopilot()
        await decide(pilot, api, SKILLS, state)  # reads the hero's role, race and pack
        stats = dataclasses.replace(state["stats"], dungeon_level=3, level_in_branch=3)
        assert pilot._avoid_branches(api, pilot.state, (MAIN_DUNGEON, 3), stats) == \
            (() if welcome else ("Gnomish Mines",)), role


async def test_a_dwarvish_hunter_in_the_mines_is_told_of_her_peaceful_dwarves_a_human_of_hostile_ones(make_api):
    """The Mines' dwarves are peaceful to a dwarvish hero and walk past her while she
    explores; the hunt asks to hear of those too, since she may take their picks."""
    from hackwright.agent.strategists.autopilot import Autopilot

    for race, alignment in (("dwarf", "lawful"), ("human", "neutral")):
        api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role="valkyrie", race=race, gender="female",
                       alignment=alignment)
        state = await game_state(api)
        state["stats"].branch, state["stats"].level_in_branch = "Gnomish Mines", 1
        state["stats"].dungeon_level, state["stats"].xp_level = 4, 3
        d = await decide(Autopilot(), api, SKILLS | {"retreat_upstairs"}, state)
        assert d.skill_name == "explore_and_fight" and "dwarves" in d.reasoning, d
        assert d.params["watch_for"] == ["dwarf"], d
        assert d.params.get("watch_peaceful", False) == (race == "dwarf"), (race, d)


async def test_a_hero_with_a_pick_on_a_mines_level_whose_up_stairs_he_never_saw_digs_down_there(make_api):
    """Climbing out of the Mines needs each level's up stairs: where they were never seen
    (the hero fell in, or came up from below onto their other stairs), looking for them
    costs a Mines level's fights, while digging on reaches Mines' End, Dlvl 10-13. (A
    Wizard with a fresh pick asked to climb three times, then explored back down into
    Minetown and died there.) Just arrived, the stairs under him count as seen."""
    from dataclasses import replace

    from hackwright.agent.strategists.autopilot import Autopilot

    api = make_api(room_des(ROOM, hero=(2, 2)), seed=0, role="archeologist", race="human", gender="male",
                   alignment="neutral")
    state = await game_state(api)
    state["stats"].branch, state["stats"].level_in_branch = "Gnomish Mines", 2
    state["level"] = replace(state["level"], stairs_up=None)
    names = SKILLS | {"retreat_upstairs"}
    pilot = Autopilot()
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "retreat_upstairs", d  # arrived this turn: he stands on them
    pilot.state.arrived_turn = state["stats"].turn - 50
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "dig_down", d
    state["level"] = replace(state["level"], stairs_up=state["stats"].position)
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "retreat_upstairs", d


async def _valkyrie_with_a_known_wand_of_digging(make_api, monsters: str = "", at=(2, 2)):
    """A Valkyrie in ROOM who picked up the wand of digging under her and engraved with
    it, so that she knows it."""
    wand = f"OBJECT:('/',\"digging\"),({at[0]},{at[1]})"
    api = make_api(room_des(ROOM, "\n".join(filter(None, (wand, monsters))), hero=at), seed=0, role="valkyrie",
                   race="human", gender="female", alignment="neutral")
    assert (await api.pickup()).success
    wand = next(i for i in await api.get_inventory() if i.object_class == "wand")
    assert (await api.engrave("x", wand.slot)).success
    return api


async def test_a_hero_with_a_wand_of_digging_in_the_mines_zaps_down_where_he_stands(make_api):
    """A wand's 4-8 charges run out before the Mines end (Dlvl 10-13): climbing out first
    spends levels the charges must dig again (a Cavewoman climbed three Mines levels with
    one, then dug five from Dlvl 3 to 8 and died there)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = await _valkyrie_with_a_known_wand_of_digging(make_api)
    state = await game_state(api)
    state["stats"].branch, state["stats"].level_in_branch = "Gnomish Mines", 3
    d = await decide(Autopilot(), api, SKILLS | {"retreat_upstairs"}, state)
    assert d.skill_name == "dig_down", d


async def test_a_wand_of_digging_is_kept_for_below_dlvl_5_unless_the_way_down_is_lost(make_api):
    """A wand digs a level a charge (4-8): zapped from Dlvl 1, it left XL 1 Wizards on
    Dlvl 5-7 to die there. The stairs take the hero to Dlvl 5 (they seldom kill above
    it), the charges go on below; on a level explored with no way down, one zap at once
    (a Monk walled in on Dlvl 2 spent all six charges and died on Dlvl 8 at XL 1)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = await _valkyrie_with_a_known_wand_of_digging(make_api)
    state = await game_state(api)
    assert state["stats"].dungeon_level == 1 and state["level"].stairs_down is None
    d = await decide(Autopilot(), api, SKILLS, state)
    assert d.skill_name != "dig_down", d
    assert d.params.get("dive"), d  # down the stairs at once: a digging tool makes a diver
    pilot = Autopilot()
    pilot.state.explored_levels.add(level_key_of(api.last_stats))
    d = await decide(pilot, api, SKILLS, state)
    assert d.skill_name == "dig_down" and d.params.get("levels") == 1, d  # one zap out, the rest kept
    state["stats"].dungeon_level = 5
    d = await decide(Autopilot(), api, SKILLS, state)
    assert d.skill_name == "dig_down" and "levels" not in d.params, d


async def test_a_hero_too_weak_to_melee_a_dwarf_shoots_him_for_his_pick_a_wizard_with_force_bolt(make_api):
    """Dwarves move at half the hero's speed: a Ranger's arrows or a Wizard's force bolt
    kill one before he swings his mattock, and his pile is searched afterwards. A
    Tourist's darts mostly miss him: she leaves him be."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.skills.builtin.conftest import CHARACTERS, run_skill

    dwarf = "MONSTER:('h',\"dwarf\"),(7,1),hostile,asleep"
    for hero in ("wizard", "ranger", "tourist"):
        api = make_api(room_des(ROOM, dwarf, hero=(1, 1)), seed=0, **CHARACTERS[hero])
        state = await game_state(api)
        state["stats"].dungeon_level = 3  # where the Mines branch off: their dwarves are tougher than Dlvl 1's
        d = await decide(Autopilot(), api, SKILLS | {"ranged_attack"}, state)
        if hero == "tourist":
            assert d.skill_name not in ("ranged_attack", "get_digging_tool"), d
            continue
        assert d.skill_name == "ranged_attack" and d.params["target"] == "dwarf", (hero, d)
        assert (d.params.get("spell") == "a") == (hero == "wizard"), d
        r = (await run_skill(api, "ranged_attack", mode="sandbox", **d.params)).result
        assert r.stopped_reason == "target_dead", (hero, r)
        assert any(k.species == "dwarf" for k in await api.recent_kills()), hero


async def test_a_dying_hero_with_a_wand_of_digging_zaps_down_out_of_the_fight(make_api):
    """HP critical with a monster beside it and no prayer: the wand's hole takes the hero
    away from it, a level deeper, in one turn."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = await _valkyrie_with_a_known_wand_of_digging(make_api, "MONSTER:('d',\"jackal\"),(2,1),hostile", at=(1, 1))
    state = await game_state(api)
    state["stats"].hp = 2
    d = await decide(Autopilot(), api, SKILLS, state)
    assert d.skill_name == "dig_down" and d.params["levels"] == 1, d


def test_a_wizard_hunts_the_mines_dwarves_for_a_pick_a_priest_as_weak_in_melee_does_not():
    """Force bolt kills a dwarf before he swings: Wizards, Rangers and Rogues hunt the
    Mines for a pick as melee-fit heroes do, from the first experience level (over seeds
    0-159, 62 games reached Dlvl 10 so against 58; gated to XL 3, 58)."""
    from types import SimpleNamespace

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Alignment, HungerState, Stats

    def stats(xl):
        return Stats(hp=12, max_hp=12, pw=9, max_pw=9, ac=9, xp_level=xl, xp_points=0, gold=0, strength=10,
                     dexterity=14, constitution=12, intelligence=17, wisdom=12, charisma=10,
                     hunger=HungerState.NOT_HUNGRY, encumbrance="Unencumbered", alignment=Alignment.CHAOTIC,
                     dungeon_level=3, turn=500)

    api = SimpleNamespace(hero_race="human")
    for role, xl, welcome in (("Wizard", 1, True), ("Ranger", 1, True), ("Priest", 3, False)):
        pilot = Autopilot()
        pilot._role = role
        avoided = pilot._avoid_branches(api, pilot.state, (MAIN_DUNGEON, 3), stats(xl))
        assert (avoided == ()) is welcome, (role, xl, avoided)


# Two rooms with rock between: a hostile dwarf in the east room tunnels toward the hero.
DIGGER_ROOMS = ["-----       -----",
                "|...|       |...|",
                "|...|       |...|",
                "-----       -----"]
DIGGER = "MONSTER:('h',\"dwarf\"),(14,2),hostile,awake"


async def test_a_pickless_valkyrie_who_hears_a_dwarf_digging_waits_on_the_level_instead_of_diving(make_api):
    """"You hear crashing rock": a monster with a pick-axe or a mattock tunnels somewhere
    on this level. A hero without a digging tool who could take it from him stays a while
    for him to dig into view, where she would otherwise dive on."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = make_api(room_des(DIGGER_ROOMS, DIGGER, hero=(1, 1)), seed=2, role="valkyrie", race="human",
                   gender="female", alignment="neutral")
    d = await decide(Autopilot(), api, SKILLS, await game_state(api))
    assert d.skill_name == "explore_and_fight" and d.params.get("dive") is True, d  # not heard yet: dive
    for _ in range(20):
        await api.search(5)
        if (await api.get_current_level()).digging_heard_turn is not None:
            break
    heard = (await api.get_current_level()).digging_heard_turn
    assert heard is not None
    d = await decide(Autopilot(), api, SKILLS, await game_state(api))
    assert d.skill_name == "explore_and_fight" and "dive" not in d.params, d
    assert d.params["max_depth"] == 1 and d.params["linger_turns"] > 0 and d.params["watch_for"] == ["dwarf"], d

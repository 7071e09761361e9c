"""The offline autopilot plays whole episodes: few decisions, caps honoured, baselines alike."""

from __future__ import annotations

from types import SimpleNamespace

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.agent.strategists.autopilot_context import MAIN_DUNGEON, level_key_of


async def game_state(api) -> dict:
    """What the agent loop hands the strategist: stats, level map, monsters in view, inventory."""
    return {"stats": await api.get_stats(), "level": await api.get_current_level(),
            "monsters": await api.get_visible_monsters(), "inventory": await api.get_inventory()}


# A small lit room; the hero at (2, 1), the monster of a test beside it at (3, 1).
SMALL_ROOM = ["-------", "|.....|", "|.....|", "-------"]
CHARACTERS = {"monk": ("male", "neutral"), "priest": ("female", "neutral"), "knight": ("male", "lawful"),
              "healer": ("female", "neutral")}


def hero_beside(make_api, monster: str, role: str):
    """A human ``role`` at (2, 1) of SMALL_ROOM, next to ``monster`` (a des-file MONSTER line
    after the colon, e.g. ``('d',"fox"),(3,1),hostile``)."""
    from tests.conftest import room_des

    gender, alignment = CHARACTERS[role]
    return make_api(room_des(SMALL_ROOM, f"MONSTER:{monster}", hero=(2, 1)), seed=0, role=role, race="human",
                    gender=gender, alignment=alignment)


async def decide(pilot, api, names: set, state: dict):
    """One autopilot decision on this game, with only the skills in ``names`` available."""
    return await pilot.decide(SimpleNamespace(api=api, state=state, skill_names=names, kills={}))


def episode(tmp_path, **kw) -> EpisodeConfig:
    kw.setdefault("llm", "autopilot")
    return EpisodeConfig(db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"), **kw)


async def test_the_autopilot_stops_at_the_turn_cap_even_inside_a_long_skill(tmp_path):
    summary = await Agent(episode(tmp_path, seed=1, max_turns=150)).run()
    assert summary.end_reason == "turn cap", summary
    # explore_and_fight would run for hundreds of turns; the cap interrupts it.
    assert 150 <= summary.turns <= 160


async def test_one_autopilot_decision_covers_many_turns(tmp_path):
    summary = await Agent(episode(tmp_path, seed=3, max_turns=1200)).run()
    assert summary.turns >= 600 or summary.end_reason == "death"
    assert summary.decisions_per_1000_turns <= 40, summary.skills_used
    assert summary.fallback_steps == 0 and summary.progression > 0


async def test_the_handcrafted_and_random_baselines_play_alone(tmp_path):
    hand = await Agent(episode(tmp_path, llm="handcrafted", seed=2, max_turns=200)).run()
    rnd = await Agent(episode(tmp_path, llm="random", seed=2, max_steps=120)).run()
    assert hand.strategist == "handcrafted" and rnd.strategist == "random"
    assert hand.fallback_steps == 0 and rnd.fallback_steps == 0
    assert rnd.decisions == 120 and rnd.skills_used == {}  # one raw key per decision, no skills


async def test_a_soldier_ant_is_far_more_dangerous_to_stand_next_to_than_a_jackal(make_api):
    """The autopilot's "in danger" is HP against what the adjacent monsters can do in a turn,
    read from the monster tables (attacks, speed, poison)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = make_api(seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    pilot = Autopilot()
    jackal = await pilot._hit_potential(api, "jackal")
    ant = await pilot._hit_potential(api, "soldier ant")
    assert jackal == 2  # one 1d2 bite a turn
    assert ant >= 30  # 2d4 + 3d4 at speed 18, and a poisonous sting: a Valkyrie resists cold, not poison
    assert await pilot._hit_potential(api, "no such monster") == 0


async def test_a_cockatrice_biting_the_hero_gets_elbereth_not_a_rest(make_api):
    """Never meleed bare-handed, a cockatrice was "not adjacent" to the autopilot, which rested
    beside it until its hissing turned a Monk to stone (seed 38)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('c',\"cockatrice\"),(3,1),hostile", "monk")
    state = await game_state(api)
    assert any(m.name == "cockatrice" for m in state["monsters"])
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "engrave_elbereth", d


async def test_a_werejackal_bite_is_prayed_away_once_prayer_is_safe(make_api):
    """Lycanthropy never shows on the status line; heroes who kept it turned into jackals,
    dropped their armour and died under their load (seeds 15, 17, 24)."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('d',\"werejackal\"),(2,1),hostile", hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    for _ in range(30):
        if "Lycanthropy" in await api.get_status_effects():
            break
        await api.search()
    assert "Lycanthropy" in await api.get_status_effects()
    for _ in range(40):  # kill it: the bite is done, the fever stays
        were = [m for m in await api.get_visible_monsters() if "were" in m.name]
        if not were:
            break
        hero = await api.get_position()
        await api.attack(hero.direction_to(were[0].position))
    while (await api.get_stats()).turn <= 110 and not api.game_over:  # until prayer is safe (timeout <= 200)
        await api.search(20)
    state = await game_state(api)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "pray_when_safe", d
    await api.pray()
    assert "Lycanthropy" not in await api.get_status_effects()


async def test_a_bitten_hero_fights_the_werejackal_alone_so_the_prayer_comes_before_the_change(make_api):
    """Still beside the were-creature that gave her the fever, she fights it with melee_fight,
    which hands back when it dies, not inside a level's exploration: a Rogue who explored on
    after such a fight turned into a wererat a hundred turns later, the prayer unsaid.
    (A peaceful werejackal in a closet, struck once the prayer clock allows a prayer.)"""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    des = room_des(["----", "|..|", "----"], "MONSTER:('d',\"werejackal\"),(2,1),peaceful", hero=(1, 1))
    api = make_api(des, seed=4, role="valkyrie", race="human", gender="female", alignment="neutral")
    were = lambda ms: [m for m in ms if m.name == "werejackal"]  # noqa: E731
    while (await api.get_stats()).turn <= 110:  # prayer safe from here (timeout <= 200)
        await api.search(20)
    for _ in range(50):  # its jackal form: an @ is never attacked (murder)
        if were(await api.get_visible_monsters())[0].char == "d":
            break
        await api.search()
    hero = await api.get_position()
    await api.attack(hero.direction_to(were(await api.get_visible_monsters())[0].position), peaceful_ok=True)
    for _ in range(40):
        if "Lycanthropy" in await api.get_status_effects():
            break
        await api.search()
    assert "Lycanthropy" in await api.get_status_effects()
    [jackal] = were(await api.get_visible_monsters())
    assert not jackal.is_peaceful and jackal.position.is_adjacent(hero)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    d = await decide(Autopilot(), api, names, await game_state(api))
    assert d.skill_name == "melee_fight", d


async def test_a_hungry_werejackal_victim_with_no_food_saves_the_prayer_for_weakness(make_api):
    """Prayed away while Hungry with nothing to eat, the fever left the prayer clock shut
    when the hero grew Weak a hundred turns later: a Healer fainted to death so."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import HungerState
    from tests.conftest import room_des

    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('d',\"werejackal\"),(2,1),hostile", hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    for _ in range(30):
        if "Lycanthropy" in await api.get_status_effects():
            break
        await api.search()
    assert "Lycanthropy" in await api.get_status_effects()
    for _ in range(40):
        were = [m for m in await api.get_visible_monsters() if "were" in m.name]
        if not were:
            break
        hero = await api.get_position()
        await api.attack(hero.direction_to(were[0].position))
    for item in await api.get_inventory():
        if item.object_class == "food":
            await api.drop(item.slot)
    while (await api.get_stats()).hunger.severity < HungerState.HUNGRY.severity and not api.game_over:
        assert (await api.get_stats()).turn < 3000, "never got hungry"
        await api.search(50)
    assert "Lycanthropy" in await api.get_status_effects()
    state = await game_state(api)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name != "pray_when_safe", d


async def test_a_hero_with_nothing_to_throw_steps_away_from_a_floating_eye_blocking_a_corridor(make_api):
    """Three heroes starved or hit the turn cap waiting beside a floating eye boxed in a
    corridor: it cannot move off while the hero stands there."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    des = room_des(["----------------", "|......|       |", "|...............|", "|......|       |", "----------------"],
                   "MONSTER:('e',\"floating eye\"),(9,2),hostile,asleep", hero=(8, 2))
    api = make_api(des, seed=0, role="priest", race="human", gender="male", alignment="neutral")
    state = await game_state(api)
    assert any(m.name == "floating eye" for m in state["monsters"])
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "ranged_attack", "explore_level"}
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "go_to", d
    eye = next(m.position for m in state["monsters"] if m.name == "floating eye")
    assert abs(d.params["x"] - eye.x) >= 6


async def test_a_wizard_with_nothing_to_throw_kills_a_floating_eye_blocking_a_corridor_with_force_bolt(make_api):
    """A Wizard and two Healers with neither arrows nor daggers hit a floating eye that shut
    the only way, frozen by its gaze each time, until they starved."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.sandbox.runner import SkillRunner
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import skill_source

    des = room_des(["----------------", "|......|       |", "|...............|", "|......|       |", "----------------"],
                   "MONSTER:('e',\"floating eye\"),(10,2),hostile,asleep", hero=(6, 2))
    api = make_api(des, seed=1, role="wizard", race="elf", gender="male", alignment="chaotic")
    assert not (await api.get_missiles()).best
    state = await game_state(api)
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "ranged_attack", "explore_level"}
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "ranged_attack" and d.params["spell"] == "a", d
    runner = SkillRunner(api, mode="inprocess")
    try:
        r = (await runner.run(skill_source("ranged_attack"), d.params)).result
    finally:
        runner.close()
    assert r.stopped_reason == "target_dead", (r, await api.get_messages(12))
    assert not any(m.name == "floating eye" for m in await api.get_visible_monsters())
    # Had it waited away from the eye before, it waits no longer for a blocker shot dead.
    pilot.state.make_room_until = (await api.get_stats()).turn + 100
    pilot.observe("ranged_attack", r, api)
    d = await decide(pilot, api, names, await game_state(api))
    assert "waiting away" not in d.reasoning, d


async def test_a_blocked_hero_walks_up_to_a_red_mold_five_squares_off_in_the_only_way_and_kills_it(make_api):
    """A red mold four squares away inside the only doorway of the room with the down
    stairs kept a Priestess searching for 1,500 turns: a mold never moves off."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    des = room_des(["----------------", "|......|       |", "|...............|", "|......|       |", "----------------"],
                   "MONSTER:('F',\"red mold\"),(9,2),hostile", hero=(4, 2))
    api = make_api(des, seed=0, role="barbarian", race="human", gender="male", alignment="neutral")
    state = await game_state(api)
    assert state["stats"].max_hp >= 15 and not (await api.get_missiles()).best
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "ranged_attack", "explore_level"}
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "melee_fight" and d.params["target"] == "red mold", d
    assert d.params["approach_radius"] >= 5


async def test_a_hero_shut_in_a_shop_steps_back_in_line_with_the_shopkeeper_so_that_he_moves_aside(make_api):
    """NetHack's shopkeeper keeps his post inside the door while the hero is out of line with
    him or right next to him, and steps aside once the hero stands two or three squares off
    in a line with him: heroes starved inside shops waiting for a way out that never
    opened (a Tourist searched beside him for 15,000 turns)."""
    from pathlib import Path
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult

    des = (Path(__file__).resolve().parents[1] / "levels" / "tool_shop_keeper_at_door.des").read_text()
    api = make_api(des, seed=0)
    shk = next(m.position for m in await api.get_visible_monsters() if m.name == "shopkeeper")
    door = shk.offset("e")
    await api.search(30)
    assert not (await api.move_to(door)).success  # he has not moved: no way out
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, {"go_to", "explore_level"}, await game_state(api))
    assert d.skill_name == "go_to", d
    spot = type(shk)(d.params["x"], d.params["y"])
    assert 2 <= spot.steps_to(shk) <= 3 and (spot.x == shk.x or spot.y == shk.y
                                              or abs(spot.x - shk.x) == abs(spot.y - shk.y)), (spot, shk)
    while await api.get_position() != spot:
        assert (await api.move_to(spot)).success
    for _ in range(10):  # in line with him now: the autopilot waits while he keeps his post
        pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
        d = await decide(pilot, api, {"go_to", "explore_level"}, await game_state(api))
        if d.skill_name is not None or d.action != "s":
            break
        await api.search()
    keeper = next(m.position for m in await api.get_visible_monsters() if m.name == "shopkeeper")
    assert keeper != shk, "he is still at his post"
    for _ in range(10):
        if await api.get_position() == door:
            break
        assert (await api.move_to(door)).success
    assert await api.get_position() == door


async def test_a_hero_with_gold_shut_in_a_shop_pays_before_anything_else(make_api):
    """A shopkeeper who is owed never leaves his door (a Ranger and a Healer ate corpses
    on shop floors and waited there for thousands of turns): pay first, then step aside."""
    from pathlib import Path
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult

    des = (Path(__file__).resolve().parents[1] / "levels" / "tool_shop_keeper_at_door.des").read_text()
    api = make_api(des, seed=0, role="healer", race="human", gender="female", alignment="neutral")
    assert (await api.get_stats()).gold > 0
    pilot = Autopilot()
    names = {"go_to", "explore_level", "pay_shopkeeper"}
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "pay_shopkeeper", d
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)  # paid; still shut in
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "go_to", d


async def test_a_hero_swallowed_by_a_dust_vortex_fights_it_from_inside(make_api):
    """Inside an engulfer every attack hits it; a blinded Monk searched and ate inside a
    dust vortex until it killed him (seed 31)."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('v',\"dust vortex\"),(2,1),hostile", hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    for _ in range(30):
        if "Engulfed" in await api.get_status_effects():
            break
        await api.search()
    assert "Engulfed" in await api.get_status_effects()
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "eat_when_hungry"}
    pilot = Autopilot()
    for _ in range(40):
        if "Engulfed" not in await api.get_status_effects() or api.game_over:
            break
        state = await game_state(api)
        d = await decide(pilot, api, names, state)
        assert d.type == "direct_action" and d.action.startswith("F"), d
        await api.send_keys(d.action)
    log = " ".join(await api.get_messages(200))
    assert "You hit the dust vortex" in log or "You destroy the dust vortex" in log, log


# What a hero whose way on is shut by a monster may do.
BLOCKED_SKILLS = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
                  "go_to", "ranged_attack"}


async def test_an_acid_blob_in_the_doorway_is_fought_by_a_hero_with_hp_to_spare(make_api):
    """An acid blob's touch only splashes acid; a Priestess waited 1,000 turns outside the
    door it sat in and starved (seed 22)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('b',\"acid blob\"),(3,1),hostile,asleep", "priest")
    state = await game_state(api)
    pilot = Autopilot()
    pilot.explored(api)  # nothing else left to do here
    d = await decide(pilot, api, BLOCKED_SKILLS, state)
    assert d.skill_name == "melee_fight" and d.params["target"] == "acid blob", d


async def test_a_knight_at_full_health_kills_a_green_mold_rather_than_wait_for_it_to_move(make_api):
    """Molds never move. A Knight with 29 HP of 29 (a green mold's mark is 30) stepped away
    "to give it room" and waited 4,500 turns on Dlvl 2; a 9-HP hero must not try."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('F',\"green mold\"),(3,1),hostile", "knight")
    state = await game_state(api)
    pilot = Autopilot()
    pilot.explored(api)  # nothing else left to do here
    state["stats"] = dataclasses.replace(state["stats"], hp=29, max_hp=29)
    d = await decide(pilot, api, BLOCKED_SKILLS, state)
    assert d.skill_name == "melee_fight" and d.params["target"] == "green mold", d
    state["stats"] = dataclasses.replace(state["stats"], hp=9, max_hp=9)
    d = await decide(Autopilot(), api, BLOCKED_SKILLS, state)
    assert d.skill_name != "melee_fight" and "room to move" not in d.reasoning, d


async def test_a_healer_zaps_her_wand_of_sleep_at_an_elvenking_elbereth_would_not_stop(make_api):
    """Half the heroes died with healing potions or attack wands unused in their packs.
    (South-east of her: the ray's way east ends at the wall three squares on, and would
    bounce back.)"""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('@',\"Elvenking\"),(3,2),hostile,asleep", "healer")
    state = await game_state(api)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "quaff_or_zap_to_survive", "retreat_upstairs"}
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "quaff_or_zap_to_survive", d


async def test_a_hurt_healer_beside_a_werejackal_and_a_jackal_zaps_her_wand_before_elbereth(make_api):
    """Elbereth stops the jackal, not the werejackal, which turns back into its @ form at
    any moment: heroes at XL 3-5 wrote Elbereth beside one and were bitten to death on it.
    A potion or a wand comes first."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('d',\"werejackal\"),(3,1),hostile,asleep\n"
                                "MONSTER:('d',\"jackal\"),(3,2),hostile,asleep", "healer")
    state = await game_state(api)
    # (half her HP: in danger from the two, not yet critical, where a prayer comes first)
    stats = state["stats"]
    state["stats"] = dataclasses.replace(stats, hp=stats.max_hp // 2, dungeon_level=4)
    state["level"].stairs_up = None  # (no way up: the room's stairs are under the hero)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "quaff_or_zap_to_survive", "retreat_upstairs"}
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "quaff_or_zap_to_survive" and "werejackal" in d.reasoning, d


async def test_a_healer_puts_a_werejackal_to_sleep_across_a_diagonal_but_not_where_the_ray_would_bounce(make_api):
    """quaff_or_zap_to_survive never sends a ray along a row or column with a wall close
    behind the monster (it bounces straight back): asked to anyway, it handed back
    "nothing_to_use" three times and the hero struck one blind blow, over and over."""
    from hackwright.agent.strategists.autopilot import Autopilot

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "quaff_or_zap_to_survive", "retreat_upstairs"}
    for at, zaps in (("(3,2)", True), ("(3,1)", False)):  # south-east of her; east, the wall 3 squares on
        api = hero_beside(make_api, f"('@',\"werejackal\"),{at},hostile,asleep", "healer")
        d = await decide(Autopilot(), api, names, await game_state(api))
        assert ("put it to sleep" in (d.reasoning or "")) == zaps, (at, d)


async def test_a_monk_at_full_health_leaves_by_the_close_up_stairs_from_an_elvenking(make_api):
    """Elbereth does not stop an Elvenking; retreat_upstairs at its default refused a Monk at
    full HP ("hp_ok") three times a turn, and he fought it and died (seed 3)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position

    api = hero_beside(make_api, "('@',\"Elvenking\"),(3,1),hostile,asleep", "monk")
    state = await game_state(api)
    hero = state["stats"].position
    state["stats"] = dataclasses.replace(state["stats"], dungeon_level=4)  # as if deeper, by stairs
    state["level"].stairs_up = Position(hero.x - 1, hero.y + 1)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs"}
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "retreat_upstairs" and d.params.get("force") is True, d


async def test_a_fox_put_to_sleep_by_the_healers_wand_is_hit_not_zapped_again(make_api):
    """A Healer zapped her wand of sleep at a fox seven times running, each ray hitting a
    fox already asleep, never struck it, and died when it woke (seed 2)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import SURVIVE, Autopilot
    from hackwright.skills.result import SkillResult

    api = hero_beside(make_api, "('d',\"fox\"),(3,1),hostile", "healer")
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             SURVIVE}
    pilot = Autopilot()
    pilot.state.elbereth_at = (1, (await api.get_stats()).position.x, (await api.get_stats()).position.y)
    state = await game_state(api)
    state["stats"] = dataclasses.replace(state["stats"], hp=4)  # in danger, Elbereth tried here
    d = await decide(pilot, api, names, state)
    assert d.skill_name == SURVIVE, d
    zapped = SkillResult(stopped_reason="zapped", success=True, actions_taken=1, turns_elapsed=1,
                         data={"item": "a wand of sleep (0:4)", "messages": ["The sleep ray hits the fox."]})
    pilot.observe(SURVIVE, zapped, api)
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "melee_fight" and d.params["target"] == "fox", d


async def test_a_wererat_that_changes_form_under_the_sleep_ray_is_awake_and_a_fight_on_a_sleeper_stops_at_the_first_blow(make_api):
    """A were that changes form wakes (were.c new_were), and a monster that strikes is
    awake: Healers fought a wererat hit by their sleep ray down to a tenth of their HP as
    if it slept, and it and the rats it summoned bit them to death (seeds 7007, 7081)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import SURVIVE, Autopilot
    from hackwright.skills.result import SkillResult

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             SURVIVE}
    for rat, messages in (("wererat", ["The sleep ray hits the wererat.  The wererat changes into a rat."]),
                          ("sewer rat", ["The sleep ray hits the sewer rat."])):
        api = hero_beside(make_api, f"('r',\"{rat}\"),(3,1),hostile", "healer")
        pilot = Autopilot()
        hero = (await api.get_stats()).position
        pilot.state.elbereth_at = (1, hero.x, hero.y)
        state = await game_state(api)
        state["stats"] = dataclasses.replace(state["stats"], hp=4)  # in danger, Elbereth tried here
        zapped = SkillResult(stopped_reason="zapped", success=True, actions_taken=1, turns_elapsed=1,
                             data={"item": "a wand of sleep (0:4)", "messages": messages})
        pilot.observe(SURVIVE, zapped, api)
        d = await decide(pilot, api, names, state)
        if rat == "wererat":
            assert "is asleep" not in (d.reasoning or ""), d
            continue
        assert d.skill_name == "melee_fight" and d.params["target"] == rat, d
        assert d.params["hp_threshold"] * state["stats"].max_hp == 3.5, d  # the first blow taken ends it
        bitten = SkillResult(stopped_reason="low_hp", success=False, actions_taken=2, turns_elapsed=2)
        pilot.observe("melee_fight", bitten, api)
        d = await decide(pilot, api, names, state)
        assert "is asleep" not in (d.reasoning or ""), d


async def test_a_peaceful_lichen_in_the_only_way_on_is_fought_but_not_on_a_mines_level_where_minetown_lies(make_api):
    """An explored level whose only way on a weak peaceful blocks: the hero fights it
    rather than wait for good. In Minetown the watch kills a hero who kills a peaceful
    gnome (seed 7490's Valkyrie died so), and the town's peacefuls move on."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult

    names = {"explore_level", "explore_and_fight", "melee_fight", "rest_until_healed"}
    for branch, level_in_branch, fights in (("Dungeons of Doom", 3, True), ("Gnomish Mines", 3, False)):
        api = hero_beside(make_api, "('F',\"lichen\"),(3,1),peaceful", "knight")
        state = await game_state(api)
        state["stats"].branch, state["stats"].level_in_branch = branch, level_in_branch
        pilot = Autopilot()
        pilot.state.explored_levels.add(level_key_of(state["stats"]))
        pilot.state.last_result = SkillResult(stopped_reason="stuck", success=False, actions_taken=1, turns_elapsed=1)
        d = await decide(pilot, api, names, state)
        assert ("blocks the only way on" in (d.reasoning or "")) == fights, (branch, d)


async def test_a_hero_shut_in_with_no_way_on_searches_every_spot_again_longer_each_round(make_api):
    """A Barbarian shut in two rooms on Dlvl 1 searched one corridor square for 7,000 turns
    (the fallback) and starved (seed 28)."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    api = make_api(room_des(["------", "|....|", "|....|", "------"], hero=(1, 1)), seed=0, role="barbarian",
                   race="human", gender="female", alignment="neutral")
    state = await game_state(api)
    names = {"explore_level", "explore_and_fight", "rest_until_healed", "descend"}
    pilot = Autopilot()
    pilot.explored(api)
    level = level_key_of(api.last_stats)
    pilot.state.failures["explore_level"] = 3  # it kept finding nothing
    pilot.state.failed_at["explore_level"] = state["stats"].turn
    pilot.state.search_rounds[level] = 2
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "explore_level" and d.params["searches_per_spot"] == 60, d


async def test_a_floating_eye_that_has_shut_a_dead_end_for_long_is_hit_at_full_health(make_api):
    """Floating eyes in dead ends and doorways were the commonest stall: four heroes
    starved beside one with no room to step away and nothing to throw."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('e',\"floating eye\"),(2,1),hostile,asleep", hero=(1, 1))
    api = make_api(des, seed=0, role="priest", race="human", gender="male", alignment="neutral")
    state = await game_state(api)
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "ranged_attack", "explore_level"}
    level = level_key_of(api.last_stats)
    pilot.state.make_room_until = 0
    first = await decide(pilot, api, names, state)
    assert first.type != "direct_action" or not first.action.startswith("F"), first  # not at once
    pilot.state.eye_stall_since[level] = state["stats"].turn - Autopilot.EYE_PATIENCE
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, names, state)
    assert d.type == "direct_action" and d.action == "Fl", d


async def test_a_starving_priestess_hits_the_floating_eye_even_with_a_brown_mold_in_view(make_api):
    """A brown mold five squares off never moves, so it is no reason to keep waiting; and a
    hero Weak from hunger with nothing to eat starves for sure, while the eye's freeze is
    mostly survived (a Priestess waited beside one for 11,000 turns and starved)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api.models import HungerState
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    des = room_des(["---------", "|.......|", "|.......|", "|.......|", "---------"],
                   "MONSTER:('e',\"floating eye\"),(2,1),hostile,asleep\n"
                   "MONSTER:('F',\"brown mold\"),(6,3),hostile,asleep", hero=(1, 1))
    api = make_api(des, seed=0, role="priest", race="human", gender="female", alignment="neutral",
                   extra={"pet": False})
    state = await game_state(api)
    assert {m.name for m in state["monsters"]} >= {"floating eye", "brown mold"}
    state["stats"] = dataclasses.replace(state["stats"], hunger=HungerState.WEAK)
    state["inventory"] = [i for i in state["inventory"] if i.object_class != "food"]
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "explore_level"}
    pilot = Autopilot()
    pilot.state.make_room_until = 0
    pilot.state.eye_stall_since[level_key_of(api.last_stats)] = state["stats"].turn - Autopilot.EYE_PATIENCE
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, names, state)
    assert d.type == "direct_action" and d.action == "Fl", d


async def test_a_hero_boxed_into_a_corner_by_floating_eyes_hits_one_at_once(make_api):
    """A Knight stood in a room's corner behind three floating eyes for hundreds of turns."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    eyes = "\n".join(f"MONSTER:('e',\"floating eye\"),({x},{y}),hostile,asleep" for x, y in ((4, 1), (4, 2), (5, 2)))
    api = make_api(room_des(SMALL_ROOM, eyes, hero=(5, 1)), seed=0,
                   role="knight", race="human", gender="male", alignment="lawful", extra={"pet": False})
    state = await game_state(api)
    assert sum(m.name == "floating eye" for m in state["monsters"]) == 3
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "explore_level"}
    d = await decide(pilot, api, names, state)
    assert d.type == "direct_action" and d.action.startswith("F"), d


async def test_a_priestess_shut_in_a_dead_end_by_a_gas_spore_hits_it_at_full_health(make_api):
    """A gas spore drifts after the hero, so stepping away only brings it along: four heroes
    of 320 starved on Dlvl 2-3 behind one (a Healer for 36,000 turns, between a boulder and
    a spore). Its explosion (4d6) is a risk; starving is not. Hurt, she heals first."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    des = room_des(["-----", "|...|", "-----"], "MONSTER:('e',\"gas spore\"),(2,1),hostile,asleep", hero=(1, 1))
    api = make_api(des, seed=0, role="priest", race="human", gender="female", alignment="neutral",
                   extra={"pet": False})
    state = await game_state(api)
    assert any(m.name == "gas spore" for m in state["monsters"])  # nothing to throw at it: a mace
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "ranged_attack", "explore_level"}
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, names, state)
    assert d.type == "direct_action" and d.action == "Fl", d
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    state["stats"] = dataclasses.replace(state["stats"], hp=state["stats"].max_hp // 2)
    d = await decide(pilot, api, names, state)
    assert not (d.type == "direct_action" and d.action.startswith("F")), d
    # With room about her (too little to back off six squares), only once it has kept the
    # way shut for EYE_PATIENCE turns.
    des = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"],
                   "MONSTER:('e',\"gas spore\"),(2,1),hostile,asleep", hero=(1, 1))
    api = make_api(des, seed=0, role="priest", race="human", gender="female", alignment="neutral",
                   extra={"pet": False})
    state = await game_state(api)
    pilot = Autopilot()
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, names, state)
    assert not (d.type == "direct_action" and d.action.startswith("F")), d
    level = level_key_of(api.last_stats)
    pilot.state.eye_stall_since[level] = state["stats"].turn - Autopilot.EYE_PATIENCE
    pilot.state.last_result = SkillResult(stopped_reason="blocked", success=False)
    d = await decide(pilot, api, names, state)
    assert d.type == "direct_action" and d.action == "Fl", d


async def test_a_hero_boxed_in_by_peaceful_floating_eyes_waits_for_them_to_drift_off(make_api):
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    eyes = "\n".join(f"MONSTER:('e',\"floating eye\"),({x},{y}),peaceful,asleep" for x, y in ((4, 1), (4, 2), (5, 2)))
    api = make_api(room_des(SMALL_ROOM, eyes, hero=(5, 1)), seed=0,
                   role="knight", race="human", gender="male", alignment="lawful", extra={"pet": False})
    state = await game_state(api)
    assert all(m.is_peaceful for m in state["monsters"] if m.name == "floating eye")
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "explore_level"}
    d = await decide(Autopilot(), api, names, state)
    assert d.type == "direct_action" and d.action == "20s", d


async def test_a_jackal_killed_in_melee_is_eaten_at_once_though_the_hero_is_not_hungry(make_api):
    """Heroes who ate only when Hungry lived from prayer to prayer (one for hunger every
    ~850 turns), so no prayer was left when HP ran out: a fresh kill is eaten while fresh."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import HungerState
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import run_skill

    des = room_des(["---------", "|.......|", "|.......|", "---------"], "MONSTER:('d',\"jackal\"),(3,1),hostile",
                   hero=(2, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    fight = (await run_skill(api, "melee_fight")).result
    assert fight.stopped_reason == "target_dead", fight
    pilot = Autopilot()
    pilot.observe("melee_fight", fight, api)
    state = await game_state(api)
    assert state["stats"].hunger == HungerState.NOT_HUNGRY
    names = {"eat_when_hungry", "explore_and_fight", "rest_until_healed", "melee_fight"}
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "eat_when_hungry", d
    assert d.params["force"] and d.params["corpses_only"]
    # The API remembers the kill, its square and turn: the skill needs nothing passed in.
    assert "kills" not in d.params
    kill = (await api.recent_kills())[-1]
    assert (kill.species, tuple(kill.position)) == ("jackal", tuple(fight.data["at"]))
    assert kill.turn <= fight.data["killed_turn"]
    # Once only: the next decision goes on with the game.
    pilot.observe("eat_when_hungry", None, api)
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name != "eat_when_hungry", d


async def test_a_hero_walled_in_after_two_search_rounds_tries_his_unknown_wand(make_api):
    """Walled off from the rest of their levels, heroes searched for 10,000 turns with
    unread scrolls and unzapped wands in the pack (seeds 19, 41)."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import run_skill

    walled = ["-----------", "|...|.....|", "|...|.....|", "|...|.....|", "-----------"]
    api = make_api(room_des(walled, "OBJECT:('/',\"digging\"),(2,2)", hero=(2, 2)), seed=0)
    assert (await run_skill(api, "pickup_useful")).result.success
    pilot = Autopilot()
    key = level_key_of(api.last_stats)  # (branch, level in it), as the autopilot keys levels
    names = {"explore_level", "read_or_zap_to_find_way", "rest_until_healed", "explore_and_fight"}
    pilot.state.explored_levels.add(key)
    pilot.state.failures["explore_level"] = 3  # searched in vain, as in the games
    pilot.state.failed_at["explore_level"] = (await api.get_stats()).turn
    pilot.state.search_rounds[key] = 1  # one round searched in vain: not yet
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name != "read_or_zap_to_find_way", d
    pilot.state.search_rounds[key] = 2
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "read_or_zap_to_find_way" and d.params == {"tried": []}, d


async def test_a_hero_held_at_the_depth_cap_with_no_way_down_known_searches_for_one(make_api):
    """Held on Dlvl 2 at XL 1, a Wizard waited 750 turns where exploring had ended, the
    down stairs behind a hidden door (seed 59): the wait is spent searching instead."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult
    from tests.conftest import room_des

    api = make_api(room_des(["-------", "|.....|", "|.....|", "-------"], "", hero=(2, 1)), seed=0)
    pilot = Autopilot()
    names = {"explore_level", "explore_and_fight", "rest_until_healed"}
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "explore_and_fight", d
    waited = SkillResult(stopped_reason="max_depth", success=True, turns_elapsed=300,
                         data={"stairs_down": None, "lingered": 300, "explored_percentage": 100.0})
    pilot.observe("explore_and_fight", waited, api)
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "explore_level" and d.params.get("stop_at_stairs"), d


async def test_with_the_fighting_skills_just_handed_back_the_hero_hits_the_jackal_instead_of_exploring(make_api):
    """melee_fight and explore_and_fight had just handed back for low HP; the autopilot fell
    through to explore_level, which fought on blindly between a giant spider and a giant
    ant (seed 7). One blow at a time instead."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    des = room_des(["---------", "|.......|", "|.......|", "---------"], "MONSTER:('d',\"jackal\"),(3,1),hostile",
                   hero=(2, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    pilot = Autopilot()
    turn = (await api.get_stats()).turn
    for name in ("melee_fight", "explore_and_fight"):
        pilot.state.failures[name] = 3
        pilot.state.failed_at[name] = turn
    names = {"melee_fight", "explore_and_fight", "explore_level", "rest_until_healed"}
    d = await decide(pilot, api, names, await game_state(api))
    assert d.type == "direct_action" and d.action == "Fl", d


def test_a_healer_goes_no_deeper_than_her_experience_level_and_a_samurai_one_further():
    """Healers, Tourists, Rogues and Priests had median scores of 300-700 over 320 games,
    Samurai, Monks and Rangers 1,900-2,800: the weak roles keep to easier levels."""
    from hackwright.agent.strategists.autopilot import Autopilot

    stats = SimpleNamespace(xp_level=4)
    healer, samurai = Autopilot(), Autopilot()
    healer._role, samurai._role = "Healer", "Samurai"
    healer.dive.DIVE_XL_DEFAULT = samurai.dive.DIVE_XL_DEFAULT = 99  # diving put off: the experience rule holds
    healer.dive.DIVE_XL = samurai.dive.DIVE_XL = {}
    assert healer.max_depth(stats) == 4 and samurai.max_depth(stats) == 5
    assert healer.max_depth(stats, starving=True) == 50  # a starving hero goes on regardless


def test_a_healer_growing_to_her_diving_level_may_go_to_dlvl_3_at_the_first_experience_level():
    """Dlvl 2 holds few monsters to learn from: half the weak heroes took 2,000 turns
    there to reach XL 3, some starving on the way. Dlvl 3 is where they grow."""
    from hackwright.agent.strategists.autopilot import Autopilot

    healer, samurai = Autopilot(), Autopilot()
    healer._role, samurai._role = "Healer", "Samurai"
    healer.dive.DIVE_XL_DEFAULT = samurai.dive.DIVE_XL_DEFAULT = 99  # diving put off
    healer.dive.DIVE_XL = samurai.dive.DIVE_XL = {}
    assert [healer.max_depth(SimpleNamespace(xp_level=xl)) for xl in (1, 2, 3, 4)] == [3, 3, 3, 4]
    assert [samurai.max_depth(SimpleNamespace(xp_level=xl)) for xl in (1, 2)] == [2, 3]


def test_a_tourist_who_waits_1500_turns_on_dlvl_3_without_a_new_level_goes_on_to_dlvl_4():
    """The cap's patience raises the growing floor too: Tourists at XL 1-2 waited 2,000-4,500
    turns on Dlvl 3 (five rounds of "max_depth" past the patience) and died there, because
    the extra level was added to the experience level, which stayed under the floor."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Alignment, HungerState, Stats
    from hackwright.skills.result import SkillResult

    tourist, samurai = Autopilot(), Autopilot()
    tourist._role, samurai._role = "Tourist", "Samurai"
    samurai.dive.DIVE_XL_DEFAULT = 99  # diving put off: the experience rule holds
    stats = Stats(hp=10, max_hp=10, pw=2, max_pw=2, ac=8, xp_level=2, xp_points=25, gold=500, strength=10,
                  dexterity=10, constitution=10, intelligence=10, wisdom=10, charisma=10,
                  hunger=HungerState.NOT_HUNGRY, encumbrance="Unencumbered", alignment=Alignment.NEUTRAL,
                  dungeon_level=3, turn=2000)
    assert tourist.max_depth(stats) == 3 and samurai.max_depth(stats) == 3
    waited = SkillResult(stopped_reason="max_depth", success=True, turns_elapsed=300)
    for pilot in (tourist, samurai):
        for _ in range(5):  # five explorations of Dlvl 3 that stopped at the cap: 1,500 turns
            pilot.observe("explore_and_fight", waited, SimpleNamespace(last_stats=stats))
    assert tourist.max_depth(stats) == 4 and samurai.max_depth(stats) == 4


def test_a_hungry_priest_with_nothing_to_eat_dives_for_food_only_when_no_prayer_is_due():
    """A Hungry Priest at XL 2 dived to Dlvl 8 looking for food with a prayer in hand (one
    fixes Weak hunger) and died there."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Alignment, HungerState, Stats

    pilot = Autopilot()
    pilot._role = "Priest"
    pilot.dive.DIVE_XL_DEFAULT = 99  # diving put off: the experience rule holds
    stats = Stats(hp=20, max_hp=20, pw=5, max_pw=5, ac=7, xp_level=2, xp_points=20, gold=0, strength=14,
                  dexterity=10, constitution=12, intelligence=10, wisdom=16, charisma=10,
                  hunger=HungerState.HUNGRY, encumbrance="Unencumbered", alignment=Alignment.LAWFUL,
                  dungeon_level=3, turn=1000)
    pilot.state.no_food = ("Hungry", (), 0)  # eat_when_hungry found nothing
    pilot._prayer_timeout = 0  # a prayer fills the stomach once Weak: the growing depth holds
    assert pilot._explore(pilot.state, (MAIN_DUNGEON, 3), stats, "explore").params["max_depth"] == 3
    pilot._prayer_timeout = 800  # prayed lately: food must be found
    assert "max_depth" not in pilot._explore(pilot.state, (MAIN_DUNGEON, 3), stats, "explore").params


def test_once_the_mines_are_the_only_way_on_they_are_allowed_below_the_entrance_too():
    """Allowed on the entrance level alone, a Samurai went down into the Mines, climbed
    back out "as no place for this hero yet", and went down again, 566 times (seed 79)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    pilot, api = Autopilot(), SimpleNamespace(hero_race="human")
    assert pilot._avoid_branches(api, pilot.state, ("Gnomish Mines", 1)) == ("Gnomish Mines",)
    pilot.state.mines_ok.add((MAIN_DUNGEON, 3))  # searched Dlvl 3 in vain: only the Mines' stairs lead on
    assert pilot._avoid_branches(api, pilot.state, (MAIN_DUNGEON, 3)) == ()
    assert pilot._avoid_branches(api, pilot.state, ("Gnomish Mines", 1)) == ()  # inside the Mines
    assert pilot._avoid_branches(api, pilot.state, (MAIN_DUNGEON, 2)) == ("Gnomish Mines",)  # other main levels


async def test_a_fainting_hero_with_no_food_prays_though_his_last_prayer_was_recent(make_api):
    """16 of 80 heroes died fainting, most with the prayer "too soon" by the cautious clock;
    starving is certain, and even just after a prayer about one rnz(350) draw in five is low
    enough."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import HungerState
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import starve

    api = make_api(room_des(SMALL_ROOM, hero=(2, 1)), seed=0,
                   role="valkyrie", race="human", gender="female", alignment="neutral")
    for food in [i for i in await api.get_inventory() if i.object_class == "food"]:
        await api.drop(food.slot)
    await starve(api, HungerState.FAINTING, limit=4000)
    api._prayer.record_prayer((await api.get_stats()).turn - 150, succeeded=True)  # as if prayed lately
    assert await api.get_prayer_timeout() > 700
    pilot = Autopilot()
    pilot.state.no_food = ((await api.get_stats()).hunger.value, (), 0)  # eat_when_hungry found nothing
    pilot.state.asked_food = pilot.state.no_food
    d = await decide(pilot, api, {"pray_when_safe", "eat_when_hungry", "explore_and_fight"}, await game_state(api))
    assert d.skill_name == "pray_when_safe" and d.params["max_timeout"] > 5000, d
    # ...but once a prayer has angered the god, no more: each one only angers it further
    # (a Samurai prayed eight times in a row, lost four levels, and met a couatl).
    api._prayer.record_prayer((await api.get_stats()).turn, succeeded=False)
    d = await decide(pilot, api, {"pray_when_safe", "eat_when_hungry", "explore_and_fight"}, await game_state(api))
    assert d.skill_name != "pray_when_safe", d


async def test_a_fainting_hero_with_no_food_prays_before_she_fights_the_jackal_beside_her(make_api):
    """Each faint is turns of helplessness beside the monster: the prayer that starving
    calls for comes before the fight (a Valkyrie at 55 of 70 HP fought a bugbear while
    Fainting, went down a level still fainting, and died beside a straw golem)."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import HungerState
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import starve

    api = make_api(room_des(SMALL_ROOM, "MONSTER:('d',\"jackal\"),(3,1),hostile,asleep", hero=(2, 1)), seed=0,
                   role="valkyrie", race="human", gender="female", alignment="neutral")
    for food in [i for i in await api.get_inventory() if i.object_class == "food"]:
        await api.drop(food.slot)
    await starve(api, HungerState.FAINTING, limit=4000)
    api._prayer.record_prayer((await api.get_stats()).turn - 150, succeeded=True)  # as if prayed lately
    pilot = Autopilot()
    pilot.state.no_food = ((await api.get_stats()).hunger.value, (), 0)  # eat_when_hungry found nothing
    pilot.state.asked_food = pilot.state.no_food
    state = await game_state(api)
    assert any(m.name == "jackal" and m.position.is_adjacent(state["stats"].position) for m in state["monsters"])
    d = await decide(pilot, api, {"pray_when_safe", "eat_when_hungry", "explore_and_fight", "melee_fight"}, state)
    assert d.skill_name == "pray_when_safe" and d.params["max_timeout"] > 5000, d


async def test_an_elbereth_that_held_here_long_ago_is_written_afresh_when_a_soldier_ant_comes(make_api):
    """A Knight rested on Elbereth on this square 100 turns ago; the fights since have
    smudged it. Back on it, hurt beside a soldier ant, he writes it again (heroes fought on
    to their death on such squares). One written a few turns ago counts as tried."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.skills.result import SkillResult

    api = hero_beside(make_api, "('a',\"soldier ant\"),(3,1),hostile", "knight")
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    pilot = Autopilot()
    held = SkillResult(stopped_reason="healed", success=True, actions_taken=3, turns_elapsed=120)
    pilot.observe("engrave_elbereth", held, api)  # written on this square, and rested on
    state = await game_state(api)
    state["stats"] = dataclasses.replace(state["stats"], hp=8)
    d = await decide(pilot, api, names, state)
    assert d.skill_name != "engrave_elbereth", d  # just written: it is there, and the ant is still beside him
    pilot.state.elbereth_turn -= 100
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "engrave_elbereth", d
    pilot.state.elbereth_held = False  # the last one here could not be written, or was ignored
    d = await decide(pilot, api, names, state)
    assert d.skill_name != "engrave_elbereth", d


async def test_a_dying_knight_whose_elbereth_failed_prays_though_he_prayed_150_turns_ago(make_api):
    """With HP at prayer level, a jackal beside him and Elbereth already tried on his square,
    a prayer that may come too soon (rnz(350) is at most 350 half the time) beats an unknown
    potion or a blow; once the god is angry, no more prayers."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('d',\"jackal\"),(3,1),hostile", "knight")
    api._prayer.record_prayer((await api.get_stats()).turn - 150, succeeded=True)  # as if prayed lately
    assert await api.get_prayer_timeout() > 700
    pilot = Autopilot()
    hero = (await api.get_stats()).position
    pilot.state.elbereth_at = (1, hero.x, hero.y)
    state = await game_state(api)
    state["stats"] = dataclasses.replace(state["stats"], hp=2)
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "pray_when_safe" and d.params["max_timeout"] >= 850, d
    api._prayer.record_prayer((await api.get_stats()).turn, succeeded=False)
    d = await decide(pilot, api, names, state)
    assert d.skill_name != "pray_when_safe", d


async def test_a_dying_knight_beside_a_soldier_ant_prays_first_when_his_last_prayer_was_long_ago(make_api):
    """HP at prayer level beside a soldier ant: before his first prayer (turn 1, when it
    would come too soon) or 150 turns after an answered one he writes Elbereth first, but
    500 turns after one the prayer comes first (answered some four times in five by then,
    and the hero is untouchable while it lasts; heroes died writing Elbereth or drinking
    with such a prayer in hand)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('a',\"soldier ant\"),(3,1),hostile", "knight")
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    turn = (await api.get_stats()).turn
    # (None: no prayer yet, and the clock is exact: 300 on turn 1 fails for sure.)
    for since, first in ((None, "engrave_elbereth"), (150, "engrave_elbereth"), (500, "pray_when_safe")):
        if since is not None:
            api._prayer.record_prayer(turn - since, succeeded=True)
        state = await game_state(api)
        state["stats"] = dataclasses.replace(state["stats"], hp=2)
        d = await decide(Autopilot(), api, names, state)
        assert d.skill_name == first, (since, d)


async def test_an_overtaxed_hero_drops_things_before_anything_else_even_beside_a_jackal(make_api):
    """Overtaxed or Overloaded, a hero cannot move, fight or eat (a wererat-bitten Cavewoman
    turned rat under her flint stones starved so): lighten_load first."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.skills.builtin.conftest import CHARACTERS, QUIET, level

    des = level("overloaded_wizard").replace("BRANCH:", "MONSTER:('d',\"jackal\"),(4,2),hostile\nBRANCH:")
    api = make_api(des, seed=0, extra={"options": tuple(o for o in QUIET if not o.startswith("pickup_burden"))},
                   **CHARACTERS["wizard"])
    for _ in range(3):
        res = await api.send_keys(",")
        while res.prompt:
            res = await api.send_keys("y" if "Continue" in res.prompt else ",\r")
    state = await game_state(api)
    assert state["stats"].encumbrance in ("Overtaxed", "Overloaded")
    assert any(m.name == "jackal" for m in state["monsters"])
    pilot = Autopilot()
    names = {"lighten_load", "melee_fight", "explore_and_fight", "engrave_elbereth"}
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "lighten_load", d
    d = await decide(pilot, api, names, state)  # nothing dropped meanwhile: not again and again
    assert d.skill_name != "lighten_load", d


async def test_a_gnome_lord_that_zaps_a_wand_is_closed_in_on_not_waited_out_on_elbereth(make_api):
    """Elbereth does not stop a wand: a Barbarian rested on it while a gnome lord zapped a
    wand of striking at him until he died; five of thirteen strong heroes lost died to wands."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    des = room_des(["---------", "|.......|", "|.......|", "---------"], "MONSTER:('G',\"gnome lord\"),(5,1),hostile",
                   hero=(1, 1))
    api = make_api(des, seed=0, role="barbarian", race="human", gender="male", alignment="neutral")
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    state = await game_state(api)
    state["stats"] = dataclasses.replace(state["stats"], hp=state["stats"].max_hp // 2 - 1)  # hurt
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "engrave_elbereth", d  # hurt with a monster about: rest on Elbereth
    api._note_messages(["The gnome lord zaps a brass wand!  The wand hits you!"])
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "melee_fight" and d.params["target"] == "gnome lord", d
    # HP critical and prayer not safe yet (turn 1): the gnome lord is weak, and the next
    # zap may kill; it is fought to the end rather than waited out
    state["stats"] = dataclasses.replace(state["stats"], hp=max(1, state["stats"].max_hp // 8))
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "melee_fight" and d.params["hp_threshold"] == 0.0, d


async def test_a_hurt_hero_shot_at_closes_in_on_a_gnome_but_steps_out_of_a_soldiers_line(make_api):
    """Elbereth and rest stop no missile: a gnome lord backed off from an Elbereth and shot a
    resting Priestess dead with his crossbow. Hurt and shot at, a Valkyrie closes in on a
    gnome (a cheap fight) but steps out of the line of a soldier's arrows, to a square he
    has no clear shot at, rather than fight him; at critical HP, where one more bolt on
    the way in kills, she steps out of the gnome's line too."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    for shooter, closes_in, critical in (("('G',\"gnome\")", True, False), ("('@',\"soldier\")", False, False),
                                         ("('G',\"gnome\")", False, True)):
        des = room_des(["---------", "|.......|", "|.......|", "|.......|", "---------"],
                       f"MONSTER:{shooter},(5,2),hostile,asleep", hero=(1, 2))
        api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
        names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
        state = await game_state(api)
        name = state["monsters"][0].name
        state["stats"] = dataclasses.replace(state["stats"], hp=1 if critical else state["stats"].max_hp // 2 - 1)
        d = await decide(Autopilot(), api, names, state)
        assert d.skill_name == "engrave_elbereth", d  # not shot at: rest on Elbereth
        api._note_messages([f"The {name} shoots 2 arrows!  You are hit by the 1st arrow."])
        d = await decide(Autopilot(), api, names, state)
        if closes_in:
            assert d.skill_name == "melee_fight" and d.params["target"] == name, (name, d)
        else:
            assert d.type == "direct_action" and d.action in "ykub" and "out of its line" in d.reasoning, (name, d)


async def test_a_hurt_knight_on_the_down_stairs_beside_a_soldier_ant_goes_down_not_engraves(make_api):
    """No engraving can be made on stairs (Elbereth there came back "cannot_engrave" while
    the monster went on biting); the way down is one move, and a diver wants to go there."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    for hp in (3, 7):  # critical (a prayer is not safe yet on turn 1), then merely in danger
        api = hero_beside(make_api, "('a',\"soldier ant\"),(3,1),hostile,asleep", "knight")
        state = await game_state(api)
        hero = state["stats"].position
        state["stats"] = dataclasses.replace(state["stats"], hp=hp, dungeon_level=4)
        state["level"].stairs_down = hero
        pilot = Autopilot()
        d = await decide(pilot, api, names, state)
        # Just arrived (as if up these stairs, the ant with me): no dance on the stairs.
        assert not (d.type == "direct_action" and d.action == ">"), (hp, d)
        pilot.state.seen_level, pilot.state.arrived_turn = level_key_of(api.last_stats), -100
        d = await decide(pilot, api, names, state)
        assert d.type == "direct_action" and d.action == ">", (hp, d)
        # Away from the stairs (the room's up stairs, under the hero, moved off too), Elbereth as before.
        state["level"].stairs_down = Position(hero.x + 2, hero.y + 1)
        state["level"].stairs_up = Position(hero.x + 3, hero.y + 1)
        d = await decide(Autopilot(), api, names, state)
        assert d.skill_name == "engrave_elbereth", (hp, d)


async def test_a_dying_knight_writes_elbereth_beside_a_soldier_ant_but_not_beside_an_elf(make_api):
    """At critical HP with no safe prayer, Elbereth is for monsters that respect it: an elf
    (an @) ignores it, and the turn spent writing is a turn of its blows for nothing (an
    Elvenking and a Woodland-elf killed heroes so, mid-word)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    for monster, writes in (("('a',\"soldier ant\"),(3,1),hostile,asleep", True),
                            ("('@',\"Woodland-elf\"),(3,1),hostile,asleep", False)):
        api = hero_beside(make_api, monster, "knight")
        state = await game_state(api)
        assert [m.name for m in state["monsters"] if not m.is_tame] == [monster.split('"')[1]]
        state["stats"] = dataclasses.replace(state["stats"], hp=3, dungeon_level=4)  # turn 1: no safe prayer
        hero = state["stats"].position
        state["level"].stairs_up = Position(hero.x + 3, hero.y + 1)  # (the room's stairs, out of the way)
        state["level"].stairs_down = Position(hero.x + 2, hero.y + 1)
        d = await decide(Autopilot(), api, names, state)
        assert (d.skill_name == "engrave_elbereth") == writes, (monster, d)


async def test_a_hurt_knight_on_the_up_stairs_beside_a_soldier_ant_goes_up_but_not_from_a_troll(make_api):
    """A soldier ant does not follow across levels (only NetHack's stalkers do): one move up
    the stairs is a sure escape where Elbereth cannot be written, and the ant waits by the
    stairs while the hero heals above. A troll follows, so the stairs are no escape from it.
    One step from the stairs, the hero walks onto them rather than engrave. Stairs just
    taken away from one monster are not taken back to it (a Valkyrie fled a soldier ant
    down the stairs, then a jaguar back up, and met the ant again)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}

    async def hurt_on_stairs(monster, hp, stairs_offset, fled_down=False, just_arrived=False):
        api = hero_beside(make_api, monster, "knight")
        state = await game_state(api)
        hero = state["stats"].position
        state["stats"] = dataclasses.replace(state["stats"], hp=hp, dungeon_level=4)
        state["level"].stairs_up = Position(hero.x + stairs_offset[0], hero.y + stairs_offset[1])
        pilot = Autopilot()
        if not just_arrived:
            pilot.state.seen_level, pilot.state.arrived_turn = level_key_of(api.last_stats), -100
        if fled_down:
            pilot.state.came_from = (api.last_stats.branch, api.last_stats.level_in_branch - 1)
            pilot.state.left_in_danger = (pilot.state.came_from, ">", -90)
        return await decide(pilot, api, names, state)

    for hp in (3, 7):  # critical (no prayer is safe on turn 1), then merely in danger
        d = await hurt_on_stairs("('a',\"soldier ant\"),(3,1),hostile,asleep", hp, (0, 0))
        assert d.type == "direct_action" and d.action == "<", (hp, d)
    d = await hurt_on_stairs("('a',\"soldier ant\"),(3,1),hostile,asleep", 7, (-1, 1))
    assert d.skill_name == "retreat_upstairs" and d.params["force"] is True, d
    # The first decision on a level may come long after the hero arrived (explore_and_fight
    # goes down by itself and hands back when hurt): the stairs are taken at once then too.
    d = await hurt_on_stairs("('a',\"soldier ant\"),(3,1),hostile,asleep", 7, (0, 0), just_arrived=True)
    assert d.type == "direct_action" and d.action == "<", d
    d2 = await hurt_on_stairs("('T',\"troll\"),(3,1),hostile,asleep", 7, (0, 0))
    assert not (d2.type == "direct_action" and d2.action == "<"), d2
    # Just come down these stairs away from another monster: up is back into its reach.
    d3 = await hurt_on_stairs("('a',\"soldier ant\"),(3,1),hostile,asleep", 7, (0, 0), fled_down=True)
    assert not (d3.type == "direct_action" and d3.action == "<"), d3


async def test_a_hero_back_in_her_own_form_goes_back_for_the_armour_she_slipped_out_of(make_api):
    """A lycanthrope turning into a rat drops its armour and sword where it stands; three
    heroes prayed themselves back into human form and fought on at AC 10 until they died."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    des = room_des(["---------", "|.......|", "|.......|", "---------"], hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    names = {"explore_and_fight", "pickup_useful", "go_to", "rest_until_healed"}
    where = (await api.get_stats()).position
    api._note_messages(["You turn into a wererat!  Your armor falls around you!",
                        "You shrink out of your cloak!  You find you must drop your sword!"])
    assert await api.shed_gear_spot() is None  # still a rat: nothing to do about it yet
    assert (await api.move("e")).success
    api._note_messages(["You feel purified.", "You return to human form!"])
    assert await api.shed_gear_spot() == where
    d = await decide(Autopilot(), api, names, await game_state(api))
    assert d.skill_name == "go_to" and (d.params["x"], d.params["y"]) == (where.x, where.y), d
    assert (await api.move("w")).success
    pilot = Autopilot()
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "pickup_useful" and "changed form" in d.reasoning, d
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name != "pickup_useful" or "changed form" not in d.reasoning, d  # once
    assert (await api.move("e")).success
    assert await api.shed_gear_spot() is None  # stood there and left: done


async def test_a_hurt_knight_strikes_a_lone_jackal_but_writes_elbereth_beside_two(make_api):
    """Writing Elbereth takes a turn of the monster's blows anyway, and leaves it waiting
    close by: a lone monster that a blow or two likely kills, and whose worst turn the
    hero outlives, is struck instead. Two of them, or one that could kill in a turn, still
    get Elbereth."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    for monsters, strikes in (("('d',\"jackal\"),(3,1),hostile,asleep", True),
                              ("('d',\"jackal\"),(3,1),hostile,asleep\nMONSTER:('d',\"jackal\"),(3,2),hostile,asleep",
                               False),
                              ("('a',\"soldier ant\"),(3,1),hostile,asleep", False)):
        api = hero_beside(make_api, monsters, "knight")
        state = await game_state(api)
        # (6 HP of 16: in danger, not yet critical, where a prayer or Elbereth comes first)
        state["stats"] = dataclasses.replace(state["stats"], hp=6, dungeon_level=4)
        state["level"].stairs_up = None  # (no way up: the room's stairs are under the hero)
        d = await decide(Autopilot(), api, names, state)
        if strikes:
            assert d.type == "direct_action" and d.action == "Fl", (monsters, d)
        else:
            assert d.skill_name == "engrave_elbereth", (monsters, d)


async def test_a_hurt_knight_fights_on_against_a_lone_homunculus_the_whole_fight_costs_little(make_api):
    """Not killed in a blow or two, but its whole fight likely costs the hero under 40% of
    the HP he has (nh.fight_odds), and its worst turn cannot kill him: fighting on ends it
    sooner than Elbereth and a rest, after which it is still there."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    api = hero_beside(make_api, "('i',\"homunculus\"),(3,1),hostile,asleep", "knight")
    odds = await api.fight_odds((await api.get_adjacent_monsters())[0])
    assert odds.turns_to_kill > 1.5 and odds.expected_damage < 0.4 * 6, odds
    state = await game_state(api)
    state["stats"] = dataclasses.replace(state["stats"], hp=6, dungeon_level=4)  # in danger: under 40% of 16
    d = await decide(Autopilot(), api, names, state)
    assert d.type == "direct_action" and d.action == "Fl", d


async def test_a_hurt_knight_walks_away_from_a_slow_rothe_but_not_with_a_soldier_ant_close_behind(make_api):
    """Walking away from a slower monster beats Elbereth; a fast one two squares off
    catches up and bites the hero's back (a Ranger walking from a rope golem died so),
    and a rope golem, slow as it is, holds the hero fast in its hug (three heroes died
    "walking away" from one)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    from tests.conftest import room_des

    for slow, others, walks in (("('q',\"rothe\")", "", True),
                                ("('q',\"rothe\")", "\nMONSTER:('a',\"soldier ant\"),(6,2),hostile,asleep", False),
                                ("(''',\"rope golem\")", "", False)):
        # (The up stairs four steps behind the hero: from three or fewer, it would simply take them.)
        des = room_des(["-----------", "|.........|", "|.........|", "-----------"],
                       "MONSTER:" + slow + ",(6,1),hostile,asleep" + others.replace("(6,2)", "(8,2)"), hero=(5, 1))
        api = make_api(des, seed=0, role="knight", race="human", gender="male", alignment="lawful")
        state = await game_state(api)
        assert any(m.position.is_adjacent(state["stats"].position) for m in state["monsters"]), slow
        hero = state["stats"].position
        state["stats"] = dataclasses.replace(state["stats"], hp=12, dungeon_level=4)
        state["level"].stairs_up = Position(hero.x - 4, hero.y + 1)
        d = await decide(Autopilot(), api, names, state)
        assert (d.skill_name == "retreat_upstairs") == walks, (slow, others, d)


async def test_a_hurt_knight_walks_away_from_a_rothe_only_when_it_does_not_stand_in_the_one_gap_on_the_way(make_api):
    """The walk to the up stairs must start out of the slow monster's reach and go round
    it: a rothe in the only gap between the hero and the stairs is passed within its
    reach, though as the crow flies it stands farther from the stairs than he does (a
    Tourist walked past a kobold lord in a room's only door and died of the blow)."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position
    from tests.conftest import room_des

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    # Iron bars (F) wall off a strip on the left that only the top row reaches, and let the
    # hero see into it; the up stairs are at the strip's bottom.
    rows = ["------------", "|..........|"] + ["|..F.......|"] * 5 + ["------------"]
    for rothe, walks in (((3, 1), False), ((5, 2), True)):
        des = room_des(rows, f"MONSTER:('q',\"rothe\"),{rothe},hostile,asleep", hero=(4, 2))
        api = make_api(des, seed=0, role="knight", race="human", gender="male", alignment="lawful")
        state = await game_state(api)
        hero = state["stats"].position
        assert any(m.position.is_adjacent(hero) for m in state["monsters"]), rothe
        state["stats"] = dataclasses.replace(state["stats"], hp=12, dungeon_level=4)
        state["level"].stairs_up = Position(hero.x - 3, hero.y + 4)
        d = await decide(Autopilot(), api, names, state)
        assert (d.skill_name == "retreat_upstairs") == walks, (rothe, d)


async def test_a_hurt_knight_beside_a_soldier_ant_walks_to_up_stairs_three_steps_behind_him_not_past_it(make_api):
    """Stairs a few steps away beat Elbereth (written, the ant still bites in the turn one
    time in four, and waits by it): a level between hero and ant. Not when the ant is
    nearer to the stairs than the hero: it would bite all the way there."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position
    from tests.conftest import room_des

    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    des = room_des(["-----------", "|.........|", "|.........|", "-----------"],
                   "MONSTER:('a',\"soldier ant\"),(6,1),hostile,asleep", hero=(5, 1))
    for dx, goes in ((-3, True), (+3, False)):
        api = make_api(des, seed=0, role="knight", race="human", gender="male", alignment="lawful")
        state = await game_state(api)
        hero = state["stats"].position
        state["stats"] = dataclasses.replace(state["stats"], hp=7, dungeon_level=4)
        state["level"].stairs_up = Position(hero.x + dx, hero.y + 1)
        d = await decide(Autopilot(), api, names, state)
        if goes:
            assert d.skill_name == "retreat_upstairs" and d.params == {"force": True, "max_steps": 6}, d
        else:
            assert d.skill_name == "engrave_elbereth", d


async def test_on_the_mines_levels_a_starting_knight_hunts_dwarves_for_a_pick_and_a_tourist_never(make_api):
    """Whether a hero takes on a dwarf (d8 + a d12 mattock a hit) is the fight's likely cost
    against its full HP (nh.fight_odds) where the Gnomish Mines branch off (Dlvl 2-4), not
    its role alone. A starting Knight's or Valkyrie's long sword wins there at a cost of
    about half the hero's HP (DWARF_FIGHT_SHARE; held to a third, they left the Mines at
    XL 1 and seldom came back with a pick), a Monk's martial arts more cheaply, a
    Tourist's bare hands never."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot

    fit = {}
    for role, gender, alignment in (("monk", "male", "neutral"), ("valkyrie", "female", "neutral"),
                                    ("knight", "male", "lawful"), ("tourist", "female", "neutral")):
        api = make_api(seed=0, role=role, race="human", gender=gender, alignment=alignment)
        pilot = Autopilot()
        pilot._role, pilot._inventory = api.hero_role, await api.get_inventory()
        stats = dataclasses.replace(await api.get_stats(), dungeon_level=3)
        grown = dataclasses.replace(stats, xp_level=2, hp=stats.max_hp + 7, max_hp=stats.max_hp + 7)
        fit[role] = (pilot.fit_for_dwarves(stats), pilot.fit_for_dwarves(grown))
    assert fit == {"monk": (True, True), "valkyrie": (True, True), "knight": (True, True),
                   "tourist": (False, False)}, fit


async def test_a_hero_without_a_pick_looks_under_a_killed_dwarfs_corpse_for_his_pick_axe(make_api):
    """A pile shows its top object only, and a dwarf's corpse lies on top of what he
    carried: heroes killed ten dwarves in a game and walked past every pick-axe."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import run_skill

    des = room_des(["---------", "|.......|", "|.......|", "---------"],
                   "MONSTER:('h',\"dwarf\"),(3,1),hostile\nOBJECT:('(',\"pick-axe\"),(3,1)", hero=(2, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    fight = (await run_skill(api, "melee_fight", target="dwarf")).result
    assert fight.stopped_reason == "target_dead", fight
    pilot = Autopilot()
    pilot.observe("melee_fight", fight, api)
    names = {"go_to", "pickup_useful", "explore_and_fight", "rest_until_healed", "melee_fight"}
    d = await decide(pilot, api, names, await game_state(api))
    where = (await api.recent_kills())[-1].position
    assert d.skill_name == "go_to" and (d.params["x"], d.params["y"]) == (where.x, where.y), d
    pilot.observe("go_to", (await run_skill(api, "go_to", **d.params)).result, api)
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "pickup_useful", d
    pilot.observe("pickup_useful", (await run_skill(api, "pickup_useful")).result, api)
    assert any("pick-axe" in i.text for i in await api.get_inventory())
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name not in ("go_to", "pickup_useful"), d  # looked once: the game goes on


async def test_a_gas_spore_beside_the_hero_at_a_corridors_bend_is_walked_away_from_then_shot(make_api):
    """A gas spore next to the hero explodes when killed, and at a corridor's bend there is
    no square straight back to shoot from: heroes shot at it 145 times over 10,000 turns
    (each volley stopping "target_adjacent") and starved."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import run_skill

    des = room_des(["-------      ", "|.....|      ", "|.....+####  ", "|.....|   #  ", "-------   #  ",
                    "          #  ", "          #  "],
                   "MONSTER:('e',\"gas spore\"),(10,3),hostile,asleep", hero=(10, 2))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    shot = (await run_skill(api, "ranged_attack", target="gas spore", max_throws=10)).result
    assert shot.stopped_reason == "target_adjacent", shot
    pilot = Autopilot()
    pilot.state.last_result = shot
    names = {"go_to", "melee_fight", "rest_until_healed", "explore_and_fight", "ranged_attack", "explore_level"}
    state = await game_state(api)
    d = await decide(pilot, api, names, state)
    assert d.skill_name == "go_to", d  # away first: no volley from where it cannot be shot
    spore = next(m.position for m in state["monsters"] if m.name == "gas spore")
    assert Position(d.params["x"], d.params["y"]).steps_to(spore) >= 6


async def test_a_healer_with_her_starting_gold_in_a_temple_buys_protection_once_per_level(make_api):
    """Most heroes die at their starting AC; a Healer carries 1,000-2,000 gold, and a temple
    priest sells protection at 400 gold a level: AC 2-4 better the first time, 1 after."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import run_skill

    temple = room_des(["-----------", "|.........|", "|.........|", "|.........|", "-----------"],
                      'REGION:(1,1,9,3),lit,"temple"\nALTAR:(5,2),chaos,shrine', hero=(2, 2))
    api = make_api(temple, seed=0, role="healer", race="human", gender="female", alignment="neutral")
    before = await api.get_stats()
    pilot = Autopilot()
    names = {"buy_protection", "explore_and_fight", "rest_until_healed", "pickup_useful"}
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name == "buy_protection", d
    bought = (await run_skill(api, "buy_protection")).result
    after = await api.get_stats()
    assert bought.success and bought.data["donations"] == before.gold // 400, bought
    assert after.gold == before.gold % 400
    assert before.ac - after.ac >= 2 + bought.data["donations"] - 1
    d = await decide(pilot, api, names, await game_state(api))
    assert d.skill_name != "buy_protection", d  # once per level (and the gold is gone)

    poor = make_api(temple, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    res = (await run_skill(poor, "buy_protection")).result
    assert res.stopped_reason == "too_poor" and res.data["price"] == 400, res



async def test_a_starting_healer_drinks_her_spare_healing_potions_before_exploring(make_api):
    """A Healer starts with about 12 HP and eight healing potions: drunk at full HP, all but
    two raise her maximum for good (about 8 HP). A Valkyrie, with none, explores at once."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.skills.builtin.conftest import level

    names = {"drink_for_max_hp", "explore_and_fight", "rest_until_healed", "pickup_useful"}
    healer = make_api(level("empty_room"), seed=1, role="healer", race="human", gender="female",
                      alignment="neutral")
    d = await decide(Autopilot(), healer, names, await game_state(healer))
    assert d.skill_name == "drink_for_max_hp" and d.params == {"keep": 2}, d
    valkyrie = make_api(level("empty_room"), seed=1, role="valkyrie", race="human", gender="female",
                        alignment="neutral")
    d = await decide(Autopilot(), valkyrie, names, await game_state(valkyrie))
    assert d.skill_name == "explore_and_fight", d


async def test_a_monk_who_knows_healing_explores_ready_to_cast_it_and_one_who_knows_protection_not(make_api):
    """A Monk starts knowing one spell of three (healing, protection or sleep): the autopilot
    reads them (nh.get_spells) and lets explore_and_fight heal with the healing spell, as
    every Healer does; a Wizard's force bolt is the attack spell."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.skills.builtin.conftest import level

    names = {"explore_and_fight", "rest_until_healed", "pickup_useful"}
    for seed, heals in ((1, True), (0, False)):
        monk = make_api(level("empty_room"), seed=seed, role="monk", race="human", gender="male",
                        alignment="neutral")
        known = [s.name for s in await monk.get_spells()]
        assert known == (["healing"] if heals else ["protection"]), known
        d = await decide(Autopilot(), monk, names, await game_state(monk))
        assert d.skill_name == "explore_and_fight", d
        assert d.params.get("heal_spell") == ("a" if heals else None) and "attack_spell" not in d.params, d
    wizard = make_api(level("empty_room"), seed=0, role="wizard", race="human", gender="male", alignment="neutral")
    d = await decide(Autopilot(), wizard, names, await game_state(wizard))
    assert d.params.get("attack_spell") == "a" and "heal_spell" not in d.params, d


async def test_a_hurt_hero_in_an_open_door_never_steps_on_a_slant_to_the_down_stairs(make_api):
    """NetHack refuses a diagonal step out of a door ("You can't move diagonally out of an
    intact doorway"): a Healer in a door pressed that step beside a kitten, turn after turn,
    until it killed her. Stairs straight ahead are still taken."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from hackwright.api import Position
    from tests.conftest import room_des

    rows = ["-------", "|.....|", "|.....|..", "-------"]
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe",
             "retreat_upstairs", "quaff_or_zap_to_survive"}
    api = make_api(room_des(rows, "DOOR:open,(6,2)\nMONSTER:('a',\"soldier ant\"),(7,2),hostile,asleep",
                            hero=(5, 2)), seed=0, role="knight", race="human", gender="male", alignment="lawful")
    assert (await api.move("e")).success  # into the open door, the ant beyond it
    state = await game_state(api)
    door = state["stats"].position
    assert state["level"].tile_at(door).feature == "open door"
    state["stats"] = dataclasses.replace(state["stats"], hp=7, dungeon_level=4)  # in danger, not critical
    state["level"].stairs_up = None

    async def decision(stairs):
        state["level"].stairs_down = stairs
        pilot = Autopilot()
        pilot.state.seen_level, pilot.state.arrived_turn = level_key_of(api.last_stats), -100
        return await decide(pilot, api, names, state)

    slant = await decision(Position(door.x - 1, door.y - 1))
    assert not (slant.type == "direct_action" and slant.action == "y"), slant
    straight = await decision(Position(door.x - 1, door.y))
    assert straight.type == "direct_action" and straight.action == "h", straight


async def test_a_stalled_hero_beside_a_jackal_strikes_it_instead_of_searching_unless_on_elbereth(make_api):
    """When three decisions pass with the clock standing still, time must pass: a search
    lets the monster beside the hero bite for free, a blow may kill it. From an Elbereth
    written on this square the hero searches (a blow would smudge it)."""
    from hackwright.agent.strategists.autopilot import Autopilot

    api = hero_beside(make_api, "('d',\"jackal\"),(3,1),hostile,asleep", "knight")
    state = await game_state(api)
    names = {"melee_fight", "explore_and_fight", "engrave_elbereth", "rest_until_healed"}

    async def fourth(pilot):
        for _ in range(3):
            await decide(pilot, api, names, state)
        return await decide(pilot, api, names, state)

    d = await fourth(Autopilot())
    assert d.type == "direct_action" and d.action == "Fl" and "strike it" in d.reasoning, d
    pilot = Autopilot()
    stats = state["stats"]
    pilot.state.elbereth_at = (stats.dungeon_level, stats.position.x, stats.position.y)
    d = await fourth(pilot)
    assert d.type == "direct_action" and d.action == "s", d


async def test_a_knight_at_a_fifth_of_his_hp_prays_as_nethack_counts_it_major_trouble(make_api):
    """NetHack 3.6 answers a prayer for low HP at HP <= 5 or at most 1/5 of max HP at XL 1-5
    (1/6 at XL 6-13, 1/7 from XL 14; pray.c critically_low_hp). The old 1/7 rule left a hero
    at 8 of 40 HP fighting on with a safe prayer in hand."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    api = make_api(room_des(SMALL_ROOM, hero=(2, 1)), seed=0, role="knight", race="human",
                   gender="male", alignment="lawful")
    while (await api.get_stats()).turn < 110:  # past the first 100 turns: the prayer timeout is under 200
        assert (await api.search(20)).success
    assert await api.get_prayer_timeout() <= 200
    names = {"engrave_elbereth", "melee_fight", "rest_until_healed", "explore_and_fight", "pray_when_safe"}
    state = await game_state(api)
    state["stats"] = dataclasses.replace(state["stats"], hp=8, max_hp=40, xp_level=4)
    assert state["stats"].hp_critical
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name == "pray_when_safe" and "critical" in d.reasoning, d
    state["stats"] = dataclasses.replace(state["stats"], xp_level=7)  # 8 * 6 > 40: not critical at XL 7
    d = await decide(Autopilot(), api, names, state)
    assert d.skill_name != "pray_when_safe", d


async def test_a_healer_puts_a_rothe_to_sleep_before_the_fight_but_fights_a_newt(make_api):
    """Healers fight feebly and carry a wand of sleep they used only at critical HP, when a
    rothe's three bites often came first. A fight she likely loses half her HP in starts
    with the ray (the asleep rule then kills the rothe where it cannot strike back); a
    newt is fought as ever, and a peaceful beside her is never zapped."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    room = ["----------", "|........|", "|........|", "|........|", "|........|", "|........|",
            "|........|", "|........|", "----------"]
    names = {"quaff_or_zap_to_survive", "explore_and_fight", "melee_fight", "engrave_elbereth"}
    for monster, sleeps in (("('q',\"rothe\"),(2,6),hostile", True), ("(':',\"newt\"),(2,6),hostile", False),
                            ("('q',\"rothe\"),(2,6),peaceful", False)):
        # The hero at (1, 7), the monster up and to the right of her: the ray runs on the
        # slant, into the room, and cannot bounce straight back.
        des = room_des(room, f"MONSTER:{monster}", hero=(1, 7))
        api = make_api(des, seed=0, role="healer", race="human", gender="female", alignment="neutral")
        d = await decide(Autopilot(), api, names, await game_state(api))
        if sleeps:
            assert d.skill_name == "quaff_or_zap_to_survive" and d.params == {"heal_below": 0.0}, d
            assert "sleep" in d.reasoning
        else:
            assert d.skill_name != "quaff_or_zap_to_survive", (monster, d)


async def test_a_healer_whose_ray_holds_a_rothe_spares_it_when_she_zaps_again(make_api):
    """The wand skill aims at the most dangerous monster beside the hero, which may be
    the one a sleep ray already holds (a Healer zapped a sleeping gecko five times while a
    sewer rat bit her to death): the autopilot names the sleepers to spare."""
    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des

    room = ["----------", "|........|", "|........|", "|........|", "|........|", "|........|",
            "|........|", "|........|", "----------"]
    des = room_des(room, "MONSTER:('q',\"rothe\"),(2,6),hostile\nMONSTER:('r',\"sewer rat\"),(2,7),hostile",
                   hero=(1, 7))
    api = make_api(des, seed=0, role="healer", race="human", gender="female", alignment="neutral")
    pilot = Autopilot()
    state = await game_state(api)
    pilot.state.asleep["rothe"] = state["stats"].turn + 12
    state["stats"].hp = 2  # critical: the wand, not a fight
    d = await decide(pilot, api, {"quaff_or_zap_to_survive", "explore_and_fight", "melee_fight"}, state)
    assert d.skill_name == "quaff_or_zap_to_survive" and d.params.get("spare") == ["rothe"], d


async def test_a_diving_tourist_reads_a_scroll_of_magic_mapping_on_each_deep_level_with_no_way_down_known(make_api):
    """A Tourist starts with four scrolls of magic mapping. Read on arrival at a level from
    Dlvl 4 down, one puts the down stairs on the map at once, where looking for them costs
    hundreds of turns among that level's monsters. Exploring hands back on each new level
    while she carries one; on the first levels she explores as before."""
    import dataclasses

    from hackwright.agent.strategists.autopilot import Autopilot
    from tests.conftest import room_des
    from tests.skills.builtin.conftest import run_skill

    api = make_api(room_des(SMALL_ROOM, hero=(2, 1)), seed=0, role="tourist", race="human", gender="female",
                   alignment="neutral")
    names = {"read_or_zap_to_find_way", "explore_and_fight", "explore_level", "descend"}
    state = await game_state(api)
    assert any("magic mapping" in i.text for i in state["inventory"])
    pilot = Autopilot()
    shallow = dataclasses.replace(state["stats"], xp_level=3, dungeon_level=2, level_in_branch=2)
    d = await decide(pilot, api, names, dict(state, stats=shallow))
    assert d.skill_name == "explore_and_fight" and d.params.get("stop_on_new_level"), d
    deep = dataclasses.replace(state["stats"], xp_level=3, dungeon_level=4, level_in_branch=4)
    d = await decide(pilot, api, names, dict(state, stats=deep))
    assert d.skill_name == "read_or_zap_to_find_way", d
    r = (await run_skill(api, d.skill_name, **d.params)).result
    assert r.stopped_reason == "used" and "magic mapping" in r.data["item"], r
    assert any("map coalesces" in m for m in r.data["messages"]), r
    d = await decide(pilot, api, names, dict(state, stats=deep))
    assert d.skill_name != "read_or_zap_to_find_way", d  # one scroll a level

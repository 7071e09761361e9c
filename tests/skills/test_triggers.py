"""Event interrupts: a skill declares what stops it; the runner stops it at the next action."""

from __future__ import annotations

import pytest

from hackwright.api import NetHackAPI
from hackwright.env import GameConfig
from hackwright.sandbox import errors
from hackwright.sandbox.runner import SandboxLimits, SkillRunner
from hackwright.skills.triggers import declared_triggers
from tests.conftest import room_des

# Two rooms joined by a corridor; a jackal sleeps in the far room, out of sight.
TWO_ROOMS = [
    "-----           -----",
    "|...|           |...|",
    "|...+###########+...|",
    "|...|           |...|",
    "-----           -----",
]
JACKAL = room_des(TWO_ROOMS, "DOOR:open,(4,2)\nDOOR:open,(16,2)\nMONSTER:('d',\"jackal\"),(18,2),asleep",
                  hero=(1, 1))

EXPLORE = '''
TRIGGERS = ("monster",)

async def wander(nh, budget: int = 200):
    """Walk to frontiers, never looking at monsters: the trigger does that."""
    steps = 0
    while steps < budget:
        target = await nh.find_unexplored()
        if target is None:
            return SkillResult("fully_explored", {}, steps, 0, True)
        await nh.move_to(target)
        steps += 1
    return SkillResult("budget", {}, steps, 0, False)
'''


@pytest.fixture(params=["inprocess", "sandbox"])
def runner(request):
    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0", des_file=JACKAL, seed=2))
    r = SkillRunner(api, mode=request.param, limits=SandboxLimits(wall_seconds=20))
    yield r
    r.close()
    api.close()


def test_a_skill_file_declares_its_triggers():
    assert declared_triggers(EXPLORE) == ("monster",)
    assert declared_triggers("async def s(nh):\n    pass\n") == ()


async def test_a_monster_coming_into_view_interrupts_exploration(runner):
    out = await runner.run(EXPLORE)
    assert out.result.stopped_reason == "interrupted:monster", out.result
    assert out.result.data["monsters"] == ["jackal"]
    assert 0 < out.actions < 60 and not out.result.success


async def test_a_skill_that_handles_the_event_itself_is_not_stopped_but_can_read_it(runner):
    code = EXPLORE.replace('''        target = await nh.find_unexplored()''', '''        events = await nh.get_events()
        if any(e.kind == "monster" for e in events):
            return SkillResult("saw_monster", {"kinds": [e.kind for e in events]}, steps, 0, True)
        target = await nh.find_unexplored()''')
    out = await runner.run(code, handle=("monster",))
    assert out.result.stopped_reason == "saw_monster"


async def test_hunger_interrupts_a_long_wait(runner):
    code = '''
TRIGGERS = ("hunger",)
async def wait_long(nh):
    for _ in range(100):
        await nh.search(50)
    return SkillResult("waited", {}, 100, 0, True)
'''
    out = await runner.run(code, limits=SandboxLimits(wall_seconds=60))
    assert out.result.stopped_reason == "interrupted:hunger"
    assert out.result.data["hunger"] == "Hungry"


async def test_events_not_declared_do_not_stop_a_skill(runner):
    out = await runner.run(EXPLORE, triggers=())
    assert out.result.stopped_reason in ("fully_explored", "budget")


async def test_an_unknown_trigger_name_is_a_clear_error(runner):
    with pytest.raises(errors.SkillValidationError, match="monster"):
        await runner.run(EXPLORE, triggers=("dragons",))


async def _run_with_the_loops_stops(des: str, code: str, always_stop=("very_low_hp", "deadly"), seed: int = 0,
                                    **character):
    """Run ``code`` on the MiniHack level ``des`` (no pet) with the events the agent loop
    stops every skill at (TriggerConfig.always_stop); returns the run's outcome and, read
    before the game closes, the hero's stats, status effects and whether the game is over."""
    from hackwright.skills.triggers import TriggerConfig

    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0", des_file=des, seed=seed,
                                         extra={"pet": False}, **character))
    runner = SkillRunner(api, mode="inprocess")
    try:
        out = await runner.run(code, trigger_config=TriggerConfig(always_stop=always_stop))
        return out, await api.get_stats(), await api.get_status_effects(), api.game_over
    finally:
        runner.close()
        api.close()


async def test_a_skill_that_ignores_two_biting_jackals_is_stopped_at_prayer_level_hp_not_at_death():
    """The agent loop stops every skill at very_low_hp (TriggerConfig.always_stop), declared or not."""
    room = ["-------", "|.....|", "|.....|", "|.....|", "-------"]
    des = room_des(room, "MONSTER:('d',\"jackal\"),(3,1),hostile\nMONSTER:('d',\"jackal\"),(3,3),hostile",
                   hero=(3, 2))
    code = '''
async def stand_there(nh):
    for _ in range(400):
        await nh.search()
    return SkillResult("waited", {}, 400, 0, True)
'''
    out, s, _, over = await _run_with_the_loops_stops(des, code, always_stop=("very_low_hp",), seed=1)
    assert out.result.stopped_reason == "interrupted:very_low_hp", out.result
    assert 0 < s.hp and s.hp_critical and not over


ROOM_3X3 = ["-----", "|...|", "|...|", "|...|", "-----"]


async def _deadly_stop(monster_or_object: str, code: str, condition: str, seed: int = 0, **character) -> None:
    """Run ``code`` in the 3x3 room (hero in the middle) with the loop's always-stop events,
    and check it is stopped by the "deadly" event for ``condition``, the hero alive."""
    des = room_des(ROOM_3X3, monster_or_object, hero=(2, 2))
    out, _, effects, over = await _run_with_the_loops_stops(des, code, seed=seed, **character)
    assert out.result.stopped_reason == "interrupted:deadly", out.result
    assert out.result.data["conditions"] == [condition]
    assert condition in effects and not over


async def test_eating_a_newt_corpse_left_180_turns_is_deadly_and_stops_the_skill_at_once():
    """Food poisoning kills within turns: the loop stops every skill on the "deadly" event."""
    code = '''
async def eat_old_newt(nh):
    for _ in range(3):  # 180 turns: always tainted (and not yet rotted away, at 250)
        await nh.search(60)
    await nh.move("e")
    await nh.eat()
    for _ in range(100):
        await nh.search()
    return SkillResult("survived", {}, 106, 0, True)
'''
    await _deadly_stop("OBJECT:('%',\"corpse\"),(3,2),montype:\"newt\"", code, "Food poisoned", seed=3)


async def test_a_wererat_bite_that_brings_lycanthropy_stops_the_skill_at_once():
    """"You feel feverish": the hero will turn into a rat unless cured, so the loop stops
    every skill on the "deadly" event, while a prayer can still come first."""
    code = '''
async def stand_and_wait(nh):
    for _ in range(200):
        await nh.search()
    return SkillResult("waited", {}, 200, 0, True)
'''
    await _deadly_stop("MONSTER:('r',\"wererat\"),(3,2),hostile,awake", code, "Lycanthropy", seed=2,
                       role="valkyrie", race="human", gender="female", alignment="neutral")


async def test_a_vault_guard_coming_stops_a_skill_searching_in_the_vault_at_once():
    """The guard attacks a hero who has not followed him within about six turns: the loop
    stops every skill when he comes ("deadly"), so follow_vault_guard can be called."""
    from pathlib import Path

    des = (Path(__file__).resolve().parents[1] / "levels" / "gold_vault.des").read_text()
    code = '''
async def search_the_walls(nh):
    for _ in range(100):
        await nh.search()
    return SkillResult("searched", {}, 100, 0, True)
'''
    out, s, _, over = await _run_with_the_loops_stops(des, code)
    assert out.result.stopped_reason == "interrupted:deadly", out.result
    assert out.result.data["conditions"] == ["Vault guard"]
    assert 30 <= s.turn <= 33 and not over

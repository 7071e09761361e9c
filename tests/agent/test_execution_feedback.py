"""After a skill runs, the next prompt says what happened inside it — whole episodes on
real MiniHack levels, the model a scripted server on 127.0.0.1 speaking the OpenAI wire
format: the failed actions grouped by what went wrong, progress against the turns the
game counted, the result's data, the end of what the skill printed, the state it left
the hero in, and what became of a created skill."""

from __future__ import annotations

import json
import re

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.skills.library import SkillLibrary

from tests.conftest import room_des
from .fake_model_server import FakeModelServer, Reply

# The hero starts on the up stairs at (3,2), a locked door east of it.
LOCKED = ["-----------",
          "|...|.....|",
          "|...+.....|",
          "|...|.....|",
          "-----------"]
SEARCH = Reply(tool_input={"action": "direct", "key": "s", "reasoning": "wait a turn"})

PUSH = '''async def push_east(nh, times=50):
    """Walk east, however often it fails."""
    actions = 0
    for _ in range(times):
        await nh.move("e")
        actions += 1
    await nh.search(5)
    return SkillResult("pushed", {"found": 3, "door": "east"}, actions + 1, 0, True)
'''

CHATTY = '''async def chatty(nh):
    """Print a lot, then stop."""
    for i in range(100):
        print(f"looked at square {i}")
    return SkillResult("done", {}, 0, 0, True)
'''

BROKEN = '''async def count_steps(nh):
    """Count the squares walked, printing each."""
    for i in range(30):
        print(f"step {i} of the walk")
    raise ValueError("the door is stuck")
'''
FIXED = BROKEN.replace('raise ValueError("the door is stuck")', 'return SkillResult("walked", {}, 0, 0, True)')

BLOCKED = '''async def give_up(nh):
    """Try once and report being blocked."""
    await nh.move("e")
    return SkillResult("blocked", {"why": "locked door"}, 1, 0, False)
'''

DIG = '''async def take_the_pick(nh):
    """Pick up the pick-axe underfoot and wield it."""
    await nh.pickup()
    inv = await nh.get_inventory()
    pick = [i for i in inv if "pick-axe" in i.name]
    if not pick:
        return SkillResult("no_pick", {}, 1, 0, False)
    await nh.wield(pick[0].slot)
    return SkillResult("wielded", {"slot": pick[0].slot}, 2, 0, True)
'''


def create(name: str, code: str, why: str = "try it") -> Reply:
    decision = {"action": "create", "name": name, "category": "general", "description": f"{name} skill",
                "params": {}, "reasoning": why}
    return Reply(text=f"{json.dumps(decision)}\n```python\n{code}```\n")


def invoke(name: str) -> Reply:
    return Reply(tool_input={"action": "invoke", "skill": name, "params": {}, "reasoning": "again"})


def user_prompt(body: dict) -> str:
    return body["messages"][-1]["content"]


def executions(prompt: str) -> str:
    return prompt.split("LAST SKILL EXECUTIONS:", 1)[1].split("\n\n", 1)[0]


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


def episode(tmp_path, server: FakeModelServer, steps: int, rows=LOCKED, extra: str = "") -> EpisodeConfig:
    return EpisodeConfig(seed=5, llm=f"openai:scripted@{server.openai_base_url}", max_steps=steps,
                         db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                         env_id="MiniHack-Navigation-Custom-v0",
                         des_file=room_des(rows, "DOOR:locked,(4,2)\n" + extra, hero=(3, 2)),
                         backend_options={"timeout": 30.0, "max_retries": 0, "api_key": "k"})


async def test_a_skill_pushing_at_a_locked_door_50_times_shows_the_failures_grouped_and_no_progress(tmp_path, server):
    server.script(create("push_east", PUSH), SEARCH)
    summary = await Agent(episode(tmp_path, server, steps=2)).run()
    assert summary.decisions == 2
    first, second = (user_prompt(b) for b in server.bodies("/v1/chat/completions"))
    assert "This door is locked" not in executions(first)
    shown = executions(second)
    # the 50 pushes in one group, out of the 51 actions the runner saw
    assert "failed actions, 50 of 51: 50 × move: This door is locked." in shown
    # the game's own turn count (the skill claimed 0), and what the turns bought: nothing
    assert "push_east() -> pushed (ok, 51 actions, 0 turns)" in shown
    progress = re.search(r"(\d+) turns: \+0 squares, Dlvl 1→1, XL 1→1, HP (\d+)→(\d+)", shown)
    assert progress is not None, shown
    assert int(progress.group(1)) >= 5
    assert "data: {'found': 3, 'door': 'east'}" in shown
    assert "saved as version 1 of push_east" in shown


async def test_a_skill_that_prints_100_lines_shows_only_the_last_ones(tmp_path, server):
    server.script(create("chatty", CHATTY), SEARCH)
    await Agent(episode(tmp_path, server, steps=2)).run()
    shown = executions(user_prompt(server.bodies("/v1/chat/completions")[1]))
    assert "printed (last 10 of 100 lines):" in shown
    assert "  | looked at square 99" in shown and "  | looked at square 90" in shown
    assert "looked at square 89" not in shown and "looked at square 0\n" not in shown
    assert len(shown) < 1500
    # a skill that did nothing in the game has no progress line
    assert " turns: " not in shown and "saved as version 1 of chatty" in shown


async def test_a_failed_first_run_is_kept_retired_and_its_fix_saved_as_the_next_version(tmp_path, server):
    server.script(create("count_steps", BROKEN), create("count_steps", FIXED, "return instead of raising"),
                  invoke("count_steps"), SEARCH)
    await Agent(episode(tmp_path, server, steps=4)).run()
    bodies = server.bodies("/v1/chat/completions")
    after_failure = executions(user_prompt(bodies[1]))
    assert "ValueError: the door is stuck" in after_failure
    assert "not saved for use: its run raised an error (see it above); the code is kept retired as version 1 of count_steps" in after_failure
    # the output before the error once, its end only
    assert after_failure.count("step 29 of the walk") == 1 and "step 19 of the walk" not in after_failure
    assert "printed (its last 10 lines; earlier ones cut):" in after_failure
    after_fix = executions(user_prompt(bodies[2]))
    assert "saved as version 2 of count_steps" in after_fix
    assert "printed (last 10 of 30 lines):" in after_fix
    assert after_fix.count("step 29 of the walk") == 2  # the failed run's output and the fix's
    # three runs later, the oldest keeps its brief form: its save line, no longer its output
    later = executions(user_prompt(bodies[3]))
    assert later.count("step 29 of the walk") == 2 and "kept retired as version 1 of count_steps" in later
    library = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db")
    assert [v.version for v in library.versions("count_steps")] == [1, 2]


async def test_a_created_skill_that_did_not_succeed_or_never_ran_says_what_became_of_it(tmp_path, server):
    server.script(create("give_up", BLOCKED), create("half_done", "async def half_done(nh):\n    return (\n"),
                  SEARCH)
    await Agent(episode(tmp_path, server, steps=3)).run()
    bodies = server.bodies("/v1/chat/completions")
    shown = executions(user_prompt(bodies[1]))
    assert ("not saved for use: its run did not succeed (blocked); the code is kept retired as version 1 "
            "of give_up") in shown
    assert "failed actions, 1 of 1: 1 × move: This door is locked." in shown
    library = SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db")
    assert library.get("give_up").retired and "give_up" not in {s.name for s in library.all()}
    # code that does not parse never runs: it is not kept, and the line says so
    rejected = executions(user_prompt(bodies[2])).split("half_done()", 1)[1]
    assert "Syntax error" in rejected and "not saved: the code was rejected before it ran" in rejected
    assert "half_done" not in library


async def test_a_skill_that_leaves_a_pick_axe_in_hand_says_so(tmp_path, server):
    server.script(create("take_the_pick", DIG), SEARCH)
    await Agent(episode(tmp_path, server, steps=2, extra="OBJECT:('(',\"pick-axe\"),(3,2)")).run()
    first, second = (user_prompt(b) for b in server.bodies("/v1/chat/completions"))
    shown = executions(second)
    assert "take_the_pick() -> wielded (ok" in shown
    assert re.search(r"left you: wielding the [\w +-]*pick-axe", shown), shown
    assert "left you:" not in executions(first)

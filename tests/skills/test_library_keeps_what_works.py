"""The library keeps what works: a skill its own trigger interrupts is saved, a rewrite
that fails leaves the working version current (and the old one can be restored), code that
never ran is no run, and a run's value weighs the turns it took against the progress it
made. Real episodes (a scripted model on 127.0.0.1 speaking the OpenAI wire format),
real MiniHack levels, real SQLite files, the real CLI."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.agent.prompt import skills_section
from hackwright.cli import app
from hackwright.skills.library import SkillLibrary, SkillLibraryError
from hackwright.skills.result import SkillResult
from tests.agent.fake_model_server import FakeModelServer, Reply
from tests.conftest import room_des

# Two rooms joined by a corridor; a jackal sleeps in the far room, out of sight at first.
TWO_ROOMS = [
    "-----           -----",
    "|...|           |...|",
    "|...+###########+...|",
    "|...|           |...|",
    "-----           -----",
]
JACKAL = room_des(TWO_ROOMS, "DOOR:open,(4,2)\nDOOR:open,(16,2)\nMONSTER:('d',\"jackal\"),(18,2),asleep",
                  hero=(1, 1))

# Its trigger is declared in the code only: the decision's JSON names none.
WANDER = '''TRIGGERS = ("monster",)


async def wander(nh, budget: int = 200):
    """Walk towards unexplored places for a number of steps; a monster coming into view stops it."""
    steps = 0
    while steps < budget:
        target = await nh.find_unexplored()
        if target is None:
            break
        await nh.move_to(target)
        steps += 1
    return SkillResult("walked", {"steps": steps}, steps, 0, True)
'''

WORKS = '''async def check_hp(nh):
    """Say whether hit points are fine."""
    stats = await nh.get_stats()
    if stats.hp < 5:
        return SkillResult("low", {"hp": stats.hp}, 0, 0, False)
    return SkillResult("fine", {"hp": stats.hp}, 0, 0, True)
'''
FAILS = WORKS.replace("stats.hp < 5", "stats.hitpoints < 5")  # AttributeError on line 4
SYNTAX_ERROR = WORKS.replace("return SkillResult(\"fine\"", "return SkillResult((\"fine\"")
FORBIDDEN = '''import os


async def peek(nh):
    """List the files around."""
    return SkillResult("done", {"files": os.listdir(".")}, 0, 0, True)
'''

cli = CliRunner()


def create(name: str, code: str, **params) -> Reply:
    """A create decision as the prompt asks for it: the JSON, then the code in a python fence."""
    decision = {"action": "create", "name": name, "category": "general", "params": params,
                "reasoning": f"write {name}"}
    return Reply(text=f"{json.dumps(decision)}\n```python\n{code}```\n")


def invoke(name: str, **params) -> Reply:
    return Reply(tool_input={"action": "invoke", "skill": name, "params": params, "reasoning": "reuse it"})


def prompts(server: FakeModelServer) -> list[str]:
    return [b["messages"][-1]["content"] for b in server.bodies("/v1/chat/completions")]


def section(prompt: str, title: str) -> str:
    return prompt.split(f"{title}:\n", 1)[1].split("\n\n", 1)[0]


@pytest.fixture
def server():
    with FakeModelServer() as s:
        yield s


def episode(tmp_path, server: FakeModelServer, steps: int, **kw) -> EpisodeConfig:
    return EpisodeConfig(llm=f"openai:scripted@{server.openai_base_url}", max_steps=steps,
                         db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                         backend_options={"timeout": 5.0, "max_retries": 0, "api_key": "k"}, **kw)


def runs(tmp_path) -> list[tuple]:
    with sqlite3.connect(tmp_path / "m.db") as db:
        return db.execute("SELECT skill_name, version, success, stopped_reason FROM skill_executions "
                          "ORDER BY id").fetchall()


def library(tmp_path) -> SkillLibrary:
    return SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db")


# ---------------------------------------------------------------- an interruption is no failure
async def test_a_new_skill_its_own_trigger_interrupts_is_saved_listed_and_invocable_by_name(tmp_path, server):
    server.script(create("wander", WANDER), invoke("wander", budget=2))
    config = episode(tmp_path, server, steps=2, seed=2, env_id="MiniHack-Navigation-Custom-v0", des_file=JACKAL)
    summary = await Agent(config).run()
    first, second = prompts(server)

    assert "wander" not in section(first, "AVAILABLE SKILLS")
    # the jackal came into view: the trigger stopped the run, and the skill was kept
    last = section(second, "LAST SKILL EXECUTIONS")
    assert "wander() -> interrupted:monster" in last
    assert "saved as version 1 of wander: an interruption by an event is not a failure" in last
    listed = section(second, "AVAILABLE SKILLS")
    assert "- wander(budget=200) — Walk towards unexplored places" in listed
    assert "no finished run, 1 interrupted" in listed and "stops on: monster" in listed

    # invoking it by name ran the stored code (no "there is no skill named")
    with sqlite3.connect(tmp_path / "m.db") as db:
        decisions = db.execute("SELECT type, skill_name, error FROM decisions ORDER BY id").fetchall()
    assert decisions == [("create_skill", "wander", None), ("invoke_skill", "wander", None)]
    assert [r[:2] for r in runs(tmp_path)] == [("wander", 1), ("wander", 1)]
    assert runs(tmp_path)[0][2:] == (0, "interrupted:monster")
    assert summary.skills_created == ["wander"] and summary.skills_used == {"wander": 2}

    lib = library(tmp_path)
    skill = lib.get("wander")
    assert not skill.retired and skill.version == 1 and skill.triggers == ("monster",)
    assert skill.path.read_text() == WANDER
    st = lib.stats("wander")
    assert st.executions == 2 and st.interrupted >= 1
    assert st.finished == st.executions - st.interrupted and st.success_rate == (1.0 if st.finished else 0.0)


def test_an_interrupted_run_counts_as_neither_success_nor_failure(tmp_path):
    with SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db", builtin_root=None) as lib:
        stopped = SkillResult("interrupted:monster", {"event": "monster"}, 3, 3, False)
        lib.record_execution("wander", params={}, result=stopped, before={}, after={})
        adopted = lib.adopt("wander", WANDER, category="exploration", result=stopped)
        assert (adopted.state, adopted.outcome, adopted.version, adopted.worth_telling) == \
               ("saved", "interrupted", 1, True)
        for result in (SkillResult("walked", success=True), SkillResult("blocked", success=False), stopped):
            lib.record_execution("wander", params={}, result=result, before={}, after={})
        st = lib.stats("wander")
        assert (st.executions, st.interrupted, st.finished, st.successes) == (4, 2, 2, 1)
        assert st.success_rate == 0.5 and st.recent_success_rate == 0.5  # 1 of 2 finished, not 1 of 4
        assert "1 of 2 runs succeeded, 2 interrupted" in skills_section([lib.get("wander")], lib.stats)
        lib.regenerate_docs()
        md = (tmp_path / "skills" / "exploration" / "SKILL.md").read_text()
        assert "- **Success Rate**: 50% (based on 2 executions); 2 more interrupted" in md


# ---------------------------------------------------------------- a failing rewrite
async def test_a_failing_rewrite_leaves_the_working_version_current_and_can_be_restored(tmp_path, server):
    server.script(create("check_hp", WORKS), create("check_hp", FAILS), invoke("check_hp"))
    await Agent(episode(tmp_path, server, steps=3, seed=5)).run()
    third = prompts(server)[2]
    assert ("not saved for use: version 2 of check_hp failed its first run; version 1, which has worked, "
            "stays current and is what invoking check_hp runs (version 2 is kept, not offered)") in third

    # v1 stays current: on disk, in the database, and it is what the invoke ran
    lib = library(tmp_path)
    skill = lib.get("check_hp")
    assert (skill.version, skill.code, skill.retired) == (1, WORKS, False)
    assert skill.path.read_text() == WORKS
    with sqlite3.connect(tmp_path / "m.db") as db:
        assert db.execute("SELECT version, code, retired FROM skills WHERE name = 'check_hp'").fetchone() == \
               (1, WORKS, 0)
    assert [(v.version, v.code, v.current) for v in lib.versions("check_hp")] == [(1, WORKS, True), (2, FAILS, False)]
    assert (tmp_path / "skills" / "_versions" / "check_hp" / "v2.py").read_text() == FAILS
    assert [r[:3] for r in runs(tmp_path)] == [("check_hp", 1, 1), ("check_hp", 2, 0), ("check_hp", 1, 1)]
    st = lib.stats("check_hp")
    assert (st.recent_executions, st.recent_successes) == (2, 2)  # v2's failure is not judged against v1
    records = lib.version_records("check_hp")
    assert (records[1].successes, records[2].failures) == (2, 1)

    # restore brings a version back (in code, then with the CLI), keeping the other one
    restored = lib.restore("check_hp", 2)
    assert (restored.version, restored.code) == (2, FAILS) and restored.path.read_text() == FAILS
    assert lib.stats("check_hp").recent_executions == 0  # judged afresh
    lib.close()
    args = ["--library", str(tmp_path / "skills"), "--db", str(tmp_path / "m.db")]
    out = cli.invoke(app, ["skills", "restore", "check_hp", "1", *args])
    assert out.exit_code == 0 and "restored check_hp v1 (v2 is kept)" in out.output
    shown = cli.invoke(app, ["skills", "show", "check_hp", *args]).output
    assert "v1 (current): 2/2 ok, v2: 0/1 ok" in " ".join(shown.split())
    bad = cli.invoke(app, ["skills", "restore", "check_hp", "7", *args])
    assert bad.exit_code == 1 and "check_hp has no version 7; its versions are v1, v2" in " ".join(bad.output.split())

    with library(tmp_path) as again:  # a fresh process sees v1 current, and a new version is v3
        assert (again.get("check_hp").version, again.get("check_hp").code) == (1, WORKS)
        newer = again.save("check_hp", WORKS.replace("Say whether", "Tell whether"), category="general")
        assert newer.version == 3 and [v.version for v in again.versions("check_hp")] == [1, 2, 3]
        assert again.versions("check_hp")[1].code == FAILS
        with pytest.raises(SkillLibraryError, match="built-in"):
            again.restore("go_to", 1)
        taken = again.adopt("go_to", WORKS.replace("check_hp", "go_to"), category="general",
                            result=SkillResult("fine", success=True))
        assert (taken.state, taken.kept, taken.worth_telling) == ("refused", False, True)
        assert taken.message.startswith("not saved: `go_to` is the name of a built-in skill")


def test_a_failing_rewrite_becomes_current_only_when_nothing_had_worked(tmp_path):
    with SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db", builtin_root=None) as lib:
        blocked = SkillResult("blocked", success=False)
        # a new skill that fails is a retired draft; its failing fix stays one
        lib.record_execution("check_hp", params={}, result=blocked, before={}, after={})
        draft = lib.adopt("check_hp", FAILS, category="survival", result=blocked)
        assert (draft.state, draft.current_version, lib.get("check_hp").retired) == ("draft", None, True)
        # interrupted, then failing: the interrupted version never failed, so it stays
        stopped = SkillResult("interrupted:low_hp", success=False)
        lib.record_execution("check_hp", params={}, result=stopped, before={}, after={}, draft=True)
        assert lib.adopt("check_hp", WORKS, category="survival", result=stopped).state == "saved"
        other = WORKS.replace("< 5", "< 6")
        lib.record_execution("check_hp", params={}, result=blocked, before={}, after={}, draft=True)
        assert lib.adopt("check_hp", other, category="survival", result=blocked).state == "kept_aside"
        assert lib.get("check_hp").code == WORKS
        # once the current version has failed and none ever succeeded, the newest code is current
        lib.record_execution("check_hp", params={}, result=blocked, before={}, after={})
        lib.record_execution("check_hp", params={}, result=blocked, before={}, after={}, draft=True)
        last = lib.adopt("check_hp", other.replace("< 6", "< 7"), category="survival", result=blocked)
        assert (last.state, last.version, last.worth_telling) == ("saved", 4, True)
        assert "although its run failed: no earlier version had worked" in last.message


# ---------------------------------------------------------------- code that never ran
async def test_rejected_code_records_no_run_and_leaves_the_record_alone(tmp_path, server):
    server.script(create("check_hp", WORKS), create("check_hp", SYNTAX_ERROR), create("peek", FORBIDDEN))
    await Agent(episode(tmp_path, server, steps=3, seed=5)).run()
    last = prompts(server)[2]
    assert "SyntaxError" in last or "Syntax error" in last
    assert runs(tmp_path) == [("check_hp", 1, 1, "fine")]  # the two rejected ones are no runs
    with sqlite3.connect(tmp_path / "m.db") as db:
        errors = [r[0] is not None for r in db.execute("SELECT error FROM decisions ORDER BY id")]
    assert errors == [False, True, True]  # the decisions themselves are on record
    lib = library(tmp_path)
    st = lib.stats("check_hp")
    assert (st.executions, st.success_rate) == (1, 1.0)
    assert [v.version for v in lib.versions("check_hp")] == [1] and "peek" not in lib


# ---------------------------------------------------------------- value: turns against progress
def state(turn: int, **kw) -> dict:
    return {"turn": turn, "dungeon_level": 1, "xp_level": 1, "score": 0, "hp": 10, "max_hp": 10, **kw}


def test_turns_spent_without_progress_lower_the_value_the_prompt_shows_and_prune_retires(tmp_path):
    search = 'async def search_walls(nh):\n    """Search the walls for hidden doors."""\n    return None\n'
    explore = 'async def explore_rooms(nh):\n    """Walk into every room."""\n    return None\n'
    with SkillLibrary(tmp_path / "skills", db_path=tmp_path / "m.db", builtin_root=None) as lib:
        lib.save("search_walls", search, category="exploration")
        lib.save("explore_rooms", explore, category="exploration")
        done = SkillResult("done", success=True)
        for _ in range(5):
            # both succeed in 300 turns; only one of them explores 100 new squares in that time
            idle = lib.record_execution("search_walls", params={}, result=done, before=state(1), after=state(301),
                                        explored_before=40, explored_after=40)
            busy = lib.record_execution("explore_rooms", params={}, result=done, before=state(1), after=state(301),
                                        explored_before=40, explored_after=140)
        assert idle.value == pytest.approx(-0.02 * 300 + 2) and busy.value == pytest.approx(0.05 * 100 + 2)
        assert busy.deltas["explored"] == 100 and idle.after["explored_squares"] == 40
        # a quick run costs nothing for its time, and a deeper level is progress however long it took
        quick = lib.record_execution("search_walls", params={}, result=done, before=state(1), after=state(1))
        deeper = lib.record_execution("explore_rooms", params={}, result=done, before=state(1),
                                      after=state(901, dungeon_level=2))
        assert quick.value == 2 and deeper.value == 52

        listed = skills_section(lib.all(), lib.stats)
        assert "- explore_rooms() — Walk into every room. [6 of 6 runs succeeded; value +14.5/run, 400 turns/run]" \
            in listed
        assert ("- search_walls() — Search the walls for hidden doors. [6 of 6 runs succeeded; value -3.0/run, "
                "250 turns/run]") in listed
        assert lib.prune(min_runs=5) == ["search_walls"]  # same success rate, no progress for its turns
        assert lib.get("search_walls").retired_reason.startswith("mean value -3.0 ≤ 0 after 6 runs (success 100%)")

"""`hackwright prompt` and the prompt's sections and budget, on real games."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from hackwright.agent.memory import AgentMemory
from hackwright.agent.prompt import build_prompt, estimate_tokens
from hackwright.cli import app
from tests.agent.fake_model_server import FakeModelServer
from tests.conftest import room_des

runner = CliRunner()


def prompt(tmp_path, *args: str):
    r = runner.invoke(app, ["prompt", "--db", str(tmp_path / "m.db"), "--library", str(tmp_path / "skills"),
                            *args])
    assert r.exit_code == 0, r.output
    return r.output


def parts(output: str) -> tuple[str, str, str]:
    """(system part, user part, what follows) of the command's output."""
    m = re.search(r"===== SYSTEM PART \([\d,]+ characters\) =====\n(.*)\n===== USER PART \([\d,]+ characters\) "
                  r"=====\n(.*)\n===== END =====\n(.*)", output, re.S)
    assert m, output[:500]
    return m.group(1), m.group(2), m.group(3)


def size_table(output: str) -> dict[tuple[str, str], tuple[int, int]]:
    rows = {}
    for line in output[output.index("Sizes ("):].splitlines()[2:]:
        m = re.match(r"(\w+)\s+(.+?)\s+([\d,]+)\s+([\d,]+)$", line)
        assert m, line
        rows[(m.group(1), m.group(2))] = (int(m.group(3).replace(",", "")), int(m.group(4).replace(",", "")))
    return rows


def test_the_command_prints_both_parts_and_the_size_of_each_section(tmp_path):
    out = prompt(tmp_path, "--seed", "7")
    system, user, rest = parts(out)
    assert system.startswith("You are playing NetHack 3.6 as a ")
    assert "nh.move_to(" in system and "EXAMPLE SKILL" in system and "Standing advice" in system
    assert user.startswith("CURRENT STATE (turn ") and "MAP:" in user
    assert user.endswith("What do you do? Answer with one JSON decision.")
    assert "≈ tokens: characters / 4" in rest
    rows = size_table(rest)
    for key in (("system", "ROLE"), ("system", "API: ACTING"), ("system", "API TYPES"), ("system", "EXAMPLE SKILL"),
                ("system", "DECISION FORMAT"), ("user", "CURRENT STATE"), ("user", "MAP"),
                ("user", "AVAILABLE SKILLS"), ("user", "DECISION REQUEST")):
        assert key in rows and rows[key][1] > 0, key
    assert rows[("system", "total")] == (len(system), estimate_tokens(system))
    assert rows[("user", "total")] == (len(user), estimate_tokens(user))
    assert rows[("all", "total")][1] == rows[("system", "total")][1] + rows[("user", "total")][1]
    # The same seed gives the same prompt, so prompts can be diffed.
    assert prompt(tmp_path, "--seed", "7") == out


def test_the_role_option_changes_the_hero(tmp_path):
    system, user, _ = parts(prompt(tmp_path, "--seed", "7", "--role", "samurai"))
    assert system.startswith("You are playing NetHack 3.6 as a Samurai.")
    assert "Samurai" in user
    system, user, _ = parts(prompt(tmp_path, "--seed", "7", "--role", "wizard"))
    assert system.startswith("You are playing NetHack 3.6 as a Wizard.")
    assert "Samurai" not in user


def test_an_llm_spec_says_what_that_backend_adds_without_contacting_it(tmp_path):
    with FakeModelServer() as server:
        out = prompt(tmp_path, "--seed", "7", "--sizes", "--llm", f"openai:gpt-4o@{server.openai_base_url}")
        anthropic = prompt(tmp_path, "--seed", "7", "--sizes", "--llm", f"anthropic:claude-sonnet-4-5@{server.url}")
        assert server.requests == []  # nothing was sent
    assert "===== SYSTEM PART" not in out  # --sizes: the table only
    assert "Backend openai, model gpt-4o" in out and "`decide` tool" in out
    assert ("request", "decide tool") in size_table(out)
    assert "cache_control ephemeral" in anthropic


def test_a_bad_role_or_llm_is_refused_with_the_choices(tmp_path):
    r = runner.invoke(app, ["prompt", "--role", "jedi", "--db", str(tmp_path / "m.db"),
                            "--library", str(tmp_path / "skills")])
    assert r.exit_code == 2 and "valkyrie" in r.output
    r = runner.invoke(app, ["prompt", "--llm", "gpt4", "--db", str(tmp_path / "m.db"),
                            "--library", str(tmp_path / "skills")])
    assert r.exit_code == 2 and "openai:gpt4" in r.output


ROOM = ["---------", "|.......|", "|.......|", "|.......|", "---------"]


async def _state(api) -> dict:
    state = await api.get_comprehensive_state()
    state["screen"] = await api.get_screen()
    state["frontier"] = await api.find_unexplored()
    return state


@pytest.fixture
async def long_game(make_api):
    """A real game after some play, with a long timeline in a real AgentMemory."""
    api = make_api(room_des(ROOM, "STAIR:(7,3),down"), seed=2)
    memory = AgentMemory(short_term_tokens=2000)
    for i in range(60):
        await api.search()
        memory.update(api)
        memory.short_term.add(i + 2, f"searched the east wall, pass {i}: nothing found")
    return api, memory, await _state(api)


async def test_the_budget_trims_the_timeline_first_and_keeps_the_state_and_the_map(long_game):
    api, memory, state = long_game
    full = build_prompt(api, state, memory, [], system="s")
    full_sections = dict(full.sections)
    assert full.trimmed == [] and "pass 59" in full_sections["RECENT TIMELINE"]
    assert "\n\n".join(text for _, text in full.sections) == full.user
    budget = estimate_tokens(full.user) - estimate_tokens(full_sections["RECENT TIMELINE"]) // 2
    cut = build_prompt(api, state, memory, [], system="s", max_user_tokens=budget)
    cut_sections = dict(cut.sections)
    assert estimate_tokens(cut.user) <= budget < estimate_tokens(full.user)
    timeline = cut_sections["RECENT TIMELINE"]
    assert re.search(r"\(trimmed: \d+ older lines left out", timeline)
    kept = timeline.split("\n")[2:]  # after the heading and the "(trimmed …)" line
    assert kept and kept == full_sections["RECENT TIMELINE"].split("\n")[-len(kept):]  # the newest stay
    assert len(kept) < len(full_sections["RECENT TIMELINE"].split("\n")) - 1
    assert [t.split(":")[0] for t in cut.trimmed] == ["RECENT TIMELINE"]
    for name in ("CURRENT STATE", "MAP", "SURROUNDINGS", "INVENTORY", "DECISION REQUEST"):
        assert cut_sections[name] == full_sections[name]
    # A budget too small for anything: everything that may go goes, the state and map stay.
    tiny = build_prompt(api, state, memory, [], system="s", max_user_tokens=10)
    tiny_sections = dict(tiny.sections)
    assert "pass 59" not in tiny.user
    for name in ("CURRENT STATE", "MAP", "DECISION REQUEST"):
        assert tiny_sections[name] == full_sections[name]


async def test_the_skill_code_asked_for_comes_before_the_decision_request_and_is_bounded(long_game):
    api, memory, state = long_game
    memory.shown = [("go_to", "async def go_to(nh):\n    pass\n"),
                    ("huge", "async def huge(nh):\n" + "    x = 1  # filler\n" * 2000)]
    names = [name for name, _ in build_prompt(api, state, memory, [], system="s").sections]
    assert names[-2:] == ["SKILL CODE YOU ASKED FOR", "DECISION REQUEST"]
    shown = dict(build_prompt(api, state, memory, [], system="s").sections)["SKILL CODE YOU ASKED FOR"]
    assert shown.startswith("SKILL CODE YOU ASKED FOR (huge):\n```python\nasync def huge(nh):")
    assert "go_to" not in shown and "more characters" in shown and len(shown) < 6300
    del memory.shown  # a memory without the attribute still gets its prompt
    assert "SKILL CODE YOU ASKED FOR" not in build_prompt(api, state, memory, [], system="s").user


def test_the_command_reports_what_its_budget_trimmed(tmp_path):
    out = prompt(tmp_path, "--seed", "7", "--sizes", "--max-user-tokens", "300")
    line = next(ln for ln in out.splitlines() if ln.startswith("Budget of the user part: 300"))
    assert "AVAILABLE SKILLS:" in line

"""The built-in skill files: the format a model writes, their SKILL.md pages, the sandbox,
and a run of every skill on real games."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from hackwright.api import NetHackAPI
from hackwright.api.keyboard import PromptKind
from hackwright.env import GameConfig
from hackwright.sandbox.policy import validate
from hackwright.sandbox.runner import SkillRunner
from hackwright.skills.result import SkillResult
from hackwright.skills.triggers import EVENT_KINDS, declared_triggers

from .conftest import BUILTIN, skill_source

FILES = sorted(BUILTIN.glob("*/*.py"))
EXPECTED = {
    "exploration": {"explore_level", "cautious_explore", "read_or_zap_to_find_way"},
    "navigation": {"go_to", "go_to_stairs", "descend"},
    "combat": {"melee_fight", "ranged_attack", "tame_with_food"},
    "resource": {"eat_when_hungry", "pray_when_safe", "rest_until_healed", "cure_lycanthropy", "buy_protection",
                 "dip_for_excalibur"},
    "inventory": {"pickup_useful", "lighten_load", "wear_better_armor", "wield_better_weapon"},
    "escape": {"engrave_elbereth", "retreat_upstairs", "quaff_or_zap_to_survive", "follow_vault_guard"},
}


def documented_reasons(source: str) -> set[str]:
    """The stopped reasons a skill file lists after "Stopped reasons:" in its docstrings."""
    tree = ast.parse(source)
    entry = next(n for n in tree.body if isinstance(n, ast.AsyncFunctionDef))
    doc = (ast.get_docstring(entry) or "") + "\n" + (ast.get_docstring(tree) or "")
    return set(re.findall(r'"([a-z0-9_]+)"', doc.split("Stopped reasons:")[1]))


def test_the_expected_skills_are_all_there():
    found: dict[str, set[str]] = {}
    for p in FILES:
        found.setdefault(p.parent.name, set()).add(p.stem)
    for category, names in EXPECTED.items():
        assert names <= found.get(category, set()), category


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_built_in_skill_file_is_a_valid_skill_in_the_model_format(path: Path):
    source = path.read_text()
    info = validate(source)
    assert info.name == path.stem
    tree = ast.parse(source)
    assert [n.name for n in tree.body if isinstance(n, ast.AsyncFunctionDef)] == [path.stem]
    assert (info.docstring or "").splitlines()[0].strip().endswith(".")
    # The details (parameters, stopped reasons) may sit in the function's or the module's docstring.
    doc = (info.docstring or "") + "\n" + (ast.get_docstring(ast.parse(source)) or "")
    assert "Parameters:" in doc or not info.params
    for p in info.params:
        assert p.name in doc, f"parameter {p.name} is not described"
    reasons = documented_reasons(source)
    used = set(re.findall(r'finish\(\s*"([a-z0-9_]+)"', source))
    assert used <= reasons, f"undocumented stopped reasons: {used - reasons}"
    assert "game_over" in reasons
    constants = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Name)}
    assert ast.literal_eval(constants["CATEGORY"]) == path.parent.name
    assert set(declared_triggers(source)) <= set(EVENT_KINDS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_built_in_skill_types_no_keys_itself(path: Path):
    """Keystrokes and their prompts belong to the API: a built-in skill calls its commands
    (look_here, eat(floor_item=...), dig ...), never nh.send_keys, so it is a fair example
    of what a model's skill should do."""
    calls = [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Attribute)
             and n.attr == "send_keys"]
    assert not calls, f"{path.stem} types keys itself (line {calls[0].lineno})"


@pytest.mark.parametrize("category", sorted(EXPECTED))
def test_each_category_has_a_skill_md_listing_its_skills(category: str):
    text = (BUILTIN / category / "SKILL.md").read_text()
    assert text.startswith("# ") and "## Available Skills" in text
    for name in EXPECTED[category]:
        block = text.split(f"### {name}\n")[1].split("###")[0]
        for field in ("Triggers", "Parameters", "Success Rate"):
            assert f"- **{field}**:" in block
        source = skill_source(name)
        assert ", ".join(declared_triggers(source)) in block
        for p in validate(source).params:
            assert p.name in block


async def test_go_to_stairs_runs_the_same_in_the_sandbox(play):
    api = play("stairs_across_room")
    runner = SkillRunner(api)  # no sandbox here is a failure: `hackwright sandbox check` says why
    try:
        out = await runner.run(skill_source("go_to_stairs"), {})
    finally:
        runner.close()
    assert out.result.stopped_reason == "arrived" and out.result.success
    assert out.stack != "in-process"
    assert out.result.actions_taken == out.actions == 10


async def test_explore_level_finds_hidden_stairs_in_the_sandbox_too(play):
    api = play("three_rooms_hidden")
    runner = SkillRunner(api)
    try:
        out = await runner.run(skill_source("explore_level"), {})
    finally:
        runner.close()
    assert out.result.stopped_reason == "fully_explored", out.result
    assert out.result.data["stairs_down"] is not None


ORDER = ["pickup_useful", "lighten_load", "wear_better_armor", "wield_better_weapon", "melee_fight", "ranged_attack",
         "explore_level", "melee_fight", "eat_when_hungry", "cautious_explore", "go_to_stairs",
         "rest_until_healed", "pray_when_safe", "engrave_elbereth", "descend", "retreat_upstairs",
         "explore_level", "read_or_zap_to_find_way", "descend", "go_to"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 7])
async def test_every_built_in_skill_runs_on_a_full_game_without_crashing(seed):
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    runner = SkillRunner(api, mode="inprocess")
    try:
        for name in ORDER:
            if api.game_over:
                break
            params = {}
            if name == "go_to":
                pos = (await api.get_current_level()).stairs_up or await api.get_position()
                params = {"x": pos.x, "y": pos.y}
            out = await runner.run(skill_source(name), params)
            r = out.result
            assert isinstance(r, SkillResult), name
            # a reason the skill documents (or the runner's action limit), not an escaped error
            assert r.stopped_reason in documented_reasons(skill_source(name)) | {"action_limit"}, (name, r)
            assert r.actions_taken <= out.actions + 1 and r.turns_elapsed >= 0, (name, r)
            assert api.game_over or api._kb.prompt().kind is PromptKind.NONE, (name, "left a prompt open")
    finally:
        runner.close()
        api.close()

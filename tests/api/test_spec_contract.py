"""A skill written from the spec alone runs unmodified against the real API."""

from __future__ import annotations

from hackwright.api.keyboard import PromptKind
from tests.api.spec_skills.cautious_explore import cautious_explore
from tests.conftest import room_des


async def test_the_specs_cautious_explore_finds_the_stairs_in_a_room(make_api):
    rows = ["---------", "|.......|", "|.......|", "|.......|", "---------"]
    api = make_api(room_des(rows, "STAIR:(7,3),down"))
    result = await cautious_explore(api, hp_threshold=0.5)
    assert result.stopped_reason in ("found_stairs", "fully_explored")
    assert api._kb.prompt().kind is PromptKind.NONE


async def test_the_specs_cautious_explore_runs_on_the_full_game(make_api):
    for seed in (0, 1, 2):
        api = make_api(seed=seed)
        result = await cautious_explore(api)
        assert result.stopped_reason in (
            "low_hp", "hungry", "monster_spotted", "found_stairs", "fully_explored", "action_limit"
        )
        assert api.game_over or api._kb.prompt().kind is PromptKind.NONE

"""A skill written from the spec alone runs unmodified against the real API."""

from __future__ import annotations

from nle import nethack

from hackwright.api.keyboard import PromptKind
from tests.api.spec_skills.cautious_explore import cautious_explore
from tests.conftest import room_des


async def test_the_specs_cautious_explore_finds_the_stairs_in_a_room(make_api):
    rows = ["---------", "|.......|", "|.......|", "|.......|", "---------"]
    api = make_api(room_des(rows, "STAIR:(7,3),down"))
    result = await cautious_explore(api, hp_threshold=0.5)
    assert result.stopped_reason in ("found_stairs", "fully_explored")
    assert api._kb.prompt().kind is PromptKind.NONE


async def test_on_the_full_game_the_specs_cautious_explore_stops_at_once_for_what_the_hero_sees(make_api):
    # A level 1 hero starts on the up staircase, which the spec's skill counts as found
    # stairs, unless a monster is in view first; without a pet both cases occur.
    no_pet = tuple(nethack.NETHACKOPTIONS) + ("pettype:none",)

    api = make_api(seed=0, extra={"options": no_pet})
    hero = await api.get_position()
    result = await cautious_explore(api)
    assert (result.stopped_reason, result.actions_taken, result.success) == ("found_stairs", 0, True)
    assert result.data == {"stairs_pos": (hero.x, hero.y), "stairs_type": "up"}
    assert (await api.get_current_level()).tiles[hero.y][hero.x].feature == "stairs up"
    assert await api.get_visible_monsters() == []
    assert api._kb.prompt().kind is PromptKind.NONE

    api = make_api(seed=1, extra={"options": no_pet})
    result = await cautious_explore(api)
    assert (result.stopped_reason, result.actions_taken, result.success) == ("monster_spotted", 0, False)
    seen = [(m.name, m.position.x, m.position.y) for m in await api.get_visible_monsters()]
    assert result.data == {"monsters": seen} and [name for name, _, _ in seen] == ["jackal"]
    assert api._kb.prompt().kind is PromptKind.NONE

"""The agent's dungeon memory, read from real games."""

from __future__ import annotations

from pathlib import Path

from hackwright.agent.memory import AgentMemory

LEVELS = Path(__file__).resolve().parents[1] / "levels"


async def test_reading_the_map_into_memory_leaves_the_floating_eye_beside_the_hero_in_view(make_api):
    """Memory used to put an empty placeholder in the API's per-observation monster cache,
    so the next skill's first step saw no monsters and walked into a floating eye."""
    api = make_api((LEVELS / "eye_and_newt_adjacent.des").read_text())
    memory = AgentMemory(2000)
    memory.update(api)
    names = sorted(m.name for m in await api.get_visible_monsters())
    assert names == ["floating eye", "newt"]
    hero = await api.get_position()
    eye = next(m for m in await api.get_visible_monsters() if m.name == "floating eye")
    res = await api.move(hero.direction_to(eye.position))
    assert not res.success and "floating eye" in res.error  # the move guard saw it too
    assert api.game_over is False

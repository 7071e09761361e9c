"""Rooms and corridors of the remembered level, as the prompt describes them."""

from __future__ import annotations

from pathlib import Path

from hackwright.agent.prompt import describe_layout
from hackwright.api.layout import segment

LEVELS = Path(__file__).parent.parent / "levels"


async def test_two_rooms_joined_by_two_corridors_are_told_apart(make_api):
    api = make_api((LEVELS / "floating_eye_corridor.des").read_text(), role="valkyrie", race="human",
                   alignment="lawful", gender="female")
    for _ in range(120):  # walk the level (the eye is walked around)
        target = await api.find_unexplored()
        if target is None:
            break
        await api.move_to(target)
    hero = (await api.get_stats()).position
    layout = segment(api._level_memory(), hero)
    assert len(layout.rooms) == 2, layout.rooms
    west, east = sorted(layout.rooms, key=lambda r: r.x0)
    assert west.squares == east.squares == 15  # 5 x 3 floor each
    assert "stairs up" in west.features and "stairs down" in east.features
    assert len(west.doors) == 2 and len(east.doors) == 2
    # The long way round joins the two south doors; the short corridor the two east/west ones.
    joined = sorted(sorted((d.x, d.y) for d in c.doors) for c in layout.corridors if len(c.doors) == 2)
    assert len(joined) == 2
    assert (layout.hero_room is not None) != (layout.hero_corridor is not None)
    text = "\n".join(describe_layout(api, hero))
    assert "2 room(s)" in text and "stairs down" in text and "corridor C1" in text


"""read_unknown_scroll: a hero walled into a room reads its way out."""

from __future__ import annotations

from tests.conftest import room_des

from .conftest import run_skill

# Two rooms with a wall and no door between them: the hero's (left) and the one with the stairs.
WALLED_IN = ["-----------", "|...|.....|", "|...|.....|", "|...|.....|", "-----------"]


async def test_a_hero_walled_into_a_room_reads_a_scroll_of_teleportation_and_lands_elsewhere(make_api):
    des = room_des(WALLED_IN, "OBJECT:('?',\"teleportation\"),(2,2)\nSTAIR:(7,2),down", hero=(2, 2))
    des = des.replace("FLAGS:noteleport", "FLAGS:hardfloor")  # teleportation must work here
    api = make_api(des, seed=0)
    assert (await run_skill(api, "pickup_useful")).result.success
    assert any(i.object_class == "scroll" for i in await api.get_inventory())
    start = await api.get_position()
    r = (await run_skill(api, "read_unknown_scroll")).result
    assert r.stopped_reason == "read" and r.success, r
    assert r.data["moved"] and (await api.get_position()) != start
    assert not any(i.object_class == "scroll" for i in await api.get_inventory())
    # Nothing left to read: says so, and takes no turn.
    again = (await run_skill(api, "read_unknown_scroll")).result
    assert again.stopped_reason == "nothing_to_read" and again.turns_elapsed == 0

"""CarefulWalk, the walk go_to, go_to_stairs, descend and retreat_upstairs share: on
real MiniHack levels, a floating eye is walked round and a locked door is kicked only
when the walk may kick it."""

from __future__ import annotations

from hackwright.api.careful_walk import CarefulWalk
from hackwright.api.models import Position
from tests.conftest import room_des

TWO_ROOMS = ["-----------", "|...|.....|", "|...+.....|", "|...|.....|", "-----------"]


def at(api, x: int, y: int, start=(1, 2)) -> Position:
    """A square given in the drawing's coordinates, on the map (MiniHack centres the drawing)."""
    hero = api.last_stats.position
    return Position(hero.x - start[0] + x, hero.y - start[1] + y)


async def walk_until(walk: CarefulWalk, api, stop: tuple[str, ...], steps: int = 40) -> list:
    outcomes = []
    for _ in range(steps):
        if (await api.get_position()) == walk.target:
            break
        step = await walk.step()
        outcomes.append(step)
        if step.outcome in stop:
            break
    return outcomes


async def test_a_walk_across_a_room_goes_round_a_floating_eye_in_the_way_and_arrives(make_api):
    room = ["-----------", "|.........|", "|.........|", "|.........|", "-----------"]
    api = make_api(room_des(room, "MONSTER:('e',\"floating eye\"),(5,2),hostile,asleep", hero=(1, 2)),
                   role="valkyrie")
    eye = at(api, 5, 2)
    walk = CarefulWalk(api, at(api, 9, 2))
    steps = await walk_until(walk, api, ("no_path", "blocked", "game_over"))
    assert (await api.get_position()) == walk.target, [s.outcome for s in steps]
    assert all(s.outcome == "moved" and s.moved for s in steps)
    assert any(m.name == "floating eye" and m.position == eye for m in await api.get_visible_monsters())
    assert not any("You hit" in m or "You miss" in m for m in await api.get_messages(40))


async def test_a_locked_door_stops_a_walk_that_may_not_kick_and_is_kicked_by_one_that_may(make_api):
    des = room_des(TWO_ROOMS, "DOOR:locked,(4,2)", hero=(1, 2))
    api = make_api(des, role="valkyrie")
    door = at(api, 4, 2)
    polite = CarefulWalk(api, door)  # (the room beyond is unseen: the door is as far as a route goes)
    steps = await walk_until(polite, api, ("door_locked", "no_path", "blocked", "game_over"))
    last = steps[-1]
    assert last.outcome == "door_locked" and last.door == door and last.direction == "e" and not last.shop, last
    assert polite.kicks == 0
    assert "locked" in (last.error or "").lower()

    kicker = CarefulWalk(api, polite.target, kick_locked_doors=True, max_kicks=20)
    steps = await walk_until(kicker, api, ("door_locked", "no_path", "blocked", "game_over"), steps=80)
    assert any(s.outcome == "kicked" and s.door == door for s in steps), [s.outcome for s in steps]
    assert (await api.get_position()) == kicker.target, [s.outcome for s in steps]
    assert kicker.kicks >= 1 and kicker.kicks == sum(s.outcome == "kicked" for s in steps)

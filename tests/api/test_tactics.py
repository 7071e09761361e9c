"""Scenarios for the map judgements every skill shares (api/tactics.py): lines of fire,
squares to fight a crowd from, and the memory of monsters a walk keeps off."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hackwright.api.tactics import WalkAroundMemory
from hackwright.sandbox.worker import injected_names

LEVELS = Path(__file__).resolve().parent.parent / "levels"


def des(name: str) -> str:
    return (LEVELS / f"{name}.des").read_text()


async def test_three_jackals_closing_in_two_squares_from_an_open_door_the_door_is_where_to_fight(make_api):
    api = make_api(des("jackal_pack_by_a_door"), role="valkyrie")
    hero = await api.get_position()
    level = await api.get_current_level()
    jackals = [m for m in await api.get_visible_monsters() if m.name == "jackal"]
    assert len(jackals) == 3
    door = hero.offset("e").offset("e")
    assert level.tile_at(door).feature == "open door"

    assert level.exposure(hero) == 8  # open floor: attacked from every side
    assert level.exposure(door) == 2  # the room behind, the corridor ahead: no blows on a slant
    assert level.nearest_chokepoint(hero, jackals) == door
    assert level.nearest_chokepoint(door, jackals) is None  # already standing in one
    assert level.nearest_chokepoint(hero, jackals, max_steps=1) is None  # too far for one step

    steps = level.walk_distances(hero, 3, {j.position for j in jackals})
    assert list(steps)[0] == hero and steps[hero] == 0
    assert steps[door] == 2 and steps[door.offset("e")] == 3  # through the door, into the corridor
    assert not any(j.position in steps for j in jackals)
    assert door not in level.walk_distances(hero, 1)
    # A walk told never to step beside the door cannot reach it, nor the corridor behind it.
    beside_door = level.walk_distances(hero, 3, may_step=lambda frm, to: to.steps_to(door) > 1)
    assert door not in beside_door and door.offset("e") not in beside_door and hero in beside_door


async def test_a_floating_eye_three_squares_east_is_in_line_of_fire_but_not_through_a_wall_or_past_a_monster(make_api):
    api = make_api(des("daggers_and_eye"), role="valkyrie")
    hero = await api.get_position()
    level = await api.get_current_level()
    eye = next(m for m in await api.get_visible_monsters() if m.name == "floating eye")
    assert eye.position == hero.offset("e").offset("e").offset("e")

    assert level.line_of_fire(hero, eye.position) == "e"
    assert level.line_of_fire(hero, eye.position, max_range=2) == ""  # out of range
    assert level.line_of_fire(hero, eye.position, occupied={hero.offset("e")}) == ""  # someone between
    assert level.line_of_fire(hero, eye.position, occupied={eye.position}) == "e"  # the target itself may stand there
    assert level.line_of_fire(hero, eye.position.offset("n")) == ""  # a knight's move off every line
    north_wall = hero.offset("n").offset("n")
    assert not level.tile_at(north_wall).is_walkable
    assert level.line_of_fire(hero, north_wall.offset("n")) == ""  # the wall stops it


async def test_a_walk_remembers_a_floating_eye_out_of_view_and_forgets_it_when_its_square_is_seen_empty(make_api):
    api = make_api(des("daggers_and_eye"), role="valkyrie")
    hero = await api.get_position()
    turn = (await api.get_stats()).turn
    eye = next(m for m in await api.get_visible_monsters() if m.name == "floating eye")
    memory = WalkAroundMemory(avoid=("floating eye",))

    assert memory.update([eye], hero, turn) == {eye.position}
    assert memory.update([], hero, turn + 100) == {eye.position}  # out of view: still there
    assert memory.names_at({eye.position}) == ["floating eye"]
    beside = eye.position.offset("w")
    assert memory.update([], beside, turn + 101) == set()  # next to it, nothing there: gone
    memory.update([eye], hero, turn)
    assert memory.update([], hero, turn + 151) == set()  # not seen for 150 turns: forgotten


async def test_an_eye_seen_again_nearby_has_moved_but_a_second_mold_is_a_second_mold(make_api):
    api = make_api(des("daggers_and_eye"), role="valkyrie")
    hero = await api.get_position()
    eye = next(m for m in await api.get_visible_monsters() if m.name == "floating eye")
    far = hero.offset("w")  # stands for any square the memory is not next to
    memory = WalkAroundMemory(avoid=("floating eye", "yellow mold"))
    memory.update([eye], far, 1)
    drifted = replace(eye, position=eye.position.offset("s"))
    assert memory.update([drifted], far, 2) == {drifted.position}  # the same eye, one square on

    mold = replace(eye, name="yellow mold")
    other = replace(mold, position=mold.position.offset("s").offset("s"))
    memory = WalkAroundMemory(avoid=("yellow mold",))
    memory.update([mold], far, 1)
    assert memory.update([other], far, 2) == {mold.position, other.position}  # molds never move


async def test_a_peaceful_monster_is_kept_off_but_a_tame_one_and_an_unlisted_hostile_are_not(make_api):
    api = make_api(des("daggers_and_eye"), role="valkyrie")
    hero = await api.get_position()
    eye = next(m for m in await api.get_visible_monsters() if m.name == "floating eye")
    far = hero.offset("w")
    peaceful = replace(eye, name="watchman", is_peaceful=True, position=eye.position.offset("n"))
    pet = replace(eye, name="kitten", is_peaceful=True, is_tame=True, position=eye.position.offset("s"))
    hostile = replace(eye, name="jackal", position=eye.position.offset("e"))
    memory = WalkAroundMemory()
    assert memory.update([peaceful, pet, hostile], far, 1) == {peaceful.position}
    assert memory.update([], far, 12) == set()  # a peaceful one moves on: 10 turns


def test_every_skill_gets_the_memory_without_importing_it():
    assert injected_names()["WalkAroundMemory"] is WalkAroundMemory

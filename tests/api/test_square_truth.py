"""What the API says lies on a square is the object remembered there, on real MiniHack
games: the level's tiles and get_items_at name the object (as the hero saw it), never the
hero or a monster standing on it; the monster is reported by get_visible_monsters."""

from __future__ import annotations

from hackwright.api import Position, observe
from tests.conftest import room_des

# A lit room one square high: whatever walks from one end to the other crosses every square.
ROW = ["-----------", "|.........|", "-----------"]


def shown_at(api, pos: Position) -> str:
    """NetHack's own words for what the map shows at ``pos`` now (the top of the square)."""
    return observe.screen_description(api.game.obs, pos)


async def test_the_tile_under_the_hero_standing_on_a_large_box_describes_the_box(make_api):
    api = make_api(room_des(ROW, 'OBJECT:(\'(\',"large box"),(3,1)'), role="valkyrie")
    start = await api.get_position()
    box = Position(start.x + 2, start.y)
    assert (await api.get_current_level()).tile_at(box).description == "large box"  # seen from afar
    for _ in range(2):
        assert (await api.move("e")).success
    assert await api.get_position() == box
    assert shown_at(api, box) != "large box"  # the map shows the hero there now

    tile = (await api.get_current_level()).tile_at(box)
    assert tile.description == "large box"
    assert tile.char == "(" and tile.is_walkable
    # the square the hero left is floor again, named as such
    assert (await api.get_current_level()).tile_at(start).description != "large box"


async def test_a_monster_standing_on_an_object_leaves_the_object_reported_and_is_itself_a_visible_monster(make_api):
    api = make_api(room_des(ROW, 'OBJECT:(\'(\',"large box"),(5,1)\nMONSTER:(\'d\',"jackal"),(9,1),hostile,awake'),
                   role="valkyrie")
    hero = await api.get_position()
    box = Position(hero.x + 4, hero.y)
    for _ in range(30):  # wait for the jackal to come along the row and stand on the box
        if any(m.position == box for m in await api.get_visible_monsters()):
            break
        await api.search(1)
    else:
        raise AssertionError("the jackal never stood on the box")
    assert shown_at(api, box) == "jackal"  # the map shows the jackal on top

    tile = (await api.get_current_level()).tile_at(box)
    assert tile.description == "large box"
    assert "jackal" not in tile.description
    items = await api.get_items_at(box)
    assert [i.name for i in items] == ["large box"] and items[0].position == box
    assert [m.name for m in await api.get_visible_monsters() if m.position == box] == ["jackal"]


async def test_an_unidentified_potion_under_a_monster_is_named_by_its_looks_never_its_true_name(make_api):
    api = make_api(room_des(ROW, 'OBJECT:(\'!\',"gain level"),(5,1)\nMONSTER:(\'d\',"jackal"),(9,1),hostile,awake'),
                   role="valkyrie")
    hero = await api.get_position()
    potion = Position(hero.x + 4, hero.y)
    looks = (await api.get_current_level()).tile_at(potion).description
    assert looks.endswith("potion") and "gain level" not in looks  # as NetHack shows it from afar
    for _ in range(30):
        if any(m.position == potion for m in await api.get_visible_monsters()):
            break
        await api.search(1)
    else:
        raise AssertionError("the jackal never stood on the potion")

    covered = (await api.get_current_level()).tile_at(potion).description
    assert covered.endswith("potion") and "gain level" not in covered and "jackal" not in covered
    assert [i.name for i in await api.get_items_at(potion)] == [covered]

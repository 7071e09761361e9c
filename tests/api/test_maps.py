"""Scenarios for the remembered level map and pathfinding (hackwright.api.maps).

Most maps are drawn as text and turned into the glyph numbers NetHack would
display; a few scenarios play a real MiniHack level and follow the paths there.
"""

from __future__ import annotations

import gymnasium
import minihack  # noqa: F401  (registers the MiniHack environments)
import numpy as np
import pytest
from nle import nethack as nh

from hackwright.api import glyphs as G
from hackwright.api.maps import (
    DOOR_PENALTY,
    LevelMemory,
    MapMemory,
    distance_map,
    find_nearest,
    find_path,
    follow_path,
    nearest_frontier,
)
from hackwright.api.models import DIRECTIONS, Position

# ---------------------------------------------------------------- drawing maps


def cmap(c: int) -> int:
    return nh.GLYPH_CMAP_OFF + c


def _obj(name: str) -> int:
    return nh.GLYPH_OBJ_OFF + next(i for i in range(nh.NUM_OBJECTS) if nh.objdescr.from_idx(i).oc_name == name)


def _mon(name: str) -> int:
    return nh.GLYPH_MON_OFF + next(i for i in range(nh.NUMMONS) if nh.permonst(i).mname == name)


FLOOR = cmap(G.S_ROOM)
JACKAL = _mon("jackal")
HERO = _mon("valkyrie")
DAGGER = _obj("dagger")
TRAP = cmap(G.S_ARROW_TRAP)
LEGEND = {
    " ": G.UNEXPLORED_GLYPH,
    ".": FLOOR,
    "#": cmap(G.S_CORR),
    "|": cmap(G.S_VWALL),
    "-": cmap(2),  # S_hwall
    "/": cmap(G.S_VODOOR),  # open door in a vertical wall
    "+": cmap(G.S_VCDOOR),  # closed door in a vertical wall
    "}": cmap(G.S_POOL),
    "L": cmap(G.S_LAVA),
    "0": G.BOULDER_GLYPH,
    "^": TRAP,
    "<": cmap(G.S_UPSTAIR),
    ">": cmap(G.S_DNSTAIR),
    "d": JACKAL,
    "@": HERO,
    ")": DAGGER,
}


def draw(*rows: str, at: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A 21x79 glyph array with the drawing's top-left corner at map square ``at``."""
    g = np.full((21, 79), G.UNEXPLORED_GLYPH, dtype=np.int16)
    x0, y0 = at
    for dy, row in enumerate(rows):
        for dx, ch in enumerate(row):
            g[y0 + dy, x0 + dx] = LEGEND[ch]
    return g


def remember(*rows: str, hero: Position | None = None, turn: int = 1) -> LevelMemory:
    """A level memory that has seen the drawing once (hero in the top-left corner by default)."""
    level = LevelMemory(0, 1, 1, "Dungeons of Doom")
    level.update(draw(*rows), hero or Position(0, 0), turn)
    return level


def assert_legal(level: LevelMemory, start: Position, path: list[str], goal: Position) -> list[Position]:
    """Check each step is one NetHack would allow on the remembered map; return the squares visited."""
    passable = level.passable_mask()
    nodiag = G.NO_DIAGONAL[level.terrain] | G.NO_DIAGONAL[level.glyphs]
    here = start
    visited = []
    for i, d in enumerate(path):
        nxt = here.offset(d)
        assert nxt.on_map()
        last = i == len(path) - 1
        assert passable[nxt.y, nxt.x] or (last and nxt == goal), f"step {i} {d} onto {nxt}"
        if len(d) == 2:
            assert not nodiag[here.y, here.x] and not nodiag[nxt.y, nxt.x], f"diagonal {d} at a door {here}->{nxt}"
        visited.append(nxt)
        here = nxt
    assert here == goal
    return visited


# ---------------------------------------------------------------- synthetic scenarios


def test_a_path_goes_around_a_wall():
    level = remember(
        "-----------",
        "|.........|",
        "|....|....|",
        "|....|....|",
        "|....|....|",
        "|.........|",
        "-----------",
    )
    start, goal = Position(3, 3), Position(7, 3)
    path = find_path(level, start, goal)
    assert path is not None
    visited = assert_legal(level, start, path, goal)
    assert Position(5, 3) not in visited
    # Around the end of the wall: down to row 5 and back up, diagonals included.
    assert len(path) == 4


def test_a_path_enters_and_leaves_a_doorway_orthogonally():
    level = remember(
        "-----      ",
        "|...|  ####",
        "|.../###   ",
        "|...|      ",
        "-----      ",
    )
    start, goal = Position(3, 1), Position(10, 1)
    path = find_path(level, start, goal)
    assert path is not None
    assert_legal(level, start, path, goal)
    door = Position(4, 2)
    squares = [start] + follow_path(start, path)
    i = squares.index(door)
    assert squares[i - 1] == Position(3, 2) and squares[i + 1] == Position(5, 2)
    # Diagonals elsewhere are used: the corridor bends up at a diagonal.
    assert any(len(d) == 2 for d in path)


def test_water_lava_and_a_boulder_are_never_stepped_on():
    level = remember(
        ".......",
        "..}L0..",
        ".......",
        "..}}}..",
    )
    start, goal = Position(0, 1), Position(6, 1)
    path = find_path(level, start, goal)
    visited = assert_legal(level, start, path, goal)
    assert not {Position(2, 1), Position(3, 1), Position(4, 1)} & set(visited)
    assert len(path) == 6  # a diagonal over the row above and back

    walled = remember(
        "..}..",
        "..L..",
        "..0..",
    )
    assert find_path(walled, Position(0, 0), Position(4, 0)) is None
    # The boulder itself can be the goal: the last step pushes it.
    push = find_path(walled, Position(0, 2), Position(2, 2))
    assert len(push) == 2 and follow_path(Position(0, 2), push)[-1] == Position(2, 2)
    assert not walled.walkable_mask()[2, 2]


def test_a_peacefuls_square_is_routed_around():
    room = remember(
        ".....",
        ".....",
        ".....",
    )
    peaceful = Position(2, 1)
    path = find_path(room, Position(0, 1), Position(4, 1), blocked=[peaceful])
    visited = assert_legal(room, Position(0, 1), path, Position(4, 1))
    assert peaceful not in visited and len(path) == 4
    # Nobody can be walked through in a corridor, and a blocked goal is unreachable.
    corridor = remember("#####")
    assert find_path(corridor, Position(0, 0), Position(4, 0), blocked=[Position(2, 0)]) is None
    assert find_path(room, Position(0, 1), peaceful, blocked=[peaceful]) is None
    assert find_nearest(room, Position(0, 0), lambda p: p == peaceful, blocked=[peaceful]) is None


def test_a_trap_is_avoided_when_another_way_exists():
    room = remember(
        ".....",
        "..^..",
        ".....",
    )
    start, goal = Position(0, 1), Position(4, 1)
    path = find_path(room, start, goal)
    assert Position(2, 1) not in assert_legal(room, start, path, goal)
    assert len(path) == 4

    corridor = remember("##^##")
    start, goal = Position(0, 0), Position(4, 0)
    assert find_path(corridor, start, goal) is None  # strict by default
    assert find_path(corridor, start, goal, avoid_traps=False) == ["e"] * 4
    assert find_path(corridor, start, Position(2, 0)) == ["e", "e"]  # the trap as the goal

    # A dagger dropped on the trap hides it on screen, not in memory.
    corridor.update(draw("##)##"), start, 2)
    assert corridor.glyphs[0, 2] == DAGGER and corridor.is_trap(Position(2, 0))
    assert find_path(corridor, start, goal) is None
    assert corridor.to_dungeon_level(1).tile_at(Position(2, 0)).trap_type == "arrow trap"


def test_a_monster_standing_on_a_corridor_does_not_erase_the_corridor_from_memory():
    level = remember("-----", "|...|", "|.../##########", "-----")
    hero = Position(2, 2)
    level.update(draw("-----", "|...|", "|.@./####d#####", "-----"), hero, 2)
    corridor = Position(9, 2)
    assert level.glyphs[corridor.y, corridor.x] == cmap(G.S_CORR)
    assert level.terrain[corridor.y, corridor.x] == cmap(G.S_CORR)
    assert level.monsters[corridor.y, corridor.x] and level.monsters[hero.y, hero.x]
    assert level.glyphs[hero.y, hero.x] == FLOOR  # the hero does not erase the floor either
    path = find_path(level, Position(3, 2), Position(14, 2))
    assert corridor in assert_legal(level, Position(3, 2), path, Position(14, 2))
    # The caller decides about the monster: passed as blocked, the corridor is shut.
    assert find_path(level, Position(3, 2), Position(14, 2), blocked=[corridor]) is None

    # A creature seen where nothing was ever seen stands on ground: walkable, explored.
    fresh = remember("##")
    fresh.update(draw("##d"), Position(0, 0), 2)
    assert fresh.glyphs[0, 2] == G.UNEXPLORED_GLYPH and fresh.seen[0, 2]
    assert fresh.walkable_mask()[0, 2]
    assert find_path(fresh, Position(0, 0), Position(2, 0)) == ["e", "e"]


def _dark_walk(truth: np.ndarray, level: LevelMemory, route: list[Position], shown: np.ndarray) -> None:
    """Walk ``route`` in the dark: each step shows the 3x3 around the hero (and keeps what was shown)."""
    for turn, hero in enumerate(route, start=2):
        ys, xs = slice(max(hero.y - 1, 0), hero.y + 2), slice(max(hero.x - 1, 0), hero.x + 2)
        shown[ys, xs] = truth[ys, xs]
        screen = shown.copy()
        screen[hero.y, hero.x] = HERO
        level.update(screen, hero, turn)


def test_a_corridor_the_hero_walked_through_is_no_frontier_but_its_unexplored_end_is():
    room = ("-----", "|...|", "|.../#######", "|...|", "-----")
    truth = draw(*room)
    lit_room = draw(*room[:2], "|.../", *room[3:])  # the lit room is seen from inside, the corridor is not
    level = LevelMemory(0, 1, 1, "Dungeons of Doom")
    level.update(lit_room, Position(2, 2), 1)
    assert level.frontier_mask()[2, 4]  # the door: nothing beyond it seen yet
    assert nearest_frontier(level, Position(2, 2)) == Position(4, 2)

    shown = lit_room.copy()
    route = [Position(3, 2), Position(4, 2)] + [Position(x, 2) for x in range(5, 9)]
    _dark_walk(truth, level, route, shown)
    frontier = level.frontier_mask()
    walked = [Position(x, 2) for x in range(4, 9)]
    assert not any(frontier[p.y, p.x] for p in walked)
    ahead = Position(9, 2)  # shown because it is next to the hero, its far side never seen
    assert frontier[ahead.y, ahead.x]
    assert list(zip(*np.nonzero(frontier))) == [(2, 9)]
    assert nearest_frontier(level, Position(8, 2)) == ahead
    assert 0 < level.explored_percentage() < 100

    # Walking to the dead end leaves nothing to explore.
    _dark_walk(truth, level, [Position(x, 2) for x in range(9, 12)], shown)
    assert not level.frontier_mask().any()
    assert nearest_frontier(level, Position(11, 2)) is None
    assert level.explored_percentage() == 100.0


def test_a_dark_room_crossed_keeps_frontiers_only_at_its_unseen_edge():
    truth = draw(*["." * 9] * 5)
    level = LevelMemory(0, 1, 1, "Dungeons of Doom")
    shown = np.full_like(truth, G.UNEXPLORED_GLYPH)
    _dark_walk(truth, level, [Position(x, 2) for x in range(0, 5)], shown)
    frontier = level.frontier_mask()
    # Squares seen at distance 1 whose outer side is unseen are frontiers; the walked row is not.
    assert not frontier[2, 0:5].any()
    assert frontier[1, 2] and frontier[3, 2] and frontier[2, 5]
    assert frontier[1, 0] and not frontier[2, 0]  # off the map's left edge there is nothing to find


def test_an_engulfed_or_blind_hero_surveys_only_its_own_square():
    level = LevelMemory(0, 1, 1, "Dungeons of Doom")
    screen = draw("...", "...", "...")
    screen[0:3, 3:6] = nh.GLYPH_SWALLOW_OFF  # an engulfer drawn around the hero at (4, 1)
    screen[1, 4] = HERO
    level.update(screen, Position(4, 1), 1)
    assert level.surveyed[1, 4] and level.surveyed.sum() == 1
    assert level.glyphs[0, 3] == G.UNEXPLORED_GLYPH  # the engulfer's insides are not the map
    level.update(draw("...", "...", "..."), Position(1, 1), 2, blind=True)
    assert level.surveyed.sum() == 2


def test_find_path_returns_none_for_an_unreachable_square_and_empty_for_the_start():
    level = remember(
        "-----   -----",
        "|...|   |...|",
        "-----   -----",
    )
    start = Position(1, 1)
    assert find_path(level, start, start) == []
    assert find_path(level, start, Position(10, 1)) is None
    assert find_nearest(level, start, lambda p: p.x > 8) is None
    assert find_nearest(level, start, lambda p: p.x >= 1) == start  # the start itself counts
    # An unexplored square next to a reachable one is reached by stepping into it.
    assert find_path(level, start, Position(7, 1)) is None
    assert find_path(level, Position(3, 1), Position(4, 1)) == ["e"]  # into the wall: last step only
    with pytest.raises(ValueError):
        find_path(level, start, Position(79, 1))


def test_a_path_into_the_unknown_is_planned_only_when_asked():
    level = remember(
        "-----------",
        "|....|    |",
        "|....|    |",
        "|..../    |",
        "|....|    |",
        "-----------",
        hero=Position(2, 2),
    )
    start, goal = Position(2, 2), Position(8, 1)
    assert find_path(level, start, goal) is None
    path = find_path(level, start, goal, through_unexplored=True)
    squares = follow_path(start, path)
    assert Position(5, 3) in squares and squares[-1] == goal
    i = squares.index(Position(5, 3))
    assert len(path[i]) == 1 and len(path[i + 1]) == 1  # still orthogonal through the door
    assert not any(level.glyphs[p.y, p.x] in (cmap(G.S_VWALL), cmap(2)) for p in squares)
    # Blank squares next to which the hero stood are rock, not unexplored.
    corridor = remember("###", hero=Position(1, 0))
    around = follow_path(Position(1, 0), find_path(corridor, Position(1, 0), Position(1, 2), through_unexplored=True))
    assert around[-1] == Position(1, 2) and not any(p.y == 1 and p.x <= 2 for p in around)


def test_a_closed_door_is_planned_through_orthogonally_at_extra_cost():
    level = remember(
        "-----",
        "|...|",
        "|...+###",
        "|...|",
        "-----",
    )
    start, goal = Position(3, 1), Position(7, 2)
    path = find_path(level, start, goal)
    squares = [start] + follow_path(start, path)
    assert path[:2] == ["s", "e"] and level.is_closed_door(squares[2])
    assert not level.walkable_mask()[2, 4] and level.passable_mask()[2, 4]
    dist = distance_map(level, start)
    assert dist[2, 4] == 1 + 1 + DOOR_PENALTY and dist[2, 5] == dist[2, 4] + 1
    assert dist[0, 0] == -1


def test_an_item_on_the_stairs_keeps_the_stairs_known():
    level = remember(".<..>.")
    assert level.stairs_up == Position(1, 0) and level.stairs_down == Position(4, 0)
    level.update(draw(".)..)."), Position(0, 0), 2)
    assert level.stairs_up == Position(1, 0) and level.stairs_down == Position(4, 0)
    tiles = level.to_dungeon_level(3)
    tile = tiles.tile_at(Position(4, 0))
    assert tile.glyph == DAGGER and tile.char == ")" and tile.feature == "stairs down" and tile.is_walkable
    assert tiles.stairs_down == Position(4, 0) and tiles.level_in_branch == 3


def test_searching_counts_on_the_hero_and_its_neighbours():
    level = remember("...", "...", "...")
    level.record_search(Position(1, 1))
    level.record_search(Position(0, 0))
    assert level.search_count[1, 1] == 2 and level.search_count[2, 2] == 1 and level.search_count[0, 0] == 2
    assert level.to_dungeon_level().tile_at(Position(1, 1)).search_count == 2


def test_a_levels_memory_survives_leaving_and_coming_back():
    game = MapMemory()
    first = game.level_for(0, 1, 1, "Dungeons of Doom")
    first.update(draw("-----", "|.<>|", "-----"), Position(2, 1), 1)
    second = game.level_for(0, 2, 2, "Dungeons of Doom")
    second.update(draw("..."), Position(0, 0), 50)
    mines = game.level_for(2, 3, 3, "Gnomish Mines")
    assert len(game) == 3 and mines is not first and second is not first
    back = game.level_for(0, 1, 1, "Dungeons of Doom")
    assert back is first and back.stairs_down == Position(3, 1)
    assert game.get(0, 1) is first and game.get(5, 5) is None and (2, 3) in game
    # Arriving again shows the remembered map with the hero somewhere else.
    back.update(draw("-----", "|.<@|", "-----"), Position(3, 1), 60)
    assert back.stairs_down == Position(3, 1) and back.glyphs[1, 3] == cmap(G.S_DNSTAIR)


def test_paths_on_random_maps_are_legal_and_as_cheap_as_the_distance_map_says():
    rng = np.random.default_rng(3)
    palette = np.array([FLOOR, FLOOR, FLOOR, cmap(G.S_CORR), cmap(2), cmap(G.S_VWALL), G.UNEXPLORED_GLYPH,
                        cmap(G.S_VODOOR), cmap(G.S_VCDOOR), TRAP, G.BOULDER_GLYPH, cmap(G.S_POOL), DAGGER])
    weights = np.array([30, 30, 30, 20, 8, 8, 8, 4, 3, 3, 2, 2, 2], dtype=float)
    checked = 0
    for _ in range(40):
        level = LevelMemory(0, 1, 1, "Dungeons of Doom")
        level.update(rng.choice(palette, size=(21, 79), p=weights / weights.sum()).astype(np.int16), Position(0, 0), 1)
        walk = np.argwhere(level.walkable_mask() & ~level.trap_mask())
        for _ in range(10):
            (sy, sx), (gy, gx) = walk[rng.integers(len(walk), size=2)]
            start, goal = Position(int(sx), int(sy)), Position(int(gx), int(gy))
            dist = distance_map(level, start)
            path = find_path(level, start, goal)
            if dist[goal.y, goal.x] < 0:
                assert path is None
                continue
            squares = assert_legal(level, start, path, goal)
            assert not any(level.is_trap(p) for p in squares)
            cost = sum(1 + DOOR_PENALTY if level.is_closed_door(p) else 1 for p in squares)
            assert cost == dist[goal.y, goal.x]
            checked += 1
    assert checked > 100


def test_full_21x79_maps_give_level_spanning_paths_and_fold_in_a_walking_monster():
    # How fast these run is `hackwright bench maps` (docs/benchmarks.md), not a test.
    open_floor = LevelMemory(0, 1, 1, "Dungeons of Doom")
    open_floor.update(np.full((21, 79), FLOOR, dtype=np.int16), Position(0, 0), 1)
    serpent = np.full((21, 79), FLOOR, dtype=np.int16)
    for y in range(1, 21, 2):  # walls across, with the gap at alternating ends
        serpent[y, :] = cmap(2)
        serpent[y, 78 if y % 4 == 1 else 0] = FLOOR
    maze = LevelMemory(0, 1, 1, "Dungeons of Doom")
    maze.update(serpent, Position(0, 0), 1)
    pocket = np.full((21, 79), FLOOR, dtype=np.int16)
    pocket[19:, 76] = pocket[19, 76:] = cmap(2)
    shut = LevelMemory(0, 1, 1, "Dungeons of Doom")
    shut.update(pocket, Position(0, 0), 1)

    corner, far = Position(0, 0), Position(78, 20)
    across = find_path(open_floor, corner, far)
    assert len(across) == 78 and assert_legal(open_floor, corner, across, far)
    winding = find_path(maze, corner, Position(0, 20))
    assert len(winding) == 10 * 78 + 1 and assert_legal(maze, corner, winding, Position(0, 20))
    assert find_path(shut, corner, far) is None
    dist = distance_map(open_floor, corner)
    assert dist[20, 78] == 78 and (dist >= 0).all()  # open floor: every square reachable

    for i in range(100):  # a jackal walks east along the top row, one square per screen
        screen = np.where(np.arange(79)[None, :] == i % 79, JACKAL, serpent).astype(np.int16)
        maze.update(screen, Position(i % 79, 0), 2 + i)
    tiles = maze.to_dungeon_level(1)
    assert len(tiles.tiles) == 21 and len(tiles.tiles[0]) == 79
    assert tiles.tiles[1][0].char == "-" and tiles.tiles[1][78].is_walkable
    assert maze.monsters[0].nonzero()[0].tolist() == [99 % 79]  # only where the jackal is now
    assert (maze.glyphs[0] == FLOOR).all()  # the floor it walked over is remembered, not the jackal


# ---------------------------------------------------------------- real MiniHack games

KEYS = {"n": "k", "s": "j", "e": "l", "w": "h", "ne": "u", "nw": "y", "se": "n", "sw": "b"}


class MiniGame:
    """A MiniHack level driven action by action, its screen folded into a LevelMemory."""

    def __init__(self, des: str):
        self.env = gymnasium.make(
            "MiniHack-Navigation-Custom-v0",
            des_file=des,
            actions=nh.ACTIONS,
            observation_keys=("glyphs", "chars", "blstats", "message"),
            max_episode_steps=10_000,
        )
        self.obs, _ = self.env.reset(seed=7)
        self.level = LevelMemory(0, 1, 1, "Dungeons of Doom")
        self._fold()

    @property
    def hero(self) -> Position:
        bl = self.obs["blstats"]
        return Position(int(bl[nh.NLE_BL_X]), int(bl[nh.NLE_BL_Y]))

    def _fold(self) -> None:
        self.level.update(self.obs["glyphs"], self.hero, int(self.obs["blstats"][nh.NLE_BL_TIME]))

    def press(self, key: str) -> None:
        self.obs, _, done, trunc, _ = self.env.step(nh.ACTIONS.index(ord(key)))
        assert not (done or trunc)
        self._fold()

    def close(self) -> None:
        self.env.close()


def des(rows: list[str], extra: str, lit_cols: int) -> str:
    w, h = max(map(len, rows)), len(rows)
    return (
        'MAZE: "mylevel", \' \'\nFLAGS:noteleport\nGEOMETRY:center,center\nMAP\n'
        + "\n".join(r.ljust(w) for r in rows)
        + f'\nENDMAP\nREGION:(0,0,{lit_cols},{h - 1}),lit,"ordinary"\n'
        + "BRANCH:(1,1,1,1),(0,0,0,0)\n"
        + extra
    )


@pytest.fixture
def game_factory():
    games: list[MiniGame] = []

    def make(text: str) -> MiniGame:
        games.append(MiniGame(text))
        return games[-1]

    yield make
    for g in games:
        g.close()


def test_a_real_level_is_remembered_as_nethack_draws_it(game_factory):
    game = game_factory(
        des(
            ["-------", "|.....|", "|.....|", "|.....+", "-------"],
            "DOOR:open,(6,3)\nOBJECT:('`',\"statue\"),(3,3)\nOBJECT:('`',\"boulder\"),(5,1)\n",
            lit_cols=6,
        )
    )
    level, obs = game.level, game.obs
    start = game.hero
    tiles = level.to_dungeon_level(1)
    shown = (obs["chars"] != ord(" ")) & ~level.monsters
    for y, x in zip(*np.nonzero(shown)):
        assert tiles.tiles[y][x].char == chr(obs["chars"][y, x]), (x, y)
    statue = Position(start.x + 2, start.y + 2)
    boulder = Position(start.x + 4, start.y)
    assert tiles.tile_at(statue).is_walkable and not tiles.tile_at(boulder).is_walkable
    door = Position(start.x + 5, start.y + 2)
    assert tiles.tile_at(door).feature == "open door"
    assert level.stairs_up is None  # the hero still stands on it
    game.press("l")
    assert game.hero == Position(start.x + 1, start.y)
    assert level.stairs_up == start and level.to_dungeon_level(1).tile_at(start).char == "<"
    # NetHack lets the hero stand on a statue's square (only boulders block).
    for d in find_path(level, game.hero, statue):
        game.press(KEYS[d])
    assert game.hero == statue and level.glyphs[statue.y, statue.x] == tiles.tile_at(statue).glyph


def test_exploring_a_real_level_by_frontiers_opens_the_door_and_walks_the_dark_corridor(game_factory):
    rows = [
        "---------",
        "|.......|   ######",
        "|.......|   #    #",
        "|.......+####    #",
        "|.......|        ###",
        "---------",
    ]
    game = game_factory(des(rows, "DOOR:closed,(8,3)\n", lit_cols=8))
    level = game.level
    origin = Position(game.hero.x - 1, game.hero.y - 1)  # the drawing's top-left corner on the map
    dead_end = Position(origin.x + 19, origin.y + 4)
    door = Position(origin.x + 8, origin.y + 3)
    assert level.is_closed_door(door)
    opened = False
    for _ in range(200):
        goal = nearest_frontier(level, game.hero)
        if goal is None:
            break
        path = find_path(level, game.hero, goal)
        assert path is not None
        nxt = game.hero.offset(path[0])
        if level.is_closed_door(nxt):
            game.press("o")
            game.press(KEYS[path[0]])  # "In what direction?"; a stuck door is simply tried again
            opened = True
            continue
        someone_there = level.monsters[nxt.y, nxt.x]  # a wandering monster may turn a move into a fight
        game.press(KEYS[path[0]])
        assert game.hero == nxt or someone_there, f"NetHack refused {path[0]}: {bytes(game.obs['message'])!r}"
    assert opened and nearest_frontier(level, game.hero) is None
    assert level.explored_percentage() == 100.0
    assert level.surveyed[dead_end.y, dead_end.x] and level.seen[dead_end.y, dead_end.x]
    assert level.glyphs[door.y, door.x] in (cmap(G.S_VODOOR), cmap(G.S_HODOOR), cmap(G.S_NDOOR))
    # Back home along the remembered corridor, through the doorway orthogonally.
    home = find_path(level, game.hero, origin.offset("se"))
    for d in home:
        nxt = game.hero.offset(d)
        game.press(KEYS[d])
        assert game.hero == nxt
    assert level.stairs_up == Position(origin.x + 1, origin.y + 1)


async def test_a_dagger_lying_on_iron_bars_is_not_a_way_through_them(make_api):
    """Iron bars under an object show the object, which looks like ground. NetHack
    refuses the step ("You cannot pass through the bars.") and takes no time; a map that
    kept the square as ground planned the same step again and again (a Valkyrie in an
    orc-held Minetown reached the 2,000-decision cap so). After one refusal the square
    is known to be impassable, and with the bars all across the room no path is left."""
    from tests.conftest import room_des

    room = ["---------", "|...F...|", "|...F...|", "|...F...|", "---------"]
    des = room_des(room, "OBJECT:(')',\"dagger\"),(4,2)", hero=(3, 2))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    start = api.last_stats.position
    bars, target = Position(start.x + 1, start.y), Position(start.x + 3, start.y)
    first = await api.move_to(target)
    assert not first.success and "cannot pass through the bars" in " ".join(first.messages + [first.error or ""]), first
    assert not (await api.get_current_level()).tile_at(bars).is_walkable
    again = await api.move_to(target)
    assert not again.success and "no known path" in (again.error or ""), again
    assert api.last_stats.position == start


async def test_the_square_a_boulder_was_pushed_off_is_ground_under_the_hero_not_a_boulder(make_api):
    """The @ drawn over the square the hero pushed a boulder from hides its ground, and
    the memory kept the boulder there: a model reading its own square was told
    "boulder", and paths out of it planned as if from rock. It is ground at once."""
    from tests.conftest import room_des

    room = ["--------", "|......|", "|......|", "--------"]
    des = room_des(room, "OBJECT:('`',\"boulder\"),(2,1)", hero=(1, 1))
    api = make_api(des, seed=0, role="valkyrie", race="human", gender="female", alignment="neutral")
    start = api.last_stats.position
    was = Position(start.x + 1, start.y)
    assert not (await api.get_current_level()).tile_at(was).is_walkable
    r = await api.move("e")
    assert r.success and api.last_stats.position == was, r
    level = await api.get_current_level()
    assert level.tile_at(was).is_walkable and "boulder" not in level.tile_at(was).description
    assert "boulder" in level.tile_at(Position(was.x + 1, was.y)).description  # it rolled on

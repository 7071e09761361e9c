"""MiniHack tasks keep their meaning: a real MiniHack game ends, and is scored, as the task says."""

from __future__ import annotations

import pytest
from nle import nethack

from hackwright.env.make import Game, GameConfig, GameOverError
from tests.conftest import room_des

ROOM = "MiniHack-Room-5x5-v0"
STEP = {(-1, -1): "y", (0, -1): "k", (1, -1): "u", (-1, 0): "h", (1, 0): "l", (-1, 1): "b", (0, 1): "j", (1, 1): "n"}


def hero(game: Game) -> tuple[int, int]:
    bl = game.obs["blstats"]
    return int(bl[nethack.NLE_BL_X]), int(bl[nethack.NLE_BL_Y])


def down_stairs(game: Game) -> tuple[int, int]:
    rows, cols = (game.obs["chars"] == ord(">")).nonzero()
    assert len(rows) == 1, "the level shows one down staircase"
    return int(cols[0]), int(rows[0])


def keys_to(start: tuple[int, int], goal: tuple[int, int]) -> str:
    """Straight-line king moves in an open room."""
    (x, y), keys = start, ""
    while (x, y) != goal:
        dx, dy = (goal[0] > x) - (goal[0] < x), (goal[1] > y) - (goal[1] < y)
        keys += STEP[(dx, dy)]
        x, y = x + dx, y + dy
    return keys


@pytest.fixture
def games():
    made: list[Game] = []

    def factory(config: GameConfig) -> Game:
        g = Game(config)
        g.reset()
        made.append(g)
        return g

    yield factory
    for g in made:
        g.close()


@pytest.mark.parametrize("seed", [0, 1])
def test_stepping_onto_the_goal_stairs_of_room_5x5_solves_the_task_and_ends_the_game(games, seed):
    game = games(GameConfig(env_id=ROOM, seed=seed))
    keys = keys_to(hero(game), down_stairs(game))
    assert keys, "the hero does not start on the stairs"
    for i, key in enumerate(keys):
        assert not game.done and game.task_outcome.status == "running"
        game.step_key(ord(key))
    outcome = game.task_outcome
    assert game.done, "MiniHack's task is over on the stairs, so is the game"
    assert outcome.success and outcome.end == "task solved" and outcome.end_reason == "task solved"
    assert outcome.steps == len(keys) and outcome.max_steps == 100
    assert 0.9 < outcome.reward <= 1.0  # MiniHack's win reward, less its time penalties
    assert int(game.obs["blstats"][nethack.NLE_BL_DEPTH]) == 1
    with pytest.raises(GameOverError):
        game.step_key(ord(">"))  # no way down into an ordinary dungeon


def test_a_task_that_runs_out_of_minihack_steps_fails_by_its_time_limit(games):
    game = games(GameConfig(env_id=ROOM, seed=0))
    keys = 0
    while not game.done and keys < 500:
        game.step_key(ord("s"))
        keys += 1
    outcome = game.task_outcome
    assert game.done and keys == outcome.max_steps == 100
    assert not outcome.success and outcome.end == "time limit"
    assert outcome.end_reason == "task failed: time limit (100 steps)"
    assert outcome.reward == 0.0  # MiniHack's losing reward; searching passes turns, so no penalty


ROW = ["-------", "|.....|", "-------"]


def test_a_custom_level_is_a_level_loader_unless_its_task_is_asked_for(games):
    des = room_des(ROW, "STAIR:(3,1),down")
    config = dict(env_id="MiniHack-Navigation-Custom-v0", des_file=des, seed=0, extra={"pet": False})
    plain = games(GameConfig(**config))
    assert plain.task_outcome is None
    for key in keys_to(hero(plain), down_stairs(plain)):
        plain.step_key(ord(key))
    assert not plain.done  # on the stairs, and the game goes on (tests and scenarios rely on it)

    tracked = games(GameConfig(**config, minihack_task=True))
    for key in keys_to(hero(tracked), down_stairs(tracked)):
        tracked.step_key(ord(key))
    assert tracked.done and tracked.task_outcome.success


def test_the_challenge_environment_has_no_task(games):
    game = games(GameConfig(seed=0))
    assert game.task_outcome is None
    game.step_key(ord("s"))
    assert not game.done

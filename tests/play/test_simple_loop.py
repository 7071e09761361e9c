"""The built-in player plays whole games through the API without harness errors."""

import pytest

from hackwright.api import NetHackAPI
from hackwright.api.keyboard import PromptKind
from hackwright.env import GameConfig
from hackwright.play.simple_loop import play_simple


@pytest.mark.parametrize("seed", [1, 2])
async def test_the_simple_player_explores_and_never_leaves_a_prompt_open(seed):
    api = NetHackAPI.new_game(GameConfig(seed=seed))
    summary = await play_simple(api, max_actions=400)
    assert summary.turns > 50
    assert summary.end_reason in ("died", "action limit")
    assert api.game_over or api._kb.prompt().kind is PromptKind.NONE
    api.close()

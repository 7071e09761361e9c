"""Scenarios for the environment layer: seeding, characters, recording."""

import glob
import os

import numpy as np
import pytest

from hackwright.env import EnvConfigError, Game, GameConfig
from hackwright.env.make import OBSERVATION_KEYS


def first_screen(cfg: GameConfig) -> np.ndarray:
    g = Game(cfg)
    obs = g.reset()
    screen = obs["tty_chars"].copy()
    g.close()
    return screen


def test_the_same_seed_gives_the_same_first_screen_twice():
    a = first_screen(GameConfig(seed=7))
    b = first_screen(GameConfig(seed=7))
    assert (a == b).all()


def test_different_seeds_give_different_games():
    assert not (first_screen(GameConfig(seed=7)) == first_screen(GameConfig(seed=8))).all()


def test_the_same_seed_replays_the_same_game_after_the_same_keys():
    screens = []
    for _ in range(2):
        g = Game(GameConfig(seed=11, role="valkyrie"))
        g.reset()
        for k in "jjllkkhhs" * 5:
            if g.done:
                break
            g.step_key(ord(k))
        screens.append(g.obs["tty_chars"].copy())
        g.close()
    assert (screens[0] == screens[1]).all()


def test_the_last_living_stats_survive_the_zeroed_final_observation():
    # NLE zeroes blstats once the game ends; a game that ends in the middle of a
    # multi-key command (here #quit, y and the end-of-game pages) keeps what the last
    # living screen showed
    g = Game(GameConfig(seed=3, role="valkyrie"))
    g.reset()
    before = g.obs["blstats"].copy()
    for k in "#quit\ry":
        g.step_key(ord(k))
    for _ in range(30):  # Escape through the end-of-game questions and pages
        if g.done:
            break
        g.step_key(27)
    assert not g.obs["blstats"].any()
    assert g.live_blstats is not None and (g.live_blstats == before).all()
    g.close()


def test_the_challenge_env_has_every_observation_key_of_the_spec_and_the_full_action_set():
    g = Game(GameConfig(seed=1))
    obs = g.reset()
    for key in OBSERVATION_KEYS:
        assert key in obs, key
    assert obs["screen_descriptions"].shape == (21, 79, 80)
    assert len(g.env.actions) == 121
    g.close()


@pytest.mark.parametrize("role,title", [("valkyrie", "Valkyrie"), ("wizard", "Wizard"), ("samurai", "Samurai")])
def test_a_chosen_role_is_the_role_played(role, title):
    from hackwright.api import NetHackAPI

    api = NetHackAPI.new_game(GameConfig(seed=3, role=role))
    assert api.hero_role == title
    api.close()


def test_race_gender_and_alignment_can_be_chosen():
    cfg = GameConfig(seed=3, role="wizard", race="elf", gender="female", alignment="chaotic")
    assert cfg.character() == "wiz-elf-fem-cha"
    assert GameConfig(role="valkyrie").character() == "val"
    from hackwright.api import NetHackAPI

    api = NetHackAPI.new_game(cfg)
    assert (api.hero_race, api.hero_gender, api.hero_role) == ("elf", "female", "Wizard")
    api.close()


def test_an_unknown_role_is_a_clear_error():
    with pytest.raises(EnvConfigError, match="unknown role 'jedi'.*valkyrie"):
        GameConfig(role="jedi").character()


def test_a_game_can_be_recorded_as_a_ttyrec(tmp_path):
    g = Game(GameConfig(seed=2, ttyrec_dir=str(tmp_path / "rec")))
    g.reset()
    for k in "jjjkkk":
        g.step_key(ord(k))
    g.close()
    files = glob.glob(str(tmp_path / "rec" / "*.ttyrec*"))
    assert files and os.path.getsize(files[0]) > 0


def test_a_minihack_environment_is_made_by_name_and_seeded():
    a = first_screen(GameConfig(env_id="MiniHack-Room-Random-5x5-v0", seed=4))
    b = first_screen(GameConfig(env_id="MiniHack-Room-Random-5x5-v0", seed=4))
    assert (a == b).all()


def test_an_unknown_environment_is_a_clear_error():
    with pytest.raises(EnvConfigError, match="NoSuchHack"):
        Game(GameConfig(env_id="NoSuchHack-v0"))

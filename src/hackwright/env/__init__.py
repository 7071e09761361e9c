"""The environment layer: NLE's full game and MiniHack levels, seeded and recorded."""

from .make import CHALLENGE_ENV, EnvConfigError, Game, GameConfig, GameOverError, make_env, seed_env

__all__ = ["CHALLENGE_ENV", "EnvConfigError", "Game", "GameConfig", "GameOverError", "make_env", "seed_env"]

"""A seeded game does not depend on the wall-clock time it was started at."""

from __future__ import annotations

import ctypes

import _ctypes

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.env.make import BIRTHDAY_BASE, pin_birthday

# A start time (2026-11-26 10:40 UTC) at which NetHack names seed 17's bookstore keeper
# with draws from the game's RNG, where the pinned birthday does not.
OTHER_START = 1_795_680_000


def set_birthday(game, when: int) -> None:
    lib = ctypes.CDLL(game.env.nethack.dlpath)
    try:
        ctypes.c_int64.in_dll(lib, "ubirthday").value = when
    finally:
        _ctypes.dlclose(lib._handle)


def get_birthday(game) -> int:
    lib = ctypes.CDLL(game.env.nethack.dlpath)
    try:
        return ctypes.c_int64.in_dll(lib, "ubirthday").value
    finally:
        _ctypes.dlclose(lib._handle)


async def archeologist_dive(tmp_path, name: str, started_at=None, pinned=True):
    """Seed 17's Archeologist digging down with the autopilot: where and when it ended."""
    agent = Agent(EpisodeConfig(seed=17, llm="autopilot", db_path=str(tmp_path / f"{name}.db"),
                                library_path=str(tmp_path / f"{name}-skills")))
    agent._open()
    game = agent.api.game
    assert get_birthday(game) == BIRTHDAY_BASE + 17 * 86_400
    if started_at is not None:
        set_birthday(game, started_at)  # as NetHack sets it, from the clock, when nothing pins it
        if pinned:
            pin_birthday(game.env, 17)
    for step in range(40):
        if game.done:
            break
        await agent._step(step)
    stats = agent.api.last_stats
    welcome = [m for m in agent.api._kb.history if "Welcome to" in m]
    agent.api.close()
    return (stats.turn, stats.dungeon_level, stats.position), welcome[:1]


async def test_a_seeded_game_plays_the_same_whatever_time_it_was_started(tmp_path):
    """NetHack picks shopkeepers' names from the game's start time, drawing from the game's
    RNG for some start times: two runs of seed 17 four minutes apart dug to Dlvl 26 and
    Dlvl 28 (as the unpinned game here does). The environment pins that time to one per
    seed."""
    pinned = await archeologist_dive(tmp_path, "pinned")
    unpinned = await archeologist_dive(tmp_path, "unpinned", started_at=OTHER_START, pinned=False)
    repinned = await archeologist_dive(tmp_path, "repinned", started_at=OTHER_START)
    assert unpinned[1] != pinned[1], (pinned, unpinned)  # another keeper's name: the clock mattered
    assert repinned == pinned, (pinned, repinned)

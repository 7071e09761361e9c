"""Fixtures for the built-in skills' scenarios: MiniHack levels from tests/levels, a
character without a pet, and a runner for the skill files exactly as a model's would run."""

from __future__ import annotations

from pathlib import Path

import pytest
from minihack.base import MH_NETHACKOPTIONS

import re

from hackwright.api import Position
from hackwright.sandbox.runner import SkillRunner

ROOT = Path(__file__).resolve().parents[3]
BUILTIN = ROOT / "src" / "hackwright" / "skills" / "builtin"
LEVELS = ROOT / "tests" / "levels"

# MiniHack's own "no pet" option is dropped when the character is chosen, so name it here;
# and the full game's pick-up limit (NetHack asks before a pick-up would burden the hero).
QUIET = MH_NETHACKOPTIONS + ("!autopickup", "pettype:none", "pickup_burden:unencumbered")
CHARACTERS = {
    "valkyrie": dict(role="valkyrie", race="human", gender="female", alignment="neutral"),
    "samurai": dict(role="samurai", race="human", gender="male", alignment="lawful"),
    "wizard": dict(role="wizard", race="elf", gender="male", alignment="chaotic"),
    "caveman": dict(role="caveman", race="human", gender="male", alignment="neutral"),
    "ranger": dict(role="ranger", race="human", gender="female", alignment="neutral"),
    "tourist": dict(role="tourist", race="human", gender="male", alignment="neutral"),
    "healer": dict(role="healer", race="human", gender="female", alignment="neutral"),
    "archeologist": dict(role="archeologist", race="dwarf", gender="male", alignment="lawful"),
    "barbarian": dict(role="barbarian", race="human", gender="male", alignment="neutral"),
    "monk": dict(role="monk", race="human", gender="male", alignment="neutral"),
}


def skill_path(name: str) -> Path:
    hits = sorted(BUILTIN.glob(f"*/{name}.py"))
    assert len(hits) == 1, f"built-in skill {name!r}: {hits}"
    return hits[0]


def skill_source(name: str) -> str:
    return skill_path(name).read_text()


def level(name: str) -> str:
    return (LEVELS / f"{name}.des").read_text()


@pytest.fixture
def play(make_api, capfd):
    """play(level_name, hero="valkyrie", seed=0, options=QUIET) -> NetHackAPI on that MiniHack level, no pet.

    MiniHack centres the drawing on the map; ``spot(api, x, y)`` turns drawing
    coordinates (as in the des-file) into map positions."""

    def factory(level_name: str, hero: str = "valkyrie", seed: int = 0, options: tuple = QUIET):
        text = level(level_name)
        api = make_api(text, seed=seed, extra={"options": options}, **CHARACTERS[hero])
        # A des-file NetHack cannot parse gives a random level instead, silently but for stderr.
        err = capfd.readouterr().err
        assert "error" not in err.lower(), f"{level_name}.des: {err}"
        bx, by = map(int, re.search(r"BRANCH:\((\d+),(\d+),", text).groups())
        start = api.last_stats.position
        api.test_origin = Position(start.x - bx, start.y - by)
        return api

    return factory


def spot(api, x: int, y: int) -> Position:
    """The map position of drawing coordinates (x, y) of the level being played."""
    return Position(api.test_origin.x + x, api.test_origin.y + y)


async def message_log(api) -> str:
    """Every message of the game so far, as one string."""
    return " ".join(await api.get_messages(10_000))


async def starve(api, until, limit: int = 3000) -> None:
    """Let turns pass (searching) until the hero is at least as hungry as ``until``."""
    while (await api.get_stats()).hunger.severity < until.severity:
        assert (await api.get_stats()).turn < limit, "never got hungry"
        res = await api.search(50)
        assert res.success, res


async def run_skill(api, name: str, mode: str = "inprocess", **params):
    """Run a built-in skill file on ``api``; returns the SkillOutcome."""
    runner = SkillRunner(api, mode=mode)
    try:
        return await runner.run(skill_source(name), params)
    finally:
        runner.close()

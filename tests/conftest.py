"""Shared fixtures: real games only (NLE's challenge env or MiniHack des-files)."""

from __future__ import annotations

import pytest

from hackwright.api import NetHackAPI
from hackwright.env import GameConfig


def room_des(rows: list[str], extra: str = "", hero: tuple[int, int] = (1, 1)) -> str:
    """A MiniHack level from a map drawing; the hero starts on an up staircase at ``hero``
    (map coordinates of the drawing)."""
    h, w = len(rows), max(len(r) for r in rows)
    body = "\n".join(r.ljust(w) for r in rows)
    x, y = hero
    return (
        'MAZE: "mylevel", \' \'\nFLAGS:noteleport\nGEOMETRY:center,center\nMAP\n'
        f"{body}\nENDMAP\n"
        f'REGION:(0,0,{w - 1},{h - 1}),lit,"ordinary"\n'
        f"BRANCH:({x},{y},{x},{y}),(0,0,0,0)\n"
        f"{extra}\n"
    )


def pytest_addoption(parser):
    parser.addoption(
        "--no-sandbox-layer", action="append", default=[], metavar="LAYER",
        help="tests/sandbox/test_escapes.py: keep LAYER off in the runs that expect it to hold, so every case "
             "that claims it must fail (repeatable; 'all' for every layer)")


def pytest_configure(config):
    names = config.getoption("--no-sandbox-layer")
    if names:
        from tests.sandbox.escape_host import TEST_LAYERS

        unknown = sorted(set(names) - set(TEST_LAYERS) - {"all"})
        if unknown:
            raise pytest.UsageError(f"--no-sandbox-layer: unknown layer {', '.join(unknown)}; "
                                    f"choose from {', '.join(TEST_LAYERS)} or all")


@pytest.fixture
def make_api():
    """Factory: make_api(des=..., seed=..., **GameConfig fields) -> NetHackAPI; closed after the test."""
    made: list[NetHackAPI] = []

    def factory(des: str | None = None, seed: int = 0, **kw) -> NetHackAPI:
        if des is not None:
            kw.setdefault("env_id", "MiniHack-Navigation-Custom-v0")
            kw["des_file"] = des
            kw.setdefault("extra", {"pet": False})
        api = NetHackAPI.new_game(GameConfig(seed=seed, **kw))
        made.append(api)
        return api

    yield factory
    for api in made:
        api.close()

"""BALROG's NetHack progression metric.

The table (``data/balrog_achievements.json``, MIT, from the BALROG benchmark —
provenance and licence in ``data/BALROG-SOURCE.md``) gives, for each dungeon level
and experience level, the share of human games that went on to win after reaching
it. An episode's progression is the larger of the two values for the deepest level
and the highest experience level reached during the episode. Track the maxima as
the game goes: NLE zeroes the status line in its final observation.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def table() -> dict[str, float]:
    data = resources.files("hackwright.eval").joinpath("data/balrog_achievements.json").read_text()
    return json.loads(data)


def progression(max_depth: int, max_xp_level: int) -> float:
    """Progression in [0, 1] (×100 for the leaderboard's percent)."""
    t = table()
    depth = min(max(int(max_depth), 1), 50)
    xl = min(max(int(max_xp_level), 1), 30)
    return max(t.get(f"Dlvl:{depth}", 0.0), t.get(f"Xp:{xl}", 0.0))

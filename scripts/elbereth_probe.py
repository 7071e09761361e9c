"""How often a monster beside the hero strikes in the turn "Elbereth" is engraved, and the next.

A real MiniHack room per game: a human Valkyrie with the monster one square east
(``--corner``: the hero in the room's corner). The hero searches once so the monster
wakes and closes in, engraves Elbereth in the dust through the API, then searches one
turn. Usage:

    python scripts/elbereth_probe.py rothe --games 50 [--corner]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hackwright.api import NetHackAPI  # noqa: E402
from hackwright.env.make import GameConfig  # noqa: E402
from tests.conftest import room_des  # noqa: E402

ROOM = ["-----------", "|.........|", "|.........|", "|.........|", "-----------"]
STRUCK = re.compile(r"\b(bites|hits|butts|stings|kicks|claws|touches)\b")


async def one_game(seed: int, monster: str, corner: bool):
    hero, beside = ((1, 1), (2, 1)) if corner else ((4, 2), (5, 2))
    des = room_des(ROOM, f'MONSTER:"{monster}",({beside[0]},{beside[1]}),hostile', hero=hero)
    api = NetHackAPI.new_game(GameConfig(seed=seed, env_id="MiniHack-Navigation-Custom-v0", des_file=des,
                                         extra={"pet": False}, role="valkyrie", race="human",
                                         gender="female", alignment="neutral"))
    try:
        await api.search()
        here = (await api.get_stats()).position
        if not any(m.position.is_adjacent(here) and not m.is_tame for m in await api.get_visible_monsters()):
            return None  # it did not come: no trial
        engraved = await api.engrave("Elbereth")
        after = await api.search()
        return bool(STRUCK.search(" ".join(engraved.messages))), bool(STRUCK.search(" ".join(after.messages)))
    finally:
        api.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("monster", help="a monster name, e.g. rothe")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--corner", action="store_true", help="the hero in a corner of the room")
    args = ap.parse_args()
    trials = [t for t in [await one_game(s, args.monster, args.corner) for s in range(args.games)] if t]
    print(f"{args.monster}: {len(trials)} trials; struck in the engraving turn {sum(a for a, _ in trials)}, "
          f"on the next turn {sum(b for _, b in trials)}")


if __name__ == "__main__":
    asyncio.run(main())

"""Play the hostile 40-decision scripted game (tests/agent/hostile_game.py: a scripted
model on 127.0.0.1 that writes everything long) and print the size of its requests:

    python scripts/request_sizes.py                 # no prompt budget
    python scripts/request_sizes.py --budget 9000   # agent.max_prompt_tokens = 9000

"largest request N chars, total M chars over K requests" counts what a model reads as
tokens: every message's text and the decide tool's definition.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout, for tests.agent

from tests.agent.hostile_game import DECISIONS, play  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=None, help="max_prompt_tokens (≈ tokens); default: none")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="request-sizes-") as tmp:
        played = asyncio.run(play(Path(tmp), args.budget))
    s = played.summary
    budget = f"budget {args.budget:,} ≈ tokens" if args.budget else "no budget"
    print(f"{DECISIONS}-decision scripted game, {budget}: {s.decisions} decisions, end: {s.end_reason}")
    if played.bodies:
        print(played.report())
    else:
        print("no request was sent")


if __name__ == "__main__":
    main()

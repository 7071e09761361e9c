"""The per-episode table of an evaluation's autopilot games, in markdown, with its summary line:

    python scripts/episode_table.py runs/HEAD-0-39 [--agent autopilot]

One row per seed (seed, role, score, max depth, experience level, turns, how it ended,
the game turn a digging tool was first carried), then the mean BALROG progression, the
median max depth, the games at Dlvl 10 or deeper, the digging tools and the harness
errors (episodes that ended other than by death, ascension or the turn cap).
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="an eval --out folder (or its episodes.jsonl)")
    ap.add_argument("--agent", default="autopilot")
    args = ap.parse_args()
    path = Path(args.run)
    path = path / "episodes.jsonl" if path.is_dir() else path
    games = {}
    for line in path.read_text().splitlines():
        e = json.loads(line)
        if e.get("agent", e.get("strategist")) == args.agent:
            games[e["seed"]] = e  # a seed played again (resumed) keeps its last episode
    if not games:
        raise SystemExit(f"{path}: no {args.agent} episodes")
    print("| seed | role | score | max Dlvl | XL | turns | end | digging tool (turn) |")
    print("|---|---|---|---|---|---|---|---|")
    for seed in sorted(games):
        e = games[seed]
        tool = e.get("digging_tool_turn")
        print(f"| {seed} | {e['role']} | {e['score']} | {e['max_depth']} | {e['max_xp_level']} | {e['turns']} | "
              f"{e.get('death_reason') or e['end_reason']} | {'-' if tool is None else tool} |")
    rows = list(games.values())
    depths = [e["max_depth"] for e in rows]
    progression = [100 * e["progression"] for e in rows]
    errors = sum(e["end_reason"] not in ("death", "turn cap", "ascended") for e in rows)
    print(f"\n{len(rows)} games: mean progression {statistics.mean(progression):.2f}%, "
          f"median max depth {statistics.median(depths)}, Dlvl 10+ {sum(d >= 10 for d in depths)}, "
          f"digging tools {sum(e.get('digging_tool_turn') is not None for e in rows)}, harness errors {errors}")


if __name__ == "__main__":
    main()

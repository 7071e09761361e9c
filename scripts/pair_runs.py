"""Compare two `hackwright eval` outputs seed by seed (the autopilot's episodes only):

    python scripts/pair_runs.py runs/variant runs/baseline          # summary lines
    python scripts/pair_runs.py runs/variant runs/baseline -v       # and every changed game
    python scripts/pair_runs.py runs/variant runs/baseline --last 12 --seed 1082

A and B are eval --out directories (or episodes.jsonl files, or shell globs of them,
quoted: "runs/v-c*"), or several such joined by commas, a later one's games replacing an
earlier one's of the same seed ("/tmp/ev/base-*,/tmp/ev/base-rerun": a baseline whose
few games a later change touched were played again). Games are deterministic per seed
and play code, so a rule that never fires leaves its games unchanged: the pair shows which games a change touched and
what it did to them. The summary counts the games that reached Dlvl 10 (+ those A lifted
there, - those it lost), progression, digging tools and the mean depth difference, over
the seeds both played, split into 0-39, 40-79 and the rest (the selection seeds 0-79
flatter every kept change; judge a change that reshuffles most games on fresh seeds),
with a 95% paired bootstrap interval of the mean differences in progression and depth.
--seed with --last N prints that seed's last N decisions in A (from its runs.db).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hackwright.store import db as store_db  # noqa: E402
from hackwright.store import episodes as store_episodes  # noqa: E402


def _files(spec: str) -> list[Path]:
    out = []
    for hit in sorted(glob.glob(spec)) or [spec]:
        p = Path(hit)
        p = p / "episodes.jsonl" if p.is_dir() else p
        if p.suffix == ".jsonl" and p.exists():  # (a glob of run folders also matches their logs)
            out.append(p)
    if not out:
        raise SystemExit(f"{spec}: no episodes.jsonl there (give eval --out folders or episodes.jsonl files)")
    return out


def _autopilot_episodes(spec: str):
    """(episodes.jsonl path, episode summary) for every autopilot episode in spec (in the
    order of its comma-separated parts)."""
    for f in [f for part in spec.split(",") for f in _files(part)]:
        for line in filter(None, f.read_text().splitlines()):
            e = json.loads(line)
            if e.get("strategist") == "autopilot":
                yield f, e


def load(spec: str) -> dict[int, dict]:
    """seed -> the autopilot's episode summary, from every episodes.jsonl in spec."""
    return {e["seed"]: e for _, e in _autopilot_episodes(spec)}


def summary(a: dict[int, dict], b: dict[int, dict], seeds: list[int]) -> str:
    n = max(1, len(seeds))
    deep_a = sum(a[k]["max_depth"] >= 10 for k in seeds)
    deep_b = sum(b[k]["max_depth"] >= 10 for k in seeds)
    lifted = sum(b[k]["max_depth"] < 10 <= a[k]["max_depth"] for k in seeds)
    lost = sum(a[k]["max_depth"] < 10 <= b[k]["max_depth"] for k in seeds)
    prog_a = sum(a[k]["progression"] for k in seeds) / n * 100
    prog_b = sum(b[k]["progression"] for k in seeds) / n * 100
    tools_a = sum(a[k].get("digging_tool_turn") is not None for k in seeds)
    tools_b = sum(b[k].get("digging_tool_turn") is not None for k in seeds)
    depth = sum(a[k]["max_depth"] - b[k]["max_depth"] for k in seeds) / n
    prog_ci = _bootstrap([100 * (a[k]["progression"] - b[k]["progression"]) for k in seeds])
    depth_ci = _bootstrap([a[k]["max_depth"] - b[k]["max_depth"] for k in seeds])
    return (f"n={len(seeds)} Dlvl 10+ A {deep_a} / B {deep_b} (+{lifted} -{lost}), progression "
            f"A {prog_a:.2f}% / B {prog_b:.2f}% (A-B {prog_ci}), tools A {tools_a} / B {tools_b}, "
            f"mean depth A-B {depth:+.2f} ({depth_ci})")


def _bootstrap(diffs: list[float], draws: int = 5000) -> str:
    """The 95% interval of the mean of paired differences, resampling the seeds (fixed
    generator seed: the same runs give the same interval)."""
    if len(diffs) < 2:
        return "too few games for an interval"
    rng = random.Random(0)
    means = sorted(sum(rng.choices(diffs, k=len(diffs))) / len(diffs) for _ in range(draws))
    return f"95% [{means[int(0.025 * draws)]:+.2f}, {means[int(0.975 * draws) - 1]:+.2f}]"


def game(e: dict) -> str:
    return f"D{e['max_depth']} XL{e['max_xp_level']} T{e['turns']} {e.get('death_reason') or e['end_reason']}"


def last_decisions(spec: str, seed: int, count: int) -> None:
    for f, e in _autopilot_episodes(spec):
        if e.get("seed") != seed:
            continue
        conn = store_db.connect(f.parent / "runs.db")
        rows = store_episodes.decisions_of(conn, e["episode_id"])[-count:]
        print(f"seed {seed} {e['role']}: {game(e)}")
        for r in rows:
            what = r["skill_name"] or "key"
            print(f"  T{r['turn']} {what} {(r['params'] or '')[:80]} -> {r['stopped_reason']} | "
                  f"{(r['reasoning'] or '')[:120]}")
        return
    print(f"seed {seed}: no autopilot episode in {spec}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("a", help="the variant: an eval --out directory, episodes.jsonl, or a quoted glob")
    parser.add_argument("b", nargs="?", help="the baseline, the same way")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every game that changed")
    parser.add_argument("--seed", type=int, help="with --last: the seed whose decisions to print (from A)")
    parser.add_argument("--last", type=int, default=12, help="how many of the seed's last decisions")
    args = parser.parse_args()
    if args.seed is not None:
        last_decisions(args.a, args.seed, args.last)
        return
    if args.b is None:
        parser.error("give a baseline B to pair with, or --seed to read A's decisions")
    a, b = load(args.a), load(args.b)
    common = sorted(set(a) & set(b))
    print(summary(a, b, common))
    for lo, hi in ((0, 40), (40, 80), (80, 10**9)):
        part = [k for k in common if lo <= k < hi]
        if part:
            print(f"  seeds {lo}-{hi - 1 if hi < 10**9 else ''}: {summary(a, b, part)}")
    changed = [k for k in common if (a[k]["max_depth"], a[k]["turns"], a[k]["score"]) !=
               (b[k]["max_depth"], b[k]["turns"], b[k]["score"])]
    print(f"{len(changed)} of {len(common)} games changed")
    if args.verbose:
        for k in changed:
            print(f"  seed {k} {a[k]['role']}: A {game(a[k])}  |  B {game(b[k])}")


if __name__ == "__main__":
    main()

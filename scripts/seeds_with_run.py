"""The seeds whose autopilot games ran a skill that ended a given way, to replay only them:

    python scripts/seeds_with_run.py "/tmp/ev/base-*" quaff_or_zap_to_survive nothing_to_use --data bounce
    scripts/variant_eval.sh /tmp/wt-x x-hit $(python scripts/seeds_with_run.py ... )

A change to the autopilot's rules that acts only where such a run happens leaves every
other game identical (games are deterministic per seed and play code): play the variant
on these seeds alone and pair them with the same seeds of the baseline
(docs/development/measuring.md). Prints the seeds comma-separated, for --seeds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pair_runs import _autopilot_episodes  # noqa: E402

from hackwright.store import db as store_db  # noqa: E402
from hackwright.store import skills as store_skills  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", help="eval --out folders (a quoted shell glob is fine)")
    ap.add_argument("skill", help="the skill's name, e.g. get_digging_tool")
    ap.add_argument("reason", nargs="?", help="its stopped_reason, e.g. too_strong (any if left out)")
    ap.add_argument("--data", default="", help="text its result data must hold, e.g. a 'why'")
    args = ap.parse_args()
    by_folder: dict[Path, list] = {}
    for f, e in _autopilot_episodes(args.runs):
        by_folder.setdefault(f.parent, []).append(e)
    seeds = set()
    for folder, eps in by_folder.items():
        if not (folder / "runs.db").exists():
            continue
        conn = store_db.connect(folder / "runs.db")
        hit = set(store_skills.episodes_with_run(conn, args.skill, args.reason, args.data))
        seeds |= {e["seed"] for e in eps if e.get("episode_id") in hit}
    print(",".join(str(s) for s in sorted(seeds)))


if __name__ == "__main__":
    main()

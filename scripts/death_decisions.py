"""What the autopilot was doing when its heroes died short of Dlvl 10, grouped:

    python scripts/death_decisions.py "/tmp/ev/base-*"                 # by the last decision
    python scripts/death_decisions.py "/tmp/ev/base-*" --before        # by the skill run before it
    python scripts/death_decisions.py "/tmp/ev/base-*" --match "pray even if"   # who killed them

Runs are eval --out folders (a quoted glob, or several joined by commas as in
pair_runs.py). The last decision's reasoning is grouped with its numbers and the
monster it names blanked out ("HP low with X next to me: Elbereth, and rest on it");
--before groups by the decision before the last instead (skill and how it ended: the
fight or rest that brought the hero to its last decision); --match lists, for the
deaths whose last reasoning holds that text, the killers and the seeds. A category
with many deaths is where a rule or skill may be failing; the seeds go to
scripts/variant_eval.sh (docs/development/measuring.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pair_runs import _autopilot_episodes  # noqa: E402

from hackwright.store import db as store_db  # noqa: E402
from hackwright.store import episodes as store_episodes  # noqa: E402

_END = r"(?= next| is| on|:|,| that| which| slower| likely| zaps| shoots| in | asleep|$)"
_NAMED = re.compile(r"\b(next to|beside|with|fight) (?!me\b)(an? |the )?[a-z][a-z -]*?" + _END)
_SUBJECT = re.compile(r"^the [a-z][a-z -]*?" + _END)


def category(reasoning: str) -> str:
    """A decision's reasoning with its numbers and the monster it names blanked out."""
    text = _SUBJECT.sub("the X", re.sub(r"\d+", "N", reasoning or ""))
    return _NAMED.sub(lambda m: f"{m.group(1)} X", text)[:100]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("runs", help="eval --out folders (a quoted glob; several joined by commas)")
    ap.add_argument("--before", action="store_true", help="group by the decision before the last")
    ap.add_argument("--match", help="list killers and seeds of the deaths whose last reasoning holds this")
    ap.add_argument("--top", type=int, default=30, help="how many groups to print")
    args = ap.parse_args()
    groups: Counter = Counter()
    seeds: dict[str, list[int]] = defaultdict(list)
    killers: Counter = Counter()
    matched: list[int] = []
    conns: dict[Path, object] = {}
    for f, e in _autopilot_episodes(args.runs):
        if e["end_reason"] != "death" or e["max_depth"] >= 10 or not (f.parent / "runs.db").exists():
            continue
        conn = conns.setdefault(f.parent, store_db.connect(f.parent / "runs.db"))
        rows = store_episodes.decisions_of(conn, e["episode_id"])
        if len(rows) < (2 if args.before else 1):
            continue
        last = rows[-1]
        if args.match is not None:
            if args.match in (last["reasoning"] or ""):
                killers[re.sub(r"^killed by (an? )?", "", e.get("death_reason") or "")] += 1
                matched.append(e["seed"])
            continue
        if args.before:
            prev = rows[-2]
            key = f"{prev['skill_name'] or prev['type']} -> {prev['stopped_reason']}"
        else:
            key = category(last["reasoning"])
        groups[key] += 1
        seeds[key].append(e["seed"])
    if args.match is not None:
        print(f"{len(matched)} deaths short of Dlvl 10 whose last decision says {args.match!r}")
        print("killers: " + ", ".join(f"{k} {v}" for k, v in killers.most_common()))
        print("seeds: " + ",".join(map(str, sorted(matched))))
        return
    total = sum(groups.values())
    print(f"{total} deaths short of Dlvl 10")
    for key, count in groups.most_common(args.top):
        print(f"{count:5d}  {key}  e.g. {','.join(map(str, seeds[key][:5]))}")


if __name__ == "__main__":
    main()

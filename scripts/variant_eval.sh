#!/usr/bin/env bash
# Play the autopilot of a git worktree on many seeds, detached, for a paired comparison:
#
#   git worktree add /tmp/wt-x HEAD          # then change the play code there
#   scripts/variant_eval.sh /tmp/wt-x x-t1 0-149 --role tourist
#   scripts/variant_eval.sh /work/main base-t1 0-149 --role tourist
#   python scripts/pair_runs.py /tmp/ev/x-t1 /tmp/ev/base-t1
#
# Runs `hackwright eval` with the worktree's own src/ first on PYTHONPATH (the venv's
# editable install points at the main checkout), TZ=UTC-8 like the official runs (the
# moon phase is fixed, but night-time rules read the clock), --workers 1, --max-turns
# 50000 and --no-report, into $EVAL_DIR/NAME (default /tmp/ev) with its log beside it.
# Further arguments go to eval: --role ROLE gives that role on every seed, the quick
# way to measure a change that only one role's kit can trigger. Three of these at once
# on two cores play about 6-9 games a minute each (a Tourist game; strong roles take longer).
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
tree=$(cd "$1" && pwd); name=$2; seeds=$3; shift 3
out=${EVAL_DIR:-/tmp/ev}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
hw="$here/.venv/bin/hackwright"
[ -x "$hw" ] || { echo "no $hw: run ./bootstrap test once in $here" >&2; exit 1; }
cd "$tree"
PYTHONPATH="$tree/src" TZ=UTC-8 setsid nohup "$hw" eval --agent autopilot --seeds "$seeds" --workers 1 \
  --max-turns 50000 --no-report --out "$out/$name" "$@" > "$out/$name.log" 2>&1 < /dev/null &
echo "playing into $out/$name (log: $out/$name.log)"

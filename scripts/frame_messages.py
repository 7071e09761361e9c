"""The game's messages of one recorded episode, each with its turn and HP, to read what
happened around a moment (a death, a skill that gave up):

    python scripts/frame_messages.py "/tmp/ev/base-*" 5822 --from 2150 --to 2260
    python scripts/frame_messages.py "/tmp/ev/base-*" 5822 --last 40 --screen
    python scripts/frame_messages.py "/tmp/ev/base-*" 5822 --match "You read:"

Runs are eval --out folders (a quoted glob; the first that holds the seed's autopilot
frames is read). Repeated screens of one message print once; prompts and extended commands
typed letter by letter ("What do you want to write in the dust here? Elbe", "# ter")
print only when complete.
--screen also prints the last frame shown, as the terminal had it.
"""

from __future__ import annotations

import argparse
import glob
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hackwright.replay.frames import iter_frames  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("runs", help="eval --out folders (a quoted glob)")
    ap.add_argument("seed", type=int)
    ap.add_argument("--from", dest="lo", type=int, default=0, help="first game turn to show")
    ap.add_argument("--to", dest="hi", type=int, default=10**9, help="last game turn to show")
    ap.add_argument("--last", type=int, help="only the last N messages of the window")
    ap.add_argument("--match", help="only messages matching this regular expression")
    ap.add_argument("--screen", action="store_true", help="also print the last frame shown")
    args = ap.parse_args()
    files = [f for g in args.runs.split(",") for f in sorted(glob.glob(
        f"{g}/episodes/autopilot-seed{args.seed}/frames.bin"))]
    if not files:
        raise SystemExit(f"no autopilot frames of seed {args.seed} in {args.runs}")
    pattern = re.compile(args.match) if args.match else None
    shown, last_frame, previous = [], None, None
    frames = list(iter_frames(files[0]))
    for i, fr in enumerate(frames):
        turn = fr.stat("turn")
        if not args.lo <= turn <= args.hi:
            continue
        last_frame = fr
        text = fr.message or ""
        if not text or text == previous:
            continue
        following = frames[i + 1].message if i + 1 < len(frames) else ""
        if following and following != text and following.startswith(text) and text[-1] not in ".!":
            continue  # a prompt or extended command still being typed
        previous = text
        if pattern is None or pattern.search(text):
            shown.append(f"T{turn} HP {fr.stat('hp')}({fr.stat('hpmax')}) Dlvl {fr.stat('depth')}: {text}")
    for line in shown[-args.last:] if args.last else shown:
        print(line)
    if args.screen and last_frame is not None:
        print("\n".join(last_frame.tty_lines()))


if __name__ == "__main__":
    main()

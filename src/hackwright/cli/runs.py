"""`hackwright runs`: episodes recorded in the run database."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .common import SEED_HELP, app, console, print_rows


runs_app = typer.Typer(help="Episodes recorded in the run database.", no_args_is_help=True)
app.add_typer(runs_app, name="runs")


def _runs_db(db: Optional[str]):
    from ..store.db import connect
    from .common import load_config_or_exit

    path = db or str(load_config_or_exit().get("memory", "database_path"))
    if not Path(path).exists():
        console.print(f"no run database at {path}")
        raise typer.Exit(1)
    return connect(path, check=False)


@runs_app.command("list")
def runs_list(db: Optional[str] = typer.Option(None, help="The run database."),
              limit: int = typer.Option(20, help="How many of the latest episodes.")) -> None:
    """The latest episodes: strategist, seed, role, score, depth, turns, how they ended.

    "stand-in" counts the decisions another strategist made (the autopilot as the
    fallback for a failed model, or breaking a loop) of all the episode's decisions."""
    from ..store.episodes import latest_episodes

    conn = _runs_db(db)
    table = Table(title="Episodes")
    for col in ("id", "started", "strategist", "seed", "role", "score", "depth", "XL", "turns", "progress",
                "stand-in", "ended by"):
        table.add_column(col)
    for r in latest_episodes(conn, limit):
        stand_in = int(r["fallback_decisions"] or 0) + int(r["loop_break_decisions"] or 0)
        table.add_row(str(r["id"]), (r["started_at"] or "")[:19], r["strategist"] or "", str(r["seed"]),
                      r["role"] or "", str(r["final_score"]), str(r["max_depth"]), str(r["max_xp_level"]),
                      str(r["total_turns"]), f"{(r['progression'] or 0) * 100:.2f}%",
                      f"{stand_in}/{r['decisions'] or 0}",
                      (r["end_reason"] or "running") + (f": {r['death_reason']}" if r["death_reason"] else ""))
    console.print(table)


@runs_app.command("show")
def runs_show(episode_id: int = typer.Argument(..., help="An episode id from `runs list`."),
              db: Optional[str] = typer.Option(None, help="The run database.")) -> None:
    """One episode: its summary and every decision with its outcome."""
    import json

    from ..agent.episode import EpisodeSummary
    from ..store.episodes import decisions_of, episode
    from .play import print_summary

    conn = _runs_db(db)
    r = episode(conn, episode_id)
    if r is None:
        console.print(f"no episode {episode_id}")
        raise typer.Exit(1)
    try:
        fields = set(EpisodeSummary.__dataclass_fields__)
        kept = {k: v for k, v in json.loads(r["summary"]).items() if k in fields}
        kept["episode_id"] = episode_id  # a parallel eval played it under another id in a private database
        print_summary(EpisodeSummary(**kept))
    except (TypeError, ValueError):  # still running, or written by an older version
        console.print(r["summary"] or dict(r), markup=False, highlight=False)
    table = Table(title="Decisions")
    for col in ("step", "turn", "by", "type", "skill", "params", "stopped", "ok", "error"):
        table.add_column(col)
    for d in decisions_of(conn, episode_id):
        by = d["decided_by"] if "decided_by" in d.keys() else None
        table.add_row(str(d["step"]), str(d["turn"]), by or "", d["type"], d["skill_name"] or "",
                      (d["params"] or "")[:40], d["stopped_reason"] or "", "✓" if d["success"] else "",
                      (d["error"] or "")[:60])
    console.print(table)

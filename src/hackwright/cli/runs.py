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
    from ..config import load_config
    from ..store.db import connect

    path = db or str(load_config().get("memory", "database_path"))
    if not Path(path).exists():
        console.print(f"no run database at {path}")
        raise typer.Exit(1)
    return connect(path, check=False)


@runs_app.command("list")
def runs_list(db: Optional[str] = typer.Option(None, help="The run database."),
              limit: int = typer.Option(20, help="How many of the latest episodes.")) -> None:
    """The latest episodes: strategist, seed, role, score, depth, turns, how they ended."""
    conn = _runs_db(db)
    table = Table(title="Episodes")
    for col in ("id", "started", "strategist", "seed", "role", "score", "depth", "XL", "turns", "progress", "ended by"):
        table.add_column(col)
    for r in conn.execute("SELECT * FROM episodes ORDER BY id DESC LIMIT ?", (limit,)):
        table.add_row(str(r["id"]), (r["started_at"] or "")[:19], r["strategist"] or "", str(r["seed"]),
                      r["role"] or "", str(r["final_score"]), str(r["max_depth"]), str(r["max_xp_level"]),
                      str(r["total_turns"]), f"{(r['progression'] or 0) * 100:.2f}%",
                      (r["end_reason"] or "running") + (f": {r['death_reason']}" if r["death_reason"] else ""))
    console.print(table)


@runs_app.command("show")
def runs_show(episode_id: int = typer.Argument(..., help="An episode id from `runs list`."),
              db: Optional[str] = typer.Option(None, help="The run database.")) -> None:
    """One episode: its summary and every decision with its outcome."""
    conn = _runs_db(db)
    r = conn.execute("SELECT * FROM episodes WHERE id=?", (episode_id,)).fetchone()
    if r is None:
        console.print(f"no episode {episode_id}")
        raise typer.Exit(1)
    console.print(r["summary"] or dict(r), markup=False, highlight=False)
    table = Table(title="Decisions")
    for col in ("step", "turn", "type", "skill", "params", "stopped", "ok", "error"):
        table.add_column(col)
    for d in conn.execute("SELECT * FROM decisions WHERE episode_id=? ORDER BY id", (episode_id,)):
        table.add_row(str(d["step"]), str(d["turn"]), d["type"], d["skill_name"] or "", (d["params"] or "")[:40],
                      d["stopped_reason"] or "", "✓" if d["success"] else "", (d["error"] or "")[:60])
    console.print(table)

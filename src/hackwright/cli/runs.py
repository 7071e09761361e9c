"""`hackwright runs`: episodes recorded in the run database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .common import app, console


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
              db: Optional[str] = typer.Option(None, help="The run database."),
              as_json: bool = typer.Option(False, "--json", help="Print the whole episode as JSON instead: its "
                                                                 "row, its summary (with the timeline) and "
                                                                 "every decision.")) -> None:
    """One episode: its summary table, then every decision with its outcome.

    With --json, everything the database holds about it, the timeline of turns, depths and
    levels included."""
    from ..store.episodes import decisions_of, episode

    conn = _runs_db(db)
    r = episode(conn, episode_id)
    if r is None:
        console.print(f"no episode {episode_id}")
        raise typer.Exit(1)
    summary = _summary_of(r)
    decisions = decisions_of(conn, episode_id)
    if as_json:
        row = {k: r[k] for k in r.keys() if k != "summary"}
        print(json.dumps({"episode": row, "summary": summary, "decisions": [_decision_dict(d) for d in decisions]},
                         indent=2, default=str))
        return
    _print_episode(episode_id, r, summary)
    table = Table(title="Decisions")
    for col in ("step", "turn", "by", "type", "skill", "params", "stopped", "ok", "error"):
        table.add_column(col)
    for d in decisions:
        by = d["decided_by"] if "decided_by" in d.keys() else None
        table.add_row(str(d["step"]), str(d["turn"]), by or "", d["type"], d["skill_name"] or "",
                      (d["params"] or "")[:40], d["stopped_reason"] or "", "✓" if d["success"] else "",
                      (d["error"] or "")[:60])
    console.print(table)


def _summary_of(r) -> dict:
    """The episode's stored summary ({} while it runs, or when it cannot be read)."""
    try:
        data = json.loads(r["summary"] or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _decision_dict(d) -> dict:
    out = dict(d)
    try:
        out["params"] = json.loads(d["params"] or "{}")
    except ValueError:
        pass
    return out


def _print_episode(episode_id: int, r, summary: dict) -> None:
    """The summary table of ``hackwright play``; for an episode still running, or one
    whose summary an older version wrote, a table of the row's own columns."""
    from ..agent.episode import EpisodeSummary
    from .play import print_summary

    fields = set(EpisodeSummary.__dataclass_fields__)
    kept = {k: v for k, v in summary.items() if k in fields}
    kept["episode_id"] = episode_id  # a parallel eval played it under another id in a private database
    try:
        print_summary(EpisodeSummary(**kept))
        return
    except (TypeError, ValueError, AttributeError):
        pass
    table = Table(title=f"Episode {episode_id}", show_header=False)
    keys = r.keys()

    def col(name: str) -> str:
        v = r[name] if name in keys else None
        return "—" if v is None else str(v)

    ended = r["ended_at"] if "ended_at" in keys else None
    reason = (col("end_reason") if ended else "still running (or stopped without a summary)") + \
        (f" ({r['death_reason']})" if "death_reason" in keys and r["death_reason"] else "")
    rows = [("strategist", col("strategist")), ("environment", col("env_id")),
            ("seed / role", f"{col('seed')} / {col('role')}"), ("started", col("started_at")[:19]),
            ("ended by", reason), ("score", col("final_score")),
            ("depth (max)", f"{col('final_dlvl')} ({col('max_depth')})"), ("experience level (max)", col("max_xp_level")),
            ("turns", col("total_turns")), ("decisions", col("decisions")), ("model calls", col("model_calls")),
            ("cost", col("cost_usd"))]
    if "task_success" in keys and r["task_success"] is not None:
        rows.append(("MiniHack task", f"{'solved' if r['task_success'] else 'not solved'}, reward {col('task_reward')}"))
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)

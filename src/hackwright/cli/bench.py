"""`hackwright bench`: benchmarks that compare like with like, repeated, as medians with their spread."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Optional

import typer
from rich.table import Table

from .common import SEED_HELP, app, console


bench_app = typer.Typer(help="Benchmarks: baseline and candidate on the same work, repeated, median and spread.",
                        no_args_is_help=True)
app.add_typer(bench_app, name="bench")

REPEATS_HELP = "Repetitions of every measure (baseline and candidate interleaved); rows show the median and min–max."
JSON_HELP = "Print the report as JSON (every repetition's value, quartiles, machine load) instead of a table."


def _fmt(value: float, unit: str) -> str:
    if math.isinf(value):
        return "∞"
    if unit == "%":
        return f"{value:.0%}"
    if abs(value) < 10:
        return f"{value:,.2f}"
    if abs(value) < 100:
        return f"{value:,.1f}"
    return f"{value:,.0f}"


def _cells(spread, unit: str) -> tuple[str, str]:
    if spread is None:
        return "–", "–"
    return _fmt(spread.median, unit), f"{_fmt(spread.low, unit)} – {_fmt(spread.high, unit)}"


def print_report(report) -> None:
    """A BenchReport as a table (median and min–max per clock), what each row measures, and its notes."""
    table = Table(title=report.title)
    has_cpu = any(m.cpu is not None for m in report.measures)
    table.add_column("measure", no_wrap=True)
    table.add_column("unit", no_wrap=True)
    clocks = ("CPU", "wall") if has_cpu else ("wall",)
    for clock in clocks:
        table.add_column(f"{clock} median", justify="right", no_wrap=True)
        table.add_column(f"{clock} min – max", justify="right", no_wrap=True)
    for m in report.measures:
        cells = (*_cells(m.cpu, m.unit), *_cells(m.wall, m.unit)) if has_cpu else _cells(m.wall, m.unit)
        table.add_row(m.name, m.unit, *cells)
    console.print(table)
    console.print("What each row measures:", highlight=False, markup=False)
    for m in report.measures:
        console.print(f"  {m.name}: {m.description}", highlight=False, markup=False)
    for note in report.notes:
        console.print(f"• {note}", highlight=False, markup=False)


def _emit(report, as_json: bool) -> None:
    if as_json:
        # plain print: rich would wrap long lines and colour the JSON
        print(json.dumps(asdict(report), indent=2, ensure_ascii=False))
    else:
        print_report(report)


@bench_app.command("api")
def bench_api(
    steps: int = typer.Option(5000, min=1, help="NetHackAPI.move() actions per run (raw NLE replays their keys)."),
    level_calls: int = typer.Option(300, min=1, help="get_current_level() calls to time per repetition."),
    seed: int = typer.Option(0, help=SEED_HELP),
    repeats: int = typer.Option(5, min=1, help=REPEATS_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Raw NLE (bare stepping and gymnasium env.step) vs NetHackAPI.move() on the same keys, and
    get_current_level() calls/s; CPU and wall time, ratios per repetition pair."""
    from ..bench import BenchMismatchError, run_api_bench

    try:
        report = run_api_bench(steps=steps, level_calls=level_calls, seed=seed, repeats=repeats)
    except BenchMismatchError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1)
    _emit(report, as_json)


@bench_app.command("sandbox")
def bench_sandbox(
    seed: int = typer.Option(0, help=SEED_HELP),
    calls: int = typer.Option(2000, min=2, help="API calls for the round-trip measure, per repetition."),
    budget: int = typer.Option(600, min=1, help="Game actions of the exploration skill."),
    repeats: int = typer.Option(5, min=1, help=REPEATS_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Proxy round trip, warm worker start, and sandboxed vs in-process actions/s (wall time)."""
    from ..sandbox.bench import run_sandbox_bench

    _emit(run_sandbox_bench(seed=seed, calls=calls, budget=budget, repeats=repeats), as_json)


@bench_app.command("maps")
def bench_maps(
    calls: int = typer.Option(30, min=1, help="Calls of each search (find_path, distance_map) per repetition."),
    updates: int = typer.Option(100, min=1, help="Screens folded into the remembered map per repetition."),
    repeats: int = typer.Option(5, min=1, help=REPEATS_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """find_path, distance_map, LevelMemory.update and to_dungeon_level on drawn 21x79 levels; CPU and wall time."""
    from ..bench import BenchMismatchError
    from ..bench.maps import run_maps_bench

    try:
        report = run_maps_bench(calls=calls, updates=updates, repeats=repeats)
    except BenchMismatchError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1)
    _emit(report, as_json)

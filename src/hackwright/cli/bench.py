"""`hackwright bench`: benchmarks measured against a baseline in the same run."""

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


bench_app = typer.Typer(help="Benchmarks (ratios against a baseline measured in the same run).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@bench_app.command("api")
def bench_api(
    steps: int = typer.Option(5000, help="Movement steps for each of raw NLE and the API."),
    level_calls: int = typer.Option(300, help="get_current_level() calls to time."),
    seed: int = typer.Option(0, help=SEED_HELP),
) -> None:
    """Raw NLE steps/s, move() actions/s through the API, get_current_level() calls/s."""
    from ..bench import run_api_bench

    rows = run_api_bench(steps=steps, level_calls=level_calls, seed=seed)
    print_rows(f"hackwright bench api (seed {seed}, {steps} steps)", rows)


@bench_app.command("sandbox")
def bench_sandbox(
    seed: int = typer.Option(0, help=SEED_HELP),
    calls: int = typer.Option(2000, help="API calls for the round-trip measure."),
    budget: int = typer.Option(600, help="Game actions of the exploration skill."),
) -> None:
    """Proxy round trip, warm worker start, and sandboxed vs in-process actions/s."""
    from ..sandbox.bench import run_sandbox_bench

    rows = run_sandbox_bench(seed=seed, calls=calls, budget=budget)
    print_rows(f"hackwright bench sandbox (seed {seed})", rows)

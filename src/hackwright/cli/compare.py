"""`hackwright compare DIR [DIR …]`: agents compared seed by seed, with bootstrap intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import app, console, fail


@app.command("compare")
def compare_cmd(
    folders: list[Path] = typer.Argument(..., help="Evaluation folders written by `hackwright eval --out DIR` (or "
                                                   "their episodes.jsonl). Their agents are merged; an agent found "
                                                   "in several folders is named 'agent (folder)'."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole comparison as JSON."),
    html: Optional[Path] = typer.Option(None, "--html", help="Also write an HTML page here; its per-seed rows link "
                                                             "to each episode's replay viewer."),
    markdown: Optional[Path] = typer.Option(None, "--markdown", help="Also write the tables as Markdown here "
                                                                     "(with the same replay links)."),
    resamples: int = typer.Option(10_000, help="Bootstrap resamples of the common seeds."),
    bootstrap_seed: int = typer.Option(0, help="Seed of the resampling generator: same seed, same intervals."),
    confidence: float = typer.Option(0.95, help="Confidence level of the intervals."),
    no_replays: bool = typer.Option(False, "--no-replays", help="With --html/--markdown: do not render replay "
                                                                "viewers; link only those already made."),
) -> None:
    """Compare agents seed by seed: mean differences of progression, score and max depth with
    bootstrap confidence intervals, wins/ties/losses, per-role means, and the fallback decisions
    of each agent. Warns when agents ran on different seeds or under different caps."""
    from ..eval.compare import CompareError, compare_folders
    from ..eval.paired_report import comparison_text, write_comparison

    try:
        cmp, runs = compare_folders(folders, resamples=resamples, bootstrap_seed=bootstrap_seed,
                                    confidence=confidence)
    except CompareError as e:
        raise fail(e)
    except OSError as e:
        raise fail(f"cannot read the evaluation folders: {e}")
    links = None
    if html is not None or markdown is not None:
        try:
            links = write_comparison(cmp, runs, html_path=html, markdown_path=markdown, replays=not no_replays)
        except OSError as e:
            raise fail(f"cannot write the comparison: {e}")
    if as_json:
        print(cmp.to_json())
        return
    console.print(comparison_text(cmp), soft_wrap=True, highlight=False, markup=False)
    if links is not None:
        for problem in links.problems:
            console.print(f"note: {problem}", soft_wrap=True, highlight=False, markup=False)
        for label, path in (("html", html), ("markdown", markdown)):
            if path is not None:
                console.print(f"{label}: {path} ({len(links.hrefs)} episodes linked to their replays)",
                              soft_wrap=True, highlight=False, markup=False)

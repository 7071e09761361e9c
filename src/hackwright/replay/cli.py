"""`hackwright replay RUN` and `hackwright render RUN --gif FILE | --html FILE`."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from .run import DEFAULT_DB, RunNotFoundError, RunRecord, resolve_run

app = typer.Typer()
err = Console(stderr=True)

RUN_HELP = "An episode id in the run database, or a record directory (or a file in one)."
DB_HELP = "The run database (default data/memory.db, as for `hackwright play`)."


def _resolve(run: str, db: Path) -> RunRecord:
    try:
        rec = resolve_run(run, db)
    except RunNotFoundError as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    for w in rec.warnings:
        err.print(f"[yellow]note:[/yellow] {w}")
    return rec


@app.command("replay")
def replay(
    run: str = typer.Argument(..., help=RUN_HELP),
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help=DB_HELP),
    speed: float = typer.Option(1.0, "--speed", help="Playback speed: 2 = twice the recorded pace."),
    max_wait: float = typer.Option(1.0, "--max-wait", help="Cut longer pauses (a model thinking) to this many "
                                                           "seconds (before --speed)."),
    step_through: bool = typer.Option(False, "--step-through", help="Stop after each agent step; Enter goes on, "
                                                                    "q quits."),
    no_delay: bool = typer.Option(False, "--no-delay", help="Show every frame without waiting."),
    final: bool = typer.Option(False, "--final", help="Print only the last screen and exit."),
    source: str = typer.Option("auto", "--source", help="frames (frames.bin), ttyrec, or auto (frames.bin if "
                                                        "present)."),
    from_step: int = typer.Option(0, "--from-step", help="Start at this agent step."),
    color: Optional[bool] = typer.Option(None, "--color/--no-color", help="ANSI colours and in-place drawing "
                                                                          "(default: when writing to a terminal)."),
) -> None:
    """Play a recorded episode in the terminal, at the recorded pace (or faster)."""
    from .terminal import PlayOptions, play, print_final

    rec = _resolve(run, db)
    try:
        frames = rec.load_frames(source)
    except (RunNotFoundError, ValueError, OSError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    use_color = sys.stdout.isatty() if color is None else color
    if final:
        print_final(frames, rec, color=use_color)
        return
    opts = PlayOptions(speed=speed, max_wait=max_wait, no_delay=no_delay, step_through=step_through,
                       color=use_color, from_step=from_step)
    try:
        play(frames, rec, opts)
    except KeyboardInterrupt:
        pass


@app.command("render")
def render(
    run: str = typer.Argument(..., help=RUN_HELP),
    gif: Optional[Path] = typer.Option(None, "--gif", help="Write an animated GIF here."),
    html: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML viewer here."),
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help=DB_HELP),
    every: int = typer.Option(1, "--every", min=1, help="Keep every N-th frame (the last frame is always kept)."),
    scale: float = typer.Option(1.0, "--scale", min=0.05, help="GIF size: 1 = 16-pixel tiles, 0.5 = 8 pixels."),
    fps: float = typer.Option(10.0, "--fps", min=0.1, help="GIF frames per second."),
    max_frames: int = typer.Option(5000, "--max-frames", min=2, help="Thin further when more frames than this "
                                                                     "would remain."),
    captions: bool = typer.Option(True, "--captions/--no-captions", help="A status line under each GIF frame."),
) -> None:
    """Render a recorded episode with NetHack's tiles: an animated GIF and/or an HTML viewer."""
    from .gif import RenderError, render_gif, thin
    from .html import render_html

    if gif is None and html is None:
        err.print("[red]error:[/red] give --gif FILE and/or --html FILE")
        raise typer.Exit(2)
    rec = _resolve(run, db)
    if rec.frames is None:
        err.print(f"[red]error:[/red] {run}: no frames.bin (tiles need the glyphs it records; "
                  "`hackwright replay` can still play the ttyrec)")
        raise typer.Exit(2)
    try:
        frames = rec.load_frames("frames", every=every)
    except (RunNotFoundError, ValueError, OSError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    if len(frames) > max_frames:
        more = math.ceil(len(frames) / max_frames)
        frames = thin(frames, more)
        err.print(f"[yellow]note:[/yellow] {frames.total} frames: keeping every {every * more}-th "
                  f"({len(frames)}); raise --max-frames to keep more")
    try:
        if gif is not None:
            g = render_gif(frames, gif, run=rec, scale=scale, fps=fps, captions=captions)
            err.print(f"GIF: {g.path} ({g.frames} frames, {g.size[0]}×{g.size[1]}, {g.bytes / 1e6:.2f} MB)")
        if html is not None:
            h = render_html(frames, html, run=rec)
            err.print(f"HTML: {h.path} ({h.frames} frames, {h.tiles} tiles, {h.bytes / 1e6:.2f} MB)")
    except RenderError as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)

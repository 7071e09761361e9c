"""The ``hackwright`` command line."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from . import __version__

app = typer.Typer(
    help="Hackwright: a language model plays NetHack by writing its own Python skills.",
    no_args_is_help=True,
    add_completion=False,
)
bench_app = typer.Typer(help="Benchmarks (ratios against a baseline measured in the same run).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
console = Console()

SEED_HELP = "Game seed S = seed(core=S, disp=S, reseed=False) with a fixed moon phase; same S, same game."


def _version(value: bool) -> None:
    if value:
        console.print(f"hackwright {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    pass


@app.command()
def play(
    seed: Optional[int] = typer.Option(0, help=SEED_HELP),
    role: Optional[str] = typer.Option(None, help="valkyrie, samurai, wizard, … (random if not given)."),
    race: Optional[str] = typer.Option(None, help="human, elf, dwarf, gnome, orc."),
    gender: Optional[str] = typer.Option(None, help="male or female."),
    alignment: Optional[str] = typer.Option(None, help="lawful, neutral or chaotic."),
    env: str = typer.Option("NetHackChallenge-v0", help="NetHackChallenge-v0 or any MiniHack environment name."),
    max_actions: int = typer.Option(2000, help="Stop after this many API actions."),
    runs_dir: Path = typer.Option(Path("runs"), help="Each game records a ttyrec into a folder here."),
    no_record: bool = typer.Option(False, "--no-record", help="Do not record a ttyrec."),
    show_map: bool = typer.Option(False, "--show-map", help="Print the final screen."),
) -> None:
    """Play one game with the built-in player (fight, eat, pray, explore, descend)."""
    from .api.nethack_api import NetHackAPI
    from .env.make import EnvConfigError, GameConfig
    from .play.simple_loop import play_simple

    run_dir = None
    if not no_record:
        run_dir = runs_dir / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    cfg = GameConfig(
        env_id=env, seed=seed, role=role, race=race, gender=gender, alignment=alignment,
        ttyrec_dir=str(run_dir) if run_dir else None,
    )
    try:
        api = NetHackAPI.new_game(cfg)
    except EnvConfigError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    console.print(
        f"[bold]Hackwright[/bold] plays {env} · seed {seed} · "
        f"{api.hero_alignment or ''} {api.hero_race or ''} {api.hero_role or '?'}".replace("  ", " ")
    )
    t0 = time.time()

    def progress(n: int, what: str, a: NetHackAPI) -> None:
        if n % 100 == 0:
            s = a.last_stats
            if s:
                console.print(
                    f"  action {n:5d} · T:{s.turn:5d} · Dlvl {s.dungeon_level} · HP {s.hp}/{s.max_hp} · "
                    f"XL {s.xp_level} · score {s.score} · {what}"
                )

    summary = asyncio.run(play_simple(api, max_actions=max_actions, on_action=progress))
    if show_map and not api.game_over:
        console.print(asyncio.run(api.get_screen()), markup=False, highlight=False)
    api.close()
    table = Table(title="Game summary", show_header=False)
    for k, v in asdict(summary).items():
        if k == "last_messages":
            v = " | ".join(v[-4:])
        table.add_row(k, str(v))
    table.add_row("wall time", f"{time.time() - t0:.1f} s")
    console.print(table)
    if run_dir:
        (run_dir).mkdir(parents=True, exist_ok=True)
        (run_dir / "summary.json").write_text(json.dumps(asdict(summary), indent=2))
        console.print(f"Recorded in {run_dir}/ (ttyrec and summary.json)")


@bench_app.command("api")
def bench_api(
    steps: int = typer.Option(5000, help="Movement steps for each of raw NLE and the API."),
    level_calls: int = typer.Option(300, help="get_current_level() calls to time."),
    seed: int = typer.Option(0, help=SEED_HELP),
) -> None:
    """Raw NLE steps/s, move() actions/s through the API, get_current_level() calls/s."""
    from .bench import run_api_bench

    rows = run_api_bench(steps=steps, level_calls=level_calls, seed=seed)
    table = Table(title=f"hackwright bench api (seed {seed}, {steps} steps)")
    table.add_column("measure")
    table.add_column("result", justify="right")
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)


@app.command()
def info(
    seed: Optional[int] = typer.Option(0, help=SEED_HELP),
    role: Optional[str] = typer.Option(None),
    env: str = typer.Option("NetHackChallenge-v0"),
) -> None:
    """Start a game and print its first screen, the hero and the seeding convention."""
    from .api.nethack_api import NetHackAPI
    from .env.make import GameConfig

    api = NetHackAPI.new_game(GameConfig(env_id=env, seed=seed, role=role))
    console.print(asyncio.run(api.get_screen()), markup=False, highlight=False)
    console.print(f"hero: {api.hero_alignment} {api.hero_gender} {api.hero_race} {api.hero_role}; seeds {api.game.seeds()}")
    api.close()


def main() -> None:
    app()


if __name__ == "__main__":
    main()

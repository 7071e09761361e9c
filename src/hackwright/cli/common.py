"""What every ``hackwright`` sub-command shares: the Typer app, the console, help texts."""

from __future__ import annotations

import os

import typer
from rich.console import Console
from rich.table import Table

from .. import __version__

app = typer.Typer(
    help="Hackwright: a language model plays NetHack by writing its own Python skills.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
if not console.is_terminal and "COLUMNS" not in os.environ:
    # Piped to a file or another program: tables keep their columns instead of being
    # squeezed into rich's 80-column default.
    console = Console(width=160)

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


def print_rows(title: str, rows: list[tuple[str, str]]) -> None:
    """A two-column table of measures and results."""
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("result", justify="right")
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)

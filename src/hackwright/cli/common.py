"""What every ``hackwright`` sub-command shares: the Typer app, the console, help texts."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import __version__

if TYPE_CHECKING:
    from ..config import Config, ModelOverrides

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

# Errors go to stderr, so that `--json` output on stdout stays clean.
err_console = Console(stderr=True)

SEED_HELP = "Game seed S = seed(core=S, disp=S, reseed=False) with a fixed moon phase; same S, same game."
# The model call flags of play and eval; each beats HACKWRIGHT_* variables and config.yaml.
MODEL_FLAG_HELP = {
    "timeout_seconds": "Seconds per HTTP attempt of a model call (a number above 0).",
    "retries": "Retries of a model call that timed out, got 408/409/429/5xx or came back unreadable (0: none).",
    "max_tokens": "Tokens per model reply (a whole number of at least 1).",
    "temperature": "Sampling temperature sent to the model (0 to 2).",
    "extra_body": 'A JSON object merged into every model request body, e.g. \'{"top_p": 0.9}\'.',
}


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


def load_config_or_exit(path: Optional[str] = None) -> "Config":
    """The configuration (defaults < config.yaml or ``path`` < HACKWRIGHT_* variables).

    A bad setting ends the command with one line, ``error: …`` naming the file or
    variable, the key and what is valid, on stderr, and exit code 2."""
    from ..config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as e:
        # soft_wrap: the message stays on one line however narrow the terminal
        err_console.print(f"[red]error:[/red] {escape(str(e))}", soft_wrap=True, highlight=False)
        raise typer.Exit(2)


def model_flags_or_exit(**given: Optional[str]) -> "ModelOverrides":
    """The model call flags (``timeout_seconds=``, ``retries=``, ``max_tokens=``,
    ``temperature=``, ``extra_body=``; their text, None when not given), checked: a bad value
    ends the command with one ``error:`` line naming the flag and what is valid (exit 2)."""
    from ..config import ConfigError, ModelOverrides

    try:
        return ModelOverrides.from_flags(**given)
    except ConfigError as e:
        raise fail(e)


def fail(message: object, code: int = 2) -> "typer.Exit":
    """Print ``error: message`` as one line on stderr and return the Exit to raise
    (``raise fail(e)``): no markup is read from the message, no traceback is shown."""
    err_console.print(f"[red]error:[/red] {escape(' '.join(str(message).split()))}", soft_wrap=True,
                      highlight=False)
    return typer.Exit(code)

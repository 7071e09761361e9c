"""`hackwright kb ...`: build, search, import and evaluate the knowledge corpus."""

from __future__ import annotations

import typer

app = typer.Typer(help="The NetHack knowledge corpus: build, search, import, eval.", no_args_is_help=True)

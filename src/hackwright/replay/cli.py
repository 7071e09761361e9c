"""`hackwright replay RUN` and `hackwright render RUN --gif FILE | --html FILE`."""

from __future__ import annotations

import typer

app = typer.Typer()

"""The ``hackwright`` command line: one module per command family, all on one Typer app."""

from __future__ import annotations

from . import flags  # noqa: F401  (flags show no value type in --help)

# Imported in the order `hackwright --help` lists them; each module registers its commands.
from . import play  # noqa: F401  isort: skip
from . import prompt  # noqa: F401  isort: skip
from . import evaluate, compare, runs, bench, sandbox, skills  # noqa: F401  isort: skip
from . import mcp  # noqa: F401  isort: skip
from ..kb.cli import app as kb_app
from ..replay.cli import app as replay_app
from .common import app, console

app.add_typer(kb_app, name="kb")
app.add_typer(replay_app)  # no name: its commands join the top level


def main() -> None:
    app()


__all__ = ["app", "console", "main"]

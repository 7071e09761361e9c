"""`hackwright mcp`: serve the game to an MCP client (a coding agent) over stdio."""

from __future__ import annotations

from typing import Optional

import typer

from .common import app, fail


@app.command("mcp")
def mcp_command(
    db: Optional[str] = typer.Option(None, help="The run database games are recorded in (default: the "
                                                "configuration's, data/memory.db)."),
    library: Optional[str] = typer.Option(None, help="The skill library folder (default ./skills)."),
    runs: str = typer.Option("runs", help="Each game's ttyrec and summary go in a folder below this one."),
    no_record: bool = typer.Option(False, "--no-record", help="Record nothing on disk but the database."),
    config: Optional[str] = typer.Option(None, help="A config.yaml (default ./config.yaml if present)."),
) -> None:
    """Serve Hackwright as a Model Context Protocol server on stdin/stdout, for coding agents.

    An MCP client starts a seeded game, reads the state and the prompt a model would get,
    and plays by invoking library skills, creating skills (sandboxed as in `play`), showing
    a skill's code, looking things up and sending keys, under `play`'s budgets and
    game-integrity rules; every game is recorded in the run database (strategist "mcp")
    and as a ttyrec. Add it to Claude Code with: claude mcp add hackwright -- hackwright mcp.
    See docs/mcp.md."""
    from ..mcp_server import INSTALL_HINT, mcp_available

    if not mcp_available():
        raise fail(INSTALL_HINT, 1)
    from .common import load_config_or_exit
    from ..mcp_server.server import ServerOptions, serve

    load_config_or_exit(config)  # a bad configuration is refused now, not at the first game
    serve(ServerOptions(db_path=db, library_path=library, runs_dir=None if no_record else runs,
                        config_path=config))

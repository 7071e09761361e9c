"""`hackwright skill run` and `hackwright sandbox check`: skill files in the sandbox."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .common import SEED_HELP, app, console, fail, print_rows


skill_app = typer.Typer(help="Run skill files.", no_args_is_help=True)
app.add_typer(skill_app, name="skill")
sandbox_app = typer.Typer(help="The sandbox that runs model-written skills.", no_args_is_help=True)
app.add_typer(sandbox_app, name="sandbox")


def _parse_params(items: list[str]) -> dict:
    params = {}
    for item in items:
        if "=" not in item:
            raise typer.BadParameter(f"--param takes key=value, not {item!r}")
        k, v = item.split("=", 1)
        try:
            params[k.strip()] = json.loads(v)
        except ValueError:
            params[k.strip()] = v
    return params


@skill_app.command("run")
def skill_run(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="A skill file: async def name(nh, **params)."),
    env: str = typer.Option("NetHackChallenge-v0", help="NetHackChallenge-v0 or a MiniHack environment name."),
    seed: int = typer.Option(0, help=SEED_HELP),
    role: Optional[str] = typer.Option(None, help="valkyrie, samurai, … (random if not given)."),
    param: list[str] = typer.Option([], "--param", help="A skill parameter, key=value (JSON values allowed)."),
    entry: Optional[str] = typer.Option(None, help="Which async function to run when the file has several."),
    max_actions: int = typer.Option(1000, help="Stop the skill after this many game actions."),
    timeout: float = typer.Option(30.0, help="Wall-time limit in seconds."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    trusted: bool = typer.Option(False, "--trusted", help="Run in-process, unisolated (built-in skills only)."),
    allow_weak: bool = typer.Option(False, "--allow-weak-sandbox", help="Accept seccomp + rlimits only."),
) -> None:
    """Run a skill file in the sandbox on a fresh seeded game and print its SkillResult.

    Exit 0 when the skill ran to a result (even an unsuccessful one); 1 with the
    typed error otherwise (2 for bad options, 3 when no sandbox is available)."""
    from ..api.nethack_api import NetHackAPI
    from ..env.make import EnvConfigError, GameConfig
    from ..sandbox import errors
    from ..sandbox.runner import SandboxLimits, SkillRunner

    code = path.read_text()
    params = _parse_params(param)
    try:
        api = NetHackAPI.new_game(GameConfig(env_id=env, seed=seed, role=role))
    except EnvConfigError as e:
        raise fail(e)
    limits = SandboxLimits(max_actions=max_actions, wall_seconds=timeout)
    try:
        runner = SkillRunner(api, mode="inprocess" if trusted else "sandbox", limits=limits, allow_weak=allow_weak)
    except errors.SandboxUnavailableError as e:
        console.print(f"[red]{type(e).__name__}:[/red] {e}")
        api.close()
        raise typer.Exit(3)
    for w in runner.warnings:
        console.print(f"[bold red]{w}[/bold red]")
    try:
        outcome = asyncio.run(runner.run(code, params, entry=entry))
    except errors.SkillExecutionError as e:
        if as_json:
            print(json.dumps({"error": e.to_dict()}, default=str, indent=2))
        else:
            console.print(f"[red]{type(e).__name__}[/red]")
            console.print(e.for_model(), markup=False, highlight=False)
        raise typer.Exit(1)
    finally:
        runner.close()
        api.close()
    result = asdict(outcome.result)
    if as_json:
        print(json.dumps({"result": result, "log": outcome.log, "actions": outcome.actions,
                          "api_calls": outcome.api_calls, "seconds": round(outcome.seconds, 3),
                          "isolation": outcome.stack}, default=str, indent=2))
        return
    table = Table(title=f"SkillResult of {path.name}", show_header=False)
    for k, v in result.items():
        table.add_row(k, str(v))
    table.add_row("game actions / API calls", f"{outcome.actions} / {outcome.api_calls}")
    table.add_row("isolation", outcome.stack)
    console.print(table)
    if outcome.log:
        console.print("[bold]print() output:[/bold]")
        console.print(outcome.log, markup=False, highlight=False)


@sandbox_app.command("check")
def sandbox_check() -> None:
    """Show which isolation layers work on this machine and which stack skills will use."""
    from ..sandbox.isolation import best_stack, describe, detect

    caps = detect()
    for line in describe(caps):
        console.print(line, markup=False, highlight=False)
    stack = best_stack(caps)
    if stack is None:
        console.print("[bold red]No isolation available: model-written skills are refused "
                      "(unless --allow-weak-sandbox).[/bold red]")
        raise typer.Exit(1)
    console.print(f"[bold]Model-written skills run under:[/bold] {stack.value}")

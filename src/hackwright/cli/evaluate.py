"""`hackwright eval`: many seeds, or the MiniHack scenario suite."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .common import MODEL_FLAG_HELP, SEED_HELP, app, console, fail, print_rows


@app.command("eval")
def eval_cmd(
    agent: str = typer.Option("autopilot", help="autopilot (built-in), handcrafted (NetPlay's seven rules), random, "
                                                "a model (anthropic:MODEL, openai:MODEL, openai:MODEL@BASE_URL, "
                                                "replay:FILE), a strategist plug-in (module:Class, path/to/file.py:"
                                                "Class, or an installed plug-in's name; docs/strategists.md), or a "
                                                "bot playing on its own (autoascend, bot:PATH). "
                                                "Other names are refused."),
    fallback: Optional[str] = typer.Option(None, help="autopilot: it plays the steps a model cannot decide "
                                                      "(counted per episode and in the report). Default: none, "
                                                      "so a model that cannot be reached stops the evaluation."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Skip seeds this agent already played into "
                                                                   "OUT; interrupted and failed episodes are "
                                                                   "played again (the default). --no-resume plays "
                                                                   "every seed again."),
    seeds: str = typer.Option("0-3", help="Seeds: 0-39, 1,5,9 or 0-3,10. " + SEED_HELP),
    role: Optional[str] = typer.Option(None, help="Hero role for every episode (random per seed if not given)."),
    env: Optional[str] = typer.Option(None, help="NetHackChallenge-v0 (default) or a MiniHack environment name "
                                                 "(its task's success rate is reported)."),
    workers: int = typer.Option(1, help="Episodes played at once (processes, or Ray tasks)."),
    max_turns: Optional[int] = typer.Option(None, help="End each episode at this game turn (the turn cap)."),
    max_steps: Optional[int] = typer.Option(None, help="End each episode after this many decisions "
                                                       "(default 2000; 5000 for random, whose decision is one key; "
                                                       "a bot's actions, 1,000,000, for bots)."),
    out: Path = typer.Option(Path("eval"), help="Output folder: episodes.jsonl/.csv, report.md/.html, "
                                                "per-episode records. Seeds already there are skipped."),
    suite: Optional[str] = typer.Option(None, help="'scenarios': run the MiniHack scenario suite instead."),
    scenario: Optional[list[str]] = typer.Option(None, help="With --suite scenarios: only these scenarios."),
    repeats: int = typer.Option(1, help="With --suite scenarios: runs per scenario (seeds seed..seed+N-1)."),
    backend: str = typer.Option("local", help="local (processes on this machine) or ray (a Ray cluster; "
                                              "RAY_ADDRESS or --ray-address, else a local Ray)."),
    ray_address: Optional[str] = typer.Option(None, help="Address of a running Ray cluster."),
    db: Optional[str] = typer.Option(None, help="Run database (default OUT/runs.db)."),
    library: Optional[str] = typer.Option(None, help="Skill library folder (default OUT/skills)."),
    budget_usd: Optional[float] = typer.Option(None, help="Per-episode model budget in dollars."),
    config: Optional[str] = typer.Option(None, help="A config.yaml (default ./config.yaml if present)."),
    no_record: bool = typer.Option(False, "--no-record", help="Keep no ttyrec/frames per episode."),
    no_report: bool = typer.Option(False, "--no-report", help="Skip report.md/report.html."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary metrics as JSON."),
    model_timeout: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["timeout_seconds"]),
    model_retries: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["retries"]),
    max_tokens: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["max_tokens"]),
    temperature: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["temperature"]),
    extra_body: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["extra_body"]),
    web: bool = typer.Option(False, "--web", help="With one worker: watch each episode in a browser (a live "
                                                  "page on 127.0.0.1, as in `hackwright play --web`)."),
    port: int = typer.Option(0, help="With --web: the port (0: a free one; the URL is printed)."),
    web_keep: bool = typer.Option(False, "--web-keep", help="With --web: keep serving the page after the "
                                                            "evaluation until Ctrl-C."),
    delay: int = typer.Option(0, "--delay", metavar="MS", help="With one worker: pause this many milliseconds "
                                                               "after every key, to watch the games."),
) -> None:
    """Evaluate an agent on many seeds (or the scenario suite) and write tables and a report.

    Ctrl-C stops the episodes in flight at their next action and records them as
    interrupted (exit 130); the same command again (--resume is the default) plays them again.
    The model call flags beat HACKWRIGHT_* variables and config.yaml (see `hackwright play`)."""
    import os

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..agent.backends.base import BackendError
    from ..agent.strategists import BOTS, FALLBACKS, UnknownAgentError, check_spec, make_strategist
    from ..eval.runner import EvalConfig, EvalError, EvalRunner, parse_seeds, summary_line

    from ..config import FLAGS_VARIABLE
    from .common import model_flags_or_exit

    model = model_flags_or_exit(timeout_seconds=model_timeout, retries=model_retries, max_tokens=max_tokens,
                                temperature=temperature, extra_body=extra_body)
    if model.given():
        os.environ[FLAGS_VARIABLE] = model.to_variable()  # every episode's configuration reads it
    try:
        agent = check_spec(agent, bots=True, flag="--agent")
        if agent == "human" or agent.startswith("human:"):
            raise UnknownAgentError(f"--agent {agent}: a human plays under `hackwright play --llm {agent}` only, "
                                    "one game at a time")
        if fallback not in (None, "none", *FALLBACKS):
            raise UnknownAgentError(f"unknown --fallback {fallback!r}: the fallback is autopilot (or none)")
        if agent not in BOTS and not agent.startswith("bot:"):
            make_strategist(agent)  # a missing key fails here, once, not in every episode
    except (UnknownAgentError, BackendError) as e:
        raise fail(e)

    if (web or delay) and (workers != 1 or backend != "local" or suite is not None):
        raise fail("--web and --delay watch one game at a time: use them with --workers 1 and the local "
                   "backend, without --suite", 2)
    if suite is not None:
        _eval_suite(suite, agent, scenario, repeats, seeds, out, db, library, as_json)
        return
    from .common import load_config_or_exit

    load_config_or_exit(config)  # a bad setting stops the evaluation here, not in each episode
    try:
        cfg = EvalConfig(agent=agent, seeds=parse_seeds(seeds), role=role, env_id=env, workers=workers,
                         max_turns=max_turns,
                         max_steps=max_steps, out_dir=str(out), db_path=db, library_path=library,
                         config_path=config, budget_usd=budget_usd, backend=backend, ray_address=ray_address,
                         record=not no_record, report=not no_report,
                         fallback=None if fallback in (None, "none") else fallback, resume=resume)
    except EvalError as e:
        raise fail(e)
    quiet = as_json or not console.is_terminal
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, disable=quiet)
    task = progress.add_task(f"{agent} on {len(cfg.seeds)} seeds", total=None)

    def on_episode(summary: dict, done: int, total: int) -> None:
        progress.update(task, total=total, completed=done)
        if not as_json:
            # soft_wrap: a line piped to a log keeps its whole cause of death, not 80 columns of it
            progress.console.print(summary_line(summary), markup=False, highlight=False, soft_wrap=True)
            if done == total and cfg.report:
                # Rendering a replay viewer per episode takes a second or more each: say so,
                # or a long run looks hung after its last game.
                progress.console.print(f"all {total} played; writing report.md and report.html with a replay "
                                       "viewer per episode (--no-report skips this)", highlight=False)

    runner = EvalRunner(cfg, on_episode=on_episode)
    from ..replay.live import LiveWatch, watching
    from .play import _serve, _stop_serving

    watch = LiveWatch(delay, publish=web)  # the episodes of one worker play in this process
    server = _serve(watch, port) if web else None
    try:
        with progress, watching(watch):
            result = runner.run()
    except EvalError as e:
        _stop_serving(server, keep=False)
        raise fail(e)
    _stop_serving(server, keep=web_keep)
    from ..eval.metrics import EpisodeRecord, compare
    from ..eval.report import format_summary_table

    metrics = compare({agent: [EpisodeRecord.from_dict(s) for s in result.summaries]})
    if as_json:
        print(json.dumps({"agent": agent, "played": result.played, "skipped": result.skipped,
                          "wall_s": round(result.wall_s, 2), "interrupted": runner.interrupted,
                          "model_error": runner.model_error,
                          "turns_per_second_per_worker": round(result.turns_per_second_per_worker(), 1),
                          "metrics": {k: asdict(v) for k, v in metrics.items()}}, default=str, indent=2))
        raise typer.Exit(_exit_code(runner))
    if result.skipped:
        console.print(f"skipped seeds already in {out}/episodes.jsonl: {result.skipped}")
    console.print(format_summary_table(metrics), soft_wrap=True, highlight=False)  # a log keeps its columns
    console.print(f"{result.played} episodes played in {result.wall_s:.0f} s with {cfg.workers} worker(s): "
                  f"{result.turns_per_second_per_worker():.0f} game turns per second per worker", soft_wrap=True)
    if result.report is not None:
        console.print(f"report: {result.report.html} and {result.report.markdown}")
    console.print(f"tables: {out}/episodes.csv, {out}/episodes.jsonl")
    if runner.interrupted:
        stopped = sum(1 for s in result.summaries if s.get("end_reason") == "interrupted")
        console.print(f"interrupted: {stopped} episode(s) in flight recorded as interrupted; the same command "
                      "again (--resume is the default) plays them and the seeds not yet played", highlight=False)
    elif runner.model_error:
        raise fail(f"the model failed, so the evaluation stopped: {runner.model_error}. Check the server and "
                   "key, or pass --fallback autopilot to let the autopilot stand in (its steps are counted).",
                   _exit_code(runner))
    raise typer.Exit(_exit_code(runner))


def _exit_code(runner) -> int:
    return 130 if runner.interrupted else (1 if runner.model_error else 0)


def _eval_suite(suite: str, agent: str, names: Optional[list[str]], repeats: int, seeds: str, out: Path,
                db: Optional[str], library: Optional[str], as_json: bool) -> None:
    from ..eval.runner import EvalError, parse_seeds
    from ..eval.scenarios import format_results, run_suite

    if suite != "scenarios":
        raise fail(f"unknown suite {suite!r}: the suite is 'scenarios'")
    try:
        seed = parse_seeds(seeds)[0]
    except EvalError as e:
        raise fail(e)

    def progress(r) -> None:
        if not as_json:
            console.print(f"{r.scenario}: {'success' if r.success else 'failure'} ({r.end_reason}, {r.steps} steps)")

    try:
        results = run_suite(agent, names=names or None, repeats=repeats, seed=seed,
                            db_path=db or str(out / "runs.db"), library_path=library or str(out / "skills"),
                            out_dir=str(out), progress=progress)
    except (KeyError, ValueError) as e:
        raise fail(e)
    if as_json:
        print(json.dumps([asdict(r) for r in results], default=str, indent=2))
        return
    console.print(format_results(results), soft_wrap=True, highlight=False)

"""The ``hackwright`` command line."""

from __future__ import annotations

import asyncio
import json
import os
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
skill_app = typer.Typer(help="Run skill files.", no_args_is_help=True)
app.add_typer(skill_app, name="skill")
sandbox_app = typer.Typer(help="The sandbox that runs model-written skills.", no_args_is_help=True)
app.add_typer(sandbox_app, name="sandbox")
# Sub-commands that live beside their layer: `kb ...` (knowledge), `replay`/`render` (replays).
from .kb.cli import app as kb_app  # noqa: E402
from .replay.cli import app as replay_app  # noqa: E402

app.add_typer(kb_app, name="kb")
app.add_typer(replay_app)  # no name: its commands join the top level
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


@app.command()
def play(
    llm: Optional[str] = typer.Option(None, help="autopilot (offline, default), anthropic:MODEL, "
                                                 "openai:MODEL or openai:MODEL@BASE_URL (vLLM, Ollama, llama.cpp, OpenRouter), or replay:FILE."),
    seed: Optional[int] = typer.Option(0, help=SEED_HELP),
    role: Optional[str] = typer.Option(None, help="valkyrie, samurai, wizard, … (random if not given)."),
    env: Optional[str] = typer.Option(None, help="NetHackChallenge-v0 (default) or a MiniHack environment name."),
    max_steps: Optional[int] = typer.Option(None, help="Stop after this many strategist decisions."),
    max_turns: Optional[int] = typer.Option(None, help="Stop after this many game turns."),
    budget_usd: Optional[float] = typer.Option(None, help="Stop when model calls have cost this much."),
    db: Optional[str] = typer.Option(None, help="The run database (default data/memory.db)."),
    library: Optional[str] = typer.Option(None, help="The skill library folder (default ./skills)."),
    record: Optional[Path] = typer.Option(None, help="Folder for the ttyrec, transcript and summary "
                                                     "(default runs/<time>-seed<N>)."),
    no_record: bool = typer.Option(False, "--no-record", help="Do not record anything to disk but the database."),
    config: Optional[str] = typer.Option(None, help="A config.yaml (default ./config.yaml if present)."),
    as_json: bool = typer.Option(False, "--json", help="Print only the episode summary, as JSON."),
) -> None:
    """Play one episode: the strategist picks skills (or writes new ones) until death or a cap."""
    from .agent.loop import Agent
    from .config import ConfigError, load_config
    from .env.make import EnvConfigError

    try:
        cfg = load_config(config)
    except ConfigError as e:
        console.print(f"[red]config error:[/red] {e}")
        raise typer.Exit(2)
    record_dir = None
    if not no_record:
        record_dir = str(record or Path("runs") / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}")
    episode = cfg.episode(llm=llm, seed=seed, role=role, env_id=env, max_steps=max_steps, max_turns=max_turns,
                          budget_usd=budget_usd, db_path=db, library_path=library, record_dir=record_dir)
    show = _Progress(console, quiet=as_json)
    try:
        summary = asyncio.run(Agent(episode, on_step=show.step).run())
    except (EnvConfigError, ValueError) as e:
        show.stop()
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    show.stop()
    if as_json:
        print(summary.to_json())
        return
    table = Table(title=f"Episode {summary.episode_id} summary", show_header=False)
    rows = [
        ("strategist", summary.strategist), ("seed / role", f"{summary.seed} / {summary.role}"),
        ("ended by", summary.end_reason + (f" ({summary.death_reason})" if summary.death_reason else "")),
        ("score", summary.score), ("depth (max)", f"{summary.depth} ({summary.max_depth})"),
        ("experience level (max)", f"{summary.xp_level} ({summary.max_xp_level})"), ("turns", summary.turns),
        ("BALROG progression", f"{summary.progression * 100:.2f}%"),
        ("decisions", f"{summary.decisions} ({summary.decisions_per_1000_turns} per 1,000 turns)"),
        ("model calls / tokens in / out", f"{summary.model_calls} / {summary.input_tokens} / {summary.output_tokens}"),
        ("cost", f"${summary.cost_usd:.4f}"),
        ("skills used", ", ".join(f"{k}×{v}" for k, v in sorted(summary.skills_used.items(), key=lambda kv: -kv[1]))),
        ("skills created", ", ".join(summary.skills_created) or "none"),
        ("wall time", f"{summary.wall_s:.1f} s"),
    ]
    for k, v in rows:
        table.add_row(k, str(v))
    console.print(table)
    if record_dir:
        console.print(f"Recorded in {record_dir}/ (ttyrec, transcript, summary.json)")


class _Progress:
    """Live view on a terminal (map, stats, current skill, last decision); plain lines otherwise."""

    def __init__(self, console: Console, quiet: bool = False):
        self.console = console
        self.quiet = quiet
        self.live = None
        if not quiet and console.is_terminal:
            from rich.live import Live

            self.live = Live(console=console, refresh_per_second=8, transient=False)
            self.live.start()

    def step(self, report, agent) -> None:
        if self.quiet:
            return
        s = report.stats
        d = report.decision
        what = d.skill_name or d.action or d.type
        outcome = report.result.stopped_reason if report.result else f"error: {(report.error or '')[:80]}"
        line = (f"step {report.step:4d} · T:{s.turn if s else '?':>5} · Dlvl {s.dungeon_level if s else '?'} · "
                f"HP {s.hp if s else '?'}/{s.max_hp if s else '?'} · XL {s.xp_level if s else '?'} · "
                f"{what} → {outcome}")
        if self.live is None:
            if report.step % 10 == 0 or report.error:
                self.console.print(line, markup=False, highlight=False)
            return
        from rich.panel import Panel
        from rich.text import Text

        screen = ""
        try:
            screen = "\n".join(agent.api._kb.screen_lines())
        except Exception:
            pass
        body = Text(screen + "\n" + line + "\nreason: " + (d.reasoning or "")[:150])
        self.live.update(Panel(body, title=f"Hackwright · {agent.strategist.name}"))

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


@app.command("eval")
def eval_cmd(
    agent: str = typer.Option("autopilot", help="autopilot (built-in), handcrafted (NetPlay's seven rules), "
                                                "random, or a model spec: anthropic:MODEL, openai:MODEL, openai:MODEL@BASE_URL."),
    seeds: str = typer.Option("0-3", help="Seeds: 0-39, 1,5,9 or 0-3,10. " + SEED_HELP),
    role: Optional[str] = typer.Option(None, help="Hero role for every episode (random per seed if not given)."),
    workers: int = typer.Option(1, help="Episodes played at once (processes, or Ray tasks)."),
    max_turns: Optional[int] = typer.Option(None, help="End each episode at this game turn (the turn cap)."),
    max_steps: Optional[int] = typer.Option(None, help="End each episode after this many decisions "
                                                       "(default 2000; 5000 for random)."),
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
) -> None:
    """Evaluate an agent on many seeds (or the scenario suite) and write tables and a report."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .eval.runner import EvalConfig, EvalError, EvalRunner, parse_seeds, summary_line

    if suite is not None:
        _eval_suite(suite, agent, scenario, repeats, seeds, out, db, library, as_json)
        return
    try:
        cfg = EvalConfig(agent=agent, seeds=parse_seeds(seeds), role=role, workers=workers, max_turns=max_turns,
                         max_steps=max_steps, out_dir=str(out), db_path=db, library_path=library,
                         config_path=config, budget_usd=budget_usd, backend=backend, ray_address=ray_address,
                         record=not no_record, report=not no_report)
    except EvalError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    quiet = as_json or not console.is_terminal
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, disable=quiet)
    task = progress.add_task(f"{agent} on {len(cfg.seeds)} seeds", total=None)

    def on_episode(summary: dict, done: int, total: int) -> None:
        progress.update(task, total=total, completed=done)
        if not as_json:
            # soft_wrap: a line piped to a log keeps its whole cause of death, not 80 columns of it
            progress.console.print(summary_line(summary), markup=False, highlight=False, soft_wrap=True)

    try:
        with progress:
            result = EvalRunner(cfg, on_episode=on_episode).run()
    except EvalError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    from .eval.metrics import EpisodeRecord, compare
    from .eval.report import format_summary_table

    metrics = compare({agent: [EpisodeRecord.from_dict(s) for s in result.summaries]})
    if as_json:
        print(json.dumps({"agent": agent, "played": result.played, "skipped": result.skipped,
                          "wall_s": round(result.wall_s, 2),
                          "turns_per_second_per_worker": round(result.turns_per_second_per_worker(), 1),
                          "metrics": {k: asdict(v) for k, v in metrics.items()}}, default=str, indent=2))
        return
    if result.skipped:
        console.print(f"skipped seeds already in {out}/episodes.jsonl: {result.skipped}")
    console.print(format_summary_table(metrics), soft_wrap=True, highlight=False)  # a log keeps its columns
    console.print(f"{result.played} episodes played in {result.wall_s:.0f} s with {cfg.workers} worker(s): "
                  f"{result.turns_per_second_per_worker():.0f} game turns per second per worker", soft_wrap=True)
    if result.report is not None:
        console.print(f"report: {result.report.html} and {result.report.markdown}")
    console.print(f"tables: {out}/episodes.csv, {out}/episodes.jsonl")


def _eval_suite(suite: str, agent: str, names: Optional[list[str]], repeats: int, seeds: str, out: Path,
                db: Optional[str], library: Optional[str], as_json: bool) -> None:
    from .eval.runner import EvalError, parse_seeds
    from .eval.scenarios import format_results, run_suite

    if suite != "scenarios":
        console.print(f"[red]error:[/red] unknown suite {suite!r}: the suite is 'scenarios'")
        raise typer.Exit(2)
    try:
        seed = parse_seeds(seeds)[0]
    except EvalError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)

    def progress(r) -> None:
        if not as_json:
            console.print(f"{r.scenario}: {'success' if r.success else 'failure'} ({r.end_reason}, {r.steps} steps)")

    try:
        results = run_suite(agent, names=names or None, repeats=repeats, seed=seed,
                            db_path=db or str(out / "runs.db"), library_path=library or str(out / "skills"),
                            out_dir=str(out), progress=progress)
    except (KeyError, ValueError) as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
    if as_json:
        print(json.dumps([asdict(r) for r in results], default=str, indent=2))
        return
    console.print(format_results(results), soft_wrap=True, highlight=False)


runs_app = typer.Typer(help="Episodes recorded in the run database.", no_args_is_help=True)
app.add_typer(runs_app, name="runs")


def _runs_db(db: Optional[str]):
    from .config import load_config
    from .store.db import connect

    path = db or str(load_config().get("memory", "database_path"))
    if not Path(path).exists():
        console.print(f"no run database at {path}")
        raise typer.Exit(1)
    return connect(path, check=False)


@runs_app.command("list")
def runs_list(db: Optional[str] = typer.Option(None, help="The run database."),
              limit: int = typer.Option(20, help="How many of the latest episodes.")) -> None:
    """The latest episodes: strategist, seed, role, score, depth, turns, how they ended."""
    conn = _runs_db(db)
    table = Table(title="Episodes")
    for col in ("id", "started", "strategist", "seed", "role", "score", "depth", "XL", "turns", "progress", "ended by"):
        table.add_column(col)
    for r in conn.execute("SELECT * FROM episodes ORDER BY id DESC LIMIT ?", (limit,)):
        table.add_row(str(r["id"]), (r["started_at"] or "")[:19], r["strategist"] or "", str(r["seed"]),
                      r["role"] or "", str(r["final_score"]), str(r["max_depth"]), str(r["max_xp_level"]),
                      str(r["total_turns"]), f"{(r['progression'] or 0) * 100:.2f}%",
                      (r["end_reason"] or "running") + (f": {r['death_reason']}" if r["death_reason"] else ""))
    console.print(table)


@runs_app.command("show")
def runs_show(episode_id: int = typer.Argument(..., help="An episode id from `runs list`."),
              db: Optional[str] = typer.Option(None, help="The run database.")) -> None:
    """One episode: its summary and every decision with its outcome."""
    conn = _runs_db(db)
    r = conn.execute("SELECT * FROM episodes WHERE id=?", (episode_id,)).fetchone()
    if r is None:
        console.print(f"no episode {episode_id}")
        raise typer.Exit(1)
    console.print(r["summary"] or dict(r), markup=False, highlight=False)
    table = Table(title="Decisions")
    for col in ("step", "turn", "type", "skill", "params", "stopped", "ok", "error"):
        table.add_column(col)
    for d in conn.execute("SELECT * FROM decisions WHERE episode_id=? ORDER BY id", (episode_id,)):
        table.add_row(str(d["step"]), str(d["turn"]), d["type"], d["skill_name"] or "", (d["params"] or "")[:40],
                      d["stopped_reason"] or "", "✓" if d["success"] else "", (d["error"] or "")[:60])
    console.print(table)


def _print_rows(title: str, rows: list[tuple[str, str]]) -> None:
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("result", justify="right")
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)


@bench_app.command("api")
def bench_api(
    steps: int = typer.Option(5000, help="Movement steps for each of raw NLE and the API."),
    level_calls: int = typer.Option(300, help="get_current_level() calls to time."),
    seed: int = typer.Option(0, help=SEED_HELP),
) -> None:
    """Raw NLE steps/s, move() actions/s through the API, get_current_level() calls/s."""
    from .bench import run_api_bench

    rows = run_api_bench(steps=steps, level_calls=level_calls, seed=seed)
    _print_rows(f"hackwright bench api (seed {seed}, {steps} steps)", rows)


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
    from .api.nethack_api import NetHackAPI
    from .env.make import EnvConfigError, GameConfig
    from .sandbox import errors
    from .sandbox.runner import SandboxLimits, SkillRunner

    code = path.read_text()
    params = _parse_params(param)
    try:
        api = NetHackAPI.new_game(GameConfig(env_id=env, seed=seed, role=role))
    except EnvConfigError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2)
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
    from .sandbox.isolation import best_stack, describe, detect

    caps = detect()
    for line in describe(caps):
        console.print(line, markup=False, highlight=False)
    stack = best_stack(caps)
    if stack is None:
        console.print("[bold red]No isolation available: model-written skills are refused "
                      "(unless --allow-weak-sandbox).[/bold red]")
        raise typer.Exit(1)
    console.print(f"[bold]Model-written skills run under:[/bold] {stack.value}")


@bench_app.command("sandbox")
def bench_sandbox(
    seed: int = typer.Option(0, help=SEED_HELP),
    calls: int = typer.Option(2000, help="API calls for the round-trip measure."),
    budget: int = typer.Option(600, help="Game actions of the exploration skill."),
) -> None:
    """Proxy round trip, warm worker start, and sandboxed vs in-process actions/s."""
    from .sandbox.bench import run_sandbox_bench

    rows = run_sandbox_bench(seed=seed, calls=calls, budget=budget)
    _print_rows(f"hackwright bench sandbox (seed {seed})", rows)


# ---------------------------------------------------------------- skills: the skill library
skills_app = typer.Typer(help="The skill library: list, inspect, retire and revive skills.", no_args_is_help=True)
app.add_typer(skills_app, name="skills")

_LIBRARY_HELP = "The skill library folder (default: $HACKWRIGHT_LIBRARY or ./skills)."
_DB_HELP = "The library's SQLite database (default: <library>/library.db)."


def _open_library(library: Optional[Path], db: Optional[Path], *, load: bool = True):
    from .skills.library import SkillLibrary, default_library_path

    lib = SkillLibrary(library or default_library_path(), db_path=db)
    if load:
        report = lib.load()
        for q in report.quarantined:
            console.print(f"[yellow]quarantined[/yellow] {q.path} → {q.moved_to}: "
                          f"{q.reason.splitlines()[0] if q.reason else ''}", highlight=False)
        for b in report.invalid_builtins:
            console.print(f"[yellow]invalid built-in[/yellow] {b.path}: "
                          f"{b.reason.splitlines()[0] if b.reason else ''}", highlight=False)
        if report.db_recovered_from:
            console.print(f"[yellow]corrupt database moved to[/yellow] {report.db_recovered_from}", highlight=False)
        if report.meta_recovered_from:
            console.print(f"[yellow]unreadable meta.json moved to[/yellow] {report.meta_recovered_from}",
                          highlight=False)
    return lib


def _rate(st) -> str:
    return f"{st.success_rate:.0%} of {st.executions:,}" if st and st.executions else "–"


def _value(st) -> str:
    return f"{st.mean_value:+.1f}" if st and st.executions else "–"


@skills_app.command("list")
def skills_list(
    all_: bool = typer.Option(False, "--all", help="Include retired skills."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """List the skills (built-in and model-written) by category.

    Loading validates every file: invalid ones are quarantined (and listed first)."""
    with _open_library(library, db) as lib:
        stats = lib.all_stats()
        skills = lib.all(include_retired=all_)
        table = Table(title=f"Skills in {lib.root} ({len(skills)})")
        wide = console.width >= 110
        cols = ("category", "name", "version", "success", "value", "description") + (("triggers",) if wide else ())
        for col in cols:
            table.add_column(col, justify="right" if col in ("success", "value") else "left",
                             no_wrap=col in ("category", "name", "version"),
                             ratio={"description": 2, "triggers": 1}.get(col))
        for s in skills:
            st = stats.get(s.name)
            name = f"{s.name} [red](retired)[/red]" if s.retired else s.name
            cut = 70 if wide else 36
            desc = s.description if len(s.description) <= cut else s.description[:cut - 1] + "…"
            row = [s.category, name, f"{'built-in' if s.is_builtin else 'model'} v{s.version}", _rate(st),
                   _value(st), desc]
            if wide:
                row.append(", ".join(s.triggers) or "–")
            table.add_row(*row)
        console.print(table)


@skills_app.command("show")
def skills_show(
    name: str = typer.Argument(..., help="The skill's name."),
    code: bool = typer.Option(False, "--code", help="Print the skill's code."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """One skill: description, parameters, triggers, versions and record."""
    from rich.syntax import Syntax

    from .skills.library import SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            s = lib.get(name)
        except SkillNotFoundError as e:
            console.print(f"[red]error:[/red] {e}")
            raise typer.Exit(1)
        st = lib.stats(name)
        table = Table(title=s.signature(), show_header=False)
        table.add_row("description", s.description or "–")
        table.add_row("category", s.category)
        table.add_row("source", f"{s.source}, version {s.version} ({len(lib.versions(name))} known)")
        table.add_row("triggers", ", ".join(s.triggers) or "none")
        table.add_row("parameters", ", ".join(
            f"{p.name}: {p.type}" + (f" = {p.default}" if p.default is not None else "") for p in s.parameters) or "none")
        table.add_row("runs", f"{st.executions:,} ({st.successes:,} successful, {st.errors} errors, {st.deaths} deaths)")
        table.add_row("success rate", _rate(st))
        table.add_row("mean value", _value(st))
        table.add_row("judged runs", f"{st.recent_executions} (since this version / last revival), "
                                     f"mean value {st.recent_mean_value:+.1f}")
        table.add_row("last used", st.last_used or "never")
        table.add_row("retired", f"yes: {s.retired_reason or ''}" if s.retired else "no")
        table.add_row("file", str(s.path))
        console.print(table)
        if code:
            console.print(Syntax(s.code, "python", line_numbers=True))


@skills_app.command("stats")
def skills_stats(
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Every skill's record: runs, successes, value, last use."""
    with _open_library(library, db) as lib:
        stats = lib.all_stats()
        table = Table(title=f"Skill statistics ({lib.db_path})")
        for col in ("name", "runs", "success", "value", "judged", "err/died", "last used", "state"):
            table.add_column(col, justify="left" if col in ("name", "last used", "state") else "right")
        known = {s.name: s for s in lib.all(include_retired=True)}
        for name in sorted(set(known) | set(stats)):
            st = stats.get(name)
            s = known.get(name)
            state = "draft" if s is None else ("retired" if s.retired else s.source)
            if st is None:
                table.add_row(name, "0", "–", "–", "–", "–", "never", state)
                continue
            table.add_row(name, f"{st.executions:,}", f"{st.success_rate:.0%}", f"{st.mean_value:+.1f}",
                          f"{st.recent_executions} @ {st.recent_mean_value:+.1f}", f"{st.errors}/{st.deaths}",
                          (st.last_used or "never")[:16].replace("T", " "), state)
        console.print("value: mean per run; judged: runs of the current version since saved/revived @ their "
                      "mean value (what prune judges)", style="dim")
        console.print(table)


@skills_app.command("retire")
def skills_retire(
    name: str = typer.Argument(..., help="The skill's name."),
    reason: str = typer.Option("retired by hand", "--reason", help="Why (kept in meta.json and SKILL.md)."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Retire a skill: kept on disk, no longer offered to the agent."""
    from .skills.library import SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            lib.retire(name, reason)
        except SkillNotFoundError as e:
            console.print(f"[red]error:[/red] {e}")
            raise typer.Exit(1)
        console.print(f"retired {name}: {reason}")


@skills_app.command("revive")
def skills_revive(
    name: str = typer.Argument(..., help="The skill's name."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Bring a retired skill back (its judged runs start afresh)."""
    from .skills.library import SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            lib.revive(name)
        except SkillNotFoundError as e:
            console.print(f"[red]error:[/red] {e}")
            raise typer.Exit(1)
        console.print(f"revived {name}")


@skills_app.command("path")
def skills_path(
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Where the library keeps its files (prints the folder first; nothing is created)."""
    lib = _open_library(library, db, load=False)
    print(lib.root.resolve())
    table = Table(show_header=False)
    table.add_row("database", str(lib.db_path.resolve()))
    table.add_row("meta", str(lib.meta_path.resolve()))
    table.add_row("built-ins", str(lib.builtin_root) if lib.builtin_root else "none")
    table.add_row("older versions", str(lib.versions_dir.resolve()))
    table.add_row("quarantine", str(lib.quarantine_dir.resolve()))
    console.print(table)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

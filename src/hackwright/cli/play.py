"""`hackwright play` and `hackwright info`: one game."""

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


@app.command()
def play(
    llm: Optional[str] = typer.Option(None, "--llm", "--agent",
                                      help="autopilot (offline, default), handcrafted, random, anthropic:MODEL, "
                                                 "openai:MODEL or openai:MODEL@BASE_URL (vLLM, Ollama, llama.cpp, "
                                                 "OpenRouter), replay:FILE, or human (you are the model, on "
                                                 "the terminal) or human:DIR (a script is: DIR/req-N.txt, "
                                                 "DIR/rep-N.txt), or a strategist plug-in: module:Class, "
                                                 "path/to/file.py:Class or an installed plug-in's name "
                                                 "(docs/strategists.md). Other names are refused."),
    fallback: Optional[str] = typer.Option(None, help="autopilot: it plays the steps the model cannot decide "
                                                      "(counted in the summary). Default: none, so a model that "
                                                      "cannot be reached ends the episode with an error."),
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
    model_timeout: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["timeout_seconds"]),
    model_retries: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["retries"]),
    max_tokens: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["max_tokens"]),
    temperature: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["temperature"]),
    extra_body: Optional[str] = typer.Option(None, help=MODEL_FLAG_HELP["extra_body"]),
    web: bool = typer.Option(False, "--web", help="Watch the game in a browser: serves a live page with "
                                                  "NetHack's tiles, the skill, the decision and its reasoning "
                                                  "on 127.0.0.1 (docs/replays.md, Watching live)."),
    port: int = typer.Option(0, help="With --web: the port (0: a free one; the URL is printed)."),
    web_keep: bool = typer.Option(False, "--web-keep", help="With --web: keep serving the page after the "
                                                            "game until Ctrl-C (default: stop with the game)."),
    delay: int = typer.Option(0, "--delay", metavar="MS", help="Pause this many milliseconds after every key "
                                                               "sent to the game, to watch it (terminal and web)."),
) -> None:
    """Play one episode: the strategist picks skills (or writes new ones) until death or a cap.

    Ctrl-C stops at the next game action and records the episode as interrupted (exit 130);
    a second Ctrl-C stops at once. A model that cannot be reached ends the episode with
    exit 1 unless --fallback autopilot is given. With --llm human, end of input before a
    reply ends the game (recorded as interrupted, exit 0).

    Model call settings, highest first: these flags, HACKWRIGHT_<PROVIDER>_<KEY>,
    HACKWRIGHT_MODEL_<KEY>, config.yaml's openai/anthropic section, its agent defaults."""
    from ..agent.backends.base import BackendError
    from ..agent.loop import Agent
    from ..agent.stopping import StopOnInterrupt
    from ..agent.strategists import UnknownAgentError
    from .common import load_config_or_exit, model_flags_or_exit
    from ..env.make import EnvConfigError

    cfg = load_config_or_exit(config)
    model = model_flags_or_exit(timeout_seconds=model_timeout, retries=model_retries, max_tokens=max_tokens,
                                temperature=temperature, extra_body=extra_body)
    record_dir = None
    if not no_record:
        record_dir = str(record or Path("runs") / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}")
    episode = cfg.episode(llm=llm, seed=seed, role=role, env_id=env, max_steps=max_steps, max_turns=max_turns,
                          budget_usd=budget_usd, db_path=db, library_path=library, record_dir=record_dir,
                          fallback=None if fallback in (None, "none") else fallback, model=model)
    human = episode.llm.split(":")[0].strip() == "human"
    from ..replay.live import LiveWatch, watching

    watch = LiveWatch(delay, publish=web)
    server = _serve(watch, port) if web else None
    # A live view would overwrite the requests a human reads on the same terminal.
    show = _Progress(console, quiet=as_json, live=not human, watch=watch)
    agent = Agent(episode, on_step=show.step)
    player_ended: list[bool] = []
    if human:
        def end_of_input() -> None:
            player_ended.append(True)
            agent.request_stop()

        episode.backend_options["on_end"] = end_of_input
    summary = None
    try:
        with StopOnInterrupt(agent), watching(watch):
            summary = asyncio.run(agent.run())
    except KeyboardInterrupt:  # the second Ctrl-C: the episode was still recorded
        summary = getattr(agent, "summary", None)
    except (EnvConfigError, UnknownAgentError, BackendError, ValueError) as e:
        show.stop()
        _stop_serving(server, keep=False)
        raise fail(e)
    show.stop()
    _stop_serving(server, keep=web_keep)
    if summary is None:
        console.print("interrupted before the episode started; nothing was recorded")
        raise typer.Exit(130)
    code = 130 if summary.end_reason == "interrupted" and not player_ended else (1 if summary.model_error else 0)
    if as_json:
        print(summary.to_json())
    else:
        print_summary(summary)
        if player_ended:
            console.print("The player ended the game (end of input); it is recorded as interrupted.")
        if record_dir:
            console.print(f"Recorded in {record_dir}/ (ttyrec, transcript, summary.json)")
    if summary.model_error:
        raise fail(f"the model failed, so the episode ended: {summary.model_error}. Check the server and key, "
                   "or pass --fallback autopilot to let the autopilot stand in (its steps are counted).", code)
    raise typer.Exit(code)


def _serve(watch, port: int):
    """Start the live page for ``watch`` and say where it is (a port in use is a usage error)."""
    from ..replay.live_server import LiveServer

    try:
        server = LiveServer(watch, port=port).start()
    except OSError as e:
        raise fail(f"cannot serve the live page on 127.0.0.1:{port}: {e}", 2)
    console.print(f"watch at {server.url}", markup=False, highlight=False, soft_wrap=True)
    return server


def _stop_serving(server, keep: bool) -> None:
    """Stop the live page, or with ``keep`` (--web-keep) serve the finished game until Ctrl-C."""
    if server is None:
        return
    server.watch.finish()
    if keep:
        console.print(f"the game is over; {server.url} stays until Ctrl-C", markup=False, highlight=False)
        # Ctrl-C ends the wait even where SIGINT came in ignored (a job started in the
        # background by a script, as CI runs).
        import signal

        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            while True:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
    server.stop()


def decided_by_text(decided_by: dict, decisions: int) -> str:
    """``own 40 · after a retry 3 · fallback (autopilot) 5 (10%) · …`` for a summary."""
    names = {"strategist": "own", "retry": "after a retry", "fallback": "fallback (autopilot)",
             "loop_break": "loop break (autopilot)"}
    parts = []
    for key, label in names.items():
        n = int(decided_by.get(key, 0) or 0)
        if n or key == "strategist":
            share = f" ({100 * n / decisions:.0f}%)" if decisions and key in ("fallback", "loop_break") else ""
            parts.append(f"{label} {n}{share}")
    return " · ".join(parts)


def print_summary(summary) -> None:
    table = Table(title=f"Episode {summary.episode_id} summary", show_header=False)
    decisions = f"{summary.decisions} ({summary.decisions_per_1000_turns} per 1,000 turns)"
    if summary.failed_decisions:
        decisions += f"; {summary.failed_decisions} steps without a usable decision, nothing played"
    rows = [
        ("strategist", summary.strategist), ("seed / role", f"{summary.seed} / {summary.role}"),
        ("ended by", summary.end_reason + (f" ({summary.death_reason})" if summary.death_reason else "")),
        ("score", summary.score), ("depth (max)", f"{summary.depth} ({summary.max_depth})"),
        ("experience level (max)", f"{summary.xp_level} ({summary.max_xp_level})"), ("turns", summary.turns),
        ("BALROG progression", f"{summary.progression * 100:.2f}%"),
        ("decisions", decisions),
        ("decided by", decided_by_text(summary.decided_by, summary.decisions)),
        ("model calls / tokens in / out", f"{summary.model_calls} / {summary.input_tokens} / {summary.output_tokens}"),
        ("cost", f"${summary.cost_usd:.4f}"),
        ("skills used", ", ".join(f"{k}×{v}" for k, v in sorted(summary.skills_used.items(), key=lambda kv: -kv[1]))),
        ("skills created", ", ".join(summary.skills_created) or "none"),
        ("wall time", f"{summary.wall_s:.1f} s"),
    ]
    if getattr(summary, "task_success", None) is not None:  # a MiniHack task's own verdict
        rows.insert(3, ("MiniHack task", f"{'solved' if summary.task_success else 'not solved'} · reward "
                                         f"{summary.task_reward} · {summary.task_steps} steps"))
    for k, v in rows:
        table.add_row(k, str(v))
    console.print(table)


class _Progress:
    """Live view on a terminal (NetHack's screen in colour, stats, current skill, last decision and
    messages; beside the map from 120 columns on); plain lines otherwise. With a ``watch`` the view
    follows every key (it redraws 8 times a second), not only every decision."""

    def __init__(self, console: Console, quiet: bool = False, live: bool = True, watch=None):
        self.console = console
        self.quiet = quiet
        self.watch = watch
        self.live = None
        self.agent = None
        self.line = "waiting for the first decision"
        self.decision = ""
        self.reasoning = ""
        if not quiet and live and console.is_terminal:
            from rich.live import Live

            self.live = Live(console=console, refresh_per_second=8, transient=False, get_renderable=self.view)
            self.live.start()

    def step(self, report, agent) -> None:
        if self.quiet:
            return
        s = report.stats
        d = report.decision
        what = d.skill_name or d.action or d.type
        outcome = report.result.stopped_reason if report.result else f"error: {(report.error or '')[:80]}"
        self.line = (f"step {report.step:4d} · T:{s.turn if s else '?':>5} · Dlvl {s.dungeon_level if s else '?'} · "
                     f"HP {s.hp if s else '?'}/{s.max_hp if s else '?'} · XL {s.xp_level if s else '?'} · "
                     f"{what} → {outcome}")
        self.decision = f"{what} → {outcome}"
        self.reasoning = (d.reasoning or "")[:300]
        self.agent = agent
        if self.live is None:
            if report.step % 10 == 0 or report.error:
                self.console.print(self.line, markup=False, highlight=False)
            return
        self.live.refresh()

    def view(self):
        """The live view now (rich's Live calls it on every refresh)."""
        from rich.text import Text

        from ..replay.live_terminal import AgentPanel, terminal_view

        agent = self.agent or (self.watch.agent if self.watch is not None else None)
        api = getattr(agent, "api", None)
        if api is None:
            return Text(self.line)
        over = False
        try:
            screen = api.game.final_screen()  # after a death: NetHack's tombstone
            over = bool(api.game_over)
        except Exception:  # the game is closing
            return Text(self.line)
        title = f"Hackwright · {agent.strategist.name}" + (" · game over" if over else "")
        panel = AgentPanel(title=title, status=self.line, skill=getattr(agent, "current_skill", None),
                           decision=self.decision, reasoning=self.reasoning,
                           messages=self.watch.messages[-6:] if self.watch is not None else [])
        return terminal_view(screen.chars, screen.colors, panel, self.console.width)

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


@app.command()
def info(
    seed: Optional[int] = typer.Option(0, help=SEED_HELP),
    role: Optional[str] = typer.Option(None, help="valkyrie, samurai, wizard, … (random if not given)."),
    env: str = typer.Option("NetHackChallenge-v0", help="NetHackChallenge-v0 or a MiniHack environment name."),
) -> None:
    """Start a game and print its first screen, the hero and the seeding convention."""
    from ..api.nethack_api import NetHackAPI
    from ..env.make import EnvConfigError, GameConfig

    try:
        api = NetHackAPI.new_game(GameConfig(env_id=env, seed=seed, role=role))
    except EnvConfigError as e:
        raise fail(e, 2)
    try:
        screen = asyncio.run(api.get_screen()).rstrip("\n ").splitlines()
        stats = asyncio.run(api.get_stats())
        console.print("\n".join(ln.rstrip() for ln in screen), markup=False, highlight=False)
        console.print()
        for label, text in info_lines(api, stats, env, seed):
            console.print(f"{label + ':':<13} {text}", markup=False, highlight=False)
    finally:
        api.close()


def info_lines(api, stats, env: str, seed: Optional[int]) -> list[tuple[str, str]]:
    """``hackwright info``'s lines after the screen: the hero, the game and its seeds, in words."""
    alignment = api.hero_alignment or getattr(stats.alignment, "value", str(stats.alignment))
    hero = " ".join(str(p).lower() for p in (alignment, api.hero_gender, api.hero_race) if p)
    lines = [("hero", f"{hero} {api.hero_role}".strip()), ("environment", env)]
    seeds = api.game.seeds()
    if seed is None or not seeds:
        lines.append(("seed", "none: a new random game each time"))
    else:
        core, disp = seeds[0], seeds[1]
        reseed = "on" if len(seeds) > 2 and seeds[2] else "off"
        lines.append(("seed", f"{seed} (NetHack's core seed {core}, display seed {disp}, its re-seeding {reseed}; "
                              "the same seed gives the same game)"))
    task = api.game.task_outcome
    if task is not None:
        lines.append(("task", f"MiniHack's own: the episode ends when the task is solved or fails, "
                              f"at most {task.max_steps} steps (keys)"))
    return lines

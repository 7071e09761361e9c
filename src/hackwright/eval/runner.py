"""The evaluation runner: many episodes, in parallel processes or on Ray, resumable.

``hackwright eval --agent autopilot --seeds 0-39 --workers 2`` plays one episode per
seed (seeding convention of :mod:`hackwright.env.make`, so rows compare exactly with
any other agent on the same seeds), records each in the run database and in its own
record folder (ttyrec, frames, transcript, summary), appends its summary to
``OUT/episodes.jsonl`` as it finishes, and writes ``episodes.csv`` and the report.
Seeds already in ``episodes.jsonl`` for that agent are skipped, so an interrupted
evaluation resumes where it stopped; episodes that ended in a harness error are
played again.

Episodes never crash the evaluation: an exception inside one becomes a summary with
``end_reason = "error: …"`` (a harness error, counted in the report).
"""

from __future__ import annotations

import asyncio
import csv
import json
import os
import re
import shutil
import signal
import tempfile
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from ..store.episode_bundle import export_episode, import_episode

AGENTS_HELP = ("autopilot (built-in), handcrafted (NetPlay's rules), random, a model spec (anthropic:MODEL, …), "
               "or a bot (autoascend, bot:PATH)")
CSV_FIELDS = ("agent", "seed", "role", "end_reason", "death_reason", "score", "max_depth", "max_xp_level", "turns",
              "progression", "decisions", "decisions_per_1000_turns", "model_calls", "input_tokens",
              "output_tokens", "cost_usd", "fallback_steps", "loop_break_steps", "failed_decisions", "model_error",
              "digging_tool_turn", "skills_created", "wall_s", "episode_id", "record_dir", "task_success",
              "task_reward")


class EvalError(ValueError):
    """A bad evaluation request (seed list, agent, backend)."""


def parse_seeds(text: str) -> list[int]:
    """``"0-39"``, ``"1,5,9"`` or ``"0-3,10"`` → a sorted list of distinct seeds."""
    out: set[int] = set()
    for part in str(text).replace(" ", "").split(","):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise EvalError(f"bad seed range {part!r}: write e.g. 0-39 or 1,5,9")
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) is not None else a
        if b < a:
            raise EvalError(f"bad seed range {part!r}: the end is below the start")
        out.update(range(a, b + 1))
    if not out:
        raise EvalError("no seeds given")
    return sorted(out)


def agent_slug(agent: str) -> str:
    """A file-name-safe name for an agent spec."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", agent).strip("_") or "agent"


@dataclass
class EpisodeJob:
    """One episode to play (everything a worker process needs; picklable)."""

    agent: str
    seed: int
    role: Optional[str] = None
    env_id: Optional[str] = None
    max_steps: Optional[int] = None
    max_turns: Optional[int] = None
    db_path: str = "data/memory.db"
    library_path: str = "skills"
    record_dir: Optional[str] = None
    config_path: Optional[str] = None
    budget_usd: Optional[float] = None
    bundle: bool = False  # play into a private database and return its rows (the driver writes them)
    ship_files: bool = False  # also return the record folder's files (remote workers: Ray)
    fallback: Optional[str] = None  # "autopilot": it stands in for a model that fails (counted)


@dataclass
class EvalConfig:
    """What ``hackwright eval`` runs."""

    agent: str = "autopilot"
    seeds: list[int] = field(default_factory=lambda: list(range(4)))
    role: Optional[str] = None
    env_id: Optional[str] = None
    workers: int = 1
    max_turns: Optional[int] = None
    max_steps: Optional[int] = None
    out_dir: str = "eval"
    db_path: Optional[str] = None  # default OUT/runs.db
    library_path: Optional[str] = None  # default OUT/skills (a fresh library, built-ins only)
    config_path: Optional[str] = None
    budget_usd: Optional[float] = None
    backend: str = "local"  # or "ray"
    ray_address: Optional[str] = None
    record: bool = True
    report: bool = True
    fallback: Optional[str] = None
    resume: bool = True  # skip seeds already played into OUT (interrupted and failed ones are played again)

    def __post_init__(self) -> None:
        from .bots import BotSpecError, is_bot_agent, resolve_bot

        if is_bot_agent(self.agent):  # a missing extra or bot folder: one error now, not one per seed
            try:
                resolve_bot(self.agent, self.env_id)
            except BotSpecError as e:
                raise EvalError(str(e)) from None

    def resolved(self) -> "EvalConfig":
        out = Path(self.out_dir)
        return replace(self, db_path=self.db_path or str(out / "runs.db"),
                       library_path=self.library_path or str(out / "skills"))


DEFAULT_STEPS = {"random": 5000}  # a random agent takes one key per decision


def default_max_steps(agent: str) -> int:
    from .bots import DEFAULT_MAX_STEPS, is_bot_agent

    if is_bot_agent(agent):  # a bot's step is one key
        return DEFAULT_MAX_STEPS
    return DEFAULT_STEPS.get(agent, 2000)


# ---------------------------------------------------------------- one episode (worker side)
def is_unfinished(summary: dict) -> bool:
    """An episode to play again on resume: a harness error, a model that failed, or Ctrl-C."""
    end = str(summary.get("end_reason", ""))
    return end.startswith(("error", "model error")) or end == "interrupted"


def _ignore_sigint() -> None:
    """Pool workers between episodes: Ctrl-C is the driver's to handle (an episode in
    flight installs its own handler, which stops it at the next action)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _error_summary(job: EpisodeJob, reason: str, error: str, wall_s: float = 0.0) -> dict:
    """The row of an episode that ended in a harness error (counted as such in the report)."""
    return {"agent": job.agent, "seed": job.seed, "role": job.role or "?", "strategist": job.agent,
            "end_reason": f"error: {reason}"[:300], "death_reason": None, "score": 0, "depth": 0, "max_depth": 0,
            "xp_level": 0, "max_xp_level": 0, "turns": 0, "progression": 0.0, "decisions": 0,
            "decisions_per_1000_turns": 0.0, "model_calls": 0, "input_tokens": 0, "output_tokens": 0,
            "cost_usd": 0.0, "skills_used": {}, "skills_created": [], "fallback_steps": 0, "loop_break_steps": 0,
            "failed_decisions": 0, "decided_by": {}, "model_error": None, "wall_s": wall_s,
            "episode_id": 0, "record_dir": job.record_dir, "error": error}


def run_episode_job(job: EpisodeJob) -> dict:
    """Play one episode and return its summary as a dict (with ``agent``).

    Runs in a worker process. Never raises: a failure becomes a summary whose
    ``end_reason`` starts with "error:" and whose ``error`` holds the traceback.
    """
    from ..agent.loop import Agent
    from ..agent.stopping import StopOnInterrupt
    from ..config import load_config
    from .bots import is_bot_agent, play_bot_job

    t0 = time.time()
    db_path = job.db_path
    tmp: Optional[str] = None
    if job.bundle:
        # A remote worker cannot write the driver's database: play into a private one
        # and send its rows back.
        tmp = tempfile.mkdtemp(prefix="hackwright-episode-")
        db_path = str(Path(tmp) / "runs.db")
    try:
        if is_bot_agent(job.agent):  # a bot plays the whole game by itself (eval/bots.py)
            out = play_bot_job(job, db_path)
        else:
            cfg = load_config(job.config_path, warn=None)  # the driver has warned once already
            episode = cfg.episode(llm=job.agent, seed=job.seed, role=job.role, env_id=job.env_id,
                                  max_steps=job.max_steps or default_max_steps(job.agent), max_turns=job.max_turns,
                                  budget_usd=job.budget_usd, db_path=db_path, library_path=job.library_path,
                                  record_dir=job.record_dir, fallback=job.fallback)
            agent = Agent(episode)
            # Ctrl-C reaches the workers with the driver: the episode stops at its next action
            # and comes back as "interrupted" (played again on --resume).
            with StopOnInterrupt(agent, hard_on_second=False):
                summary = asyncio.run(agent.run())
            out = json.loads(summary.to_json())
            out["error"] = None
    except Exception as e:  # noqa: BLE001 — an episode must never take the evaluation down
        out = _error_summary(job, f"{type(e).__name__}: {e}", traceback.format_exc()[-4000:],
                             wall_s=round(time.time() - t0, 2))
    out["agent"] = job.agent
    out["record_dir"] = job.record_dir
    # The caps it ran under, so that `hackwright compare` can tell like runs from unlike.
    out["max_turns"] = job.max_turns
    out["max_steps"] = job.max_steps or default_max_steps(job.agent)
    if tmp is not None:
        try:
            out["_bundle"] = export_episode(db_path, int(out.get("episode_id") or 0),
                                            job.record_dir if job.ship_files else None)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return out


# ---------------------------------------------------------------- moving an episode between databases
# ---------------------------------------------------------------- the driver
@dataclass
class EvalResult:
    config: EvalConfig
    summaries: list[dict]  # every episode of this agent in OUT (resumed ones included)
    played: int  # episodes played in this run
    skipped: list[int]  # seeds already done
    wall_s: float
    report: Optional[Any] = None  # ReportPaths

    @property
    def game_turns(self) -> int:
        return sum(int(s.get("turns") or 0) for s in self.summaries if s.get("_played"))

    def turns_per_second_per_worker(self) -> float:
        w = max(1, self.config.workers)
        return self.game_turns / self.wall_s / w if self.wall_s > 0 else 0.0


def _read_jsonl(path: Path) -> list[dict]:
    out = []
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    continue  # a line cut by a crash: that seed is played again
    return out


def _latest(rows: list[dict]) -> list[dict]:
    """The last row for each (agent, seed), in first-seen order."""
    last: dict[tuple, dict] = {}
    for r in rows:
        last[(r.get("agent"), r.get("seed"))] = r
    return list(last.values())


class EvalRunner:
    """Runs an :class:`EvalConfig`; ``on_episode(summary, done, total)`` reports progress."""

    def __init__(self, config: EvalConfig, on_episode: Optional[Callable[[dict, int, int], None]] = None):
        self.config = config.resolved()
        self.on_episode = on_episode
        self.out = Path(self.config.out_dir)
        # Set by Ctrl-C or by a model that cannot be reached: no new episode starts, those in
        # flight finish (an interrupt stops them at their next action) and are recorded.
        self.stopping: Optional[str] = None
        self.interrupted = False
        self.model_error: Optional[str] = None

    # -- jobs
    def _jobs(self, seeds: Iterable[int], bundle: bool = False, ship_files: bool = False) -> list[EpisodeJob]:
        c = self.config
        slug = agent_slug(c.agent)
        return [EpisodeJob(agent=c.agent, seed=s, role=c.role, env_id=c.env_id, max_steps=c.max_steps,
                           max_turns=c.max_turns, db_path=str(c.db_path), library_path=str(c.library_path),
                           record_dir=str(self.out / "episodes" / f"{slug}-seed{s}") if c.record else None,
                           config_path=c.config_path, budget_usd=c.budget_usd, bundle=bundle,
                           ship_files=ship_files, fallback=c.fallback)
                for s in seeds]

    def _prepare(self) -> None:
        """Create the output folder, the database and the library once, before any worker
        starts, so that workers never race to create them."""
        from ..skills.library import SkillLibrary
        from ..store.db import connect

        self.out.mkdir(parents=True, exist_ok=True)
        Path(self.config.db_path).parent.mkdir(parents=True, exist_ok=True)
        connect(str(self.config.db_path), check=False).close()
        SkillLibrary(Path(self.config.library_path), db_path=Path(self.config.db_path)).load()

    def run(self) -> EvalResult:
        """Play the seeds not yet in OUT and write the tables and report. Ctrl-C stops every
        episode in flight at its next action (recorded as interrupted, played again by the
        next run with --resume) and returns with ``interrupted`` set; a second Ctrl-C stops
        the workers at once."""
        import threading

        if threading.current_thread() is not threading.main_thread():
            return self._run()
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            return self._run()
        finally:
            signal.signal(signal.SIGINT, previous)

    def _on_sigint(self, signum, frame) -> None:
        if self.interrupted:  # the second press: no waiting for the episodes in flight
            raise KeyboardInterrupt
        self.interrupted = True
        self.stopping = "interrupted"
        for pid in self._worker_pids():
            try:
                os.kill(pid, signal.SIGINT)  # a terminal's Ctrl-C reached them already; a kill did not
            except OSError:
                pass

    def _worker_pids(self) -> list[int]:
        pool = getattr(self, "_pool", None)
        procs = getattr(pool, "_processes", None) or {}
        return [int(p) for p in procs]

    def _run(self) -> EvalResult:
        c = self.config
        if c.workers < 1:
            raise EvalError("--workers must be at least 1")
        if c.backend not in ("local", "ray"):
            raise EvalError(f"unknown backend {c.backend!r}: use local or ray")
        from ..config import ConfigError, load_config

        try:  # a bad setting fails the evaluation here, not as an error in every episode
            load_config(c.config_path, warn=None)
        except ConfigError as e:
            raise EvalError(str(e)) from None
        self._prepare()
        jsonl = self.out / "episodes.jsonl"
        earlier = [s for s in _latest(_read_jsonl(jsonl)) if s.get("agent") == c.agent] if c.resume else []
        # Harness errors, failed models and interrupted episodes are played again on resume;
        # everything else counts as done.
        done_seeds = {int(s["seed"]) for s in earlier if s.get("seed") is not None and not is_unfinished(s)}
        earlier = [s for s in earlier if int(s.get("seed", -1)) in done_seeds]
        todo = [s for s in c.seeds if s not in done_seeds]
        skipped = [s for s in c.seeds if s in done_seeds]
        t0 = time.time()
        played: list[dict] = []
        total = len(todo)

        def finished(summary: dict) -> None:
            bundle = summary.pop("_bundle", None)
            if bundle is not None:
                summary["episode_id"] = import_episode(str(c.db_path), bundle, summary.get("record_dir"),
                                                       str(c.library_path))
            with jsonl.open("a") as f:
                f.write(json.dumps({k: v for k, v in summary.items() if k != "error"} |
                                   ({"error": summary["error"]} if summary.get("error") else {}),
                                   default=str) + "\n")
            summary["_played"] = True
            played.append(summary)
            if summary.get("end_reason") == "interrupted":
                self.interrupted = True
                self.stopping = "interrupted"
            elif summary.get("model_error") and not self.stopping:
                # every other episode would fail the same way, each after its retries
                self.model_error = str(summary["model_error"])
                self.stopping = "model error"
            if self.on_episode:
                self.on_episode(summary, len(played), total)

        if todo:
            if c.backend == "ray":
                self._run_ray(self._jobs(todo, bundle=True, ship_files=True), finished)
            elif c.workers == 1:
                for job in self._jobs(todo):
                    if self.stopping:
                        break
                    finished(run_episode_job(job))
            else:
                # Parallel workers play into private databases and the driver alone writes
                # the run database: under load, several processes opening one large WAL
                # database at once met "disk I/O error" here.
                self._run_pool(self._jobs(todo, bundle=True), finished)
        wall = time.time() - t0
        # One row per agent and seed: a replayed error's row gives way to the new one.
        rows = _latest(_read_jsonl(jsonl))
        jsonl.write_text("".join(json.dumps(r, default=str) + "\n" for r in rows))
        wanted = set(c.seeds)
        summaries = [s for s in earlier if int(s.get("seed", -1)) in wanted] + played
        summaries.sort(key=lambda s: int(s.get("seed", 0)))
        self._write_tables()
        result = EvalResult(c, summaries, len(played), skipped, wall)
        if c.report:
            result.report = self.write_report()
        (self.out / "last_run.json").write_text(json.dumps({
            "agent": c.agent, "seeds": c.seeds, "played": len(played), "skipped": skipped,
            "workers": c.workers, "backend": c.backend, "wall_s": round(wall, 2),
            "game_turns": result.game_turns,
            "turns_per_second_per_worker": round(result.turns_per_second_per_worker(), 1),
        }, indent=2))
        return result

    def _run_pool(self, jobs: list[EpisodeJob], finished: Callable[[dict], None]) -> None:
        import multiprocessing as mp

        # A fresh interpreter per worker: NLE and the sandbox's zygote are not fork-safe
        # once a game has been played in the parent.
        # Jobs are handed out one per free worker, so that a stop leaves nothing queued.
        queue = list(jobs)
        pool = ProcessPoolExecutor(max_workers=self.config.workers, mp_context=mp.get_context("spawn"),
                                   initializer=_ignore_sigint)
        self._pool = pool
        pending: dict[Future, EpisodeJob] = {}
        try:
            while queue or pending:
                while queue and not self.stopping and len(pending) < self.config.workers:
                    job = queue.pop(0)
                    pending[pool.submit(run_episode_job, job)] = job
                if not pending:
                    break
                done, _ = wait(list(pending), timeout=0.5, return_when=FIRST_COMPLETED)
                for fut in done:
                    job = pending.pop(fut)
                    try:
                        summary = fut.result()
                    except Exception as e:  # noqa: BLE001 — the worker process itself died
                        summary = _error_summary(job, f"worker died: {e}", repr(e))
                    finished(summary)
        except KeyboardInterrupt:
            # The second Ctrl-C: the workers go now; their episodes are recorded as interrupted.
            for pid in self._worker_pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for job in pending.values():
                row = _error_summary(job, "interrupted", "stopped by a second Ctrl-C")
                row["end_reason"] = "interrupted"
                finished(row)
        finally:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    def _run_ray(self, jobs: list[EpisodeJob], finished: Callable[[dict], None]) -> None:
        try:
            import ray
        except ImportError as e:  # pragma: no cover - ray is a dependency of the dev extra
            raise EvalError("--backend ray needs the ray package: pip install 'hackwright[ray]'") from e
        started_here = not ray.is_initialized()
        if started_here:
            address = self.config.ray_address or os.environ.get("RAY_ADDRESS")
            if address:
                ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
            else:
                ray.init(num_cpus=self.config.workers, include_dashboard=False, ignore_reinit_error=True,
                         log_to_driver=False)
        try:
            remote = ray.remote(num_cpus=1, max_retries=1)(run_episode_job)
            refs = {remote.remote(j): j for j in jobs}
            while refs:
                ready, _ = ray.wait(list(refs), num_returns=1)
                for ref in ready:
                    job = refs.pop(ref)
                    try:
                        summary = ray.get(ref)
                    except Exception as e:  # noqa: BLE001
                        summary = _error_summary(job, f"ray task failed: {e}", repr(e))
                    finished(summary)
        finally:
            if started_here:
                ray.shutdown()

    # -- outputs
    def _write_tables(self) -> None:
        """``episodes.csv`` and one JSON per episode, for every agent in OUT."""
        rows = _read_jsonl(self.out / "episodes.jsonl")
        with (self.out / "episodes.csv").open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
            w.writeheader()
            for r in sorted(rows, key=lambda r: (str(r.get("agent")), int(r.get("seed", 0)))):
                r = dict(r)
                r["skills_created"] = ";".join(r.get("skills_created") or [])
                w.writerow(r)
        per = self.out / "episodes-json"
        per.mkdir(exist_ok=True)
        for r in rows:
            (per / f"{agent_slug(str(r.get('agent')))}-seed{r.get('seed')}.json").write_text(
                json.dumps(r, indent=2, default=str))

    def write_report(self):
        """report.md and report.html over every agent evaluated into OUT."""
        from .metrics import group_by_agent, load_episodes
        from .report import write_report

        episodes = load_episodes(self.out / "episodes.jsonl")
        if not episodes:
            return None
        return write_report(group_by_agent(episodes), self.out, title="Hackwright evaluation",
                            db_path=str(self.config.db_path))


def summary_line(summary: dict) -> str:
    """One line per finished episode, for progress output."""
    end = summary.get("death_reason") or summary.get("end_reason") or "?"
    return (f"seed {summary.get('seed')}: {summary.get('role', '?')}, score {summary.get('score', 0)}, "
            f"Dlvl {summary.get('max_depth', 0)}, XL {summary.get('max_xp_level', 0)}, "
            f"{summary.get('turns', 0)} turns — {end}")


__all__ = ["EvalConfig", "EvalError", "EvalResult", "EvalRunner", "EpisodeJob", "parse_seeds", "run_episode_job",
           "export_episode", "import_episode", "summary_line"]

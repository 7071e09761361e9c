"""The scenario suite: small MiniHack levels, each with a task text and a success check.

The scenarios follow the small-scale tests of NetPlay (game mechanics: a pile
to pick up, a bag to fill, a wand to zap at a statue; instructions: an ordered
and an unordered task list; creativity: a boulder in a corridor, a room to dig
out of) and Skill Set Optimization's NetHack task (a key for a locked door, a
levitation item to cross lava to the stairs). Each one is played as an agent
episode whose goal is the scenario's check; ``run_suite`` plays them and
``format_results`` prints the success rates.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import statistics
import tempfile
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

from . import checks as C
from .checks import Check, Subgoal, TaskList

HERE = Path(__file__).resolve().parent
DEFAULT_ENV = "MiniHack-Navigation-Custom-v0"  # keys go to NetHack directly, so any custom env will do


@dataclass(frozen=True)
class Scenario:
    """One scenario: a MiniHack des-file next to this module, the task the agent is
    given, limits, and ``make_check`` which builds a fresh success check per episode
    (task lists remember what was done, so a check is never shared by two games)."""

    name: str
    task: str
    des_file: str  # file name in this package
    make_check: Callable[[], Check]
    env_id: str = DEFAULT_ENV
    role: Optional[str] = "valkyrie"  # a fixed role keeps starting inventories out of the checks
    max_steps: int = 40
    max_turns: Optional[int] = 800
    success: str = ""  # the check in words (docs, reports)
    notes: str = ""

    @property
    def des_path(self) -> Path:
        """Where the des-file is."""
        return HERE / self.des_file

    def des_text(self) -> str:
        """The des-file's text (what MiniHack is given)."""
        return self.des_path.read_text()

    def new_check(self) -> Check:
        """A fresh success check for one episode."""
        return self.make_check()


def _stateless(check: Check) -> Callable[[], Check]:
    return lambda: check


def _picked(name: str) -> Subgoal:
    # "f - a blindfold." is printed when it is picked up (several may share a line)
    return Subgoal(f"pick up the {name}", C.carrying(name), evidence=rf"\b[a-zA-Z] - [^.]*\b{name}")


SCENARIOS: dict[str, Scenario] = {}


def _add(s: Scenario) -> None:
    SCENARIOS[s.name] = s


_add(Scenario(
    name="pickup_pile",
    task="Five things lie together on one square of this room: an apple, a carrot, a tin opener, "
         "a blindfold and a towel. Pick up all five of them.",
    des_file="pickup_pile.des",
    make_check=_stateless(C.carrying("apple", "carrot", "tin opener", "blindfold", "towel")),
    max_steps=20, max_turns=300,
    success="the apple, carrot, tin opener, blindfold and towel are all in the inventory",
    notes="NetPlay's multi-item pickup: the pile is picked up through one menu.",
))
_add(Scenario(
    name="bag_items",
    task="There is a bag in this room, and an apple, a blindfold and a towel lie around it. Pick up the bag, "
         "then put the apple, the blindfold and the towel into the bag (apply the bag, choose to put things "
         "in). Keep the bag with you.",
    des_file="bag_items.des",
    make_check=lambda: C.bag_holds("apple", "blindfold", "towel"),
    max_steps=30, max_turns=400,
    success="a carried bag contains the apple, the blindfold and the towel",
    notes="NetPlay's bag scenario; the bag is a sack. The check looks inside the bag (no game time) only "
          "once its inventory line counts enough items.",
))
_add(Scenario(
    name="zap_statue",
    task="A wand of striking lies on the floor of this room, and there is a statue of a knight. Pick up the wand "
         "and break the statue by zapping the wand at it from a square in line with it.",
    des_file="zap_statue.des",
    make_check=_stateless(C.no_statue_left),
    max_steps=20, max_turns=300,
    success="no statue is left on the level (a struck statue shatters into rocks)",
    notes="NetPlay's wand scenario; its agent often stood on the statue and zapped itself.",
))
_add(Scenario(
    name="tasks_ordered",
    task="Do these three things in exactly this order: 1. pick up the blindfold; 2. pick up the towel; "
         "3. go down the stairs. Doing them in another order fails the task.",
    des_file="tasks_ordered.des",
    make_check=lambda: TaskList([_picked("blindfold"), _picked("towel"),
                                 Subgoal("go down the stairs", C.depth_at_least(2))], ordered=True),
    max_steps=30, max_turns=400,
    success="the blindfold is picked up, then the towel, then the hero goes down (any other order fails)",
))
_add(Scenario(
    name="tasks_unordered",
    task="Do all three of these, in any order: open the closed door in the east wall; kill the newt; "
         "pick up the fedora and wear it.",
    des_file="tasks_unordered.des",
    make_check=lambda: TaskList([
        Subgoal("open the door", C.door_opened),
        Subgoal("kill the newt", C.message_seen(r"You kill the newt")),
        Subgoal("wear the fedora", C.wearing("fedora")),
    ], ordered=False),
    max_steps=40, max_turns=500,
    success="at some point the door was open (or broken), the newt was killed and the fedora worn",
))
_add(Scenario(
    name="boulder_corridor",
    task="The down stairs are in the room at the east end of the corridor, but a boulder blocks the corridor. "
         "Push the boulder along the corridor (walk into it) and go down the stairs.",
    des_file="boulder_corridor.des",
    make_check=_stateless(C.depth_at_least(2)),
    max_steps=30, max_turns=600,
    success="the hero reaches dungeon level 2",
))
_add(Scenario(
    name="dig_out",
    task="You are shut in a room without any door. A wand of digging lies at your feet. Dig your way out by "
         "zapping the wand at the east wall, then go down the stairs in the room to the east.",
    des_file="dig_out.des",
    make_check=_stateless(C.depth_at_least(2)),
    max_steps=30, max_turns=500,
    success="the hero reaches dungeon level 2 (digging a hole down counts: it escapes too)",
    notes="NetPlay's escape scenario with the digging wand. The walls on the edge of the map are undiggable, "
          "so only the east wall gives way.",
))
_add(Scenario(
    name="sso_key_lava",
    task="Reach the down stairs beyond the river of lava. The door out of this room is locked: pick up the key "
         "and apply it towards the door to unlock it, then open the door. In the next room lies a ring or a "
         "potion of levitation: put the ring on or drink the potion, then float over the lava to the down "
         "stairs. Standing on the stairs is enough.",
    des_file="sso_key_lava.des",
    make_check=_stateless(C.reached_down_stairs),
    max_steps=60, max_turns=1000,
    success="the hero stands on the down stairs (or is below level 1)",
    notes="Skill Set Optimization's task: positions and the levitation item (ring or potion) vary with the "
          "seed. Walking into lava is deadly.",
))


def scenario_names() -> list[str]:
    """All scenario names, in suite order."""
    return list(SCENARIOS)


def get_scenario(name: str) -> Scenario:
    """The scenario called ``name`` (KeyError with the known names otherwise)."""
    try:
        return SCENARIOS[name]
    except KeyError:
        raise KeyError(f"unknown scenario {name!r}; known: {', '.join(SCENARIOS)}") from None


# ---------------------------------------------------------------- running
@dataclass
class ScenarioResult:
    """How one episode of one scenario went."""

    scenario: str
    run: int  # 0-based repeat index
    seed: int
    success: bool
    end_reason: str  # "goal reached", "step cap", "turn cap", "death", "budget: …", "error"
    steps: int  # strategist decisions
    turns: int  # game turns
    wall_s: float
    death_reason: Optional[str] = None
    progress: list[str] = field(default_factory=list)  # task lists: subgoals met, in order
    order_error: Optional[str] = None  # ordered task lists: what was done out of order
    model_calls: int = 0
    cost_usd: float = 0.0
    episode_id: int = 0
    error: Optional[str] = None  # the episode could not be played

    def to_dict(self) -> dict:
        """The result as plain JSON-ready values."""
        return asdict(self)


ProgressFn = Callable[[ScenarioResult], None]


def _select(names: Optional[Iterable[str]]) -> list[Scenario]:
    if not names:
        return list(SCENARIOS.values())
    return [get_scenario(n) for n in names]


async def run_suite_async(
    agent_spec: str,
    *,
    names: Optional[Iterable[str]] = None,
    repeats: int = 1,
    seed: int = 0,
    db_path: str = "data/memory.db",
    library_path: str = "skills",
    out_dir: Optional[str] = None,
    progress: Optional[ProgressFn] = None,
    max_steps: Optional[int] = None,
    episode_options: Optional[dict[str, Any]] = None,
    isolated: bool = True,
) -> list[ScenarioResult]:
    """Play every chosen scenario ``repeats`` times with the agent ``agent_spec``.

    Run ``r`` of a scenario uses seed ``seed + r``. ``max_steps`` (if given)
    lowers every scenario's step cap; ``episode_options`` sets further
    ``EpisodeConfig`` fields (budgets, backend options …). With ``out_dir``,
    each episode is recorded into ``out_dir/<scenario>/run-<r>`` and all results
    go to ``out_dir/results.json``. ``progress`` is called after every episode.

    ``isolated`` (the default): every episode starts from a private copy of the
    run database and skill library, so results do not depend on the order of
    the scenarios and the given ones stay as they were (the copies are kept in
    the episode's ``out_dir`` folder, or thrown away). Otherwise all episodes
    share them: skills written in one carry over to the next, and the library's
    pruning after each episode may retire skills, built-ins too, that failed at
    tasks they were never meant for.
    """
    from ...agent.loop import Agent, EpisodeConfig

    chosen = _select(names)  # unknown names fail before anything is played
    unknown = set(episode_options or {}) - {f.name for f in fields(EpisodeConfig)}
    if unknown:
        raise TypeError(f"EpisodeConfig has no field(s) {', '.join(sorted(unknown))}")
    results: list[ScenarioResult] = []
    for scenario in chosen:
        for r in range(max(1, int(repeats))):
            check = scenario.new_check()
            run_seed = int(seed) + r
            record = Path(out_dir) / scenario.name / f"run-{r}" if out_dir else None
            with _store(db_path, library_path, isolated, record) as (ep_db, ep_lib):
                cfg = EpisodeConfig(
                    seed=run_seed, env_id=scenario.env_id, role=scenario.role, llm=agent_spec,
                    max_steps=min(scenario.max_steps, max_steps) if max_steps else scenario.max_steps,
                    max_turns=scenario.max_turns, db_path=ep_db, library_path=ep_lib,
                    record_dir=str(record) if record else None,
                    des_file=scenario.des_text(), task=scenario.task, goal=check,
                )
                for key, value in (episode_options or {}).items():
                    setattr(cfg, key, value)
                result = await _play(Agent, cfg, scenario, r, run_seed, check)
            results.append(result)
            if progress is not None:
                progress(result)
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        (Path(out_dir) / "results.json").write_text(json.dumps([x.to_dict() for x in results], indent=2))
    return results


@contextmanager
def _store(db_path: str, library_path: str, isolated: bool, record: Optional[Path]) -> Iterator[tuple[str, str]]:
    """The database and library an episode uses: the given ones, or private copies."""
    if not isolated:
        yield db_path, library_path
        return
    with tempfile.TemporaryDirectory(prefix="hackwright-scenario-") as tmp:
        home = (record / "store") if record else Path(tmp)
        home.mkdir(parents=True, exist_ok=True)
        db, lib = home / "memory.db", home / "skills"
        for stale in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            stale.unlink(missing_ok=True)
        shutil.rmtree(lib, ignore_errors=True)
        if Path(db_path).is_file():
            # SQLite's backup copies a database in WAL mode consistently, unlike a file copy.
            src, dst = sqlite3.connect(db_path), sqlite3.connect(db)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        if Path(library_path).is_dir():
            shutil.copytree(library_path, lib)
        yield str(db), str(lib)


async def _play(agent_cls, cfg, scenario: Scenario, run: int, seed: int, check: Check) -> ScenarioResult:
    try:
        summary = await agent_cls(cfg).run()
    except Exception as e:  # one broken episode must not lose the rest of the suite
        return ScenarioResult(scenario.name, run, seed, False, "error", 0, 0, 0.0, error=f"{type(e).__name__}: {e}")
    return ScenarioResult(
        scenario=scenario.name, run=run, seed=seed, success=bool(summary.goal_reached),
        end_reason=summary.end_reason, steps=summary.decisions, turns=summary.turns, wall_s=summary.wall_s,
        death_reason=summary.death_reason,
        progress=check.progress() if isinstance(check, TaskList) else [],
        order_error=check.broken if isinstance(check, TaskList) else None,
        model_calls=summary.model_calls, cost_usd=summary.cost_usd, episode_id=summary.episode_id,
    )


def run_suite(agent_spec: str, **kwargs: Any) -> list[ScenarioResult]:
    """Synchronous :func:`run_suite_async` (for the command line); same arguments."""
    return asyncio.run(run_suite_async(agent_spec, **kwargs))


def format_results(results: list[ScenarioResult]) -> str:
    """A plain-text table: per scenario the runs, successes, success rate and mean
    steps and turns, then a total line (and a count of episodes that errored)."""
    order: list[str] = []
    by_name: dict[str, list[ScenarioResult]] = {}
    for r in results:
        if r.scenario not in by_name:
            order.append(r.scenario)
            by_name[r.scenario] = []
        by_name[r.scenario].append(r)
    head = ("scenario", "runs", "successes", "success rate", "mean steps", "mean turns")
    rows = [_row(name, by_name[name]) for name in order]
    if len(order) > 1:
        rows.append(_row("all", results))
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)] if rows else [len(h) for h in head]

    def line(cells) -> str:
        first = str(cells[0]).ljust(widths[0])
        return "  ".join([first] + [str(c).rjust(w) for c, w in zip(cells[1:], widths[1:])]).rstrip()

    out = [line(head), line(["-" * w for w in widths])] + [line(r) for r in rows]
    if not results:
        out.append("(no episodes)")
    errors = [r for r in results if r.error]
    if errors:
        out.append(f"{len(errors)} episode(s) failed to run; first: {errors[0].scenario}: {errors[0].error}")
    return "\n".join(out)


def _row(name: str, rs: list[ScenarioResult]) -> tuple:
    wins = sum(r.success for r in rs)
    return (name, len(rs), wins, f"{100 * wins / len(rs):.0f}%" if rs else "-",
            f"{statistics.fmean(r.steps for r in rs):.1f}" if rs else "-",
            f"{statistics.fmean(r.turns for r in rs):.1f}" if rs else "-")

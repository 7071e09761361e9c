"""Evaluation metrics over finished episodes (spec §10.3 plus BALROG's NetHack progression).

Input is the agent loop's episode summary (``EpisodeSummary``), one JSON object per line in
``episodes.jsonl`` with an extra ``agent`` key naming the evaluated agent. Everything here is
pure computation over :class:`EpisodeRecord`; the optional run database is read (read-only)
only for per-skill success rates.

Conventions
-----------
* "± SE" is the standard error of the mean: sample standard deviation (n − 1 in the
  denominator) divided by √n. With fewer than two episodes it is undefined (NaN).
* Depth and experience level are the episode's *maxima*: NLE zeroes the status line in the
  final observation, and BALROG scores the deepest level and highest level reached.
* Progression is BALROG's (see :mod:`hackwright.eval.progression`), reported in percent.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Optional, Sequence, Union

from hackwright.eval.progression import progression as balrog_progression

SURVIVAL_TURNS = 1000  # spec §10.3: an episode "survives" when it lasts more than this many turns

PathLike = Union[str, Path]


class TimelinePoint(NamedTuple):
    """The game after one agent step."""

    turn: int
    depth: int
    xp_level: int
    score: int


def _int(v: Any, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def _float(v: Any, default: float = 0.0) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return default
    return f if math.isfinite(f) else default


def _opt_str(v: Any) -> Optional[str]:
    return None if v is None or v == "" else str(v)


@dataclass(frozen=True)
class EpisodeCaps:
    """The limits an episode ran under (``hackwright eval --max-turns/--max-steps``).

    ``None`` means no cap of that kind. Episodes written before the caps were recorded have
    no :class:`EpisodeCaps` at all (``EpisodeRecord.caps`` is None).
    """

    max_turns: Optional[int] = None
    max_steps: Optional[int] = None

    def describe(self) -> str:
        """"max turns 300, max steps 2000" (or "no turn cap" / "no step cap")."""
        turns = "no turn cap" if self.max_turns is None else f"max turns {self.max_turns}"
        steps = "no step cap" if self.max_steps is None else f"max steps {self.max_steps}"
        return f"{turns}, {steps}"


def _caps(d: Mapping[str, Any]) -> Optional[EpisodeCaps]:
    if "max_turns" not in d and "max_steps" not in d:
        return None  # not recorded: an episode from before eval wrote its caps

    def cap(v: Any) -> Optional[int]:
        return None if v is None or v == "" else _int(v)

    return EpisodeCaps(max_turns=cap(d.get("max_turns")), max_steps=cap(d.get("max_steps")))


@dataclass
class EpisodeRecord:
    """One finished episode, as the evaluation sees it (a tolerant copy of ``EpisodeSummary``)."""

    agent: str
    episode_id: int = 0
    seed: Optional[int] = None
    role: str = ""
    strategist: str = ""
    end_reason: str = ""
    death_reason: Optional[str] = None
    score: int = 0
    depth: int = 0
    max_depth: int = 0
    xp_level: int = 0
    max_xp_level: int = 0
    turns: int = 0
    progression: float = 0.0  # 0..1
    decisions: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    skills_used: dict[str, int] = field(default_factory=dict)
    skills_created: list[str] = field(default_factory=list)
    fallback_steps: int = 0  # decisions another strategist (the autopilot) made in this one's place
    loop_break_steps: int = 0  # of those, the ones that broke a loop of repeated decisions
    digging_tool_turn: Optional[int] = None  # game turn a digging tool was first carried; None: never
    wall_s: float = 0.0
    ttyrec: Optional[str] = None
    goal_reached: Optional[bool] = None
    task_success: Optional[bool] = None  # a MiniHack task's own verdict; None: no task was tracked
    task_reward: Optional[float] = None  # MiniHack's summed reward
    timeline: list[TimelinePoint] = field(default_factory=list)
    record_dir: Optional[str] = None  # the episode's record folder (frames for replays), as eval wrote it
    caps: Optional[EpisodeCaps] = None  # None: the caps were not recorded

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], agent: Optional[str] = None) -> "EpisodeRecord":
        """Build a record from a summary dict; missing or malformed keys take neutral defaults.

        ``agent`` overrides the dict's ``agent`` key; without either the strategist's name is used.
        Maxima are never below the final values or the timeline's, and a missing progression is
        recomputed from the maxima.
        """
        timeline: list[TimelinePoint] = []
        for p in d.get("timeline") or []:
            if isinstance(p, Mapping):
                p = [p.get("turn"), p.get("depth"), p.get("xp_level", p.get("xl")), p.get("score")]
            if isinstance(p, (list, tuple)) and len(p) >= 3:
                timeline.append(TimelinePoint(_int(p[0]), _int(p[1]), _int(p[2]),
                                              _int(p[3]) if len(p) > 3 else 0))
        depth, xl = _int(d.get("depth")), _int(d.get("xp_level"))
        max_depth = max([_int(d.get("max_depth")), depth] + [p.depth for p in timeline])
        max_xl = max([_int(d.get("max_xp_level")), xl] + [p.xp_level for p in timeline])
        prog = d.get("progression")
        computed = balrog_progression(max_depth, max_xl)
        progression = computed if prog is None else max(_float(prog), computed)
        used_raw = d.get("skills_used") or {}
        used = {str(k): _int(v) for k, v in used_raw.items()} if isinstance(used_raw, Mapping) else {}
        created_raw = d.get("skills_created") or []
        created = [str(s) for s in created_raw] if isinstance(created_raw, (list, tuple)) else []
        seed = d.get("seed")
        goal = d.get("goal_reached")
        task_success, task_reward = d.get("task_success"), d.get("task_reward")
        strategist = str(d.get("strategist") or "")
        return cls(
            agent=str(agent or d.get("agent") or strategist or "agent"),
            episode_id=_int(d.get("episode_id")),
            seed=None if seed is None else _int(seed),
            role=str(d.get("role") or ""),
            strategist=strategist,
            end_reason=str(d.get("end_reason") or ""),
            death_reason=_opt_str(d.get("death_reason")),
            score=_int(d.get("score")),
            depth=depth,
            max_depth=max_depth,
            xp_level=xl,
            max_xp_level=max_xl,
            turns=max([_int(d.get("turns"))] + [p.turn for p in timeline]),
            progression=progression,
            decisions=_int(d.get("decisions")),
            model_calls=_int(d.get("model_calls")),
            input_tokens=_int(d.get("input_tokens")),
            output_tokens=_int(d.get("output_tokens")),
            cost_usd=_float(d.get("cost_usd")),
            skills_used=used,
            skills_created=created,
            fallback_steps=_int(d.get("fallback_steps")),
            loop_break_steps=_int(d.get("loop_break_steps")),
            digging_tool_turn=None if d.get("digging_tool_turn") in (None, "") else _int(d.get("digging_tool_turn")),
            wall_s=_float(d.get("wall_s")),
            ttyrec=_opt_str(d.get("ttyrec")),
            goal_reached=None if goal is None else bool(goal),
            task_success=None if task_success in (None, "") else task_success not in (False, 0, "0", "False"),
            task_reward=None if task_reward in (None, "") else _float(task_reward),
            timeline=timeline,
            record_dir=_opt_str(d.get("record_dir")),
            caps=_caps(d),
        )

    @classmethod
    def from_json(cls, line: str, agent: Optional[str] = None) -> "EpisodeRecord":
        """Parse one ``episodes.jsonl`` line (or a whole ``--json`` summary)."""
        return cls.from_dict(json.loads(line), agent=agent)

    # ------------------------------------------------------------ derived facts
    @property
    def died(self) -> bool:
        return self.end_reason == "death"

    @property
    def harness_error(self) -> bool:
        return self.end_reason.startswith("error")

    @property
    def survived(self) -> bool:
        """Lasted more than :data:`SURVIVAL_TURNS` game turns (spec §10.3)."""
        return self.turns > SURVIVAL_TURNS

    @property
    def death_cause(self) -> Optional[str]:
        """The normalised cause of death (None when the episode did not end in death)."""
        if not self.died:
            return None
        return normalise_death(self.death_reason)

    @property
    def skill_runs(self) -> int:
        """Skill executions in the episode (built-in, learned and freshly written)."""
        return sum(self.skills_used.values())

    @property
    def fresh_skill_runs(self) -> int:
        """Runs of skills this episode created (the creating run and any later reuse in it)."""
        created = set(self.skills_created)
        return sum(n for name, n in self.skills_used.items() if name in created)

    @property
    def reused_skill_runs(self) -> int:
        """Runs of skills that were already in the library when the episode began."""
        return self.skill_runs - self.fresh_skill_runs

    @property
    def end_label(self) -> str:
        """The end reason, with the normalised cause when the hero died."""
        if self.died:
            return f"death: {self.death_cause}"
        return self.end_reason or "unknown"


def load_episodes(path: PathLike, agent: Optional[str] = None) -> list[EpisodeRecord]:
    """Read episode summaries from a ``.jsonl`` file (one per line), a JSON list, or a single
    ``--json`` summary; a directory means its ``episodes.jsonl``. Blank lines are skipped."""
    p = Path(path)
    if p.is_dir():
        p = p / "episodes.jsonl"
    text = p.read_text(encoding="utf-8")
    stripped = text.lstrip()
    if stripped.startswith("["):
        return [EpisodeRecord.from_dict(d, agent=agent) for d in json.loads(stripped)]
    try:
        whole = json.loads(stripped) if stripped.startswith("{") else None
    except json.JSONDecodeError:
        whole = None  # several objects, one a line
    if isinstance(whole, dict):
        return [EpisodeRecord.from_dict(whole, agent=agent)]
    return [EpisodeRecord.from_json(ln, agent=agent) for ln in text.splitlines() if ln.strip()]


def group_by_agent(episodes: Iterable[EpisodeRecord]) -> dict[str, list[EpisodeRecord]]:
    """Episodes grouped by their ``agent``, in order of first appearance."""
    out: dict[str, list[EpisodeRecord]] = {}
    for e in episodes:
        out.setdefault(e.agent, []).append(e)
    return out


# ---------------------------------------------------------------- causes of death
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_DEATH_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?:starved|died of starvation|starvation)", re.I), "starvation"),
    (re.compile(r"^(?:turned to stone|petrified)", re.I), "petrification"),
    (re.compile(r"^drown", re.I), "drowning"),
    (re.compile(r"^choked", re.I), "choking"),
    (re.compile(r"^(?:was )?poisoned by\s+(.+)", re.I), r"\1 (poison)"),
    (re.compile(r"^killed by\s+(.+)", re.I), r"\1"),
    (re.compile(r"^(?:died of|burned by|dissolved in|crushed to death by)\s+(.+)", re.I), r"\1"),
]


def normalise_death(reason: Optional[str]) -> str:
    """A short cause of death: "killed by a jackal" → "jackal", "starved to death" →
    "starvation", "killed by a hill orc, while helpless" → "hill orc"; unknown → "unknown"."""
    if not reason or not reason.strip():
        return "unknown"
    r = " ".join(reason.split())
    r = re.sub(r"\s+on dungeon level.*$", "", r, flags=re.I)
    r = re.sub(r",?\s+while\s+.*$", "", r, flags=re.I)  # "…, while helpless/sleeping"
    r = r.strip(" .,;")
    for pattern, repl in _DEATH_FORMS:
        m = pattern.match(r)
        if m:
            if "\\1" not in repl:
                return repl
            victim = _ARTICLE.sub("", m.group(1).strip(" .,;"))
            victim = re.sub(r"^(?:invisible|hallucinogen-distorted)\s+", "", victim, flags=re.I)
            return repl.replace("\\1", victim).strip() or "unknown"
    return r


# ---------------------------------------------------------------- statistics
@dataclass(frozen=True)
class Estimate:
    """Mean ± standard error (sample SD / √n), with the median, of one quantity."""

    n: int
    mean: float
    se: float
    median: float
    sd: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "Estimate":
        """Estimate over ``values``; NaN where undefined (no values, or SE/SD from one value)."""
        xs = [float(v) for v in values]
        n = len(xs)
        if n == 0:
            return cls(0, math.nan, math.nan, math.nan, math.nan)
        mean = math.fsum(xs) / n
        sd = statistics.stdev(xs) if n > 1 else math.nan
        se = sd / math.sqrt(n) if n > 1 else math.nan
        return cls(n, mean, se, float(statistics.median(xs)), sd)

    def fmt(self, digits: int = 1) -> str:
        """"mean ± se" (just the mean when SE is undefined; "—" with no data)."""
        if self.n == 0 or math.isnan(self.mean):
            return "—"
        if math.isnan(self.se):
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.se:.{digits}f}"


def _rate(k: int, n: int) -> float:
    return k / n if n else math.nan


def _per_1000(num: Iterable[int], turns: Iterable[int]) -> float:
    t = sum(turns)
    return 1000.0 * sum(num) / t if t else math.nan


def _median_per_1000(pairs: Iterable[tuple[int, int]]) -> float:
    vals = [1000.0 * a / t for a, t in pairs if t > 0]
    return float(statistics.median(vals)) if vals else math.nan


@dataclass
class AgentMetrics:
    """Aggregate metrics of one agent's episodes (see :func:`summarize` for definitions)."""

    agent: str
    n: int
    progression_pct: Estimate
    score: Estimate
    depth: Estimate
    xp_level: Estimate
    turns: Estimate
    survival_rate: float
    death_rate: float
    goal_rate: Optional[float]
    harness_errors: int
    end_reasons: dict[str, int]
    causes_of_death: dict[str, int]
    skill_runs: int
    reused_skill_runs: int
    skill_reuse_pct: float
    novel_skills_per_episode: float
    decisions: int
    decisions_per_1000_turns: float
    decisions_per_1000_turns_median: float
    model_calls: int
    model_calls_per_1000_turns: float
    model_calls_per_1000_turns_median: float
    fallback_share: float
    fallback_steps: int
    loop_break_steps: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    cost_usd_per_episode: float
    wall_s: float
    task_success_rate: Optional[float] = None  # among episodes with a MiniHack task; None: none had one
    task_reward: Optional[Estimate] = None  # MiniHack's reward over those episodes


def _end_kind(e: EpisodeRecord) -> str:
    # Budgets and errors carry details after the colon; tally them by kind.
    r = e.end_reason or "unknown"
    return r.split(":", 1)[0].strip() if r.startswith(("budget", "error", "no progress")) else r


def summarize(episodes: Sequence[EpisodeRecord], agent: Optional[str] = None) -> AgentMetrics:
    """Aggregate one agent's episodes.

    Definitions:

    * ``progression_pct``, ``score``, ``depth`` (max dungeon level), ``xp_level`` (max experience
      level), ``turns``: :class:`Estimate` (mean ± SE, median) over episodes.
    * ``survival_rate``: share of episodes lasting more than 1,000 turns (spec §10.3);
      ``death_rate``: share ending in death; ``goal_rate``: share reaching their goal, among
      episodes that had one (None if none had); ``harness_errors``: episodes whose end reason
      starts with "error".
    * ``task_success_rate``: share of episodes whose MiniHack task said solved, among episodes
      that played one (None if none did); ``task_reward``: MiniHack's summed reward over them.
    * ``causes_of_death``: normalised causes (:func:`normalise_death`) of the deaths, most
      frequent first; ``end_reasons``: every end reason by kind ("budget: …" → "budget").
    * Skill reuse: every skill execution counts once (``EpisodeSummary.skills_used``; direct key
      presses and lookups are not skill runs). A run is *reused* when its skill was already in
      the library when the episode began (built-in or learned in an earlier episode), and
      *fresh* when the skill is one the episode created (``skills_created``: the creating run
      and later runs of it in the same episode). ``skill_reuse_pct`` = 100 × reused runs / all
      runs, pooled over the episodes. A model-written skill that ran but was never saved is
      absent from ``skills_created`` and so counts as reused: the summaries cannot tell it
      apart.
    * ``novel_skills_per_episode``: mean number of distinct skills each episode saved to the
      library.
    * Rates per 1,000 turns: pooled (1000 × Σ count / Σ turns) and the median of per-episode
      rates (episodes with zero turns left out).
    * ``fallback_steps``: decisions another strategist made in place of the one evaluated (the
      autopilot standing in for a model that gave no usable decision, or breaking a loop);
      ``loop_break_steps``: those that broke a loop (0 where episodes do not record them);
      ``fallback_share``: fallback steps over all decisions.
    """
    eps = list(episodes)
    n = len(eps)
    name = agent or (eps[0].agent if eps else "agent")
    with_goal = [e for e in eps if e.goal_reached is not None]
    with_task = [e for e in eps if e.task_success is not None]
    deaths = Counter(e.death_cause for e in eps if e.died)
    runs = sum(e.skill_runs for e in eps)
    reused = sum(e.reused_skill_runs for e in eps)
    decisions = sum(e.decisions for e in eps)
    calls = sum(e.model_calls for e in eps)
    cost = math.fsum(e.cost_usd for e in eps)
    return AgentMetrics(
        agent=name,
        n=n,
        progression_pct=Estimate.of([100.0 * e.progression for e in eps]),
        score=Estimate.of([e.score for e in eps]),
        depth=Estimate.of([e.max_depth for e in eps]),
        xp_level=Estimate.of([e.max_xp_level for e in eps]),
        turns=Estimate.of([e.turns for e in eps]),
        survival_rate=_rate(sum(e.survived for e in eps), n),
        death_rate=_rate(sum(e.died for e in eps), n),
        goal_rate=_rate(sum(bool(e.goal_reached) for e in with_goal), len(with_goal)) if with_goal else None,
        harness_errors=sum(e.harness_error for e in eps),
        end_reasons=dict(Counter(_end_kind(e) for e in eps).most_common()),
        causes_of_death={str(k): v for k, v in deaths.most_common()},
        skill_runs=runs,
        reused_skill_runs=reused,
        skill_reuse_pct=100.0 * reused / runs if runs else math.nan,
        novel_skills_per_episode=(sum(len(set(e.skills_created)) for e in eps) / n) if n else math.nan,
        decisions=decisions,
        decisions_per_1000_turns=_per_1000((e.decisions for e in eps), (e.turns for e in eps)),
        decisions_per_1000_turns_median=_median_per_1000((e.decisions, e.turns) for e in eps),
        model_calls=calls,
        model_calls_per_1000_turns=_per_1000((e.model_calls for e in eps), (e.turns for e in eps)),
        model_calls_per_1000_turns_median=_median_per_1000((e.model_calls, e.turns) for e in eps),
        fallback_share=_rate(sum(e.fallback_steps for e in eps), decisions),
        fallback_steps=sum(e.fallback_steps for e in eps),
        loop_break_steps=sum(e.loop_break_steps for e in eps),
        input_tokens=sum(e.input_tokens for e in eps),
        output_tokens=sum(e.output_tokens for e in eps),
        cost_usd=cost,
        cost_usd_per_episode=cost / n if n else math.nan,
        wall_s=math.fsum(e.wall_s for e in eps),
        task_success_rate=_rate(sum(bool(e.task_success) for e in with_task), len(with_task)) if with_task else None,
        task_reward=Estimate.of([e.task_reward or 0.0 for e in with_task]) if with_task else None,
    )


def compare(groups: Mapping[str, Sequence[EpisodeRecord]]) -> dict[str, AgentMetrics]:
    """:func:`summarize` for each agent, keyed and ordered as ``groups``."""
    return {name: summarize(eps, agent=name) for name, eps in groups.items()}


# ---------------------------------------------------------------- progression over turns
def _curve_of(e: EpisodeRecord, grid: Sequence[int]) -> list[float]:
    """One episode's progression (0..1) at each grid turn, from its running maxima."""
    out: list[float] = []
    pts = sorted(e.timeline, key=lambda p: p.turn)
    i, max_d, max_x = 0, 1, 1
    for t in grid:
        while i < len(pts) and pts[i].turn <= t:
            max_d, max_x = max(max_d, pts[i].depth), max(max_x, pts[i].xp_level)
            i += 1
        v = balrog_progression(max_d, max_x)
        if t >= e.turns:
            # After the end the episode holds its final value (its own maxima may come from
            # observations the timeline missed, e.g. the last step before death).
            v = max(v, e.progression)
        out.append(v)
    return out


def progression_curve(episodes: Sequence[EpisodeRecord], turn_grid: Sequence[int]) -> list[float]:
    """Mean BALROG progression (0..1) across episodes at each turn of ``turn_grid``.

    Each episode contributes the progression of the deepest level and highest experience level
    reached by that turn (from its timeline); before its first timeline point it is at the start
    (0), and after it ends it holds its final value, so finished episodes keep counting.
    """
    if not episodes:
        return [math.nan for _ in turn_grid]
    curves = [_curve_of(e, turn_grid) for e in episodes]
    return [math.fsum(c[j] for c in curves) / len(curves) for j in range(len(turn_grid))]


def turn_grid(episodes: Iterable[EpisodeRecord], points: int = 60) -> list[int]:
    """Evenly spaced turns from 0 to the longest episode (inclusive), at most ``points`` of them."""
    last = max((e.turns for e in episodes), default=0)
    if last <= 0:
        return [0]
    points = max(2, min(points, last + 1))
    return sorted({round(last * k / (points - 1)) for k in range(points)})


# ---------------------------------------------------------------- per-skill usage and success
@dataclass
class SkillStat:
    """How often a skill ran across a set of episodes, and how often it succeeded.

    ``runs`` counts from the summaries; ``db_runs``/``successes`` come from the run database's
    ``skill_executions`` rows of the same episodes (``success_rate`` is None without them).
    """

    name: str
    runs: int
    episodes: int
    created: bool  # some episode in the set created it
    db_runs: int = 0
    successes: int = 0

    @property
    def success_rate(self) -> Optional[float]:
        return self.successes / self.db_runs if self.db_runs else None


def _db_skill_rows(db_path: PathLike, episode_ids: set[int]) -> dict[str, tuple[int, int]]:
    """skill name → (runs, successes) from ``skill_executions`` for the given episode ids."""
    p = Path(db_path)
    if not p.exists() or not episode_ids:
        return {}
    try:
        con = sqlite3.connect(f"file:{p.resolve()}?mode=ro", uri=True)
    except sqlite3.Error:
        return {}
    try:
        ids = sorted(episode_ids)
        marks = ",".join("?" for _ in ids)
        rows = con.execute(
            f"SELECT skill_name, COUNT(*), COALESCE(SUM(success), 0) FROM skill_executions "
            f"WHERE episode_id IN ({marks}) GROUP BY skill_name", ids).fetchall()
    except sqlite3.Error:
        return {}  # an older or foreign database: usage counts still come from the summaries
    finally:
        con.close()
    return {str(name): (int(k), int(s)) for name, k, s in rows if name}


def skill_stats(episodes: Sequence[EpisodeRecord], db_path: Optional[PathLike] = None) -> list[SkillStat]:
    """Per-skill usage over ``episodes``, most used first; success counts from ``db_path``
    (rows whose ``episode_id`` belongs to these episodes) when given."""
    runs: Counter = Counter()
    seen_in: Counter = Counter()
    created: set[str] = set()
    for e in episodes:
        runs.update(e.skills_used)
        seen_in.update(k for k, v in e.skills_used.items() if v > 0)
        created.update(e.skills_created)
    db = _db_skill_rows(db_path, {e.episode_id for e in episodes}) if db_path else {}
    names = set(runs) | set(db)
    stats = [SkillStat(name=k, runs=runs.get(k, 0), episodes=seen_in.get(k, 0), created=k in created,
                       db_runs=db.get(k, (0, 0))[0], successes=db.get(k, (0, 0))[1]) for k in names]
    stats.sort(key=lambda s: (-max(s.runs, s.db_runs), s.name))
    return stats

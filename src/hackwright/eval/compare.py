"""Paired comparison of agents that played the same seeds.

Seed S is the same hero and the same dungeon for every agent (see the README), so two agents
are compared seed by seed: for each seed both played, the difference A − B of BALROG
progression (percent), in-game score and deepest dungeon level reached. Definitions:

* **Mean difference**: the mean over the common seeds of A − B (positive: A did better).
* **Confidence interval**: a percentile bootstrap over seeds. The common seeds are resampled
  with replacement ``resamples`` times (default 10,000), the mean difference is taken for
  each resample, and the interval runs from the 2.5th to the 97.5th percentile of those
  means (for 95 %). The resampling generator is seeded (``bootstrap_seed``), so the same
  episodes always give the same interval.
* **Wins, ties, losses** (from A's side), per seed: the agent with the higher progression
  wins; at equal progression, the higher score wins; equal progression and equal score is a
  tie.
* **Per role**: the same, over the seeds whose hero had that role.

Only seeds common to both agents are compared; the others are dropped and a warning says
which. Episodes the evaluation would play again on resume (a harness error, a failed model,
an interrupted run: :func:`hackwright.eval.runner.is_unfinished`) are left out, as their
game was not played to its end. Warnings also flag agents run under different caps
(``--max-turns``/``--max-steps``, recorded by ``hackwright eval`` in ``episodes.jsonl``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence, Union

import numpy as np

from hackwright.eval.metrics import AgentMetrics, EpisodeCaps, EpisodeRecord, summarize
from hackwright.eval.runner import is_unfinished

PathLike = Union[str, Path]

RESAMPLES = 10_000
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 0
_CELLS_PER_CHUNK = 1_000_000  # resampled values held in memory at once


class CompareError(ValueError):
    """A comparison that cannot be made (missing folder, a single agent, bad parameters)."""


@dataclass(frozen=True)
class Metric:
    """One compared quantity of an episode."""

    key: str
    label: str
    value: Callable[[EpisodeRecord], float]
    digits: int  # decimals shown for means
    whole: bool  # one episode's value is a whole number (shown without decimals)


METRICS: tuple[Metric, ...] = (
    Metric("progression_pct", "progression %", lambda e: 100.0 * e.progression, 2, False),
    Metric("score", "score", lambda e: float(e.score), 1, True),
    Metric("max_depth", "max depth", lambda e: float(e.max_depth), 2, True),
)


@dataclass(frozen=True)
class PairedMetric:
    """One metric over the seeds two agents share: both means and the paired difference A − B."""

    metric: str  # a Metric key: progression_pct, score, max_depth
    label: str
    n: int  # seeds compared
    mean_a: float
    mean_b: float
    mean_diff: float  # mean over seeds of A − B
    ci_low: float  # bootstrap interval of mean_diff (NaN without seeds)
    ci_high: float


@dataclass(frozen=True)
class Outcomes:
    """Seeds won, tied and lost by agent A against agent B (by progression, then score)."""

    wins: int
    ties: int
    losses: int


@dataclass(frozen=True)
class EpisodeOutcome:
    """What one agent reached on one seed (the row of a per-seed table)."""

    agent: str
    seed: int
    episode_id: int
    role: str
    progression_pct: float
    score: int
    max_depth: int
    end: str
    record_dir: Optional[str]


@dataclass(frozen=True)
class SeedPair:
    """Both agents' episodes of one seed, the differences A − B and who did better."""

    seed: int
    role: str
    a: EpisodeOutcome
    b: EpisodeOutcome
    diffs: tuple[float, ...]  # A − B in the order of METRICS
    result: str  # "win", "tie" or "loss", from A's side


@dataclass(frozen=True)
class RoleComparison:
    """The paired comparison restricted to the seeds whose hero had one role."""

    role: str
    n: int
    metrics: list[PairedMetric]
    outcomes: Outcomes


@dataclass
class PairComparison:
    """Agent A against agent B over the seeds both played."""

    agent_a: str
    agent_b: str
    seeds: list[int]  # the common seeds compared
    only_a: list[int]  # seeds only A played (dropped)
    only_b: list[int]  # seeds only B played (dropped)
    metrics: list[PairedMetric]
    outcomes: Outcomes
    roles: list[RoleComparison]
    episodes: list[SeedPair]
    warnings: list[str] = field(default_factory=list)

    @property
    def dropped(self) -> int:
        """Episodes left out because the other agent did not play their seed."""
        return len(self.only_a) + len(self.only_b)


@dataclass
class Comparison:
    """Every pair of agents, in the order the agents were given (A is the earlier one)."""

    agents: list[str]
    summaries: list[AgentMetrics]  # each agent over all its episodes
    pairs: list[PairComparison]
    warnings: list[str]  # about single agents (caps not recorded, harness errors, …)
    resamples: int
    confidence: float
    bootstrap_seed: int

    @property
    def all_warnings(self) -> list[str]:
        """The agents' warnings, then each pair's."""
        return self.warnings + [w for p in self.pairs for w in p.warnings]

    def to_json(self) -> str:
        """The whole comparison as JSON (NaN written as null)."""
        from dataclasses import asdict

        return json.dumps(_no_nan(asdict(self)), indent=2, default=str)


def _no_nan(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_no_nan(v) for v in x]
    return x


# ---------------------------------------------------------------- statistics
def bootstrap_ci(diffs: Sequence[float], *, resamples: int = RESAMPLES, seed: int = BOOTSTRAP_SEED,
                 confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``diffs`` (one value per seed).

    The values are resampled with replacement ``resamples`` times by a generator seeded with
    ``seed``; the interval spans the central ``confidence`` share of the resampled means.
    Returns (NaN, NaN) for no values.
    """
    x = np.asarray(diffs, dtype=np.float64)
    n = len(x)
    if n == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    means = np.empty(resamples, dtype=np.float64)
    chunk = max(1, _CELLS_PER_CHUNK // n)
    for start in range(0, resamples, chunk):
        k = min(chunk, resamples - start)
        means[start:start + k] = x[rng.integers(0, n, size=(k, n))].mean(axis=1)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return float(low), float(high)


def _paired(metric: Metric, a: Sequence[EpisodeRecord], b: Sequence[EpisodeRecord], *, resamples: int,
            seed: int, confidence: float) -> PairedMetric:
    va = np.array([metric.value(e) for e in a], dtype=np.float64)
    vb = np.array([metric.value(e) for e in b], dtype=np.float64)
    n = len(va)
    if n == 0:
        return PairedMetric(metric.key, metric.label, 0, math.nan, math.nan, math.nan, math.nan, math.nan)
    d = va - vb
    low, high = bootstrap_ci(d, resamples=resamples, seed=seed, confidence=confidence)
    # The mean is taken the way the resamples take theirs, so identical differences give an
    # interval that holds it exactly.
    return PairedMetric(metric.key, metric.label, n, float(va.mean()), float(vb.mean()), float(d.mean()), low, high)


def outcome(a: EpisodeRecord, b: EpisodeRecord) -> str:
    """"win", "tie" or "loss" for A: higher progression wins, then higher score."""
    if not math.isclose(a.progression, b.progression, rel_tol=0.0, abs_tol=1e-12):
        return "win" if a.progression > b.progression else "loss"
    if a.score != b.score:
        return "win" if a.score > b.score else "loss"
    return "tie"


def _outcomes(results: Sequence[str]) -> Outcomes:
    return Outcomes(results.count("win"), results.count("tie"), results.count("loss"))


def seed_ranges(seeds: Sequence[int]) -> str:
    """Sorted seeds written compactly: [0, 1, 2, 5] → "0-2,5" (the form --seeds takes)."""
    out: list[str] = []
    ss = sorted(set(seeds))
    i = 0
    while i < len(ss):
        j = i
        while j + 1 < len(ss) and ss[j + 1] == ss[j] + 1:
            j += 1
        out.append(str(ss[i]) if i == j else f"{ss[i]}-{ss[j]}")
        i = j + 1
    return ",".join(out)


# ---------------------------------------------------------------- pairing
def _by_seed(name: str, episodes: Sequence[EpisodeRecord], warnings: list[str]) -> dict[int, EpisodeRecord]:
    """An agent's playable episodes keyed by seed (the last one of a repeated seed)."""
    out: dict[int, EpisodeRecord] = {}
    repeated: set[int] = set()
    no_seed = 0
    unfinished: list[int] = []
    for e in episodes:
        if e.seed is None:
            no_seed += 1
        elif is_unfinished({"end_reason": e.end_reason}):
            unfinished.append(e.seed)
        else:
            if e.seed in out:
                repeated.add(e.seed)
            out[e.seed] = e
    if no_seed:
        warnings.append(f"{name}: {no_seed} episode(s) without a seed left out (only seeded episodes pair up)")
    if unfinished:
        warnings.append(f"{name}: seeds {seed_ranges(unfinished)} did not play to the end (harness error, model "
                        "error or interruption) and are left out: run the same hackwright eval again to replay them")
    if repeated:
        warnings.append(f"{name}: seeds {seed_ranges(sorted(repeated))} appear more than once; "
                        "the last episode of each is compared")
    return out


def _caps_notes(name: str, episodes: Sequence[EpisodeRecord], warnings: list[str]) -> None:
    missing = [e for e in episodes if e.caps is None]
    if missing:
        warnings.append(f"{name}: caps not recorded for {len(missing)} episode(s) (written before eval recorded "
                        "--max-turns/--max-steps): cannot check that the agents ran under the same caps")
    kinds = _caps_of(episodes)
    if len(kinds) > 1:
        parts = [f"{c.describe()} (seeds {seed_ranges(s)})" for c, s in kinds.items()]
        warnings.append(f"{name} ran under different caps: " + "; ".join(parts))


def _caps_of(episodes: Sequence[EpisodeRecord]) -> dict[EpisodeCaps, list[int]]:
    kinds: dict[EpisodeCaps, list[int]] = {}
    for e in episodes:
        if e.caps is not None:
            kinds.setdefault(e.caps, []).append(-1 if e.seed is None else e.seed)
    return kinds


def _side(name: str, e: EpisodeRecord) -> EpisodeOutcome:
    assert e.seed is not None  # only seeded episodes are paired
    return EpisodeOutcome(name, e.seed, e.episode_id, e.role, 100.0 * e.progression, e.score, e.max_depth,
                          e.end_label, e.record_dir)


def _pair(name_a: str, a: dict[int, EpisodeRecord], name_b: str, b: dict[int, EpisodeRecord], *, resamples: int,
          seed: int, confidence: float) -> PairComparison:
    common = sorted(set(a) & set(b))
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    warnings: list[str] = []
    if only_a or only_b:
        dropped = []
        if only_a:
            dropped.append(f"{len(only_a)} seed(s) only {name_a} played ({seed_ranges(only_a)})")
        if only_b:
            dropped.append(f"{len(only_b)} seed(s) only {name_b} played ({seed_ranges(only_b)})")
        warnings.append(f"{name_a} and {name_b} ran on different seeds: comparing the {len(common)} seed(s) both "
                        f"played ({seed_ranges(common) or 'none'}); dropped " + " and ".join(dropped))
    ea, eb = [a[s] for s in common], [b[s] for s in common]
    caps_a, caps_b = _caps_of(ea), _caps_of(eb)
    if caps_a and caps_b and set(caps_a) != set(caps_b):
        warnings.append(f"{name_a} and {name_b} ran under different caps ({name_a}: "
                        f"{'; '.join(c.describe() for c in caps_a)}; {name_b}: "
                        f"{'; '.join(c.describe() for c in caps_b)}): their differences mix agent and budget")
    roles = [x.role if x.role == y.role else f"{x.role} / {y.role}" for x, y in zip(ea, eb)]
    mixed = [s for s, x, y in zip(common, ea, eb) if x.role != y.role]
    if mixed:
        warnings.append(f"{name_a} and {name_b} played different roles on seeds {seed_ranges(mixed)} "
                        "(--role given to one of them?): these are not the same game")
    kw = dict(resamples=resamples, seed=seed, confidence=confidence)
    results = [outcome(x, y) for x, y in zip(ea, eb)]
    by_role: dict[str, list[int]] = {}
    for i, r in enumerate(roles):
        by_role.setdefault(r, []).append(i)
    role_rows = [RoleComparison(r, len(ix), [_paired(m, [ea[i] for i in ix], [eb[i] for i in ix], **kw)
                                             for m in METRICS], _outcomes([results[i] for i in ix]))
                 for r, ix in sorted(by_role.items())]
    pairs = [SeedPair(s, r, _side(name_a, x), _side(name_b, y), tuple(m.value(x) - m.value(y) for m in METRICS), res)
             for s, r, x, y, res in zip(common, roles, ea, eb, results)]
    if not common:
        warnings.append(f"{name_a} and {name_b} have no seed in common: nothing to compare")
    return PairComparison(name_a, name_b, common, only_a, only_b, [_paired(m, ea, eb, **kw) for m in METRICS],
                          _outcomes(results), role_rows, pairs, warnings)


def compare_agents(groups: Mapping[str, Sequence[EpisodeRecord]], *, resamples: int = RESAMPLES,
                   bootstrap_seed: int = BOOTSTRAP_SEED, confidence: float = CONFIDENCE) -> Comparison:
    """Compare every pair of agents in ``groups`` (name → episodes) seed by seed.

    Pairs follow the order of ``groups``: with agents X, Y, Z the pairs are X−Y, X−Z, Y−Z.
    Raises :class:`CompareError` with fewer than two agents or bad parameters.
    """
    if len(groups) < 2:
        names = ", ".join(groups) or "none"
        raise CompareError(f"a comparison needs two agents, got {len(groups)} ({names}): give a second evaluation "
                           "folder, or evaluate another agent into the same one (hackwright eval --agent … --out DIR)")
    if resamples < 1:
        raise CompareError(f"--resamples must be at least 1, got {resamples}")
    if not 0.0 < confidence < 1.0:
        raise CompareError(f"--confidence must be between 0 and 1 (e.g. 0.95), got {confidence}")
    warnings: list[str] = []
    seeded: dict[str, dict[int, EpisodeRecord]] = {}
    for name, eps in groups.items():
        seeded[name] = _by_seed(name, eps, warnings)
        _caps_notes(name, eps, warnings)
    pairs = [_pair(x, seeded[x], y, seeded[y], resamples=resamples, seed=bootstrap_seed, confidence=confidence)
             for x, y in combinations(list(groups), 2)]
    summaries = [summarize(list(eps), agent=name) for name, eps in groups.items()]
    return Comparison(list(groups), summaries, pairs, warnings, resamples, confidence, bootstrap_seed)


# ---------------------------------------------------------------- evaluation folders
@dataclass
class AgentRun:
    """One agent's episodes from one evaluation folder."""

    name: str  # the display name: the agent, with the folder added when several folders hold that agent
    agent: str  # the agent as ``hackwright eval`` wrote it
    folder: Path
    episodes: list[EpisodeRecord]
    unreadable_lines: int = 0


def _read_folder(folder: Path) -> tuple[list[EpisodeRecord], int]:
    if not folder.exists():
        raise CompareError(f"{folder}: no such folder (give folders written by hackwright eval --out DIR)")
    path = folder / "episodes.jsonl" if folder.is_dir() else folder
    if not path.is_file():
        raise CompareError(f"{folder}: no episodes.jsonl in it "
                           f"(evaluate into it first: hackwright eval --out {folder})")
    episodes: list[EpisodeRecord] = []
    bad = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            bad += 1  # a line cut short by an interrupted evaluation
            continue
        if isinstance(d, dict):
            episodes.append(EpisodeRecord.from_dict(d))
        else:
            bad += 1
    if not episodes:
        raise CompareError(f"{path}: holds no episodes")
    return episodes, bad


def load_runs(folders: Sequence[PathLike]) -> list[AgentRun]:
    """The agents of each evaluation folder (or ``episodes.jsonl`` file), in order of appearance.

    An agent found in several folders keeps one entry per folder, named "agent (folder)".
    Raises :class:`CompareError` for a folder without episodes.
    """
    found: list[tuple[str, Path, list[EpisodeRecord], int]] = []
    for f in folders:
        folder = Path(f)
        episodes, bad = _read_folder(folder)
        by_agent: dict[str, list[EpisodeRecord]] = {}
        for e in episodes:
            by_agent.setdefault(e.agent, []).append(e)
        for i, (agent, eps) in enumerate(by_agent.items()):
            found.append((agent, folder if folder.is_dir() else folder.parent, eps, bad if i == 0 else 0))
    seen: dict[str, int] = {}
    for agent, *_ in found:
        seen[agent] = seen.get(agent, 0) + 1
    runs = [AgentRun(f"{agent} ({folder})" if seen[agent] > 1 else agent, agent, folder, eps, bad)
            for agent, folder, eps, bad in found]
    if len({r.name for r in runs}) < len(runs):
        raise CompareError("the same folder was given twice: give each evaluation folder once")
    return runs


def compare_folders(folders: Sequence[PathLike], **kw) -> tuple[Comparison, list[AgentRun]]:
    """:func:`load_runs` then :func:`compare_agents` (keyword arguments go to the latter)."""
    runs = load_runs(folders)
    cmp = compare_agents({r.name: r.episodes for r in runs}, **kw)
    for r in runs:
        if r.unreadable_lines:
            cmp.warnings.append(f"{r.folder}/episodes.jsonl: {r.unreadable_lines} unreadable line(s) skipped")
    return cmp, runs


__all__ = ["AgentRun", "Comparison", "CompareError", "EpisodeOutcome", "METRICS", "Outcomes", "PairComparison",
           "PairedMetric", "RoleComparison", "SeedPair", "bootstrap_ci", "compare_agents", "compare_folders",
           "load_runs", "outcome", "seed_ranges"]

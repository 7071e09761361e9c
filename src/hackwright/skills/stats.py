"""What a skill's runs earned: the value of one run and the statistics of many.

The value of a run (SSO: keep only skills that earn reward)
-----------------------------------------------------------
``SkillLibrary.record_execution`` scores every run with :func:`execution_value`::

    value =   1    · Δscore                 (in-game score, botl)
            + 50   · Δdepth                 (dungeon level; going up costs)
            + 20   · Δexperience level
            + 0.05 · Δsquares explored      (squares known to walk on, every level together)
            + 10   · Δ(HP / max HP)         (−10 … +10)
            −  5   · Δhunger severity       (Hungry 1, Weak 2, Fainting 3 …; eating earns)
            − 0.02 · turns                  only when the run made no progress (below)
            +  2   if the skill reported success (and raised no error)
            − 100  if the run ended with an error
            − 1000 if the hero died

A run made **progress** when it reached a deeper level, gained an experience level,
raised the score, or added squares to the explored map (:func:`made_progress`). Turns
spent without any of these cost 0.02 each, so a skill that burns 500 turns searching in
vain earns −10 (−8 with its success bonus), while one that spends them exploring, killing
or descending pays nothing for its time. (:class:`ValueWeights` holds the constants.)

Interruptions and the success rate
----------------------------------
A run that stopped because an event interrupted it (``stopped_reason`` is
``"interrupted:<event>"``: a trigger the skill declared, or one the harness stops every
skill on, such as very low HP or the turn cap) is neither a success nor a failure: the
success rate of :class:`SkillStats` is successes ÷ *finished* runs (every run but the
interrupted ones), and ``interrupted`` counts the rest. Its value counts like any other
run's.

:class:`SkillStats` sums the runs of one skill as the run database holds them
(``hackwright.store.skills``); its ``recent_*`` figures are the judged runs (the current
version's since it was saved, restored or revived) that ``prune`` and ``should_save`` look
at. :func:`track_record` is how the prompt shows them. Every name here is also importable
from :mod:`hackwright.skills.library`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Mapping, Optional


# ---------------------------------------------------------------- value of a run
@dataclass(frozen=True)
class ValueWeights:
    """The constants of :func:`execution_value` (see the module docstring)."""

    score: float = 1.0
    depth: float = 50.0
    xp_level: float = 20.0
    explored: float = 0.05  # per square newly known to walk on
    hp_fraction: float = 10.0
    hunger: float = 5.0  # subtracted per step of hunger severity gained
    success: float = 2.0
    error: float = -100.0
    died: float = -1000.0
    idle_turn: float = 0.02  # subtracted per turn of a run that made no progress


DEFAULT_WEIGHTS = ValueWeights()

# Stopped reasons that mean the hero died during the run.
DEATH_REASONS = frozenset({"died", "death", "dead", "game_over", "hero_died"})

# The snapshot key holding how many squares of every level the hero knows to walk on.
EXPLORED_KEY = "explored_squares"


def is_interruption(stopped_reason: Any) -> bool:
    """True for ``"interrupted:<event>"``: an event stopped the run (see the module
    docstring); such a run is neither a success nor a failure."""
    text = str(stopped_reason or "").strip().lower()
    return text == "interrupted" or text.startswith("interrupted:")


def made_progress(deltas: Mapping[str, float]) -> bool:
    """Did the run reach a deeper level, gain a level, raise the score or explore squares?"""
    return any((deltas.get(k) or 0) > 0 for k in ("depth", "xp_level", "score", "explored"))


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: dataclasses and mappings as dicts, enums as their
    values, paths and anything unknown as text, non-finite floats as text."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Enum):
        return jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "tolist"):  # numpy
        return jsonable(value.tolist())
    return str(value)


def json_text(value: Any) -> str:
    """``value`` as compact JSON text with sorted keys (how runs are stored)."""
    return json.dumps(jsonable(value), ensure_ascii=False, sort_keys=True)


def snapshot(state: Any) -> dict:
    """A JSON-ready dict of a ``Stats`` (or a dict of its fields); ``{}`` for None."""
    if state is None:
        return {}
    out = jsonable(state)
    if not isinstance(out, dict):
        raise TypeError(f"a game state snapshot must be Stats or a dict, not {type(state).__name__}")
    return out


def number_of(d: Mapping, *keys: str) -> Optional[float]:
    """The first of ``keys`` in ``d`` that holds a number (booleans are not), as a float."""
    for k in keys:
        v = d.get(k)
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            return float(v)
    return None


def hunger_severity(value: Any) -> Optional[int]:
    """0 Not Hungry/Satiated, 1 Hungry, 2 Weak, 3 Fainting, 4 Fainted, 5 Starved."""
    from ..api.models import HungerState

    if value is None:
        return None
    if isinstance(value, HungerState):
        return value.severity
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value)
    text = str(value).strip().lower().replace("_", " ")
    for h in HungerState:
        if h.value.lower() == text or h.name.lower().replace("_", " ") == text:
            return h.severity
    return None


def compute_deltas(before: Any, after: Any) -> dict:
    """after − before of score, depth, xp_level, hp, hp_fraction, hunger (severity), turns, gold,
    explored (the snapshots' ``explored_squares``); a key is left out when either side lacks it."""
    b, a = snapshot(before), snapshot(after)
    out: dict[str, float] = {}
    pairs = {
        "score": ("score",),
        "depth": ("dungeon_level", "depth", "dlvl"),
        "xp_level": ("xp_level", "experience_level", "xl"),
        "hp": ("hp",),
        "turns": ("turn", "turns"),
        "gold": ("gold",),
        "explored": (EXPLORED_KEY,),
    }
    for key, names in pairs.items():
        x, y = number_of(b, *names), number_of(a, *names)
        if x is not None and y is not None:
            d = y - x
            out[key] = int(d) if d == int(d) else d
    fb, fa = _hp_fraction(b), _hp_fraction(a)
    if fb is not None and fa is not None:
        out["hp_fraction"] = round(fa - fb, 4)
    hb, ha = hunger_severity(b.get("hunger")), hunger_severity(a.get("hunger"))
    if hb is not None and ha is not None:
        out["hunger"] = ha - hb
    return out


def _hp_fraction(d: Mapping) -> Optional[float]:
    hp, mx = number_of(d, "hp"), number_of(d, "max_hp")
    if hp is None or not mx or mx <= 0:
        return None
    return max(0.0, min(1.0, hp / mx))


def execution_value(
    deltas: Mapping[str, float],
    *,
    success: bool,
    error: bool = False,
    died: bool = False,
    weights: ValueWeights = DEFAULT_WEIGHTS,
) -> float:
    """The scalar value of one run (the formula is in this module's docstring): what it
    gained in score, depth, experience level, explored squares, HP and hunger, less the
    turns it spent when it gained none of score, depth, level or squares, plus the bonus
    for success and the penalties for an error or a death."""
    w = weights
    v = (
        w.score * deltas.get("score", 0)
        + w.depth * deltas.get("depth", 0)
        + w.xp_level * deltas.get("xp_level", 0)
        + w.explored * deltas.get("explored", 0)
        + w.hp_fraction * deltas.get("hp_fraction", 0)
        - w.hunger * deltas.get("hunger", 0)
    )
    if not made_progress(deltas):
        v -= w.idle_turn * max(0, deltas.get("turns", 0) or 0)
    if success and not error:
        v += w.success
    if error:
        v += w.error
    if died:
        v += w.died
    return round(float(v), 4)


# ---------------------------------------------------------------- statistics
@dataclass
class SkillStats:
    """What the runs of a skill earned.

    ``executions`` … ``last_used`` cover every recorded run (all versions);
    ``recent_*`` only the runs of the current version since it was saved,
    restored or last revived: those are what ``prune`` and ``should_save`` judge.
    ``interrupted`` runs (stopped by an event) are neither successes nor failures:
    ``success_rate`` is successes ÷ ``finished`` runs. Rates and means are 0.0
    when there are no runs (check the counts).
    """

    name: str
    executions: int = 0
    successes: int = 0
    success_rate: float = 0.0
    mean_value: float = 0.0
    total_value: float = 0.0
    last_used: Optional[str] = None
    errors: int = 0
    deaths: int = 0
    recent_executions: int = 0
    recent_successes: int = 0
    recent_mean_value: float = 0.0
    interrupted: int = 0
    recent_interrupted: int = 0
    total_turns: int = 0  # game turns the runs took, together

    @property
    def finished(self) -> int:
        """Runs that ended on their own (every run but the interrupted ones)."""
        return self.executions - self.interrupted

    @property
    def recent_finished(self) -> int:
        return self.recent_executions - self.recent_interrupted

    @property
    def recent_success_rate(self) -> float:
        return self.recent_successes / self.recent_finished if self.recent_finished else 0.0

    @property
    def mean_turns(self) -> float:
        return self.total_turns / self.executions if self.executions else 0.0


@dataclass(frozen=True)
class VersionRecord:
    """How the runs of one version of a skill ended."""

    version: int
    runs: int = 0
    successes: int = 0
    interrupted: int = 0

    @property
    def failures(self) -> int:
        """Finished runs that did not succeed (errors included)."""
        return self.runs - self.successes - self.interrupted


def track_record(st: Optional[SkillStats]) -> str:
    """A skill's record as the prompt shows it: how many finished runs succeeded, how many
    were interrupted (neither), and the mean value per run with the turns it took, e.g.
    "3 of 4 runs succeeded, 1 interrupted; value +5.2/run, 40 turns/run" ("" with no runs).
    The value weighs turns spent without progress against progress (module docstring)."""
    if st is None or not st.executions:
        return ""
    parts = f"{st.successes} of {st.finished} runs succeeded" if st.finished else "no finished run"
    if st.interrupted:
        parts += f", {st.interrupted} interrupted"
    return f"{parts}; value {st.mean_value:+.1f}/run, {st.mean_turns:.0f} turns/run"


@dataclass
class ExecutionRecord:
    """One recorded run (a ``skill_executions`` row)."""

    id: int
    name: str
    version: Optional[int]
    timestamp: str
    params: dict
    stopped_reason: str
    success: bool
    actions_taken: int
    turns_elapsed: int
    before: dict
    after: dict
    deltas: dict
    value: float
    died: bool
    error: Optional[str] = None
    episode_id: Optional[int] = None


def stats_from_row(r: Any) -> SkillStats:
    """A :class:`SkillStats` from a row of :func:`hackwright.store.skills.stats_rows`."""
    n, rn = int(r["n"]), int(r["rn"] or 0)
    interrupted = int(r["i"] or 0)
    finished = n - interrupted
    return SkillStats(
        name=r["name"], executions=n, successes=int(r["s"]),
        success_rate=int(r["s"]) / finished if finished else 0.0,
        mean_value=float(r["v"]) / n if n else 0.0, total_value=float(r["v"]), last_used=r["last"],
        errors=int(r["errors"] or 0), deaths=int(r["deaths"] or 0), recent_executions=rn,
        recent_successes=int(r["rs"] or 0), recent_mean_value=float(r["rv"] or 0.0) / rn if rn else 0.0,
        interrupted=interrupted, recent_interrupted=int(r["ri"] or 0), total_turns=int(r["t"] or 0),
    )


def record_from_row(r: Any) -> ExecutionRecord:
    """An :class:`ExecutionRecord` from a ``skill_executions`` row."""
    return ExecutionRecord(
        id=r["id"], name=r["skill_name"], version=r["version"], timestamp=r["timestamp"],
        params=json.loads(r["params"] or "{}"), stopped_reason=r["stopped_reason"],
        success=bool(r["success"]), actions_taken=r["actions_taken"] or 0,
        turns_elapsed=r["turns_elapsed"] or 0, before=json.loads(r["game_state_before"] or "{}"),
        after=json.loads(r["game_state_after"] or "{}"), deltas=json.loads(r["deltas"] or "{}"),
        value=float(r["value"] or 0.0), died=bool(r["died"]), error=r["error"], episode_id=r["episode_id"],
    )


__all__ = [
    "DEATH_REASONS", "DEFAULT_WEIGHTS", "EXPLORED_KEY", "ExecutionRecord", "SkillStats", "ValueWeights",
    "VersionRecord", "compute_deltas", "execution_value", "hunger_severity", "is_interruption", "json_text",
    "jsonable", "made_progress", "number_of", "record_from_row", "snapshot", "stats_from_row", "track_record",
]

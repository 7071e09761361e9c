"""Repeated measures: a median with its spread, on CPU and wall clocks.

One timing on a shared 2-core machine says little: another process can take the
core for a whole measure. Every benchmark therefore repeats each measure,
interleaving baseline and candidate so that load hits both alike, and reports the
median with the interquartile range and the minimum and maximum. Ratios are taken
per repetition (baseline and candidate of the same repetition) and then summarised.
"""

from __future__ import annotations

import os
import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence


@dataclass(frozen=True)
class Spread:
    """A measure repeated ``len(values)`` times: its median, quartiles, minimum and maximum."""

    median: float
    q1: float
    q3: float
    low: float
    high: float
    values: tuple[float, ...]

    @classmethod
    def of(cls, values: Sequence[float]) -> "Spread":
        if not values:
            raise ValueError("a spread needs at least one value")
        vals = tuple(float(v) for v in values)
        if len(vals) > 1:
            q1, _, q3 = statistics.quantiles(vals, n=4, method="inclusive")
        else:
            q1 = q3 = vals[0]
        return cls(statistics.median(vals), q1, q3, min(vals), max(vals), vals)

    @property
    def relative_iqr(self) -> float:
        """The interquartile range as a fraction of the median (0 = perfectly steady)."""
        return (self.q3 - self.q1) / abs(self.median) if self.median else float("inf")


@dataclass(frozen=True)
class Measure:
    """One row of a benchmark: what it measures, in which unit, on which clock.

    ``cpu`` is None where CPU time cannot be read (work done in other processes)."""

    name: str
    unit: str
    description: str
    wall: Spread
    cpu: Optional[Spread] = None


@dataclass
class BenchReport:
    """A benchmark's rows, the facts of the run (sizes, keys, load) and notes for the reader."""

    title: str
    measures: list[Measure]
    facts: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass
class Clock:
    """Wall and CPU seconds summed over timed stretches; set-up stays outside them.

    CPU time is this process's own (``time.process_time``): other processes on the
    machine take wall time from a measure but, mostly, not CPU time."""

    wall: float = 0.0
    cpu: float = 0.0

    @contextmanager
    def running(self) -> Iterator[None]:
        w, c = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.wall += time.perf_counter() - w
            self.cpu += time.process_time() - c


def rate(count: int, seconds: Sequence[float]) -> Spread:
    """``count`` things per second, one value per repetition."""
    return Spread.of([count / s if s > 0 else float("inf") for s in seconds])


def paired_ratio(baseline: Sequence[float], candidate: Sequence[float]) -> Spread:
    """Per repetition, baseline seconds ÷ candidate seconds for the same work: the
    candidate's speed as a fraction of the baseline's, summarised over repetitions."""
    return Spread.of([b / c if c > 0 else float("inf") for b, c in zip(baseline, candidate)])


class MachineLoad:
    """The load average and the share of CPU time the hypervisor took (steal) over a run."""

    def __init__(self) -> None:
        self.load_before = _loadavg()
        self._stat_before = _cpu_stat()

    def finish(self) -> dict:
        after = _cpu_stat()
        steal = None
        if self._stat_before and after:
            total = sum(after) - sum(self._stat_before)
            if total > 0 and len(after) > 7:
                steal = (after[7] - self._stat_before[7]) / total
        return {
            "cpus": os.cpu_count(),
            "load_average_before": self.load_before,
            "load_average_after": _loadavg(),
            "steal_fraction": steal,
        }


def _loadavg() -> Optional[float]:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _cpu_stat() -> Optional[list[int]]:
    try:
        with open("/proc/stat") as f:
            first = f.readline().split()
    except OSError:
        return None
    return [int(v) for v in first[1:]] if first and first[0] == "cpu" else None


def load_note(load: dict) -> str:
    """The machine-load caveat printed under every benchmark."""
    parts = [f"load average {load['load_average_before']} → {load['load_average_after']} on {load['cpus']} CPUs"]
    if load.get("steal_fraction") is not None:
        parts.append(f"{load['steal_fraction']:.0%} of CPU time stolen by the hypervisor")
    return ("Machine load: " + ", ".join(parts) + ". Other processes share these cores: they slow wall time "
            "most, CPU time less (caches and clock speed are shared too). Read a difference between runs as "
            "real only when the spreads do not overlap.")

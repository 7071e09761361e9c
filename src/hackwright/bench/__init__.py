"""Benchmarks that compare like with like: baseline and candidate do the same work
from the same seeded states, each measure is repeated with the two interleaved, and
every row is a median with its spread on CPU and wall time (see docs/benchmarks.md).

``api``: the NetHack API against raw NLE on the same keys; ``stats``: spreads,
clocks, per-repetition ratios and the machine-load note. The sandbox's benchmark is
``hackwright.sandbox.bench``.
"""

from .api import BenchMismatchError, run_api_bench
from .stats import BenchReport, Measure, Spread

__all__ = ["run_api_bench", "BenchReport", "Measure", "Spread", "BenchMismatchError"]

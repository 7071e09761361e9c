"""The scenario suite (``hackwright eval --suite scenarios``): MiniHack levels with a
task text and a programmatic success check each; see docs/scenarios.md."""

from .checks import Check, Subgoal, TaskList
from .suite import (
    SCENARIOS,
    Scenario,
    ScenarioResult,
    format_results,
    get_scenario,
    run_suite,
    run_suite_async,
    scenario_names,
)

__all__ = [
    "Check",
    "SCENARIOS",
    "Scenario",
    "ScenarioResult",
    "Subgoal",
    "TaskList",
    "format_results",
    "get_scenario",
    "run_suite",
    "run_suite_async",
    "scenario_names",
]

"""Evaluation: metrics, baselines, scenario suites, reports and replays."""

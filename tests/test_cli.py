"""The command line, run as a user would (in-process through typer's runner)."""

import json

from typer.testing import CliRunner

from hackwright.cli import app

runner = CliRunner()


def test_help_lists_the_commands():
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0
    for cmd in ("play", "bench", "info"):
        assert cmd in r.output


def test_play_plays_a_short_seeded_game_and_records_it(tmp_path):
    r = runner.invoke(app, ["play", "--seed", "3", "--max-actions", "60", "--runs-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "Game summary" in r.output
    summaries = list(tmp_path.glob("*/summary.json"))
    assert summaries
    data = json.loads(summaries[0].read_text())
    assert data["seed"] == 3 and data["turns"] > 0
    assert list(tmp_path.glob("*/*.ttyrec*"))


def test_play_with_an_unknown_role_says_which_roles_exist():
    r = runner.invoke(app, ["play", "--role", "jedi", "--no-record"])
    assert r.exit_code == 2 and "valkyrie" in r.output


def test_bench_api_prints_the_three_rates_and_the_ratio():
    r = runner.invoke(app, ["bench", "api", "--steps", "200", "--level-calls", "20"])
    assert r.exit_code == 0, r.output
    for label in ("env.step", "move() actions", "get_current_level", "target"):
        assert label in r.output

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


def test_play_plays_a_short_seeded_episode_and_records_it(tmp_path):
    r = runner.invoke(app, ["play", "--seed", "3", "--max-steps", "8", "--db", str(tmp_path / "m.db"),
                            "--library", str(tmp_path / "skills"), "--record", str(tmp_path / "rec")])
    assert r.exit_code == 0, r.output
    assert "summary" in r.output and "BALROG progression" in r.output
    data = json.loads((tmp_path / "rec" / "summary.json").read_text())
    assert data["seed"] == 3 and data["turns"] > 0 and data["strategist"] == "autopilot"
    assert list((tmp_path / "rec").glob("*.ttyrec*"))


def test_play_json_prints_the_summary_and_runs_lists_it(tmp_path):
    db = str(tmp_path / "m.db")
    r = runner.invoke(app, ["play", "--seed", "4", "--max-steps", "5", "--db", db, "--library",
                            str(tmp_path / "skills"), "--no-record", "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output[r.output.index("{"):])
    assert summary["decisions"] == 5 and summary["end_reason"] == "step cap"
    r = runner.invoke(app, ["runs", "list", "--db", db])
    assert r.exit_code == 0 and "Episodes" in r.output and "cap" in r.output
    r = runner.invoke(app, ["runs", "show", str(summary["episode_id"]), "--db", db])
    assert r.exit_code == 0 and "Decisions" in r.output


def test_play_with_an_unknown_role_says_which_roles_exist(tmp_path):
    r = runner.invoke(app, ["play", "--role", "jedi", "--no-record", "--db", str(tmp_path / "m.db"),
                            "--library", str(tmp_path / "skills")])
    assert r.exit_code == 2 and "valkyrie" in r.output


def test_bench_api_prints_the_three_rates_and_the_ratio():
    r = runner.invoke(app, ["bench", "api", "--steps", "200", "--level-calls", "20"])
    assert r.exit_code == 0, r.output
    for label in ("env.step", "move() actions", "get_current_level", "target"):
        assert label in r.output


def test_skill_run_prints_the_skill_result_as_json(tmp_path):
    skill = tmp_path / "walk.py"
    skill.write_text(
        "async def walk(nh, steps=2):\n"
        "    for _ in range(steps):\n"
        "        await nh.search()\n"
        "    print('searched', steps)\n"
        "    return SkillResult('done', {'steps': steps}, steps, 0, True)\n"
    )
    r = runner.invoke(app, ["skill", "run", str(skill), "--seed", "1", "--param", "steps=3", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("{"):])
    assert data["result"]["stopped_reason"] == "done" and data["result"]["data"] == {"steps": 3}
    assert data["actions"] == 3 and "searched 3" in data["log"]


def test_skill_run_exits_nonzero_with_the_typed_error(tmp_path):
    skill = tmp_path / "bad.py"
    skill.write_text("import os\nasync def bad(nh):\n    os.system('true')\n")
    r = runner.invoke(app, ["skill", "run", str(skill), "--json"])
    assert r.exit_code == 1
    assert "SkillValidationError" in r.output


def test_skill_run_of_an_unsuccessful_skill_still_exits_zero(tmp_path):
    skill = tmp_path / "fail.py"
    skill.write_text("async def fail(nh):\n    return SkillResult('gave_up', {}, 0, 0, False)\n")
    r = runner.invoke(app, ["skill", "run", str(skill)])
    assert r.exit_code == 0 and "gave_up" in r.output


def test_sandbox_check_names_the_stack():
    r = runner.invoke(app, ["sandbox", "check"])
    assert r.exit_code == 0, r.output
    assert "Model-written skills run under" in r.output


def test_skills_stats_after_play_with_the_default_paths_shows_the_runs_the_episode_recorded(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # ./data/memory.db and ./skills, the defaults, are this test's own
    for name in ("HACKWRIGHT_CONFIG", "HACKWRIGHT_MEMORY_DATABASE_PATH", "HACKWRIGHT_LIBRARY",
                 "HACKWRIGHT_SKILLS_LIBRARY_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    r = runner.invoke(app, ["play", "--seed", "0", "--max-steps", "3", "--no-record", "--json"])
    assert r.exit_code == 0, r.output
    used = json.loads(r.output[r.output.index("{"):])["skills_used"]
    assert used
    r = runner.invoke(app, ["skills", "stats"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("database: data/memory.db (")
    runs = {}
    for line in r.output.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if len(cells) == 8 and cells[0] in used:
            runs[cells[0]] = int(cells[1])
    assert runs == used

"""Bring your own strategist: plug-ins named module:Class, path/file.py:Class or by an
entry point play real games through `hackwright play` and `hackwright eval`, under
their own name, and every way a plug-in can fail to load is one line saying what to fix."""

from __future__ import annotations

import csv
import json
import sqlite3
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hackwright.cli import app
from tests.agent.test_honest_numbers import hackwright, one_line_error

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/cautious_strategist.py:CautiousStrategist"
cli = CliRunner()


def strategists_in(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute("SELECT strategist FROM episodes ORDER BY id")]


def write(path: Path, code: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(code))
    return path


def play_json(*args: str) -> dict:
    r = cli.invoke(app, ["play", "--no-record", "--json", "--db", "m.db", "--library", "skills", *args])
    assert r.output.count("{") >= 1, r.output
    return json.loads(r.output[r.output.index("{"):])


# ------------------------------------------------------------------ the example, through play and eval
def test_the_example_strategist_plays_under_its_own_name_in_play(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    r = cli.invoke(app, ["play", "--agent", EXAMPLE, "--seed", "3", "--max-steps", "6", "--db", str(db),
                         "--library", str(tmp_path / "skills"), "--record", str(tmp_path / "rec")])
    assert r.exit_code == 0, r.output
    summary = json.loads((tmp_path / "rec" / "summary.json").read_text())
    assert summary["strategist"] == EXAMPLE  # the name it was loaded by, not the class's own "cautious"
    assert summary["decisions"] == 6 and summary["decided_by"] == {"strategist": 6}
    assert summary["turns"] > 1 and summary["model_calls"] == 0
    assert set(summary["skills_used"]) <= {"explore_level", "melee_fight", "rest_until_healed", "eat_when_hungry",
                                           "descend", "pray_when_safe"}
    assert strategists_in(db) == [EXAMPLE]


def test_the_example_strategist_is_evaluated_on_two_seeds_under_its_own_name(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "eval"
    r = cli.invoke(app, ["eval", "--agent", EXAMPLE, "--seeds", "0-1", "--max-steps", "5", "--workers", "1",
                         "--no-record", "--out", str(out)])
    assert r.exit_code == 0, r.output
    with open(out / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert sorted((x["agent"], int(x["seed"])) for x in rows) == [(EXAMPLE, 0), (EXAMPLE, 1)]
    for x in rows:
        assert not x["end_reason"].startswith("error"), x
        assert x["end_reason"] == "step cap" and int(x["decisions"]) == 5
    assert strategists_in(out / "runs.db") == [EXAMPLE, EXAMPLE]
    assert EXAMPLE in (out / "report.md").read_text()


# ------------------------------------------------------------------ module:Class and entry points
def test_a_module_in_the_current_folder_plays_as_module_colon_class_with_the_episode_seed(tmp_path, monkeypatch):
    write(tmp_path / "walker_p9.py", """\
        from pathlib import Path

        class Walker:
            name = "walker"

            def __init__(self, seed=None):
                Path("seed.txt").write_text(str(seed))
                self.calls = 0

            async def decide(self, ctx):
                assert "explore_level" in ctx.skill_names and ctx.prompt().user
                self.calls += 1
                if self.calls == 1:  # the decision format a model writes, as a dict
                    return {"action": "invoke", "skill": "explore_level", "params": {"max_actions": 20}}
                return '{"action": "direct", "key": "s", "reasoning": "a text reply, parsed as a model\\'s"}'
        """)
    monkeypatch.chdir(tmp_path)
    summary = play_json("--agent", "walker_p9:Walker", "--seed", "5", "--max-steps", "3")
    assert summary["strategist"] == "walker_p9:Walker" and summary["decided_by"] == {"strategist": 3}
    with sqlite3.connect(tmp_path / "m.db") as con:
        kinds = [r[0] for r in con.execute("SELECT type FROM decisions ORDER BY step")]
    assert kinds == ["invoke_skill", "direct_action", "direct_action"]
    assert (tmp_path / "seed.txt").read_text() == "5"
    assert strategists_in(tmp_path / "m.db") == ["walker_p9:Walker"]


def test_an_installed_entry_point_is_played_by_its_name_and_listed_among_the_choices(tmp_path, monkeypatch):
    site = tmp_path / "site"
    write(site / "careful_p9.py", """\
        from hackwright.strategist import invoke_skill

        class Careful:
            async def decide(self, ctx):
                return invoke_skill("explore_level", {"max_actions": 20}, reasoning="entry point")
        """)
    write(site / "careful_p9-0.1.dist-info" / "METADATA", "Metadata-Version: 2.1\nName: careful-p9\nVersion: 0.1\n")
    write(site / "careful_p9-0.1.dist-info" / "entry_points.txt",
          "[hackwright.strategists]\ncareful-p9 = careful_p9:Careful\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.chdir(tmp_path)
    summary = play_json("--agent", "careful-p9", "--seed", "1", "--max-steps", "2")
    assert summary["strategist"] == "careful-p9" and summary["skills_used"] == {"explore_level": 2}
    r = cli.invoke(app, ["play", "--agent", "carefull", "--no-record", "--db", "x.db"])
    assert r.exit_code == 2 and "installed plug-in: careful-p9" in r.output
    assert not (tmp_path / "x.db").exists()


# ------------------------------------------------------------------ a plug-in's failures are counted like a model's
FLAKY = """\
    from hackwright.strategist import invoke_skill

    class Flaky:
        def __init__(self):
            self.calls = 0

        async def decide(self, ctx):
            self.calls += 1
            if self.calls % 2 == 0 or self.always:
                return {}["no such key"]
            return invoke_skill("explore_level", {"max_actions": 20})

    class AlwaysFails(Flaky):
        always = True

    Flaky.always = False
    """


def test_a_plugin_that_raises_plays_nothing_and_three_in_a_row_end_the_episode_with_one_line(tmp_path):
    write(tmp_path / "flaky.py", FLAKY)
    proc = hackwright("play", "--agent", "flaky.py:AlwaysFails", "--max-steps", "10", "--no-record", "--db", "m.db",
                      "--library", "skills", "--json", cwd=tmp_path)
    assert proc.returncode == 1
    line = one_line_error(proc)
    assert "decide() raised KeyError: 'no such key' (flaky.py line 10)" in line
    summary = json.loads(proc.stdout[proc.stdout.index("{"):])
    assert summary["decisions"] == 0 and summary["failed_decisions"] == 3 and summary["fallback_steps"] == 0
    assert summary["strategist"] == "flaky.py:AlwaysFails"


def test_with_fallback_autopilot_the_steps_a_plugin_could_not_decide_are_counted_as_fallback(tmp_path, monkeypatch):
    write(tmp_path / "flaky.py", FLAKY)
    monkeypatch.chdir(tmp_path)
    summary = play_json("--agent", "flaky.py:Flaky", "--fallback", "autopilot", "--max-steps", "4")
    assert summary["decided_by"] == {"strategist": 2, "fallback": 2} and summary["fallback_steps"] == 2
    with sqlite3.connect(tmp_path / "m.db") as con:
        who = [r[0] for r in con.execute("SELECT decided_by FROM decisions ORDER BY step")]
    assert who == ["strategist", "fallback", "strategist", "fallback"]


# ------------------------------------------------------------------ every load failure is one line
PLUGS = """\
    class Good:
        async def decide(self, ctx):
            return None

    class NotAStrategist:
        pass

    class Broken:
        def __init__(self):
            raise RuntimeError("needs a map file")

        async def decide(self, ctx):
            return None
    """


@pytest.mark.parametrize("command, spec, expected", [
    ("play", "nosuchmod_p9:Cls", "no module named 'nosuchmod_p9'"),
    ("play", "missing.py:Cls", "no file missing.py"),
    ("play", "plugs.py:Nope", "plugs.py has no 'Nope'; it defines these strategists: Broken, Good "
                              "(and NotAStrategist)"),
    ("eval", "plugs.py:NotAStrategist", "NotAStrategist does not look like a strategist: it has no decide(ctx) "
                                        "method"),
    ("play", "plugs.py:Broken", "Broken() failed: RuntimeError: needs a map file (plugs.py line 10)"),
    ("eval", "plugs.py:Broken", "Broken() failed: RuntimeError: needs a map file"),
    ("play", "needs_dep.py:X", "loading needs_dep.py failed: ModuleNotFoundError: No module named "
                               "'not_installed_p9'"),
])
def test_a_plugin_that_cannot_be_loaded_is_one_error_line_and_nothing_is_played(tmp_path, command, spec, expected):
    write(tmp_path / "plugs.py", PLUGS)
    write(tmp_path / "needs_dep.py", "import not_installed_p9\n")
    extra = ["--seeds", "0", "--out", "ev"] if command == "eval" else ["--no-record", "--db", "m.db"]
    proc = hackwright(command, "--agent", spec, *extra, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    assert expected in one_line_error(proc)
    assert not (tmp_path / "m.db").exists() and not (tmp_path / "ev").exists() and not (tmp_path / "data").exists()

"""Project basics a new user meets first: the licence, `runs show`, `--help`, `info`, the docs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from hackwright.cli import app
from hackwright.store.db import connect
from hackwright.store.episodes import start_episode

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_the_licence_file_is_the_mit_licence_pyproject_names():
    declared = re.search(r'^license = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    text = (ROOT / "LICENSE").read_text()
    assert declared and declared.group(1) == "MIT" and text.startswith("MIT License")
    assert "Copyright (c) 2026 Hackwright contributors" in text
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def played(tmp_path) -> tuple[str, int]:
    db = str(tmp_path / "m.db")
    r = runner.invoke(app, ["play", "--seed", "1", "--max-steps", "3", "--db", db, "--library",
                            str(tmp_path / "skills"), "--no-record", "--json"])
    assert r.exit_code == 0, r.output
    return db, json.loads(r.output[r.output.index("{"):])["episode_id"]


def test_runs_show_leads_with_its_tables_and_keeps_the_raw_timeline_for_json(tmp_path):
    db, episode_id = played(tmp_path)
    r = runner.invoke(app, ["runs", "show", str(episode_id), "--db", db])
    assert r.exit_code == 0, r.output
    first = next(ln for ln in r.output.splitlines() if ln.strip())
    assert f"Episode {episode_id} summary" in first
    assert "Decisions" in r.output and "step cap" in r.output
    assert "timeline" not in r.output and '"' not in r.output.split("Decisions")[0]  # no JSON before the tables

    r = runner.invoke(app, ["runs", "show", str(episode_id), "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["episode"]["id"] == episode_id and data["episode"]["end_reason"] == "step cap"
    assert len(data["summary"]["timeline"]) == 3 and len(data["decisions"]) == 3
    assert data["decisions"] and isinstance(data["decisions"][0]["params"], dict)


def test_runs_show_of_an_episode_still_running_is_a_table_not_a_python_dict(tmp_path):
    db = tmp_path / "m.db"
    conn = connect(db)
    episode_id = start_episode(conn, seed=7, env_id="NetHackChallenge-v0", role="Valkyrie", strategist="autopilot")
    conn.close()
    r = runner.invoke(app, ["runs", "show", str(episode_id), "--db", str(db)])
    assert r.exit_code == 0, r.output
    assert "still running" in r.output and "Valkyrie" in r.output and "NetHackChallenge-v0" in r.output
    assert "{" not in r.output and "None" not in r.output


def test_flags_render_in_help_without_a_value_type():
    for command in (["play"], ["eval"], ["runs", "show"], ["skills"]):
        r = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
        assert r.exit_code == 0, r.output
        assert "<bool>" not in r.output, command
        assert "--help" in r.output
    r = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert re.search(r"--seed\s+<int>", r.output)  # options that take a value keep their type
    assert re.search(r"--json\s+Print only", r.output)


def test_info_prints_the_hero_and_the_seeds_in_words():
    r = runner.invoke(app, ["info", "--seed", "3"])
    assert r.exit_code == 0, r.output
    lines = {ln.split(":", 1)[0]: ln.split(":", 1)[1].strip() for ln in r.output.splitlines()
             if re.match(r"^(hero|environment|seed):", ln)}
    assert lines["hero"] == "neutral female human Monk"
    assert lines["environment"] == "NetHackChallenge-v0"
    assert lines["seed"].startswith("3 (NetHack's core seed 3, display seed 3, its re-seeding off")
    assert "(3, 3" not in r.output and "None" not in r.output


def test_info_on_a_minihack_task_names_its_step_limit():
    r = runner.invoke(app, ["info", "--env", "MiniHack-Room-5x5-v0"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^task:.*at most 100 steps", r.output, re.M)


def test_docs_hold_user_guides_and_every_documentation_path_exists():
    top = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    for name in top:
        text = (ROOT / "docs" / name).read_text()
        assert "before changing" not in text and "for the next session" not in text, f"{name} is a development note"
    assert (ROOT / "docs" / "development" / "status.md").exists()
    pages = [ROOT / "README.md", ROOT / "examples" / "README.md", *(ROOT / "docs").rglob("*.md")]
    for page in pages:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):  # markdown links
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.relative_to(ROOT)}: broken link {target}"
        for path in re.findall(r"`(docs/[\w./-]+\.md)`", text):  # paths written from the repository root
            assert (ROOT / path).exists(), f"{page.relative_to(ROOT)}: no file {path}"

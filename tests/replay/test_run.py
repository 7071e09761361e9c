"""Finding a recorded episode by id or by path, with its decisions and events."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from hackwright.replay.run import RunNotFoundError, resolve_run
from tests.replay.conftest import STEPS


def test_an_episode_id_finds_its_folder_files_and_rows(episode):
    rec = resolve_run(str(episode.summary.episode_id), episode.db)
    assert rec.episode_id == episode.summary.episode_id
    assert rec.record_dir == episode.record_dir.resolve()
    assert rec.frames == rec.record_dir / "frames.bin" and rec.ttyrec and rec.ttyrec.is_file()
    assert rec.summary["seed"] == 0 and rec.episode["strategist"] == "autopilot"
    assert [d.step for d in rec.decisions] == list(range(1, STEPS + 1))
    assert all(d.type for d in rec.decisions) and rec.decision_at(1).label()
    assert rec.decision_at(0) is None and not rec.warnings
    assert "episode" in rec.title() and "seed 0" in rec.title()


@pytest.mark.parametrize("what", ["dir", "frames", "ttyrec", "summary"])
def test_a_record_path_finds_the_same_episode(episode, what):
    target = {"dir": episode.record_dir, "frames": episode.record_dir / "frames.bin",
              "ttyrec": next(episode.record_dir.glob("*.ttyrec*")),
              "summary": episode.record_dir / "summary.json"}[what]
    rec = resolve_run(str(target), episode.db)
    assert rec.episode_id == episode.summary.episode_id and len(rec.decisions) == STEPS
    assert rec.frames is not None and rec.ttyrec is not None


def test_a_folder_without_summary_is_known_by_the_frame_header(episode, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(episode.record_dir, copy)
    (copy / "summary.json").unlink()
    rec = resolve_run(str(copy), episode.db)
    assert rec.episode_id == episode.summary.episode_id and rec.decisions and rec.summary  # summary from the db


def test_a_folder_read_against_another_database_shows_no_foreign_decisions(episode, tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE episodes (id INTEGER PRIMARY KEY, ttyrec TEXT, summary TEXT)")
        c.execute("CREATE TABLE decisions (episode_id INTEGER, step INTEGER, turn INTEGER, type TEXT, "
                  "skill_name TEXT, params TEXT, code TEXT, reasoning TEXT, stopped_reason TEXT, success INTEGER, "
                  "error TEXT, id INTEGER PRIMARY KEY)")
        c.execute("INSERT INTO episodes (id, ttyrec) VALUES (?, '/elsewhere/nle.1.0.ttyrec3.bz2')",
                  (episode.summary.episode_id,))
        c.execute("INSERT INTO decisions (episode_id, step, type) VALUES (?, 1, 'direct_action')",
                  (episode.summary.episode_id,))
    rec = resolve_run(str(episode.record_dir), other)
    assert rec.decisions == [] and any("wrong --db" in w for w in rec.warnings)


def test_unknown_runs_are_reported_and_no_database_is_created(episode, tmp_path):
    with pytest.raises(RunNotFoundError, match="not in"):
        resolve_run("999", episode.db)
    with pytest.raises(RunNotFoundError, match="no run database"):
        resolve_run("1", tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    with pytest.raises(RunNotFoundError, match="neither"):
        resolve_run("no-such-run", episode.db)


def test_frames_come_from_frames_bin_or_the_ttyrec(episode):
    rec = resolve_run(str(episode.record_dir), episode.db)
    frames = rec.load_frames()
    tty = rec.load_frames("ttyrec")
    assert frames.source == "frames" and frames.glyphs is not None and frames.steps.max() == STEPS
    assert tty.source == "ttyrec" and tty.glyphs is None and len(tty) > 10
    # Both end on the same screen, the bottom lines agreeing (turn counter included), but
    # for one thing: NLE writes a step's output to the ttyrec when the next step starts,
    # so an episode cut off by a cap (not ended by the game) lacks its very last screen there.
    tty_end = tty[len(tty) - 1].tty_lines()[-2:]
    assert tty_end in (frames[len(frames) - 1].tty_lines()[-2:], frames[len(frames) - 2].tty_lines()[-2:])

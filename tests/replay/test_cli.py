"""`hackwright replay` and `hackwright render`, run as a user would (typer's runner, real files)."""

from __future__ import annotations

import re
import shutil

from PIL import Image
from typer.testing import CliRunner

from hackwright.cli import app
from hackwright.replay.run import resolve_run
from tests.replay.conftest import STEPS

runner = CliRunner()


def _args(episode, *more):
    return [*more, "--db", str(episode.db)]


def test_replay_final_prints_the_last_screen_and_the_last_decision(episode):
    r = runner.invoke(app, _args(episode, "replay", str(episode.summary.episode_id), "--final"))
    assert r.exit_code == 0, r.output
    assert f"T:{episode.summary.turns}" in r.stdout and "Dlvl:" in r.stdout
    assert f"step {STEPS} [" in r.stdout and "\x1b[" not in r.stdout  # not a terminal: plain text


def test_replay_no_delay_shows_every_frame(episode):
    r = runner.invoke(app, _args(episode, "replay", str(episode.record_dir), "--no-delay"))
    assert r.exit_code == 0, r.output
    frames = r.stdout.count("--- frame ")
    assert frames > 50 and "step 1 [" in r.stdout and "@" in r.stdout


def test_replay_from_the_ttyrec_in_colour(episode):
    r = runner.invoke(app, _args(episode, "replay", str(episode.summary.episode_id), "--source", "ttyrec",
                                 "--no-delay", "--color"))
    assert r.exit_code == 0, r.output
    assert "\x1b[2J" in r.stdout and "\x1b[?25h" in r.stdout  # cleared, cursor shown again at the end
    # The ttyrec's last screen (NLE writes a step's output when the next step starts, so a
    # capped episode's very last screen is only in frames.bin).
    last = resolve_run(str(episode.record_dir), episode.db).load_frames("ttyrec")
    assert "T:" + last[len(last) - 1].tty_lines()[-1].split("T:")[1].split()[0] in r.stdout


def test_replay_step_through_waits_for_enter_and_q_stops(episode):
    r = runner.invoke(app, _args(episode, "replay", str(episode.summary.episode_id), "--step-through",
                                 "--from-step", "2"), input="\n\nq\n")
    assert r.exit_code == 0, r.output
    # Two Enters then q: three steps shown (steps whose skill pressed no key have no frames).
    shown = sorted({int(m) for m in re.findall(r"· step (\d+) ·", r.stdout)})
    assert len(shown) == 3 and shown[0] == 2, shown
    assert "step 1 [" not in r.stdout


def test_replay_paces_frames_by_the_recording(episode):
    # The whole episode at 1000× speed with pauses cut to 0.5 s: quick, but through the waiting path.
    r = runner.invoke(app, _args(episode, "replay", str(episode.record_dir), "--speed", "1000",
                                 "--max-wait", "0.5"))
    assert r.exit_code == 0, r.output
    assert r.stdout.count("--- frame ") > 50


def test_render_writes_gif_and_html(episode, tmp_path):
    gif, page = tmp_path / "out" / "run.gif", tmp_path / "run.html"
    r = runner.invoke(app, _args(episode, "render", str(episode.summary.episode_id), "--gif", str(gif),
                                 "--html", str(page), "--every", "4", "--scale", "0.25"))
    assert r.exit_code == 0, r.output
    assert "GIF:" in r.output and "HTML:" in r.output
    with Image.open(gif) as im:
        assert im.n_frames > 1 and im.size[0] == round(79 * 16 * 0.25)
    text = page.read_text()
    assert 'id="hw-slider"' in text and "explore" in text


def test_render_caps_the_frame_count(episode, tmp_path):
    r = runner.invoke(app, _args(episode, "render", str(episode.record_dir), "--gif", str(tmp_path / "a.gif"),
                                 "--max-frames", "20", "--scale", "0.2", "--no-captions"))
    assert r.exit_code == 0, r.output
    assert "keeping every" in r.output
    with Image.open(tmp_path / "a.gif") as im:
        assert 1 < im.n_frames <= 21


def test_render_needs_an_output_and_frames(episode, tmp_path):
    r = runner.invoke(app, _args(episode, "render", str(episode.record_dir)))
    assert r.exit_code == 2 and "--gif" in r.output
    only_tty = tmp_path / "tty-only"
    only_tty.mkdir()
    shutil.copy(next(episode.record_dir.glob("*.ttyrec*")), only_tty)
    r = runner.invoke(app, _args(episode, "render", str(only_tty), "--html", str(tmp_path / "x.html")))
    assert r.exit_code == 2 and "frames.bin" in r.output
    r = runner.invoke(app, _args(episode, "replay", str(only_tty), "--final"))  # the ttyrec still plays
    assert r.exit_code == 0 and "Dlvl:" in r.stdout


def test_unknown_run_is_an_error(episode):
    r = runner.invoke(app, _args(episode, "replay", "12345"))
    assert r.exit_code == 2 and "not in" in r.output

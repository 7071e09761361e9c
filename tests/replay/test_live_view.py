"""Watching a game live: `play --web` serves the replay viewer fed from the running game,
`--delay` pauses after every key, and the terminal view shows NetHack's colours and the agent."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.cli import app
from hackwright.cli.play import _Progress
from hackwright.replay.html import JS_DECISION, JS_VIEW
from hackwright.replay.live import LiveWatch, watching

ROOT = Path(__file__).resolve().parents[2]


STEPS = 5


class WebGame:
    """`hackwright play --web --web-keep` in a subprocess, as a user starts it."""

    # (Few steps: the game must end at the step cap, not by a death the autopilot's
    # play may bring sooner or later as it changes.)
    def __init__(self, tmp: Path, *extra: str, steps: int = STEPS):
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hackwright", "play", "--seed", "0", "--max-steps", str(steps), "--no-record",
             "--db", str(tmp / "m.db"), "--library", str(tmp / "skills"), "--web", "--port", "0", "--web-keep",
             *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = None
        self.lines: list[str] = []
        for line in self.proc.stdout:
            self.lines.append(line)
            m = re.search(r"watch at (http://127\.0\.0\.1:\d+/)", line)
            if m:
                self.url = m.group(1)
                break
        assert self.url, "no URL printed"
        # Keep reading what the game prints: a pipe nobody reads fills up (64 KiB) and
        # the game stops in the middle of a write, leaving the page's feed waiting.
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=60) as r:
            return r.read()

    def feed(self, after: int) -> dict:
        return json.loads(self.get(f"feed?after={after}"))

    def follow(self) -> list[dict]:
        """Every state the feed gives, until the game is finished."""
        states, after = [], -1
        while True:
            s = self.feed(after)
            if s["seq"] > after:
                states.append(s)
                after = s["seq"]
            if s["finished"]:
                return states

    def stop(self, timeout: float = 120) -> str:
        """Ctrl-C (--web-keep serves until then); everything the game printed."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=timeout)
        self._reader.join(timeout=30)
        return "".join(self.lines)


@pytest.fixture(scope="module")
def web_game(tmp_path_factory):
    game = WebGame(tmp_path_factory.mktemp("live"), "--delay", "5")
    try:
        yield game
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
            game.proc.wait()


@pytest.fixture(scope="module")
def followed(web_game):
    page = web_game.get("").decode("utf-8")
    states = web_game.follow()
    return page, states


def test_the_live_page_is_the_replay_viewer_fed_from_the_game(followed):
    page, _ = followed
    # the viewer's own canvas, atlas, drawing and decision panel, plus the live panels
    for part in ('id="hw-map"', 'id="hw-atlas"', 'data-encoding="live"', 'id="hw-skill"', 'id="hw-inventory"',
                 "feed?after="):
        assert part in page
    assert JS_VIEW in page and JS_DECISION in page


def test_the_feed_follows_the_game_turn_by_turn_with_the_skill_and_decision(followed):
    _, states = followed
    frames = [s["frame"] for s in states if s["frame"]]
    turns = [f["turn"] for f in frames]
    assert len(set(turns)) > 3 and turns[-1] > turns[0]  # the game moved on while it was watched
    assert all(len(f["tiles"]) == 21 * 79 for f in frames)
    skills = {s["skill"] for s in states if s["skill"]}
    assert skills, "no skill was ever shown as running"
    decisions = [s["decision"] for s in states if s["decision"]]
    assert {d["step"] for d in decisions} >= {1, STEPS}
    assert any(d["running"] for d in decisions) and any(not d["running"] and d["success"] is not None
                                                        for d in decisions)
    assert all(d["reasoning"] for d in decisions)
    assert any(s["inventory"] for s in states)
    assert states[-1]["finished"] and states[-1]["step"] == STEPS


def test_delay_pauses_once_after_every_key(followed):
    _, states = followed
    last = states[-1]
    assert last["delay_ms"] == 5
    # the game ended at the step cap (not a death), so every key sent was followed by a pause
    assert last["pauses"] == last["keys"] > 0


def test_the_page_stays_until_ctrl_c_with_web_keep(web_game, followed):
    assert web_game.feed(10 ** 9)["finished"]  # answered at once: the game is over, the page is still served
    out = web_game.stop()
    assert web_game.proc.returncode == 0, out
    assert "stays until Ctrl-C" in out and "summary" in out


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.timeout(900)  # a browser and a slowed game on a busy machine
def test_a_headless_browser_draws_the_running_game(tmp_path):
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium on this machine (chromium, chromium-browser or google-chrome on PATH)")
    game = WebGame(tmp_path, "--delay", "20", steps=4)
    try:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=4000"]
        dom = subprocess.run(cmd + ["--dump-dom", game.url], capture_output=True, text=True, timeout=120).stdout
        assert 'data-ready="1"' in dom  # the page's script ran and drew a frame
        assert re.search(r'id="hw-status">T:\d+', dom)
        # The screenshot once the game is over: taken while the game ended, it hung past
        # two minutes one time in three (most likely the page's long poll across the end
        # stalling Chromium's virtual clock); after it, the page asks once and is still.
        game.follow()
        shot = tmp_path / "live.png"
        subprocess.run(cmd + ["--window-size=1400,900", f"--screenshot={shot}", game.url], capture_output=True,
                       timeout=120)
        from PIL import Image

        with Image.open(shot) as im:
            colours = im.convert("RGB").getcolors(1 << 20)
        assert colours is not None and len(colours) > 20  # tiles, text and panels, not a blank page
    finally:
        game.stop(timeout=300)


def _watched_episode(tmp_path: Path, width: int) -> tuple[Console, LiveWatch]:
    console = Console(record=True, width=width, color_system="truecolor", force_terminal=True)
    watch = LiveWatch(delay_ms=1)
    show = _Progress(console, watch=watch)
    cfg = EpisodeConfig(seed=0, role="valkyrie", max_steps=3, db_path=str(tmp_path / "m.db"),
                        library_path=str(tmp_path / "skills"))
    with watching(watch):
        asyncio.run(Agent(cfg, on_step=show.step).run())
    show.stop()
    return console, watch


def test_the_terminal_view_has_colour_and_a_side_panel_when_wide(tmp_path):
    console, watch = _watched_episode(tmp_path, 140)
    assert watch.pauses > 0  # --delay reaches the game's frame hook without --web too
    colours = set(re.findall(r"color: (#[0-9a-f]{6})", console.export_html(inline_styles=True, clear=False)))
    assert len(colours) >= 3  # NetHack's colours: walls, the hero, items …
    lines = console.export_text().splitlines()
    side = [ln for ln in lines if "skill  " in ln]
    assert side and all(ln.index("skill  ") > 80 for ln in side)  # beside the 80-column map
    assert any("|" in ln[:84] and "│" in ln[84:] for ln in lines)


def test_a_narrow_terminal_shows_the_agent_below_the_map(tmp_path):
    console, _ = _watched_episode(tmp_path, 100)
    lines = console.export_text().splitlines()
    side = [ln for ln in lines if "skill  " in ln]
    assert side and all(ln.index("skill  ") < 10 for ln in side)


def test_eval_web_watches_one_worker_only(tmp_path):
    r = CliRunner().invoke(app, ["eval", "--web", "--workers", "2", "--seeds", "0-1", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--workers 1" in r.output

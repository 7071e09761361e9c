"""GIF and HTML renderings of a real recorded episode, with NetHack's tiles."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from hackwright.replay.gif import RenderError, render_gif, thin
from hackwright.replay.html import render_html
from hackwright.replay.run import DecisionRow, resolve_run
from hackwright.replay.tiles import TILE, tileset
from tests.replay.conftest import STEPS

HARNESS = Path(__file__).with_name("viewer_harness.js")


@pytest.fixture(scope="module")
def run(episode):
    return resolve_run(str(episode.summary.episode_id), episode.db)


@pytest.fixture(scope="module")
def frames(run):
    return run.load_frames()


def test_tiles_draw_the_map_with_the_hero_on_it(frames):
    ts = tileset()
    img = ts.render_rgb(frames.glyphs[-1])
    assert img.shape == (21 * TILE, 79 * TILE, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 5  # walls, floor, hero … not a black page
    x, y = frames[len(frames) - 1].stat("x"), frames[len(frames) - 1].stat("y")
    hero = img[y * TILE:(y + 1) * TILE, x * TILE:(x + 1) * TILE]
    assert hero.any()


def test_gif_has_many_frames_that_show_the_map(run, frames, tmp_path):
    report = render_gif(thin(frames, 3), tmp_path / "run.gif", run=run, scale=0.5)
    assert report.frames > 10 and report.bytes > 0
    with Image.open(tmp_path / "run.gif") as im:
        assert im.n_frames > 1 and im.size == (round(79 * TILE * 0.5), round(21 * TILE * 0.5) + 14)
        im.seek(im.n_frames - 1)
        last = np.asarray(im.convert("RGB"))
    assert len(np.unique(last.reshape(-1, 3), axis=0)) > 5


def test_a_ttyrec_cannot_be_drawn_with_tiles(run, tmp_path):
    with pytest.raises(RenderError, match="glyphs"):
        render_gif(run.load_frames("ttyrec"), tmp_path / "x.gif")


def _page_data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="hw-run">(.*?)</script>', page, re.S).group(1))


def test_html_holds_scrubber_tiles_decisions_and_stays_small(run, frames, tmp_path):
    report = render_html(frames, tmp_path / "run.html", run=run)
    page = (tmp_path / "run.html").read_text()
    for part in ('id="hw-slider"', 'id="hw-play"', 'id="hw-prev"', 'id="hw-next"', 'id="hw-map"',
                 'data:image/png;base64,', 'data-encoding="gzip-base64"'):
        assert part in page
    data = _page_data(page)
    assert len(data["decisions"]) == STEPS
    d = run.decision_at(1)
    assert data["decisions"][0]["skill_name"] == d.skill_name and d.reasoning in page
    assert report.bytes < 400_000 and report.tiles > 5
    assert "http://" not in page and "https://" not in page  # self-contained: nothing fetched


def test_model_text_cannot_break_out_of_the_page(run, frames, tmp_path):
    evil = "</script><script>alert(1)</script> @FRAMES@"
    bad = DecisionRow(step=1, turn=1, type="create_skill", skill_name="evil", params={"x": evil},
                      code=f"async def evil(nh):\n    return '{evil}'\n", reasoning=evil, stopped_reason=None,
                      success=False, error=evil)
    run2 = dataclasses.replace(run, decisions=[bad])
    render_html(frames, tmp_path / "evil.html", run=run2)
    page = (tmp_path / "evil.html").read_text()
    assert "<script>alert(1)" not in page
    assert page.count("<script") == 3  # run data, frames, the viewer
    assert _page_data(page)["decisions"][0]["reasoning"] == evil


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (runs the viewer's script)")
def test_the_viewer_script_scrubs_through_frames_and_steps(run, frames, tmp_path):
    run.decisions.append(DecisionRow(step=STEPS + 1, turn=None, type="create_skill", skill_name="made_up",
                                     params={"n": 2}, code="async def made_up(nh, n=2):\n    await nh.search(n)\n",
                                     reasoning="try a new skill", stopped_reason="done", success=True, error=None))
    # A decision that sent no key (so no frame carries its step) is still listed and shown.
    run.decisions.append(DecisionRow(step=STEPS + 2, turn=None, type="lookup", skill_name=None, params=None,
                                      code=None, reasoning="read about jackals", stopped_reason=None, success=False,
                                      error="knowledge lookups are not available yet"))
    try:
        # The last frames are tagged with the new step, as if the skill had run there.
        frames.steps[-3:] = STEPS + 1
        render_html(frames, tmp_path / "run.html", run=run)
    finally:
        del run.decisions[-2:]
        frames.steps[-3:] = STEPS
    out = subprocess.run(["node", str(HARNESS), str(tmp_path / "run.html")], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    v = json.loads(out.stdout)
    assert v["ready"] and v["title"] == run.title() and int(v["max"]) == len(frames) - 1
    assert v["first"]["nodecision"] == "Before the first decision." and v["first"]["decisionHidden"]
    assert v["first"]["drawn"] == 21 * 79  # every cell drawn once
    assert v["first"]["status"].startswith("T:1 ")
    step1 = v["afterNextStep"]
    assert step1["skill"] == run.decision_at(1).label() and not step1["decisionHidden"]
    assert "step 1" in step1["where"]
    assert v["afterNextStep2"]["skill"] == run.decision_at(2).label()
    assert int(v["afterNext"]["slider"]) == int(v["afterNextStep2"]["slider"]) + 1
    assert v["afterPrevStep"]["slider"] == v["afterNextStep2"]["slider"]  # back to the step's first frame
    last = v["last"]
    assert last["skill"] == "made_up" and "await nh.search(n)" in last["code"] and not last["codeHidden"]
    assert last["type"] == "create_skill" and last["reasoning"] == "try a new skill"
    assert f"T:{frames[len(frames) - 1].stat('turn')} " in last["status"]
    lines = last["text"].split("\n")
    assert lines[-2:] == frames[len(frames) - 1].tty_lines()[-2:]  # the text view rebuilt from the deltas
    assert v["home"]["slider"] == 0 and v["home"]["drawn"] > v["last"]["drawn"]
    assert len(v["steps"]) == STEPS + 3 and v["steps"][0].startswith("#0")
    assert v["lastStep"]["type"] == "lookup" and v["lastStep"]["reasoning"] == "read about jackals"


def _browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium/Chrome installed")
def test_the_viewer_renders_in_a_headless_browser(run, frames, tmp_path):
    render_html(frames, tmp_path / "run.html", run=run)
    dom = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                          "--dump-dom", (tmp_path / "run.html").as_uri()], capture_output=True, text=True,
                         timeout=120)
    assert 'data-ready="1"' in dom.stdout, dom.stderr[-2000:]
    shot = tmp_path / "shot.png"
    subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                    "--window-size=1600,900", f"--screenshot={shot}", (tmp_path / "run.html").as_uri()],
                   capture_output=True, timeout=120)
    with Image.open(shot) as im:
        assert len(np.unique(np.asarray(im.convert("RGB")).reshape(-1, 3), axis=0)) > 20

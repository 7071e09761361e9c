"""The end of a real game looks like the end of a game: NetHack's tombstone and farewell in the recording,
`replay --final`, the HTML viewer, the API's screen and the live view — never NLE's "Cannot open file" error."""

from __future__ import annotations

import asyncio
import base64
import gzip
import io
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from hackwright.agent.loop import Agent, EpisodeConfig, EpisodeSummary
from hackwright.cli import app
from hackwright.cli.play import _Progress
from hackwright.env.make import Game, GameConfig
from hackwright.replay.frames import KEY_END, FrameRecorder, load_frames
from hackwright.replay.html import render_html
from hackwright.replay.run import resolve_run
from tests.conftest import room_des

HARNESS = Path(__file__).with_name("viewer_harness.js")
MINIHACK = "MiniHack-Navigation-Custom-v0"
# Two awake minotaurs beside a level-1 wizard: death within two turns, the same every time.
DEADLY = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"], hero=(1, 1),
                  extra="MONSTER:('H',\"minotaur\"),(2,1),hostile\nMONSTER:('H',\"minotaur\"),(2,2),hostile")
FILE_ERROR = "Cannot open file"
runner = CliRunner()


def _text(lines) -> str:
    return "\n".join(line.rstrip() for line in lines)


def _assert_tombstone(text: str) -> None:
    for part in ("REST", "PEACE", "killed by a", "minotaur", "Goodbye Agent the Wizard...",
                 "You died in The Dungeons of Doom on dungeon level 1"):
        assert part in text, f"{part!r} not on the screen:\n{text}"
    assert re.search(r"^\s*/\s+REST\s+\\", text, re.M), text  # the stone's drawing, not only a message
    assert FILE_ERROR not in text


def _deadly_game(**kw) -> Game:
    game = Game(GameConfig(env_id=MINIHACK, des_file=DEADLY, seed=0, role="wizard", extra={"pet": False}, **kw))
    game.reset()
    return game


def _wait_until_the_end(game: Game) -> int:
    """Search in place until the minotaurs have killed the hero; Enter at every --More--. Returns the keys sent."""
    keys = 0
    while not game.done:
        internal = game.obs["internal"]
        game.step_key(13 if internal[3] else ord("n") if internal[1] else ord("s"))
        keys += 1
        assert keys < 200, "the hero should have died long ago"
    return keys


@dataclass
class Death:
    db: Path
    record_dir: Path
    summary: EpisodeSummary
    api_screen: str  # NetHackAPI.get_screen() once the episode is over
    live: str  # what the live view of `hackwright play` wrote to its terminal


@pytest.fixture(scope="module")
def death(tmp_path_factory) -> Death:
    """The real agent loop (autopilot) on the deadly level, recorded, with the live view on a terminal."""
    root = tmp_path_factory.mktemp("game-end")
    cfg = EpisodeConfig(env_id=MINIHACK, des_file=DEADLY, seed=0, role="wizard", max_steps=20,
                        db_path=str(root / "memory.db"), library_path=str(root / "skills"),
                        record_dir=str(root / "run"))
    out = io.StringIO()
    show = _Progress(Console(file=out, force_terminal=True, width=100, height=40))
    agent = Agent(cfg, on_step=show.step)
    summary = asyncio.run(agent.run())
    show.stop()
    screen = asyncio.run(agent.api.get_screen())
    return Death(db=root / "memory.db", record_dir=root / "run", summary=summary, api_screen=screen,
                 live=out.getvalue())


def test_a_wizard_beside_two_minotaurs_dies_and_the_episode_ends_by_death(death):
    assert death.summary.end_reason == "death"
    assert death.summary.death_reason == "killed by a minotaur"


def test_the_recording_ends_on_the_tombstone_after_nethacks_own_score_list(death):
    log = load_frames(death.record_dir / "frames.bin")
    last = log[len(log) - 1]
    assert last.key == KEY_END and last.over
    _assert_tombstone(_text(last.tty_lines()))
    before = _text(log[len(log) - 2].tty_lines())  # NLE's final observation, kept as NetHack drew it
    assert re.search(r"No\s+Points\s+Name", before) and "Killed by a minotaur" in before
    assert not any(FILE_ERROR in _text(fr.tty_lines()) for fr in log)
    first_over = int(log.over.argmax())
    assert log.messages[first_over] == "You die..." and not log.over[:first_over].any()


def test_replay_final_prints_the_tombstone_and_the_last_messages(death):
    r = runner.invoke(app, ["replay", str(death.summary.episode_id), "--final", "--db", str(death.db)])
    assert r.exit_code == 0, r.output
    _assert_tombstone(r.stdout)
    assert "the end of the game" in r.stdout
    assert re.search(r"^last messages: .*The minotaur hits! · You die\.\.\.$", r.stdout, re.M), r.stdout
    assert not re.search(r"No\s+Points\s+Name", r.stdout)


def test_replay_final_from_the_ttyrec_shows_the_tombstone_not_the_blank_screen_after_it(death):
    r = runner.invoke(app, ["replay", str(death.record_dir), "--final", "--source", "ttyrec",
                            "--db", str(death.db)])
    assert r.exit_code == 0, r.output
    _assert_tombstone(r.stdout)


def test_the_html_viewer_ends_on_the_tombstone_and_shows_it_as_text(death, tmp_path):
    run = resolve_run(str(death.record_dir), death.db)
    frames = run.load_frames("frames")
    render_html(frames, tmp_path / "end.html", run=run)
    page = (tmp_path / "end.html").read_text()
    blob = re.search(r'id="hw-frames" data-encoding="gzip-base64">(.*?)</script>', page, re.S).group(1)
    data = json.loads(gzip.decompress(base64.b64decode(blob)))
    rows = list(data["t0"])
    for delta in data["td"][1:]:  # the viewer's own rebuilding: changed rows per frame
        for r in range(0, len(delta), 2):
            rows[delta[r]] = delta[r + 1]
    _assert_tombstone(_text(rows))
    assert data["key"][-1] == KEY_END and data["n"] - 1 in data["over"]
    assert min(data["over"]) == data["msg"].index("You die...")

    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed (runs the viewer's script)")
    out = subprocess.run(["node", str(HARNESS), str(tmp_path / "end.html")], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    v = json.loads(out.stdout)
    assert v["last"]["textShown"] and not v["first"]["textShown"]  # the map as tiles until the game is over
    _assert_tombstone(v["last"]["text"])
    assert "game over" in v["last"]["where"] and "key end" in v["last"]["where"]


def test_the_api_screen_and_the_live_view_show_the_tombstone_after_death(death):
    _assert_tombstone(death.api_screen)
    assert "PEACE" in death.live and "Goodbye Agent the Wizard..." in death.live
    assert "game over" in death.live and FILE_ERROR not in death.live


def test_a_recorded_game_ends_on_nethacks_score_list_and_plays_exactly_as_an_unrecorded_one(tmp_path):
    recorded = _deadly_game(ttyrec_dir=str(tmp_path / "rec"))
    plain = _deadly_game()
    try:
        assert _wait_until_the_end(recorded) == _wait_until_the_end(plain)
        assert (recorded.end_screen.chars == plain.end_screen.chars).all()
        _assert_tombstone(_text(recorded.end_screen.lines()))
        final = _text(bytes(r).decode("latin-1") for r in recorded.obs["tty_chars"])
        assert "Killed by a minotaur" in final and FILE_ERROR not in final
        logfile = next((tmp_path / "rec").glob("nle.*.logfile"))
        assert "killed by a minotaur" in logfile.read_text()  # NetHack wrote its log where NLE told it to
    finally:
        recorded.close()
        plain.close()


def test_an_older_recording_that_ends_on_nles_file_error_still_shows_its_tombstone(tmp_path):
    game = _deadly_game(ttyrec_dir=str(tmp_path / "old"))
    try:
        for name in ("logfile", "record"):  # the folder as NLE leaves it on its own
            next((tmp_path / "old").glob(f"nle.*.{name}")).unlink()
        rec = FrameRecorder(game, tmp_path / "old" / "frames.bin")
        game.on_frame.clear()  # the recorder as it was: one frame per key, no end-of-game frame
        game.on_frame.append(lambda g, key: rec.record(key))
        _wait_until_the_end(game)
        rec.close()
    finally:
        game.close()
    log = load_frames(tmp_path / "old" / "frames.bin")
    assert FILE_ERROR in _text(log[len(log) - 1].tty_lines())  # the failure this recording kept
    r = runner.invoke(app, ["replay", str(tmp_path / "old"), "--final", "--db", str(tmp_path / "none.db")])
    assert r.exit_code == 0, r.output
    _assert_tombstone(r.stdout)


def test_a_hero_who_quits_ends_on_nethacks_farewell_without_a_tombstone(tmp_path):
    game = Game(GameConfig(seed=3, role="valkyrie", ttyrec_dir=str(tmp_path / "quit")))
    try:
        game.reset()
        for ch in "#quit\r":
            game.step_key(ord(ch))
        while not game.done:
            internal = game.obs["internal"]
            game.step_key(13 if internal[3] else ord("y") if internal[1] else 27)
        end = _text(game.final_screen().lines())
        assert "You quit in The Dungeons of Doom on dungeon level 1" in end and "Agent the Valkyrie..." in end
        assert "REST" not in end and FILE_ERROR not in end
    finally:
        game.close()

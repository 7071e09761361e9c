"""The frame recorder on real games: every screen kept exactly, compactly, and readable after a crash."""

from __future__ import annotations

import random

import msgpack
import numpy as np
import pytest

from hackwright.replay.frames import (KEY_RESET, KEY_SNAPSHOT, FrameFileError, FrameRecorder, iter_frames,
                                      load_frames, read_header)
from tests.conftest import room_des

ROOM = room_des(["-------", "|.....|", "|.....|", "|.....|", "-------"], hero=(1, 1))


def test_every_key_gives_one_frame_identical_to_the_observation(make_api, tmp_path):
    api = make_api(des=ROOM)
    game = api.game
    seen: list[dict] = []
    rec = FrameRecorder(game, tmp_path / "frames.bin", meta={"episode_id": 42})
    # A second hook copies what the game showed, to compare with what the file gives back.
    game.on_frame.append(lambda g, k: seen.append({n: np.array(g.obs[n]) for n in
                                                   ("glyphs", "tty_chars", "tty_colors", "blstats")}))
    keys = "llljjhhkk" + "s" * 5
    for i, k in enumerate(keys):
        if i % 3 == 0:
            rec.step = 1 + i // 3
        game.step_key(ord(k))
    rec.close()
    game.step_key(ord("s"))  # after close: detached, nothing more recorded

    log = load_frames(tmp_path / "frames.bin")
    assert len(log) == len(keys) + 1 and log.total == len(keys) + 1 and not log.truncated
    assert log.meta == {"episode_id": 42}
    assert log.keys[0] == KEY_SNAPSHOT and [chr(k) for k in log.keys[1:]] == list(keys)
    assert log.steps.tolist() == [0] + [1 + i // 3 for i in range(len(keys))]
    for i, obs in enumerate(seen[: len(keys)], start=1):
        assert np.array_equal(log.glyphs[i], obs["glyphs"])
        assert np.array_equal(log.tty_chars[i], obs["tty_chars"])
        assert np.array_equal(log.tty_colors[i], obs["tty_colors"])
        assert np.array_equal(log.blstats[i], obs["blstats"])
    last = log[len(log) - 1]
    assert last.stat("turn") >= 10 and last.stat("hp") > 0 and last.stat("depth") == 1
    assert "@" in "\n".join(last.tty_lines())
    assert read_header(tmp_path / "frames.bin")["meta"]["episode_id"] == 42


def test_reset_is_a_frame_and_thinning_keeps_the_last_frame(make_api, tmp_path):
    api = make_api(des=ROOM)
    with FrameRecorder(api.game, tmp_path / "f.bin", snapshot=False) as rec:
        api.game.reset()
        for _ in range(10):
            api.game.step_key(ord("s"))
    assert rec.frames == 11
    log = load_frames(tmp_path / "f.bin", every=4)
    assert log.keys[0] == KEY_RESET
    assert log.indices.tolist() == [0, 4, 8, 10]


def test_a_thousand_frames_of_a_real_game_take_little_space(make_api, tmp_path):
    api = make_api(seed=0, role="valkyrie")
    game = api.game
    rnd = random.Random(1)
    rec = FrameRecorder(game, tmp_path / "frames.bin", keyframe_every=256)
    n = 0
    while rec.frames < 1000 and not game.done:
        rec.step = n // 25
        game.step_key(ord(rnd.choice("hjklyubn" * 4 + "s.")) if rnd.random() > 0.03 else 27)
        n += 1
    rec.close()
    size = (tmp_path / "frames.bin").stat().st_size
    assert rec.frames >= 900
    assert size < 300_000, f"{size} bytes for {rec.frames} frames"
    log = load_frames(tmp_path / "frames.bin")
    assert len(log) == rec.frames and np.array_equal(log.glyphs[-1], game.obs["glyphs"])


def test_a_file_cut_in_the_middle_of_a_frame_reads_up_to_the_cut(make_api, tmp_path):
    api = make_api(des=ROOM)
    rec = FrameRecorder(api.game, tmp_path / "frames.bin")
    for _ in range(20):
        api.game.step_key(ord("s"))
    rec.flush()  # a crash: no close(); the file is cut inside its last record
    data = (tmp_path / "frames.bin").read_bytes()
    (tmp_path / "cut.bin").write_bytes(data[:-7])
    log = load_frames(tmp_path / "cut.bin")
    assert log.truncated and len(log) == 20  # 21 frames written, the last one torn
    assert len(list(iter_frames(tmp_path / "cut.bin"))) == 20
    rec.close()


def test_other_files_are_refused(tmp_path):
    (tmp_path / "x.bin").write_bytes(msgpack.packb({"format": "something else"}))
    with pytest.raises(FrameFileError):
        load_frames(tmp_path / "x.bin")
    (tmp_path / "empty.bin").write_bytes(b"")
    with pytest.raises(FrameFileError):
        load_frames(tmp_path / "empty.bin")

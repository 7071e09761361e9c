"""The benchmarks, run small on real games, real sandbox workers and the real command line.

No timing is asserted: what must hold is that baseline and candidate do the same
work (the same keys, ending on the same screens and turns) and that every row is a
median with its spread and says what it measures.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hackwright.bench import BenchMismatchError, run_api_bench
from hackwright.bench.api import (GameKeys, KeyRecorder, check_same_games, directions, play_api, replay_bare,
                                  replay_env_step)
from hackwright.cli import app
from hackwright.sandbox.bench import run_sandbox_bench

API_ROWS = ["bare NLE stepping, same keys", "raw NLE env.step(), same keys", "NetHackAPI.move() actions",
            "get_current_level() calls (uncached)", "API ÷ bare stepping", "API ÷ env.step()"]


def _ordered(spread) -> bool:
    return spread.low <= spread.q1 <= spread.median <= spread.q3 <= spread.high


def test_the_api_benchmark_on_a_real_game_gives_every_row_a_median_a_spread_and_a_description():
    report = run_api_bench(steps=40, level_calls=3, seed=1, repeats=3)

    assert [m.name for m in report.measures] == API_ROWS
    for m in report.measures:
        assert m.description.strip(), m.name
        for spread in (m.cpu, m.wall):
            assert len(spread.values) == 3, m.name
            assert _ordered(spread), (m.name, spread)
    assert report.facts["repeats"] == 3 and report.facts["steps"] == 40
    assert report.facts["games"] == 1 and report.facts["keys"] >= 40
    assert report.facts["steadier_clock"] in ("cpu", "wall")
    assert any(note.startswith("Machine load: load average") for note in report.notes)


def test_each_ratio_is_taken_within_a_repetition_not_between_medians():
    report = run_api_bench(steps=30, level_calls=2, seed=1, repeats=3)
    rows = {m.name: m for m in report.measures}
    keys, steps = report.facts["keys"], report.facts["steps"]
    for clock in ("cpu", "wall"):
        bare = getattr(rows["bare NLE stepping, same keys"], clock).values
        gym = getattr(rows["raw NLE env.step(), same keys"], clock).values
        api = getattr(rows["NetHackAPI.move() actions"], clock).values
        # rate = work ÷ seconds, so seconds = work ÷ rate, repetition by repetition
        want_bare = [(keys / b) / (steps / a) for b, a in zip(bare, api)]
        want_gym = [(keys / g) / (steps / a) for g, a in zip(gym, api)]
        assert getattr(rows["API ÷ bare stepping"], clock).values == pytest.approx(want_bare)
        assert getattr(rows["API ÷ env.step()"], clock).values == pytest.approx(want_gym)


async def test_bare_stepping_env_step_and_the_api_play_the_same_keys_to_the_same_screen_and_turn():
    moves = directions(3, 60)
    first, second = KeyRecorder(), KeyRecorder()
    api_endings = await play_api(3, moves, recorder=first)
    assert await play_api(3, moves, recorder=second) == api_endings
    assert second.games == first.games  # the timed API runs send exactly the recorded keys

    (game,) = first.games
    assert len(game.moves) >= 60 and game.opening  # reset's own keys are kept apart, untimed
    (end,) = api_endings
    assert not end.dead and end.turn > 1 and "Dlvl:1" in end.screen

    assert replay_bare(3, first.games) == api_endings
    assert replay_env_step(3, first.games) == api_endings


async def test_after_a_death_every_replay_starts_the_same_seed_again_and_still_matches():
    moves = directions(0, 1200)  # seed 0's hero dies after about 1,160 random moves
    recorder = KeyRecorder()
    api_endings = await play_api(0, moves, recorder=recorder)

    assert [e.dead for e in api_endings] == [True, False]
    assert len(recorder.games) == 2 and all(g.opening for g in recorder.games)
    assert replay_bare(0, recorder.games) == api_endings
    gym_endings = replay_env_step(0, recorder.games)
    assert gym_endings[0].dead  # env.step steps through the death screens itself
    assert gym_endings[1] == api_endings[1]
    check_same_games("env.step", api_endings, gym_endings, screens_at_death=False)


async def test_a_replay_of_other_keys_is_refused_as_a_comparison_of_different_games():
    recorder = KeyRecorder()
    api_endings = await play_api(3, directions(3, 40), recorder=recorder)
    (game,) = recorder.games
    # "s" (search) instead of the moves: the same number of keys, another game
    other = [GameKeys(game.opening, [ord("s")] * len(game.moves))]

    with pytest.raises(BenchMismatchError) as err:
        check_same_games("bare stepping", api_endings, replay_bare(3, other), screens_at_death=True)
    assert str(err.value).startswith("bare stepping ended game 1 on turn ")
    assert str(err.value).endswith("the key replay is not faithful")


def test_bench_api_json_holds_every_repetition_and_the_load():
    r = CliRunner().invoke(app, ["bench", "api", "--steps", "30", "--level-calls", "2", "--repeats", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert [m["name"] for m in data["measures"]] == API_ROWS
    for m in data["measures"]:
        assert len(m["cpu"]["values"]) == 2 and len(m["wall"]["values"]) == 2
        assert set(m["wall"]) == {"median", "q1", "q3", "low", "high", "values"}
    assert data["facts"]["load"]["cpus"] >= 1


def test_bench_api_table_says_what_each_row_measures_and_warns_about_load():
    r = CliRunner().invoke(app, ["bench", "api", "--steps", "20", "--level-calls", "2", "--repeats", "2"])
    assert r.exit_code == 0, r.output
    assert "CPU min – max" in r.output and "wall median" in r.output
    assert "What each row measures:" in r.output
    assert "API ÷ env.step(): per repetition: env.step seconds ÷ API seconds" in r.output
    assert "Machine load: load average" in r.output


def test_bench_api_with_zero_repeats_is_refused_with_the_valid_range():
    r = CliRunner().invoke(app, ["bench", "api", "--repeats", "0"])
    assert r.exit_code == 2
    assert "Invalid value for '--repeats': Input should be greater than or equal to 1" in r.output


def test_the_sandbox_benchmark_repeats_each_measure_on_wall_time_with_the_same_game_in_both_modes():
    report = run_sandbox_bench(seed=2, calls=40, starts=2, budget=15, repeats=2)

    assert [m.name for m in report.measures] == [
        "proxy round trip, median", "proxy round trip, 99th percentile", "warm start: trivial skill invocation",
        "cold worker fork + isolation", "exploration skill in-process", "exploration skill sandboxed",
        "sandboxed ÷ in-process"]
    for m in report.measures:
        assert m.cpu is None and len(m.wall.values) == 2 and _ordered(m.wall), m.name
        assert m.description.strip(), m.name
    assert report.facts["same_game_in_both_modes"] is True
    assert report.facts["exploration_actions"] == 15

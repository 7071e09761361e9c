"""`hackwright bench maps`: the remembered map's speed, moved here from the test suite.

No timing is asserted: what must hold is that every search is timed on the route its
drawing holds, and that every row is a median with its spread on both clocks and says
what it measures and its target.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hackwright.bench import BenchMismatchError
from hackwright.bench.maps import check_paths, levels, run_maps_bench
from hackwright.cli import app

MAPS_ROWS = ["find_path, open floor corner to corner", "find_path, serpentine (781 steps)",
             "find_path, unreachable (floods the level)", "distance_map, open floor",
             "LevelMemory.update, a monster moving", "to_dungeon_level"]


def test_the_maps_benchmark_gives_every_row_both_clocks_a_spread_and_its_target():
    report = run_maps_bench(calls=2, updates=3, repeats=3)

    assert [m.name for m in report.measures] == MAPS_ROWS
    for m in report.measures:
        assert "target under" in m.description, m.name
        for spread in (m.cpu, m.wall):
            assert len(spread.values) == 3, m.name
            assert spread.low <= spread.q1 <= spread.median <= spread.q3 <= spread.high, (m.name, spread)
    assert [m.unit for m in report.measures] == ["ms", "ms", "ms", "ms", "µs", "ms"]
    assert (report.facts["calls"], report.facts["updates"], report.facts["repeats"]) == (2, 3, 3)
    assert report.notes[0].startswith(("Every target is met", "Targets missed on the CPU median: "))
    assert report.notes[1].startswith("Machine load: load average")


def test_a_search_that_finds_another_route_than_its_drawing_stops_the_benchmark():
    drawn = levels()
    drawn["open"] = drawn["pocket"]  # the open floor's search runs on the walled-off map
    with pytest.raises(BenchMismatchError, match=r"^the open floor level gave no path where the drawing holds a "
                                                 r"path of 78 steps: the maps module changed"):
        check_paths(drawn)
    drawn = levels()
    drawn["pocket"] = drawn["open"]
    with pytest.raises(BenchMismatchError, match=r"^the walled-off corner level gave a path of 78 steps where the "
                                                 r"drawing holds no path"):
        check_paths(drawn)


def test_a_size_below_one_is_refused_with_what_to_fix():
    with pytest.raises(ValueError, match="calls, updates and repeats must each be at least 1"):
        run_maps_bench(calls=0)


def test_bench_maps_on_the_command_line_prints_every_row_as_json():
    result = CliRunner().invoke(app, ["bench", "maps", "--calls", "2", "--updates", "2", "--repeats", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [m["name"] for m in report["measures"]] == MAPS_ROWS
    assert all(len(m["cpu"]["values"]) == 2 and len(m["wall"]["values"]) == 2 for m in report["measures"])
    assert report["facts"]["targets"]["to_dungeon_level"] == 100.0


def test_bench_maps_refuses_zero_calls_with_a_one_line_error():
    result = CliRunner().invoke(app, ["bench", "maps", "--calls", "0"])
    assert result.exit_code == 2
    assert "Invalid value for '--calls'" in result.output and "Traceback" not in result.output

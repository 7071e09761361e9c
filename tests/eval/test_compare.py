"""Paired comparison of agents on real evaluation folders: the numbers against a by-hand
computation from episodes.jsonl, wins/ties/losses, per-role means, seed and cap mismatches,
reproducible bootstrap intervals, and rows that link to replay viewers that exist."""

from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from statistics import mean

import pytest
from typer.testing import CliRunner

from hackwright.cli import app
from hackwright.eval.compare import bootstrap_ci, compare_folders
from hackwright.eval.metrics import EpisodeRecord, compare
from hackwright.eval.report import format_summary_table

cli = CliRunner()


def _eval(out: Path, *args: str) -> None:
    r = cli.invoke(app, ["eval", *args, "--out", str(out)])
    assert r.exit_code == 0, r.output


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Real episodes: the autopilot on seeds 0-2 (with the random agent beside it in the same
    folder), the handcrafted agent on seeds 1-3, and the handcrafted agent again on seeds 1-2
    under a lower turn cap."""
    root = tmp_path_factory.mktemp("compare")
    auto, hand, short = root / "auto", root / "hand", root / "short"
    _eval(auto, "--agent", "autopilot", "--seeds", "0-2", "--max-turns", "300")
    _eval(auto, "--agent", "random", "--seeds", "0-2", "--max-steps", "100")
    _eval(hand, "--agent", "handcrafted", "--seeds", "1-3", "--max-turns", "300")
    _eval(short, "--agent", "handcrafted", "--seeds", "1-2", "--max-turns", "200", "--no-report")
    return root, auto, hand, short


def _rows(folder: Path, agent: str) -> dict[int, dict]:
    rows = [json.loads(ln) for ln in (folder / "episodes.jsonl").read_text().splitlines() if ln.strip()]
    return {r["seed"]: r for r in rows if r["agent"] == agent}


def _values(r: dict) -> tuple[float, float, float]:
    return 100 * r["progression"], float(r["score"]), float(r["max_depth"])


def _by_hand_outcome(a: dict, b: dict) -> str:
    if a["progression"] != b["progression"]:
        return "win" if a["progression"] > b["progression"] else "loss"
    if a["score"] != b["score"]:
        return "win" if a["score"] > b["score"] else "loss"
    return "tie"


def _compare_json(*args: str) -> dict:
    r = cli.invoke(app, ["compare", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _pair(data: dict, a: str, b: str) -> dict:
    return next(p for p in data["pairs"] if (p["agent_a"], p["agent_b"]) == (a, b))


def test_eval_records_the_caps_each_episode_ran_under(folders):
    _, auto, hand, short = folders
    assert {(r["max_turns"], r["max_steps"]) for r in _rows(auto, "autopilot").values()} == {(300, 2000)}
    assert {(r["max_turns"], r["max_steps"]) for r in _rows(auto, "random").values()} == {(None, 100)}
    assert {(r["max_turns"], r["max_steps"]) for r in _rows(short, "handcrafted").values()} == {(200, 2000)}


def test_paired_differences_match_a_by_hand_computation_from_episodes_jsonl(folders):
    _, auto, hand, _ = folders
    a, b = _rows(auto, "autopilot"), _rows(hand, "handcrafted")
    common = sorted(set(a) & set(b))
    assert common == [1, 2]
    pair = _pair(_compare_json(str(auto), str(hand)), "autopilot", "handcrafted")
    assert pair["seeds"] == common
    for k, m in enumerate(pair["metrics"]):
        assert m["n"] == 2
        assert m["mean_a"] == pytest.approx(mean(_values(a[s])[k] for s in common))
        assert m["mean_b"] == pytest.approx(mean(_values(b[s])[k] for s in common))
        assert m["mean_diff"] == pytest.approx(mean(_values(a[s])[k] - _values(b[s])[k] for s in common))
    assert [m["metric"] for m in pair["metrics"]] == ["progression_pct", "score", "max_depth"]
    for row in pair["episodes"]:
        s = row["seed"]
        assert row["diffs"] == pytest.approx([x - y for x, y in zip(_values(a[s]), _values(b[s]))])
        assert row["a"]["episode_id"] == a[s]["episode_id"] and row["b"]["episode_id"] == b[s]["episode_id"]


def test_wins_ties_and_losses_go_by_progression_then_score(folders):
    _, auto, hand, _ = folders
    data = _compare_json(str(auto), str(hand))
    for name_a, fa, name_b, fb in (("autopilot", auto, "handcrafted", hand), ("random", auto, "handcrafted", hand),
                                   ("autopilot", auto, "random", auto)):
        a, b = _rows(fa, name_a), _rows(fb, name_b)
        results = [_by_hand_outcome(a[s], b[s]) for s in sorted(set(a) & set(b))]
        pair = _pair(data, name_a, name_b)
        assert pair["outcomes"] == {"wins": results.count("win"), "ties": results.count("tie"),
                                    "losses": results.count("loss")}
        assert [e["result"] for e in pair["episodes"]] == results
    # The autopilot outscores the random agent on every seed it shares with it.
    assert _pair(data, "autopilot", "random")["outcomes"] == {"wins": 3, "ties": 0, "losses": 0}


def test_agents_on_different_seeds_are_compared_on_their_common_seeds_with_a_warning(folders):
    _, auto, hand, _ = folders
    r = cli.invoke(app, ["compare", str(auto), str(hand)])
    assert r.exit_code == 0, r.output
    assert ("warning: autopilot and handcrafted ran on different seeds: comparing the 2 seed(s) both played (1-2); "
            "dropped 1 seed(s) only autopilot played (0) and 1 seed(s) only handcrafted played (3)") in r.stdout
    pair = _pair(_compare_json(str(auto), str(hand)), "autopilot", "handcrafted")
    assert (pair["only_a"], pair["only_b"]) == ([0], [3])
    # The two agents of one folder ran on the same seeds: no such warning for them.
    assert "autopilot and random ran on different seeds" not in r.stdout


def test_the_per_role_table_gives_each_agents_means_and_the_paired_difference(folders):
    _, auto, hand, _ = folders
    a, b = _rows(auto, "autopilot"), _rows(hand, "handcrafted")
    pair = _pair(_compare_json(str(auto), str(hand)), "autopilot", "handcrafted")
    roles: dict[str, list[int]] = {}
    for s in sorted(set(a) & set(b)):
        assert a[s]["role"] == b[s]["role"]  # same seed, same hero
        roles.setdefault(a[s]["role"], []).append(s)
    assert [r["role"] for r in pair["roles"]] == sorted(roles)
    for row in pair["roles"]:
        seeds = roles[row["role"]]
        assert row["n"] == len(seeds)
        for k, m in enumerate(row["metrics"]):
            assert m["mean_a"] == pytest.approx(mean(_values(a[s])[k] for s in seeds))
            assert m["mean_b"] == pytest.approx(mean(_values(b[s])[k] for s in seeds))
            assert m["mean_diff"] == pytest.approx(m["mean_a"] - m["mean_b"])
    r = cli.invoke(app, ["compare", str(auto), str(hand)])
    text = r.stdout.split("Per hero role", 1)[1]
    for role, seeds in roles.items():
        score_a = mean(a[s]["score"] for s in seeds)
        score_b = mean(b[s]["score"] for s in seeds)
        assert re.search(rf"autopilot − handcrafted\s+{role}\s+{len(seeds)}\s+.*{score_a:.1f} / {score_b:.1f} / ",
                         text), text


def test_agents_under_different_caps_are_flagged_and_same_named_agents_keep_their_folders(folders):
    _, _, hand, short = folders
    r = cli.invoke(app, ["compare", str(hand), str(short)])
    assert r.exit_code == 0, r.output
    a, b = f"handcrafted ({hand})", f"handcrafted ({short})"
    assert (f"warning: {a} and {b} ran under different caps ({a}: max turns 300, max steps 2000; "
            f"{b}: max turns 200, max steps 2000): their differences mix agent and budget") in r.stdout
    assert _pair(_compare_json(str(hand), str(short)), a, b)["seeds"] == [1, 2]


def test_episodes_written_without_caps_get_a_note_that_caps_cannot_be_checked(folders, tmp_path):
    _, auto, hand, _ = folders
    old = tmp_path / "old"
    old.mkdir()
    rows = [json.loads(ln) for ln in (hand / "episodes.jsonl").read_text().splitlines()]
    old_rows = [{k: v for k, v in r.items() if k not in ("max_turns", "max_steps")} for r in rows]
    (old / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old_rows))
    r = cli.invoke(app, ["compare", str(auto), str(old)])
    assert r.exit_code == 0, r.output
    assert ("warning: handcrafted: caps not recorded for 3 episode(s) (written before eval recorded "
            "--max-turns/--max-steps): cannot check that the agents ran under the same caps") in r.stdout
    assert "autopilot: caps not recorded" not in r.stdout
    # Unknown caps are not called different; the two agents of one folder really differ.
    assert "and handcrafted ran under different caps" not in r.stdout
    assert "autopilot and random ran under different caps" in r.stdout


def test_an_episode_that_ended_in_a_harness_error_is_left_out_with_a_warning(folders, tmp_path):
    _, auto, hand, _ = folders
    broken = tmp_path / "broken"
    broken.mkdir()
    rows = [json.loads(ln) for ln in (hand / "episodes.jsonl").read_text().splitlines()]
    for r in rows:
        if r["seed"] == 2:
            r["end_reason"] = "error: RuntimeError: boom"
    (broken / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    data = _compare_json(str(auto), str(broken))
    pair = _pair(data, "autopilot", "handcrafted")
    assert pair["seeds"] == [1] and pair["only_a"] == [0, 2]
    assert ("handcrafted: seeds 2 did not play to the end (harness error, model error or interruption) and are "
            "left out: run the same hackwright eval again to replay them") in data["warnings"]


def test_bootstrap_interval_holds_the_mean_difference_and_is_the_same_every_time(folders):
    _, auto, hand, _ = folders
    cmp1, _ = compare_folders([auto, hand])
    cmp2, _ = compare_folders([auto, hand])
    assert cmp1.to_json() == cmp2.to_json()
    for pair in cmp1.pairs:
        for m in pair.metrics:
            assert m.ci_low <= m.mean_diff <= m.ci_high, (pair.agent_a, pair.agent_b, m)
    diffs = [e.diffs[1] for e in next(p for p in cmp1.pairs if p.agent_b == "random").episodes]
    assert len(diffs) == 3
    first = bootstrap_ci(diffs, resamples=10_000, seed=0)
    assert bootstrap_ci(diffs, resamples=10_000, seed=0) == first
    assert min(diffs) <= first[0] < mean(diffs) < first[1] <= max(diffs)
    # Identical differences leave nothing to resample: the interval is that value.
    assert bootstrap_ci([2.5, 2.5, 2.5]) == (2.5, 2.5)


def test_bootstrap_interval_narrows_with_more_seeds_of_the_same_spread():
    few = bootstrap_ci([0.0, 10.0] * 3, seed=1)
    many = bootstrap_ci([0.0, 10.0] * 50, seed=1)
    assert few[0] < many[0] < 5.0 < many[1] < few[1]


class _Links(HTMLParser):
    """The href of every link, per table id."""

    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, list[str]] = {}
        self._table = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("id") or ""
        elif tag == "a" and self._table:
            self.links.setdefault(self._table, []).append(a["href"])

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = ""


def _links(page: Path) -> dict[str, list[str]]:
    parser = _Links()
    parser.feed(page.read_text())
    return parser.links


def test_compare_html_rows_link_to_replay_viewers_that_exist(folders):
    root, auto, hand, _ = folders
    page = root / "pages" / "compare.html"
    md = root / "pages" / "compare.md"
    r = cli.invoke(app, ["compare", str(auto), str(hand), "--html", str(page), "--markdown", str(md)])
    assert r.exit_code == 0, r.output
    links = _links(page)
    # autopilot−random: 3 seeds, autopilot−handcrafted and random−handcrafted: 2 each; two links a row
    assert [len(links[f"seeds-{i}"]) for i in range(3)] == [6, 4, 4]
    for href in {h for hs in links.values() for h in hs}:
        viewer = (page.parent / href).resolve()
        assert viewer.is_file() and viewer.name == "replay.html", href
        seed = re.search(r"-seed(\d+)/", href).group(1)
        assert f"seed {seed}" in viewer.read_text()[:4000]  # the viewer's title names its episode
    assert "../hand/episodes/handcrafted-seed3/replay.html" not in links["seeds-1"]  # seed 3 was dropped
    md_text = md.read_text()
    assert "](../auto/episodes/autopilot-seed1/replay.html)" in md_text
    assert "](../hand/episodes/handcrafted-seed2/replay.html)" in md_text


def test_the_eval_report_of_a_folder_with_two_agents_has_the_paired_comparison(folders):
    _, auto, _, _ = folders
    html = (auto / "report.html").read_text()
    for table in ("paired", "wins", "roles", "seeds-0", "episodes"):
        assert f'<table id="{table}">' in html, table
    links = _links(auto / "report.html")
    assert len(links["episodes"]) == 6 and len(links["seeds-0"]) == 6
    for href in links["episodes"]:
        assert not href.startswith("/") and (auto / href).is_file(), href
    md = (auto / "report.md").read_text()
    assert "## Paired comparison" in md and "| autopilot − random | score | 3 |" in md


def test_the_summary_table_shows_the_fallback_decisions_of_a_model_run():
    model = [EpisodeRecord.from_dict({"agent": "openai:qwen", "seed": s, "decisions": 40, "fallback_steps": f,
                                      "loop_break_steps": lb, "turns": 500})
             for s, f, lb in ((0, 10, 2), (1, 2, 0))]
    older = [EpisodeRecord.from_dict({"agent": "autopilot", "seed": 0, "decisions": 30, "fallback_steps": 0,
                                      "turns": 500})]  # written before loop breaks were counted
    assert older[0].loop_break_steps == 0 and model[0].loop_break_steps == 2
    text = format_summary_table(compare({"openai:qwen": model, "autopilot": older}))
    header, _, qwen, auto = text.splitlines()
    col = header.index("fallback decisions")
    end = col + len("fallback decisions")
    assert qwen[col:end].strip() == "12 (15.0%)"  # 12 of 80 decisions
    assert auto[col:end].strip() == "0 (0.0%)"
    assert header.index("calls/1kT") < col < header.index("errors")


def test_one_agent_alone_or_a_missing_folder_is_refused_with_a_one_line_error(folders, tmp_path):
    _, _, hand, _ = folders
    r = cli.invoke(app, ["compare", str(hand)])
    assert r.exit_code == 2
    assert r.stderr.strip() == ("error: a comparison needs two agents, got 1 (handcrafted): give a second evaluation "
                                "folder, or evaluate another agent into the same one "
                                "(hackwright eval --agent … --out DIR)")
    r = cli.invoke(app, ["compare", str(hand), str(tmp_path / "nowhere")])
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"error: {tmp_path / 'nowhere'}: no such folder (give folders written by "
                                "hackwright eval --out DIR)")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = cli.invoke(app, ["compare", str(hand), str(empty)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.stderr.strip() == (f"error: {empty}: no episodes.jsonl in it (evaluate into it first: "
                                f"hackwright eval --out {empty})")
    r = cli.invoke(app, ["compare", str(hand), str(hand)])
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: the same folder was given twice: give each evaluation folder once"


def test_a_moved_evaluation_folder_still_links_its_replays(folders, tmp_path):
    _, auto, hand, _ = folders
    moved = tmp_path / "moved"
    shutil.copytree(hand, moved, ignore=shutil.ignore_patterns("replay.html"))
    # episodes.jsonl still names the record folders where eval wrote them, now gone
    rows = [json.loads(ln) for ln in (moved / "episodes.jsonl").read_text().splitlines()]
    for r in rows:
        r["record_dir"] = str(tmp_path / "gone" / "episodes" / Path(r["record_dir"]).name)
    (moved / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = tmp_path / "page.html"
    r = cli.invoke(app, ["compare", str(auto), str(moved), "--html", str(page)])
    assert r.exit_code == 0, r.output
    a_viewer = os.path.relpath(auto / "episodes" / "autopilot-seed1" / "replay.html", tmp_path)
    pairs = _links(page)
    # autopilot − handcrafted, seeds 1 and 2: each row links both agents' episodes
    assert pairs["seeds-1"][:2] == [a_viewer, "moved/episodes/handcrafted-seed1/replay.html"]
    assert (moved / "episodes" / "handcrafted-seed1" / "replay.html").is_file()

"""The evaluation report: files, images, tables and published anchors."""

from __future__ import annotations

import base64
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hackwright.eval import anchors
from hackwright.eval.metrics import EpisodeRecord, compare, load_episodes
from hackwright.eval.report import PLOT_NAMES, format_summary_table, write_report

REAL = Path(__file__).parent / "data" / "autopilot_episodes.jsonl"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def random_episodes(n: int = 5) -> list[EpisodeRecord]:
    causes = ["killed by a jackal", "killed by a newt", "starved to death"]
    return [EpisodeRecord.from_dict({
        "agent": "random", "episode_id": 100 + i, "seed": i, "role": "Valkyrie", "score": 4 * i,
        "max_depth": 1, "max_xp_level": 1 + i % 2, "turns": 150 + 40 * i, "decisions": 150 + 40 * i,
        "end_reason": "death", "death_reason": causes[i % 3],
        "timeline": [[10 * k, 1, 1 + (i % 2) * (k > 5), 0] for k in range(1, 15)],
    }) for i in range(n)]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


class _Tables(HTMLParser):
    """Collects images and, per table id, the cells of each row."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.rows = self.tables.setdefault(dict(attrs).get("id") or f"table{len(self.tables)}", [])
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img":
            self.images.append(dict(attrs).get("src", ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    groups = {"autopilot": load_episodes(REAL), "random": random_episodes()}
    return write_report(groups, out, title="Test <evaluation>"), groups


def test_files_and_plots_exist(report):
    paths, _ = report
    assert paths.markdown.is_file() and paths.html.is_file()
    assert set(paths.plots) == set(PLOT_NAMES)
    for name, p in paths.plots.items():
        assert p.parent == paths.out_dir / "plots" and p.name == f"{name}.png"
        data = p.read_bytes()
        w, h = png_size(data)
        assert w >= 300 and h >= 200 and len(data) > 5_000, name


def test_pngs_decode_to_non_blank_images(report):
    from matplotlib.image import imread

    paths, _ = report
    for name, p in paths.plots.items():
        img = imread(p)
        assert img.ndim == 3 and img.shape[0] > 100
        assert img[..., :3].std() > 0.05, f"{name} looks blank"


def test_html_is_self_contained_with_tables(report):
    paths, groups = report
    text = paths.html.read_text()
    parser = _Tables()
    parser.feed(text)
    assert {"outcomes", "behaviour", "anchors", "endings", "deaths", "skills", "episodes"} <= set(parser.tables)
    assert len(parser.images) == len(PLOT_NAMES)
    for src in parser.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == PNG_MAGIC
    assert not re.search(r'src="(?!data:)', text)  # nothing to fetch: the page stands alone
    assert "Test &lt;evaluation&gt;" in text  # escaped
    assert [r[0] for r in parser.tables["outcomes"][1:]] == list(groups)
    assert parser.tables["outcomes"][1][1:4] == ["4", "2.64 ± 0.74", "533 ± 307"]
    assert parser.tables["deaths"][0] == ["Cause of death", "autopilot", "random"]
    episode_rows = parser.tables["episodes"][1:]
    assert len(episode_rows) == 9 and all(len(r) == 13 for r in episode_rows)
    by_seed = {(r[0], r[2]): r for r in episode_rows}
    assert by_seed[("autopilot", "3")][4:8] == ["1,451", "7", "5", "2,028"]
    assert by_seed[("autopilot", "3")][-1] == "death: raven"


def test_published_anchors_are_marked_with_sources(report):
    paths, _ = report
    parser = _Tables()
    parser.feed(paths.html.read_text())
    published = [r for r in parser.tables["anchors"] if r[1].startswith("published [")]
    assert len(published) == len(anchors.ANCHORS)
    netplay = next(r for r in published if r[0] == "NetPlay (unguided)")
    assert netplay[4] == "284.85 ± 222.10" and netplay[2] == "20"
    md = paths.markdown.read_text()
    assert "https://arxiv.org/abs/2403.00690" in md and "Jeurissen" in md
    assert "1.2 ± 0.4" in md and "Paglieri" in md
    for name in PLOT_NAMES:
        assert f"(plots/{name}.png)" in md


def test_anchors_sit_beside_their_counterpart(tmp_path):
    groups = {"netplay-style": random_episodes(2), "autopilot": load_episodes(REAL)[:2]}
    paths = write_report(groups, tmp_path)
    parser = _Tables()
    parser.feed(paths.html.read_text())
    table = [r[0] for r in parser.tables["anchors"][1:]]
    i, j = table.index("netplay-style"), table.index("autopilot")
    assert set(table[i + 1:j]) == {a.agent for a in anchors.anchors_for("netplay")}
    assert table[j + 1] == anchors.anchors_for("autopilot")[0].agent


def test_report_without_anchors_or_deaths(tmp_path):
    eps = load_episodes(REAL)[:2]  # two step-capped episodes: no deaths
    paths = write_report({"autopilot": eps}, tmp_path, anchors=False)
    md = paths.markdown.read_text()
    assert "published [" not in md and "No episode ended in death." in md
    assert all(p.stat().st_size > 1000 for p in paths.plots.values())


def test_success_rates_come_from_the_run_database(tmp_path):
    from hackwright.store.db import connect

    db = tmp_path / "memory.db"
    con = connect(db)
    con.executemany("INSERT INTO skill_executions (skill_name, success, episode_id) VALUES (?,?,?)",
                    [("explore_and_fight", 1, 1), ("explore_and_fight", 0, 1), ("descend", 1, 1)])
    con.commit()
    con.close()
    paths = write_report({"autopilot": load_episodes(REAL)[:1]}, tmp_path / "r", db_path=db)
    assert "50% of 2" in paths.markdown.read_text()


def test_format_summary_table():
    text = format_summary_table(compare({"autopilot": load_episodes(REAL), "random": random_episodes()}))
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["agent", "n", "progress"]
    assert lines[2].startswith("autopilot") and lines[3].startswith("random")
    assert "2.64 ± 0.74" in lines[2]  # hand-checked: (1.85 + 1.75 + 2.12 + 4.85) / 4, SE 0.74
    assert len({len(ln) for ln in lines}) == 1  # aligned


def test_headless_chromium_screenshot(report, tmp_path):
    browser = next((b for b in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(b).exists()),
                   shutil.which("chromium"))
    if not browser:
        pytest.skip("no Chromium at /usr/bin/chromium: the rendering check relies on the PNG and HTML tests")
    paths, _ = report
    shot = tmp_path / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1280,2400", f"--screenshot={shot}", paths.html.as_uri()],
                   check=True, capture_output=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 10_000
    w, h = png_size(shot.read_bytes())
    assert (w, h) == (1280, 2400)


def test_the_role_table_counts_deep_games_and_digging_tools_per_role(tmp_path):
    def ep(i, role, depth, tool):
        return EpisodeRecord.from_dict({
            "agent": "autopilot", "episode_id": i, "seed": i, "role": role, "score": 100, "max_depth": depth,
            "max_xp_level": 2, "turns": 900, "decisions": 40, "end_reason": "death",
            "death_reason": "killed by a jackal", "digging_tool_turn": tool})
    eps = [ep(1, "Archeologist", 23, 1), ep(2, "Priestess", 4, None), ep(3, "Priest", 6, None),
           ep(4, "Samurai", 11, 800)]
    paths = write_report({"autopilot": eps}, tmp_path, anchors=False, replays=False)
    parser = _Tables()
    parser.feed(paths.html.read_text())
    rows = {r[1]: r for r in parser.tables["roles"][1:]}
    assert rows["Priest"][2:] == ["2", rows["Priest"][3], "5.0", "6", "0", "0"]  # Priestess counted as Priest
    assert rows["Archeologist"][6:] == ["1", "1"]
    assert rows["all"][2] == "4" and rows["all"][6:] == ["2", "2"]
    assert "## By role" in paths.markdown.read_text()

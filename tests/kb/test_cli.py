"""`hackwright kb ...` run as a user would (typer's runner, a knowledge base in a temporary directory)."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from hackwright.cli import app

from .conftest import FIXTURES

runner = CliRunner()


@pytest.fixture
def kb_copy(kb_path, tmp_path):
    """A private copy of the session's built corpus, free to change."""
    path = tmp_path / "kb.sqlite"
    shutil.copy(kb_path, path)
    return path


def kb(*args: str):
    r = runner.invoke(app, ["kb", *args])
    assert r.exit_code == 0, r.output
    return r.output


def test_search_prints_titled_hits_with_their_sources(kb_copy):
    out = kb("search", "what happens if I hit a floating eye", "-k", "3", "--path", str(kb_copy))
    assert "1. " in out and "[monsters]" in out and "(monster:floating eye)" in out


def test_search_json_gives_passages_with_title_section_source_text_and_score(kb_copy):
    hits = json.loads(kb("search", "cockatrice corpse", "--json", "--path", str(kb_copy)))
    assert len(hits) == 5
    assert {"title", "section", "source", "text", "score", "doc_id"} <= set(hits[0])


def test_import_then_info_counts_the_wiki_and_names_the_import(kb_copy):
    out = kb("import", str(FIXTURES / "nhwiki_sample.json"), "--path", str(kb_copy))
    assert "imported 2 documents" in out
    out = kb("info", "--path", str(kb_copy))
    assert "wiki" in out and "nhwiki_sample.json" in out and "encyclopedia" in out
    info = json.loads(kb("info", "--json", "--path", str(kb_copy)))
    assert info["counts"]["wiki"] == [2, 2] and info["build_seconds"] > 0


def test_eval_reports_recall_and_mrr_per_mode(kb_copy):
    report = json.loads(kb("eval", "--modes", "bm25", "--json", "--path", str(kb_copy)))
    bm25 = report["scores"]["bm25"]
    assert report["questions"] >= 40 and report["k"] == 5
    assert bm25["recall_at_k"] >= 0.85 and bm25["mrr"] > 0.5
    out = kb("eval", "--modes", "bm25", "--path", str(kb_copy))
    assert "recall@5" in out and "MRR@10" in out and "bm25" in out


def test_build_rebuilds_into_a_new_file(tmp_path):
    out = kb("build", "--no-dense", "--path", str(tmp_path / "new.sqlite"))
    assert "built" in out and "chunks" in out and (tmp_path / "new.sqlite").exists()


def test_an_unknown_search_mode_exits_with_an_error(kb_copy):
    r = runner.invoke(app, ["kb", "search", "newt", "--mode", "fuzzy", "--path", str(kb_copy)])
    assert r.exit_code == 2 and "mode" in r.output

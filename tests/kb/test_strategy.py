"""Strategy articles: a player's "what do I do" questions find Hackwright's own articles, and `kb search` prints them whole.

Lexical scenarios use the session's BM25 corpus (the whole built-in corpus).
Dense and hybrid scenarios embed a slice of it, as tests/kb/test_dense.py
does: every strategy article, the entries that compete with them for these
questions, and every 25th other entry (the whole corpus takes minutes to embed).
"""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from hackwright.cli import app
from hackwright.kb import evaluate as E
from hackwright.kb import search as search_mod
from hackwright.kb.chunks import MAX_CHARS, chunk_document
from hackwright.kb.cli import format_hits
from hackwright.kb.documents import Passage
from hackwright.kb.search import KnowledgeBase
from hackwright.kb.strategy import parse_article, strategy_dir, strategy_documents, strategy_fingerprint

from .conftest import needs_dense

runner = CliRunner()

# A player's question -> the strategy article that must come first, and words its passage must hold.
FIRST = {
    "what ignores elbereth": ("strategy:elbereth", ["minotaurs", "shopkeepers"]),
    "i am turning to stone what do i do": ("strategy:stoning", ["lizard"]),
    "is it safe to pray now": ("strategy:prayer", ["timeout"]),
    "how to get excalibur": ("strategy:excalibur", ["fountain"]),
    "what does a black flash on the altar mean": ("strategy:altars", ["cursed"]),
    "my amulet is strangling me": ("strategy:strangulation", ["remove"]),
}


def test_every_shipped_article_is_a_titled_strategy_document_that_chunks_within_the_limit():
    docs = list(strategy_documents())
    assert len(docs) >= 25
    ids = {d.doc_id for d in docs}
    assert {"strategy:elbereth", "strategy:prayer", "strategy:sokoban", "strategy:medusa"} <= ids
    for d in docs:
        assert d.doc_id.startswith("strategy:") and d.source == "strategy" and d.title
        assert all(s.text.strip() for s in d.sections)
        assert all(len(c.text) <= MAX_CHARS for c in chunk_document(d))


def test_an_article_is_parsed_into_title_aliases_and_sections():
    doc = parse_article("# Newts\naliases: newt; small lizard\n\nA lead.\n\n## Eating\nSafe,\nand tasty.\n\nTwo.\n",
                        "newts")
    assert (doc.doc_id, doc.title, doc.aliases) == ("strategy:newts", "Newts", ("newt", "small lizard"))
    assert [(s.heading, s.text) for s in doc.sections] == [("", "A lead."), ("Eating", "Safe, and tasty.\n\nTwo.")]
    with pytest.raises(ValueError, match="Title"):
        parse_article("no title here", "bad")


def test_editing_an_article_changes_the_fingerprint_so_the_corpus_rebuilds(tmp_path):
    copy = tmp_path / "strategy"
    shutil.copytree(strategy_dir(), copy)
    before = strategy_fingerprint(copy)
    assert before == strategy_fingerprint(strategy_dir())
    page = copy / "elbereth.md"
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    assert strategy_fingerprint(copy) != before
    (copy / "zz-new.md").write_text("# A new article\n\nIts text.\n")
    assert "strategy:zz-new" in {d.doc_id for d in strategy_documents(copy)}


def test_the_built_corpus_counts_the_strategy_articles_as_their_own_source(kb):
    docs, chunks = kb.info().counts["strategy"]
    assert docs == len(list(strategy_documents())) and chunks >= docs


@pytest.mark.parametrize("question", list(FIRST))
def test_a_players_strategy_question_finds_its_article_first_by_bm25(kb, question):
    doc_id, words = FIRST[question]
    hits = kb.search(question, k=5, mode="bm25")
    assert hits[0].doc_id == doc_id, [h.doc_id for h in hits]
    assert hits[0].source == "strategy"
    whole = " ".join(c.text for c in chunk_document(next(d for d in strategy_documents() if d.doc_id == doc_id)))
    assert all(w in whole for w in words)


def test_the_whole_question_set_keeps_its_recall_floor_with_bm25(kb):
    questions = E.load_questions()
    strategy = [q for q in questions if q.topic == "strategy"]
    assert len(strategy) >= 30
    report = E.evaluate(kb, questions, k=5, modes=["bm25"])
    assert report.unknown_answers == []
    assert report.scores["bm25"].recall_at_k >= 0.9, report.scores["bm25"].misses
    only = E.evaluate(kb, strategy, k=5, modes=["bm25"]).scores["bm25"]
    assert only.recall_at_k >= 0.9, only.misses


# ------------------------------------------------------------------ dense and hybrid on a slice
@pytest.fixture(scope="module")
def strategy_slice_kb(tmp_path_factory):
    """Every strategy article, every entry a strategy question names, and every 25th other entry, embedded."""
    questions = [q for q in E.load_questions() if q.topic == "strategy"]
    wanted = {a for q in questions for a in q.answers}
    wanted |= {"monster:floating eye", "monster:cockatrice", "monster:Medusa", "object:wand of digging",
               "encyclopedia:elbereth", "encyclopedia:altar", "encyclopedia:pray", "object:dunce cap"}
    docs = search_mod.builtin_documents()
    chosen = [d for i, d in enumerate(docs) if d.doc_id in wanted or d.source == "strategy" or i % 25 == 0]
    kb = KnowledgeBase.open(tmp_path_factory.mktemp("strategy-dense") / "kb.sqlite", build=False)
    kb.add_documents(chosen, origin="builtin", dense=True)
    assert kb.dense_ready()
    yield kb
    kb.close()


@needs_dense
@pytest.mark.parametrize("question", list(FIRST))
def test_a_players_strategy_question_finds_its_article_first_by_hybrid_search(strategy_slice_kb, question):
    hits = strategy_slice_kb.search(question, k=5, mode="hybrid")
    assert hits[0].doc_id == FIRST[question][0], [h.doc_id for h in hits]


@needs_dense
def test_hybrid_recall_on_the_strategy_questions_stays_above_the_floor(strategy_slice_kb):
    strategy = [q for q in E.load_questions() if q.topic == "strategy"]
    score = E.evaluate(strategy_slice_kb, strategy, k=5, modes=["hybrid"]).scores["hybrid"]
    assert score.recall_at_k >= 0.9, score.misses


# ------------------------------------------------------------------ kb search output
@pytest.fixture
def kb_copy(kb_path, tmp_path):
    path = tmp_path / "kb.sqlite"
    shutil.copy(kb_path, path)
    return path


def test_kb_search_prints_whole_answers_wrapped_to_a_narrow_terminal(kb_copy):
    args = ["kb", "search", "what ignores elbereth", "-k", "3", "--path", str(kb_copy)]
    out = runner.invoke(app, args, env={"COLUMNS": "60"})
    assert out.exit_code == 0, out.output
    lines = out.output.rstrip("\n").split("\n")
    assert max(len(line) for line in lines) <= 60
    hits = json.loads(runner.invoke(app, [*args, "--json"]).output)
    flat = " ".join(out.output.split())
    for h in hits:
        assert " ".join(h["text"].split()) in flat  # every passage complete, nothing cut with "…"
    assert "…" not in out.output
    assert lines[0].startswith("1. Elbereth › Who ignores it [strategy]")


def test_hits_wrap_even_long_words_within_the_width():
    hit = Passage("A title that is rather long", "A section", "strategy",
                  "First paragraph " + "x" * 70 + " end.\n\nSecond paragraph.", 1.5, "strategy:t", 1)
    text = format_hits([hit, hit], 30)
    assert all(len(line) <= 30 for line in text.splitlines())
    assert text.count("Second paragraph.") == 2 and "2. A title" in text
    assert "".join(text.split()).count("x" * 70) == 2  # split across lines, not dropped

"""Scenarios: a player's questions answered by BM25 over the corpus built from this machine's NLE."""

from __future__ import annotations

import pytest

from hackwright.kb import evaluate as E
from hackwright.kb.search import KnowledgeBase


def doc_ids(hits):
    return [h.doc_id for h in hits]


def test_the_floating_eyes_passive_paralysis_is_in_the_top_3_for_hitting_one(kb):
    hits = kb.search("what happens if I hit a floating eye", k=3)
    assert "monster:floating eye" in doc_ids(hits)
    page = next(h for h in hits if h.doc_id == "monster:floating eye")
    assert "paralysis" in page.text and page.source == "monsters" and page.title == "floating eye"


def test_a_cockatrice_corpse_is_answered_as_unsafe(kb):
    hits = kb.search("is a cockatrice corpse safe to eat?", k=3)
    assert hits[0].doc_id == "monster:cockatrice"
    assert "turns you to stone" in hits[0].text


def test_the_oracle_answers_how_to_keep_armour_from_rusting(kb):
    hits = kb.search("how do I protect my armor from rust", k=5)
    assert "oracle:2" in doc_ids(hits)
    assert next(h for h in hits if h.doc_id == "oracle:2").source == "oracles"


def test_help_text_answers_which_key_picks_things_up(kb):
    hits = kb.search("which key picks up items from the floor", k=5)
    assert {"help:hh", "help:help", "help:cmdhelp"} & set(doc_ids(hits))


def test_hits_are_one_passage_per_entry_best_first(kb):
    hits = kb.search("dragon scale mail", k=10)
    assert len(hits) == 10 and len(set(doc_ids(hits))) == 10
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert all(h.title and h.source and h.text and h.mode == "bm25" for h in hits)


def test_questions_without_content_words_find_nothing_rather_than_failing(kb):
    assert kb.search("what is it?", k=5) == []
    assert kb.search("", k=5) == []
    assert "No entry found" in kb.lookup_text("what is it?")


def test_an_unknown_mode_is_refused(kb):
    with pytest.raises(ValueError, match="mode"):
        kb.search("newt", mode="semantic")


def test_lookup_text_heads_each_passage_with_title_and_source(kb):
    text = kb.lookup_text("soldier ant speed", k=2, mode="bm25")
    assert text.startswith("## soldier ant [monsters]")
    assert text.count("## ") == 2


def test_the_shipped_question_set_is_answerable_by_bm25(kb):
    questions = E.load_questions()
    assert len(questions) >= 40
    report = E.evaluate(kb, questions, k=5, modes=["bm25"])
    assert report.unknown_answers == []  # every answer names an entry that exists
    bm25 = report.scores["bm25"]
    assert bm25.recall_at_k >= 0.85, bm25.misses
    assert 0 < bm25.mrr <= 1


def test_reopening_reuses_the_built_corpus_and_a_new_version_rebuilds_it(kb_path, tmp_path):
    kb = KnowledgeBase.open(kb_path)
    assert not kb.needs_build()
    info = kb.info()
    assert info.counts["monsters"][0] > 380 and info.counts["encyclopedia"][0] > 400
    assert info.build_seconds is not None and info.build_seconds > 0  # recorded; `hackwright kb info` shows it
    kb.close()

    fresh = KnowledgeBase.open(tmp_path / "kb.sqlite")
    fresh.store.set_meta("builtin_fingerprint", "an older builder")
    assert fresh.needs_build()
    fresh.close()
    again = KnowledgeBase.open(tmp_path / "kb.sqlite")
    assert not again.needs_build() and again.search("newt", k=1)[0].doc_id == "monster:newt"
    again.close()

"""Dense retrieval: the numpy MiniLM matches sentence-transformers, and dense/hybrid search find answers.

The full corpus takes minutes to embed on two cores, so these scenarios embed
a slice of it: the entries that answer a few questions among unrelated ones.
"""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from hackwright.kb import dense
from hackwright.kb import search as search_mod
from hackwright.kb.search import KnowledgeBase

from .conftest import FIXTURES, needs_dense

pytestmark = needs_dense

# FAISS is optional (faiss-cpu, in hackwright[kb-dense]): without it the index is numpy's.
FAISS_INSTALLED = importlib.util.find_spec("faiss") is not None
EXPECTED_BACKEND = "faiss" if FAISS_INSTALLED else "numpy"
needs_faiss = pytest.mark.skipif(not FAISS_INSTALLED,
                                 reason="faiss is not installed (pip install faiss-cpu; part of hackwright[kb-dense])")

QUESTIONS = {
    "what happens if I hit a floating eye in melee?": {"monster:floating eye", "encyclopedia:floating eye"},
    "which ring stops me from being paralysed?": {"object:ring of free action"},
    "what cures hallucination?": {"oracle:5", "oracle:6"},
    "can I still zap a wand that has run out of charges?": {"oracle:0"},
}


@pytest.fixture(scope="module")
def reference():
    return json.loads((FIXTURES / "minilm_reference.json").read_text())


def test_the_wordpiece_tokenizer_matches_the_models_own(reference):
    tok = dense.encoder().tokenizer
    for sentence, ids in zip(reference["sentences"], reference["input_ids"]):
        assert tok.encode(sentence) == ids


def test_numpy_minilm_reproduces_sentence_transformers_embeddings(reference):
    got = dense.encoder().encode(reference["sentences"])
    want = np.array(reference["embeddings"], dtype=np.float32)
    assert got.shape == (4, 384)
    assert np.abs(got - want).max() < 1e-5
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@needs_faiss
def test_with_faiss_installed_the_index_is_faiss_and_numpy_without_it_ranks_alike(monkeypatch):
    vecs = dense.encoder().encode(["a newt", "a floating eye", "a long sword", "a cockatrice corpse"])
    q = dense.encoder().encode(["eating a cockatrice"])[0]
    index = dense.VectorIndex([10, 11, 12, 13], vecs)
    assert index.backend == "faiss"
    monkeypatch.setitem(__import__("sys").modules, "faiss", None)  # importing faiss now fails
    plain = dense.VectorIndex([10, 11, 12, 13], vecs)
    assert plain.backend == "numpy"
    a, b = index.search(q, 4), plain.search(q, 4)
    assert [i for i, _ in a] == [i for i, _ in b] and a[0][0] == 13
    assert np.allclose([s for _, s in a], [s for _, s in b], atol=1e-5)


@pytest.fixture(scope="module")
def slice_kb(tmp_path_factory):
    """The answering entries plus every 25th other built-in entry, embedded."""
    docs = search_mod.builtin_documents()
    wanted = set().union(*QUESTIONS.values())
    chosen = [d for i, d in enumerate(docs) if d.doc_id in wanted or i % 25 == 0]
    kb = KnowledgeBase.open(tmp_path_factory.mktemp("dense") / "kb.sqlite", build=False)
    report = kb.add_documents(chosen, origin="builtin", dense=True)
    assert report.embedded == kb.store.total_chunks() and kb.dense_ready()
    yield kb
    kb.close()


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_dense_and_hybrid_search_find_the_answering_entries(slice_kb, mode):
    for question, answers in QUESTIONS.items():
        hits = slice_kb.search(question, k=5, mode=mode)
        assert answers & {h.doc_id for h in hits}, (question, [h.doc_id for h in hits])
        assert all(h.mode == mode for h in hits)


def test_hybrid_is_what_auto_uses_once_every_chunk_has_a_vector(slice_kb):
    hits = slice_kb.search("floating eye passive", k=3, mode="auto")
    assert hits[0].mode == "hybrid"


def test_dense_search_runs_on_faiss_when_it_is_installed_and_kb_info_says_so(slice_kb):
    assert slice_kb.search("floating eye passive", k=3, mode="dense")
    assert slice_kb._index.backend == EXPECTED_BACKEND  # the index the search just used
    assert slice_kb.info().vector_backend == EXPECTED_BACKEND


def test_vectors_are_cached_by_text_so_a_second_pass_embeds_nothing(slice_kb):
    assert slice_kb.embed() == (0, 0.0)
    info = slice_kb.info()
    assert info.embedded == info.chunks

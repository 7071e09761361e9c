"""The knowledge base on disk: one SQLite file with the chunks, an FTS5 index and cached embeddings.

Tables:

* ``documents`` — one row per entry, with its ``origin``: ``builtin`` for the
  corpus built from NetHack's files, ``import:<path>`` for each user import,
  so that rebuilding one never drops the other.
* ``chunks`` and the FTS5 table ``chunks_fts`` (same rowid) — BM25 search
  with the Porter stemmer; columns title, aliases, section, text.
* ``embeddings`` — sentence vectors keyed by (text hash, model): a rebuild
  re-embeds only chunks whose text changed, so the dense index is paid once.
* ``meta`` — build times, versions, counts.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence

import numpy as np

from .documents import Chunk, Document

SCHEMA_VERSION = "1"
# BM25 column weights: a match in the title or an alias counts more than one in the body.
COLUMN_WEIGHTS = (6.0, 3.0, 1.5, 1.0)

STOPWORDS = frozenset("""
a about above after again against all am an and any are aren't as at be because been before being below between
both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from
further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his
how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor
not of off on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should
shouldn't so some such than that that's the their theirs them themselves then there there's these they they'd
they'll they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were
weren't what what's when when's where where's which while who who's whom why why's with won't would wouldn't you
you'd you'll you're you've your yours yourself yourselves happens happen get gets got thing things tell know
""".split())


def text_hash(text: str) -> str:
    """Stable key for a chunk's text in the embedding cache."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _words(query: str) -> list[str]:
    # Possessives go ("medusa's" -> "medusa"): the index has no "'s" forms to match.
    return [re.sub(r"'s$", "", w) for w in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", query.lower())]


def query_terms(query: str) -> list[str]:
    """The words of a question that matter for BM25 (lower case, stopwords dropped).

    Single letters are noise, except a map symbol named as such ("the letter e").
    """
    terms = [w for w in _words(query) if (w not in STOPWORDS and len(w) > 1) or w.isdigit()]
    terms += [m.lower() for m in re.findall(r"(?:letter|symbol|glyph)\s+['\"]?([A-Za-z])\b", query)]
    return [t.replace("'", "") for t in terms]


def fts_query(query: str) -> Optional[str]:
    """An FTS5 MATCH expression: every term OR-ed, plus adjacent pairs as phrases (names like "floating eye")."""
    terms = query_terms(query)
    if not terms:
        return None
    parts = [f'"{t}"' for t in dict.fromkeys(terms)]
    keep = set(terms)
    kept = [w.replace("'", "") for w in _words(query) if w.replace("'", "") in keep]
    for a, b in zip(kept, kept[1:]):
        parts.append(f'"{a} {b}"')
    return " OR ".join(parts)


@dataclass(frozen=True)
class StoredChunk:
    """A chunk as read back from the store, with its row id."""

    id: int
    chunk: Chunk


class KBStore:
    """Low-level access to the SQLite file; ``KnowledgeBase`` is the friendly front."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self._schema()

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def _schema(self) -> None:
        self.db.executescript(
            """
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE IF NOT EXISTS documents(
                doc_id TEXT PRIMARY KEY, title TEXT, source TEXT, origin TEXT, aliases TEXT, n_chunks INTEGER);
            CREATE TABLE IF NOT EXISTS chunks(
                id INTEGER PRIMARY KEY, doc_id TEXT, ordinal INTEGER, title TEXT, section TEXT, source TEXT,
                text TEXT, aliases TEXT, hash TEXT, origin TEXT);
            CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id);
            CREATE INDEX IF NOT EXISTS chunks_origin ON chunks(origin);
            CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
                title, aliases, section, text, tokenize='porter unicode61');
            CREATE TABLE IF NOT EXISTS embeddings(hash TEXT, model TEXT, vector BLOB, PRIMARY KEY(hash, model));
            """
        )
        if self.get_meta("schema") is None:
            self.set_meta("schema", SCHEMA_VERSION)

    # ------------------------------------------------------------ meta
    def get_meta(self, key: str) -> Optional[str]:
        """A value from the meta table, or None."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: object) -> None:
        """Store a value in the meta table (as text)."""
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, str(value)))
        self.db.commit()

    # ---------------------------------------------------------- writing
    def replace_origin(self, origin: str, docs: Iterable[Document], chunks: Iterable[Chunk]) -> tuple[int, int]:
        """Drop everything from ``origin`` and store these documents and chunks instead.

        A document id already stored by another origin is replaced too (the
        newer import wins). Returns (documents, chunks) written.
        """
        docs = list(docs)
        chunks = list(chunks)
        ids = [d.doc_id for d in docs]
        cur = self.db.cursor()
        cur.execute("BEGIN")
        try:
            old = [r[0] for r in cur.execute("SELECT id FROM chunks WHERE origin=?", (origin,))]
            for i in range(0, len(ids), 500):
                batch = ids[i:i + 500]
                marks = ",".join("?" * len(batch))
                old += [r[0] for r in cur.execute(f"SELECT id FROM chunks WHERE doc_id IN ({marks})", batch)]
                cur.execute(f"DELETE FROM documents WHERE doc_id IN ({marks})", batch)
            old = sorted(set(old))
            cur.executemany("DELETE FROM chunks_fts WHERE rowid=?", [(i,) for i in old])
            cur.executemany("DELETE FROM chunks WHERE id=?", [(i,) for i in old])
            cur.execute("DELETE FROM documents WHERE origin=?", (origin,))
            per_doc: dict[str, int] = {}
            for c in chunks:
                per_doc[c.doc_id] = per_doc.get(c.doc_id, 0) + 1
            cur.executemany(
                "INSERT INTO documents(doc_id, title, source, origin, aliases, n_chunks) VALUES(?,?,?,?,?,?)",
                [(d.doc_id, d.title, d.source, origin, "\n".join(d.aliases), per_doc.get(d.doc_id, 0)) for d in docs],
            )
            for c in chunks:
                aliases = "\n".join(c.aliases)
                cur.execute(
                    "INSERT INTO chunks(doc_id, ordinal, title, section, source, text, aliases, hash, origin)"
                    " VALUES(?,?,?,?,?,?,?,?,?)",
                    (c.doc_id, c.ordinal, c.title, c.section, c.source, c.text, aliases,
                     text_hash(c.embedding_text()), origin),
                )
                cur.execute(
                    "INSERT INTO chunks_fts(rowid, title, aliases, section, text) VALUES(?,?,?,?,?)",
                    (cur.lastrowid, c.title, aliases, c.section, c.text),
                )
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        return len(docs), len(chunks)

    def origins(self) -> list[str]:
        """Every origin present ("builtin", "import:/path/…")."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT origin FROM documents ORDER BY origin")]

    # ---------------------------------------------------------- reading
    def bm25(self, query: str, limit: int = 50) -> list[tuple[int, float]]:
        """(chunk id, score) for the best BM25 matches, best first; score is positive, higher better."""
        match = fts_query(query)
        if match is None:
            return []
        w = ", ".join(str(x) for x in COLUMN_WEIGHTS)
        rows = self.db.execute(
            f"SELECT rowid, bm25(chunks_fts, {w}) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?",
            (match, limit),
        ).fetchall()
        return [(int(r), -float(s)) for r, s in rows]

    def chunks(self, ids: Sequence[int]) -> dict[int, Chunk]:
        """The chunks with these row ids."""
        out: dict[int, Chunk] = {}
        ids = list(ids)
        for i in range(0, len(ids), 500):
            batch = ids[i:i + 500]
            marks = ",".join("?" * len(batch))
            for row in self.db.execute(
                f"SELECT id, doc_id, title, section, source, text, ordinal, aliases FROM chunks WHERE id IN ({marks})",
                batch,
            ):
                out[row[0]] = Chunk(row[1], row[2], row[3], row[4], row[5], row[6],
                                    tuple(a for a in (row[7] or "").split("\n") if a))
        return out

    def doc_ids(self) -> set[str]:
        """Every stored document id."""
        return {r[0] for r in self.db.execute("SELECT doc_id FROM documents")}

    def counts(self) -> dict[str, tuple[int, int]]:
        """source -> (documents, chunks)."""
        docs = dict(self.db.execute("SELECT source, COUNT(*) FROM documents GROUP BY source").fetchall())
        chunks = dict(self.db.execute("SELECT source, COUNT(*) FROM chunks GROUP BY source").fetchall())
        return {s: (docs.get(s, 0), chunks.get(s, 0)) for s in sorted(set(docs) | set(chunks))}

    def total_chunks(self) -> int:
        """Number of chunks stored."""
        return int(self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    # -------------------------------------------------------- embeddings
    def missing_embeddings(self, model: str) -> list[tuple[str, str]]:
        """(hash, text to embed) for chunks that have no vector for ``model`` yet."""
        rows = self.db.execute(
            "SELECT c.hash, c.title, c.section, c.text FROM chunks c LEFT JOIN embeddings e"
            " ON e.hash = c.hash AND e.model = ? WHERE e.hash IS NULL GROUP BY c.hash",
            (model,),
        ).fetchall()
        return [(h, Chunk("", t, s, "", x, 0).embedding_text()) for h, t, s, x in rows]

    def put_embeddings(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        """Store vectors (float32) by text hash."""
        self.db.executemany(
            "INSERT OR REPLACE INTO embeddings(hash, model, vector) VALUES(?,?,?)",
            [(h, model, np.asarray(v, dtype=np.float32).tobytes()) for h, v in items],
        )
        self.db.commit()

    def prune_embeddings(self) -> int:
        """Drop vectors no chunk uses any more (left behind when pages changed); returns how many."""
        cur = self.db.execute("DELETE FROM embeddings WHERE hash NOT IN (SELECT hash FROM chunks)")
        self.db.commit()
        return cur.rowcount

    def vectors(self, model: str) -> tuple[list[int], np.ndarray]:
        """(chunk ids, matrix) of every chunk that has a vector for ``model``."""
        rows = self.db.execute(
            "SELECT c.id, e.vector FROM chunks c JOIN embeddings e ON e.hash = c.hash AND e.model = ? ORDER BY c.id",
            (model,),
        ).fetchall()
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        return [r[0] for r in rows], np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])

    def embedded_count(self, model: str) -> int:
        """How many chunks have a vector for ``model``."""
        return int(self.db.execute(
            "SELECT COUNT(*) FROM chunks c JOIN embeddings e ON e.hash = c.hash AND e.model = ?", (model,)
        ).fetchone()[0])

    def index_sizes(self) -> dict[str, int]:
        """Bytes used by the BM25 index ("fts"), the vectors ("vectors") and the texts ("texts").

        Read from SQLite's dbstat table where the library has it; otherwise only
        the vectors are reported (their size is known from the count).
        """
        try:
            rows = self.db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
        except sqlite3.OperationalError:
            n = int(self.db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])
            return {"vectors": n * 384 * 4}
        sizes = {"fts": 0, "vectors": 0, "texts": 0}
        for name, size in rows:
            if name.startswith("chunks_fts"):
                sizes["fts"] += size
            elif "embeddings" in name:
                sizes["vectors"] += size
            elif name.startswith(("chunks", "documents", "sqlite_autoindex_documents")):
                sizes["texts"] += size
        return sizes

    def file_size(self) -> int:
        """Bytes on disk (database plus write-ahead log)."""
        total = self.path.stat().st_size if self.path.exists() else 0
        wal = Path(str(self.path) + "-wal")
        return total + (wal.stat().st_size if wal.exists() else 0)

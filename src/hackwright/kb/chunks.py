"""Cutting documents into retrievable chunks that keep their title and section.

A chunk never spans two sections of different headings unless the sections are
small enough to travel together (a monster page stays one chunk); a section
too long for one chunk is cut at paragraph boundaries, then at sentence
boundaries. The limit is in characters and sized for the dense encoder's 256
tokens (about 4 characters a token in English, less the title's share).
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from .documents import Chunk, Document, Section

MAX_CHARS = 900


def _pieces(text: str, limit: int) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters at paragraph, then sentence, then word breaks."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    units: list[str] = []
    for p in paragraphs:
        if len(p) <= limit:
            units.append(p)
            continue
        sentences = re.split(r"(?<=[.!?;])\s+", p)
        for s in sentences:
            while len(s) > limit:  # a run-on "sentence" (a long list): cut at a space
                cut = s.rfind(" ", 0, limit)
                cut = cut if cut > limit // 2 else limit
                units.append(s[:cut].strip())
                s = s[cut:].strip()
            if s:
                units.append(s)
    out: list[str] = []
    cur = ""
    for u in units:
        joiner = "\n\n" if "\n" in u or (cur and cur.endswith("\n")) else " "
        if cur and len(cur) + len(joiner) + len(u) > limit:
            out.append(cur)
            cur = u
        else:
            cur = f"{cur}{joiner}{u}" if cur else u
    if cur:
        out.append(cur)
    return out


def _section_block(s: Section) -> str:
    return f"{s.heading}: {s.text.strip()}" if s.heading else s.text.strip()


def chunk_document(doc: Document, max_chars: int = MAX_CHARS) -> list[Chunk]:
    """The chunks of one document, in order."""
    chunks: list[Chunk] = []

    def emit(section: str, text: str) -> None:
        chunks.append(Chunk(doc.doc_id, doc.title, section, doc.source, text, len(chunks), doc.aliases))

    # First: does the whole document fit? Then it is one chunk, sections inline.
    whole = "\n".join(_section_block(s) for s in doc.sections if s.text.strip())
    if len(whole) <= max_chars:
        if whole:
            emit(doc.sections[0].heading if len(doc.sections) == 1 else "", whole)
        return chunks
    # Otherwise pack consecutive small sections, and cut big ones.
    group: list[Section] = []
    size = 0

    def flush() -> None:
        nonlocal group, size
        if group:
            if len(group) == 1:
                emit(group[0].heading, group[0].text.strip())
            else:
                emit(" / ".join(h for h in (g.heading for g in group) if h),
                     "\n".join(_section_block(g) for g in group))
        group, size = [], 0

    for s in doc.sections:
        if not s.text.strip():
            continue
        block = len(_section_block(s))
        if block > max_chars:
            flush()
            for piece in _pieces(s.text, max_chars):
                emit(s.heading, piece)
            continue
        if size + block + 1 > max_chars:
            flush()
        group.append(s)
        size += block + 1
    flush()
    return chunks


def chunk_documents(docs: Iterable[Document], max_chars: int = MAX_CHARS) -> Iterator[Chunk]:
    """The chunks of many documents, document by document."""
    for d in docs:
        yield from chunk_document(d, max_chars)

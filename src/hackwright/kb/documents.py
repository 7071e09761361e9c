"""The units the knowledge base is made of: documents (entries) with sections, chunks and passages."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Section:
    """One titled part of a document ("" for the untitled lead)."""

    heading: str
    text: str


@dataclass(frozen=True)
class Document:
    """One entry of the corpus: a monster page, an encyclopedia entry, a rumor, a wiki page …

    ``doc_id`` is stable across builds ("monster:floating eye",
    "encyclopedia:floating eye", "rumor:12") and is what the question set
    names as the answer. ``aliases`` are other names the entry answers to
    (the encyclopedia's key patterns, an object's appearance).
    """

    doc_id: str
    title: str
    source: str  # "monsters", "objects", "encyclopedia", "rumors", "oracles", "help", "guidebook", "strategy",
    # "wiki", "spoilers"
    sections: tuple[Section, ...]
    aliases: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """All sections joined, headings included."""
        return "\n\n".join((f"{s.heading}\n{s.text}" if s.heading else s.text) for s in self.sections)


@dataclass(frozen=True)
class Chunk:
    """A retrievable piece of a document: never crosses a section boundary."""

    doc_id: str
    title: str
    section: str
    source: str
    text: str
    ordinal: int  # position within the document, from 0
    aliases: tuple[str, ...] = ()

    def embedding_text(self) -> str:
        """What the dense encoder sees: the title and section give the passage its subject."""
        head = self.title if not self.section else f"{self.title} - {self.section}"
        return f"{head}: {self.text}"


@dataclass
class Passage:
    """A search hit: a chunk with its score (higher is better) and the mode that found it."""

    title: str
    section: str
    source: str
    text: str
    score: float
    doc_id: str
    chunk_id: int
    mode: str = "bm25"
    extra: dict = field(default_factory=dict)

    def cite(self) -> str:
        """"Title › Section [source]" for listings."""
        where = f"{self.title} › {self.section}" if self.section else self.title
        return f"{where} [{self.source}]"

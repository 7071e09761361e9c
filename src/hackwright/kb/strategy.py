"""Strategy articles: how to play NetHack 3.6, written for Hackwright in its own words.

NetHack's own texts and tables say what things are; they rarely say what to
do (when prayer is safe, how to engrave-test a wand, what to do when turning
to stone). These articles fill that gap. They ship inside the package as
Markdown files under ``hackwright/kb/strategy/``, one article a file, and are
built into the corpus with the rest (``hackwright kb build``).

File format (kept small so that a new article needs no code)::

    # Title
    aliases: other name; another phrase a player would type

    Lead paragraph (optional).

    ## Section heading
    Section text, paragraphs separated by blank lines.

The document id is ``strategy:<file stem>`` ("strategy:elbereth"); the
source is ``strategy``.
"""

from __future__ import annotations

import hashlib
import re
from importlib import resources
from pathlib import Path
from typing import Iterator, Optional

from .documents import Document, Section

SOURCE = "strategy"


def strategy_dir() -> Path:
    """The directory the articles ship in (``hackwright/kb/strategy``)."""
    return Path(str(resources.files("hackwright.kb").joinpath("strategy")))


def article_paths(directory: Optional[Path] = None) -> list[Path]:
    """Every article file, in name order."""
    return sorted(Path(directory or strategy_dir()).glob("*.md"))


def parse_article(text: str, slug: str) -> Document:
    """One article file as a ``Document``; ValueError when it has no ``# Title`` or no text."""
    lines = text.splitlines()
    title = ""
    aliases: tuple[str, ...] = ()
    sections: list[Section] = []
    heading, buf = "", []

    def flush() -> None:
        body = "\n".join(buf).strip()
        if body:
            # Paragraphs stay apart; lines within one are joined (the files are wrapped for editors).
            paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if p.strip()]
            sections.append(Section(heading, "\n\n".join(paras)))

    for line in lines:
        if not title and line.startswith("# "):
            title = line[2:].strip()
            continue
        if title and not sections and not buf and line.lower().startswith("aliases:"):
            aliases = tuple(a.strip() for a in line.split(":", 1)[1].split(";") if a.strip())
            continue
        if line.startswith("## "):
            flush()
            heading, buf = line[3:].strip(), []
            continue
        buf.append(line)
    flush()
    if not title:
        raise ValueError(f"strategy article {slug!r} has no '# Title' line")
    if not sections:
        raise ValueError(f"strategy article {slug!r} has no text")
    return Document(f"{SOURCE}:{slug}", title, SOURCE, tuple(sections), aliases)


def strategy_documents(directory: Optional[Path] = None) -> Iterator[Document]:
    """Every shipped strategy article as a ``Document``."""
    for p in article_paths(directory):
        yield parse_article(p.read_text(encoding="utf-8"), p.stem)


def strategy_fingerprint(directory: Optional[Path] = None) -> str:
    """A short hash of all article files, so that editing one rebuilds the corpus."""
    h = hashlib.sha1()
    for p in article_paths(directory):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]

"""Optional imports the user supplies: NetHack wiki JSON, a MediaWiki XML dump, spoiler text files.

Formats:

* ``wiki-json``: the file MiniHack's ``get_nhwiki_data.sh`` downloads
  (``nethackwikidata.json``), one JSON object per line with
  ``wikipedia_title``, ``text`` (a list of strings), ``page_data``,
  ``categories`` and ``anchors`` — or MiniHack's processed form, one JSON
  object mapping lower-case titles to ``{"title", "text", "raw_text", …}`` —
  or a JSON list of ``{"title", "text"}`` objects.
* ``mediawiki-xml``: a ``Special:Export`` / dump file (``<page><title>…
  <revision><text>`` wikitext). Only articles (namespace 0) are kept,
  redirects are dropped, and the wikitext is flattened to plain text with its
  ``== headings ==`` as sections.
* ``text-dir``: a directory of plain text files (``.txt``, ``.txt.gz``,
  ``.html``), such as Debian's ``nethack-spoilers`` package under
  ``/usr/share/doc/nethack-spoilers``; one document per file, split at
  underlined or numbered headings.

Nothing imported is shipped with Hackwright: the NetHack wiki is CC BY-SA and
the spoiler files carry their own terms; they stay in the user's knowledge
base file.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator, Optional

from .documents import Document, Section
from .sources import read_maybe_gzip

FORMATS = ("auto", "wiki-json", "mediawiki-xml", "text-dir")
TEXT_SUFFIXES = (".txt", ".txt.gz", ".html", ".htm", ".text")


def detect_format(path: Path) -> str:
    """Guess the format of ``path``: a directory is ``text-dir``; otherwise sniff the first bytes."""
    path = Path(path)
    if path.is_dir():
        return "text-dir"
    head = path.read_bytes()[:4096].lstrip()
    if path.suffix == ".gz":
        import gzip

        head = gzip.decompress(path.read_bytes())[:4096].lstrip()
    if head.startswith(b"<"):
        return "mediawiki-xml"
    if head.startswith((b"{", b"[")):
        return "wiki-json"
    return "text-dir"


def import_documents(path: Path, fmt: str = "auto") -> list[Document]:
    """Read ``path`` in format ``fmt`` (see module docs) into documents."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(path)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt == "wiki-json":
        return list(wiki_json_documents(path))
    if fmt == "mediawiki-xml":
        return list(mediawiki_xml_documents(path))
    if path.is_file():
        return [d for d in [text_file_document(path, path.parent)] if d]
    return list(text_dir_documents(path))


# ---------------------------------------------------------------- wiki JSON
_WIKI_HEADING = re.compile(r"^\s*(={2,6})\s*(.+?)\s*\1\s*$")
_MD_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$")


def _sections_from_lines(lines: list[str]) -> tuple[Section, ...]:
    """Group lines under wiki (``== X ==``) or Markdown (``## X``) headings."""
    sections: list[Section] = []
    heading, buf = "", []
    for line in lines:
        m = _WIKI_HEADING.match(line) or _MD_HEADING.match(line)
        if m:
            if any(b.strip() for b in buf):
                sections.append(Section(heading, "\n".join(buf).strip()))
            heading, buf = m.groups()[-1].strip(), []
            continue
        buf.append(line.rstrip())
    if any(b.strip() for b in buf):
        sections.append(Section(heading, "\n".join(buf).strip()))
    return tuple(sections)


def _as_lines(value) -> list[str]:
    if isinstance(value, list):
        out: list[str] = []
        for v in value:
            out.extend(str(v).split("\n"))
        return out
    return str(value or "").split("\n")


def _wiki_doc(title: str, body_lines: list[str], categories) -> Optional[Document]:
    title = title.strip()
    if not title or not any(ln.strip() for ln in body_lines):
        return None
    if body_lines and body_lines[0].strip().lower().startswith("#redirect"):
        return None
    sections = _sections_from_lines(body_lines)
    if not sections:
        return None
    if isinstance(categories, str):
        categories = [c for c in categories.split(",") if c.strip()]
    aliases = tuple(str(c).strip() for c in (categories or ()) if str(c).strip())[:5]
    return Document(f"wiki:{title.lower()}", title, "wiki", sections, aliases)


def wiki_json_documents(path: Path) -> Iterator[Document]:
    """Pages of MiniHack's NetHack wiki JSON (raw JSON lines, or its processed dict)."""
    text = read_maybe_gzip(path) if path.suffix == ".gz" else path.read_text(encoding="utf-8")
    stripped = text.lstrip()
    pages: list[dict] = []
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "wikipedia_title" not in whole:
        # MiniHack's processed file: title -> page; "_global_counts" and aliases are not pages.
        seen: set[int] = set()
        for key, page in whole.items():
            if key.startswith("_") or not isinstance(page, dict) or id(page) in seen:
                continue
            seen.add(id(page))
            pages.append({"title": page.get("title", key), "text": page.get("raw_text") or page.get("text", ""),
                          "categories": page.get("categories", [])})
    elif isinstance(whole, list):
        pages = [p for p in whole if isinstance(p, dict)]
    elif isinstance(whole, dict):
        pages = [whole]
    else:
        for n, line in enumerate(stripped.splitlines(), 1):
            if not line.strip():
                continue
            try:
                pages.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not a JSON line: {e}") from None
    seen_ids: set[str] = set()
    for p in pages:
        title = p.get("wikipedia_title") or p.get("title") or ""
        # The raw format keeps the readable text in "text" (a list of paragraphs);
        # "page_data" holds the same text in a Markdown-ish form with headings.
        body = p.get("page_data") if _has_headings(p.get("page_data")) else p.get("text", p.get("page_data", ""))
        doc = _wiki_doc(title, _as_lines(body), p.get("categories"))
        if doc and doc.doc_id not in seen_ids:
            seen_ids.add(doc.doc_id)
            yield doc


def _has_headings(value) -> bool:
    if not value:
        return False
    return any(_WIKI_HEADING.match(ln) or _MD_HEADING.match(ln) for ln in _as_lines(value))


# ------------------------------------------------------------ MediaWiki XML
def _strip_templates(text: str) -> str:
    """Remove ``{{…}}`` templates and ``{|…|}`` tables, nested ones included."""
    out: list[str] = []
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        two = text[i:i + 2]
        if two in ("{{", "{|"):
            depth += 1
            i += 2
            continue
        if depth and two in ("}}", "|}"):
            depth -= 1
            i += 2
            continue
        if not depth:
            out.append(text[i])
        i += 1
    return "".join(out)


def wikitext_to_text(wikitext: str) -> str:
    """Plain text from wikitext: links become their labels, markup and templates go."""
    t = re.sub(r"<!--.*?-->", "", wikitext, flags=re.S)
    t = re.sub(r"<ref[^>/]*/>", "", t)
    t = re.sub(r"<ref[^>]*>.*?</ref>", "", t, flags=re.S)
    t = _strip_templates(t)
    t = re.sub(r"\[\[(?:File|Image|Category):[^\]]*\]\]", "", t, flags=re.I)
    t = re.sub(r"\[\[([^|\]]*)\|([^\]]*)\]\]", r"\2", t)
    t = re.sub(r"\[\[([^\]]*)\]\]", r"\1", t)
    t = re.sub(r"\[https?://\S+\s+([^\]]*)\]", r"\1", t)
    t = re.sub(r"\[https?://\S+\]", "", t)
    t = re.sub(r"'{2,}", "", t)
    t = re.sub(r"</?[a-zA-Z][^>]*>", "", t)
    t = html.unescape(t)
    t = re.sub(r"^[*#:;]+\s*", "- ", t, flags=re.M)
    t = re.sub(r"\n{3,}", "\n\n", t)
    return t.strip()


def mediawiki_xml_documents(path: Path) -> Iterator[Document]:
    """Articles of a MediaWiki export (any export schema version)."""
    source = path.open("rb")
    if path.suffix == ".gz":
        import gzip

        source = gzip.open(path, "rb")
    with source:
        title, ns, text = "", "0", ""
        for event, el in ET.iterparse(source, events=("end",)):
            tag = el.tag.rsplit("}", 1)[-1]
            if tag == "title":
                title = el.text or ""
            elif tag == "ns":
                ns = (el.text or "0").strip()
            elif tag == "text":
                text = el.text or ""
            elif tag == "page":
                if ns == "0" and not text.lstrip().lower().startswith("#redirect"):
                    cats = re.findall(r"\[\[Category:([^\]|]+)", text)
                    doc = _wiki_doc(title, wikitext_to_text(text).split("\n"), cats)
                    if doc:
                        yield doc
                title, ns, text = "", "0", ""
                el.clear()


# ---------------------------------------------------------------- text dirs
def _html_to_text(raw: str) -> str:
    t = re.sub(r"(?is)<(script|style)[^>]*>.*?</\1>", "", raw)
    t = re.sub(r"(?i)<h[1-6][^>]*>(.*?)</h[1-6]>", lambda m: "\n== " + re.sub(r"<[^>]+>", "", m.group(1)).strip() + " ==\n", t)
    t = re.sub(r"(?i)<br\s*/?>|</p>|</li>|</tr>|</div>", "\n", t)
    t = re.sub(r"<[^>]+>", "", t)
    return html.unescape(t)


def _text_sections(text: str) -> tuple[Section, ...]:
    """Split spoiler text at headings: ``== X ==``, a line underlined by ``===``/``---``/``~~~``, or ``N. Title``."""
    lines = text.split("\n")
    sections: list[Section] = []
    heading, buf = "", []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        nxt = lines[i + 1].rstrip() if i + 1 < len(lines) else ""
        title = None
        m = _WIKI_HEADING.match(line)
        if m:
            title = m.group(2)
        elif line.strip() and re.fullmatch(r"\s*[=\-~]{3,}\s*", nxt) and len(line.strip()) <= 70 \
                and abs(len(nxt.strip()) - len(line.strip())) <= 3:
            title = line.strip()
            i += 1
        elif re.match(r"^\d+(\.\d+)*\.\s+[A-Z][^.]{2,60}$", line.strip()) and (not buf or not buf[-1].strip()):
            title = line.strip()  # "3.2. Some title" after a blank line
        if title:
            if any(b.strip() for b in buf):
                sections.append(Section(heading, "\n".join(buf).strip()))
            heading, buf = title, []
        else:
            buf.append(line)
        i += 1
    if any(b.strip() for b in buf):
        sections.append(Section(heading, "\n".join(buf).strip()))
    return tuple(sections)


def text_file_document(path: Path, root: Path) -> Optional[Document]:
    """One spoiler file as a document titled by its first line (or its name)."""
    raw = read_maybe_gzip(path)
    text = _html_to_text(raw) if path.name.endswith((".html", ".htm")) else raw
    text = text.replace("\r\n", "\n")
    if not text.strip():
        return None
    rel = path.relative_to(root).as_posix() if root in path.parents or path.parent == root else path.name
    name = re.sub(r"(\.txt)?(\.gz)?$|\.html?$", "", path.name)
    first = next((ln.strip() for ln in text.split("\n") if ln.strip()), name)
    title = first if len(first) <= 80 else name
    sections = _text_sections(text)
    if not sections:
        return None
    return Document(f"spoiler:{rel}", title, "spoilers", sections, (name,))


def text_dir_documents(root: Path) -> Iterator[Document]:
    """Every text, gzipped text or HTML file under ``root``, in path order."""
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name.lower().endswith(TEXT_SUFFIXES) and not p.name.startswith("."):
            doc = text_file_document(p, root)
            if doc:
                yield doc

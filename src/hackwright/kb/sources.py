"""NetHack's own texts as shipped with NLE: encyclopedia, rumors, Oracle, help files, Guidebook.

NLE installs NetHack's playground as ``nle/nethackdir``. The game reads its
texts from the ``nhdat`` dlb archive there; most NLE builds also leave the
plain source files in ``nethackdir/dat``. Both are read here: the plain files
when present (they are the originals), else the archive, whose ``rumors``,
``oracles`` and ``engrave``-style files are scrambled by NetHack's
``xcrypt`` (a reversible XOR of bits 0..4 of every letter with a rotating
mask) and whose ``data`` file is the encyclopedia with an index prepended.

Every reader returns ``Document``s with stable ids, so the question set can
name them: ``encyclopedia:<first key>``, ``rumor:<n>`` (true rumors only: the
false ones would teach the model lies), ``oracle:<n>``, ``help:<file>``,
``guidebook``.
"""

from __future__ import annotations

import fnmatch
import gzip
import importlib.util
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional, Sequence

from .documents import Document, Section

# Help files worth reading for play (wizhelp is debug mode, tribute is Pratchett quotes).
HELP_FILES = {
    "help": "NetHack help: overview and commands",
    "hh": "NetHack help: command summary",
    "cmdhelp": "NetHack help: what each key does",
    "keyhelp": "NetHack help: special keys",
    "opthelp": "NetHack help: options",
}
GUIDEBOOK_NAMES = ("Guidebook.txt", "Guidebook.txt.gz", "guidebook.txt", "Guidebook")


def nethack_dir() -> Path:
    """NLE's ``nethackdir`` (found without importing NLE); ``HACKWRIGHT_NETHACKDIR`` overrides."""
    env = os.environ.get("HACKWRIGHT_NETHACKDIR")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("nle")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the nle package is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "nethackdir"


# -------------------------------------------------------------------- dlb
@dataclass(frozen=True)
class DlbEntry:
    """One member of a dlb archive."""

    name: str
    offset: int
    size: int


class DlbArchive:
    """NetHack's "data librarian" archive (``nhdat``).

    The directory is text: a first line ``version nfiles strsize dirsize
    filesize``, then one line per member, ``<handling char><name> <offset>``;
    a member runs up to the next member's offset (the last one to the file's end).
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._data = self.path.read_bytes()
        first, _, rest = self._data.partition(b"\n")
        fields = first.split()
        if len(fields) < 5:
            raise ValueError(f"{path}: not a dlb archive (header {first[:40]!r})")
        nfiles, total = int(fields[1]), int(fields[4])
        entries: list[tuple[str, int]] = []
        for line in rest.split(b"\n")[:nfiles]:
            m = re.match(rb".(\S+)\s+(\d+)", line)
            if not m:
                raise ValueError(f"{path}: bad directory line {line[:60]!r}")
            entries.append((m.group(1).decode("latin-1"), int(m.group(2))))
        end = min(total, len(self._data))
        self.entries: dict[str, DlbEntry] = {}
        for i, (name, off) in enumerate(entries):
            stop = entries[i + 1][1] if i + 1 < len(entries) else end
            self.entries[name] = DlbEntry(name, off, stop - off)

    def names(self) -> list[str]:
        """Member names in archive order ("help", "data", "rumors", "oracles", …)."""
        return list(self.entries)

    def read(self, name: str) -> bytes:
        """The raw bytes of one member; KeyError if absent."""
        e = self.entries[name]
        return self._data[e.offset:e.offset + e.size]


def xcrypt(text: str) -> str:
    """NetHack's text scrambling; applying it twice gives the text back.

    Characters with bit 5 or 6 set (letters, digits, punctuation) have their
    low five bits XORed with a mask that cycles 1, 2, 4, 8, 16 along the string.
    """
    out = []
    mask = 1
    for ch in text:
        c = ord(ch)
        if c & 0x60:
            c ^= mask
        out.append(chr(c))
        mask <<= 1
        if mask >= 32:
            mask = 1
    return "".join(out)


# ------------------------------------------------------------ source access
class NetHackTexts:
    """Where the game's texts come from: ``dat/`` plain files, else the ``nhdat`` archive."""

    def __init__(self, root: Optional[Path] = None, prefer_archive: bool = False):
        self.root = Path(root) if root else nethack_dir()
        self.dat = self.root / "dat"
        archive = self.root / "nhdat"
        self.archive = DlbArchive(archive) if archive.is_file() else None
        self.prefer_archive = prefer_archive

    def _plain(self, name: str) -> Optional[str]:
        if self.prefer_archive and self.archive is not None:
            return None
        p = self.dat / name
        return p.read_text(encoding="latin-1") if p.is_file() else None

    def _member(self, name: str) -> Optional[str]:
        if self.archive is None or name not in self.archive.entries:
            return None
        return self.archive.read(name).decode("latin-1")

    def origin(self) -> str:
        """Which copy is read ("dat" or "nhdat"), for ``kb info``."""
        if self.prefer_archive and self.archive is not None:
            return "nhdat"
        return "dat" if (self.dat / "data.base").is_file() else "nhdat"

    # -- encyclopedia
    def encyclopedia(self) -> list[tuple[list[str], str]]:
        """(key patterns, text) for every encyclopedia entry, in file order."""
        plain = self._plain("data.base")
        if plain is not None:
            return parse_data_base(plain)
        member = self._member("data")
        if member is None:
            raise FileNotFoundError(f"no encyclopedia (dat/data.base or nhdat:data) under {self.root}")
        return parse_compiled_data(member)

    # -- rumors
    def true_rumors(self) -> list[str]:
        """NetHack's true rumors (fortune cookies, the Oracle's minor consultations)."""
        plain = self._plain("rumors.tru")
        if plain is not None:
            return [ln.strip() for ln in plain.splitlines() if ln.strip() and not ln.startswith("#")]
        member = self._member("rumors")
        if member is None:
            raise FileNotFoundError(f"no rumors under {self.root}")
        return parse_compiled_rumors(member)[0]

    # -- oracles
    def oracles(self) -> list[str]:
        """The Oracle's major consultations (the makedefs-added default one excluded)."""
        plain = self._plain("oracles.txt")
        if plain is not None:
            return _split_oracles(plain.splitlines())
        member = self._member("oracles")
        if member is None:
            raise FileNotFoundError(f"no oracles under {self.root}")
        return parse_compiled_oracles(member)

    # -- help
    def help_text(self, name: str) -> Optional[str]:
        """One of NetHack's help files, or None when absent."""
        text = self._plain(name)
        return text if text is not None else self._member(name)


# --------------------------------------------------------------- parsers
def parse_data_base(text: str) -> list[tuple[list[str], str]]:
    """The encyclopedia source: key lines in column 0, text lines starting with a TAB."""
    entries: list[tuple[list[str], str]] = []
    keys: list[str] = []
    body: list[str] = []

    def flush() -> None:
        if keys and body:
            entries.append((list(keys), _dedent_body(body)))

    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("\t") or (not line.strip() and body):
            body.append(line)
            continue
        if not line.strip():
            continue
        if body:
            flush()
            keys, body = [], []
        keys.append(line.strip())
    flush()
    return entries


def parse_compiled_data(text: str) -> list[tuple[list[str], str]]:
    """The encyclopedia as makedefs compiles it into ``nhdat:data``.

    A comment line, the hex offset of the text part, then the index: key
    lines followed by ``offset,linecount`` (offset relative to the text part).
    """
    lines = text.split("\n")
    i = 1 if lines and lines[0].startswith("#") else 0
    text_start = int(lines[i], 16)
    i += 1
    body = text.encode("latin-1")[text_start:]
    entries: list[tuple[list[str], str]] = []
    keys: list[str] = []
    for line in lines[i:]:
        m = re.fullmatch(r"(\d+),(\d+)", line.strip())
        if m:
            off, count = int(m.group(1)), int(m.group(2))
            chunk = body[off:].split(b"\n", count)[:count]
            chunk = [c.decode("latin-1") for c in chunk]
            if count and keys != ["."]:  # "." with no lines closes the index
                entries.append((keys, _dedent_body(chunk)))
            keys = []
            continue
        if line.strip() == "":
            break
        keys.append(line.strip())
    return entries


def _dedent_body(lines: list[str]) -> str:
    """Drop the leading TAB of each line; paragraphs stay separated by blank lines."""
    out = [ln[1:] if ln.startswith("\t") else ln for ln in lines]
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def parse_compiled_rumors(text: str) -> tuple[list[str], list[str]]:
    """(true, false) rumors from ``nhdat:rumors``: scrambled lines padded with '_'.

    The header line ``tcount,tsize,toffset;fcount,fsize,foffset;...`` gives
    the number of true rumors; they come first.
    """
    lines = text.split("\n")
    i = 1 if lines and lines[0].startswith("#") else 0
    header = lines[i]
    true_count = int(header.split(",")[0])
    rumors = [xcrypt(ln).rstrip("_").strip() for ln in lines[i + 1:] if ln]
    return rumors[:true_count], rumors[true_count:]


def parse_compiled_oracles(text: str) -> list[str]:
    """Oracle texts from ``nhdat:oracles``: a count, offsets, "---", then scrambled lines.

    The first consultation in the archive is makedefs' own default text; it
    is not in ``oracles.txt`` and is dropped here too.
    """
    lines = text.split("\n")
    start = lines.index("---") + 1
    # The "---" separators are stored as they are; only the text lines are scrambled.
    decoded = [ln if ln == "---" else xcrypt(ln) for ln in lines[start:]]
    found = _split_oracles(decoded, separator="---")
    return found[1:]


def _split_oracles(lines: list[str], separator: str = "-----") -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    for ln in lines:
        if ln.startswith("#") and not cur:
            continue
        if ln.strip() == separator:
            if cur:
                out.append("\n".join(cur).strip())
            cur = []
            continue
        cur.append(ln.rstrip())
    if any(c.strip() for c in cur):
        out.append("\n".join(cur).strip())
    return [o for o in out if o]


# ------------------------------------------------------------- documents
def _plain_key(key: str) -> str:
    """An encyclopedia key pattern as words: "*altar" -> "altar", "amulet of *" -> "amulet of"."""
    return re.sub(r"\s+", " ", re.sub(r"[*?~]", " ", key)).strip()


def _entry_title(keys: list[str], known_names: Sequence[str] = ()) -> str:
    """A readable title for an encyclopedia entry from its key patterns.

    A key without wildcards wins; otherwise the first monster or object name
    the pattern matches ("c?ckatrice" -> "cockatrice"); otherwise the pattern
    with its wildcards removed.
    """
    positive = [k for k in keys if not k.startswith("~")] or keys
    exact = [k for k in positive if not re.search(r"[*?\[]", k)]
    if exact:
        return max(exact, key=len) if len(exact) > 1 and len(exact[0]) <= 3 else exact[0]
    for k in positive:
        if re.search(r"\w[*?]\w", k):  # "c*ckatrice", "k?ration": a wildcard inside a word, so a real name fits
            hits = [n for n in known_names if fnmatch.fnmatchcase(n.lower(), k.lower())]
            if hits:
                return min(hits, key=len)
            return _plain_key(re.sub(r"(?<=\w)[*?](?=\w)", "", k))
    return _plain_key(positive[0])  # "*mummy" -> "mummy"


def encyclopedia_documents(texts: NetHackTexts, known_names: Sequence[str] = ()) -> list[Document]:
    """One document per encyclopedia entry; its keys (wildcards removed) become aliases.

    ``known_names`` (monster and object names) turn patterns into titles.
    """
    docs: list[Document] = []
    seen: dict[str, int] = {}
    for keys, body in texts.encyclopedia():
        title = _entry_title(keys, known_names)
        key = title.lower()
        seen[key] = seen.get(key, 0) + 1
        doc_id = f"encyclopedia:{key}" if seen[key] == 1 else f"encyclopedia:{key}#{seen[key]}"
        aliases = tuple(dict.fromkeys(
            a for k in keys if not k.startswith("~") and (a := _plain_key(k)) and a != title and "?" not in k))
        docs.append(Document(doc_id, title, "encyclopedia", (Section("", body),), aliases))
    return docs


def rumor_documents(texts: NetHackTexts) -> list[Document]:
    """One small document per true rumor ("rumor:0" …)."""
    return [
        Document(f"rumor:{i}", "True rumor", "rumors", (Section("", r),))
        for i, r in enumerate(texts.true_rumors())
    ]


def oracle_documents(texts: NetHackTexts) -> list[Document]:
    """One document per major Oracle consultation ("oracle:0" …)."""
    return [
        Document(f"oracle:{i}", "Oracle consultation", "oracles", (Section("", o),))
        for i, o in enumerate(texts.oracles())
    ]


def _help_sections(text: str) -> tuple[Section, ...]:
    """Help files: a line ending in ':' at column 0..8 followed by indented text starts a section."""
    sections: list[Section] = []
    heading, buf = "", []
    for line in text.splitlines():
        m = re.match(r"^\s{0,8}([A-Z][A-Za-z ,'/-]{2,40}):\s*$", line)
        if m:
            if any(b.strip() for b in buf):
                sections.append(Section(heading, "\n".join(buf).strip("\n")))
            heading, buf = m.group(1).strip(), []
            continue
        buf.append(line.rstrip())
    if any(b.strip() for b in buf):
        sections.append(Section(heading, "\n".join(buf).strip("\n")))
    return tuple(sections)


def help_documents(texts: NetHackTexts) -> list[Document]:
    """NetHack's in-game help files, one document each."""
    docs = []
    for name, title in HELP_FILES.items():
        text = texts.help_text(name)
        if text and text.strip():
            docs.append(Document(f"help:{name}", title, "help", _help_sections(text)))
    return docs


def find_guidebook(extra: Optional[Path] = None) -> Optional[Path]:
    """A plain-text Guidebook: ``HACKWRIGHT_GUIDEBOOK``, NLE's tree, or a system NetHack's docs."""
    candidates: list[Path] = []
    if extra:
        candidates.append(Path(extra))
    env = os.environ.get("HACKWRIGHT_GUIDEBOOK")
    if env:
        candidates.append(Path(env))
    try:
        root = nethack_dir()
        for sub in (root, root / "doc", root.parent / "doc"):
            candidates.extend(sub / n for n in GUIDEBOOK_NAMES)
    except FileNotFoundError:
        pass
    for d in (Path("/usr/share/doc/nethack-common"), Path("/usr/share/doc/nethack"), Path("/usr/share/games/nethack")):
        candidates.extend(d / n for n in GUIDEBOOK_NAMES)
    for c in candidates:
        if c.is_file():
            return c
    return None


def read_maybe_gzip(path: Path) -> str:
    """A text file, gunzipped when its name ends in .gz."""
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace")


def _reflow(text: str) -> str:
    """Join a justified, indented text's lines into paragraphs (a new paragraph starts indented)."""
    paras: list[list[str]] = []
    for line in text.split("\n"):
        if not line.strip():
            if paras and paras[-1]:
                paras.append([])
            continue
        indent = len(line) - len(line.lstrip())
        if not paras or (indent >= 14 and paras[-1]):
            paras.append([])
        paras[-1].append(re.sub(r"\s+", " ", line.strip()))
    out: list[str] = []
    for p in (" ".join(p) for p in paras if p):
        if out and p[:1].islower() and not out[-1].endswith((".", "!", "?", ":")):
            out[-1] += " " + p  # a page break cut this paragraph in two
        else:
            out.append(p)
    return "\n\n".join(out)


def guidebook_documents(path: Optional[Path] = None) -> list[Document]:
    """The Guidebook split at its numbered headings ("5.  Monsters"); empty when none is installed."""
    p = find_guidebook(path)
    if p is None:
        return []
    text = read_maybe_gzip(p)
    # nroff output: drop overstriking ("_\bA", "A\bA"), page headers, and rejoin hyphenated words.
    text = re.sub(r".\x08", "", text)
    text = re.sub(r"(?m)^\s*NetHack Guidebook\s+\d+\s*$", "", text)
    text = re.sub(r"(?m)^\s*NetHack \d\.\d+(\.\d+)?\s+\w+ \d+, \d{4}\s*$", "", text)
    text = re.sub(r"(\w)-\n\s*(\w)", r"\1\2", text)
    sections: list[Section] = []
    heading, buf = "Introduction", []
    for line in text.splitlines():
        m = re.match(r"^\s{0,12}(\d+(?:\.\d+)*)\.\s+(\S.{1,70})$", line)
        if m and len(line.strip()) < 80 and "  " not in m.group(2).strip() and not line.rstrip().endswith((".", ",")):
            if any(b.strip() for b in buf):
                sections.append(Section(heading, _reflow("\n".join(buf))))
            heading, buf = f"{m.group(1)}. {m.group(2).strip()}", []
            continue
        buf.append(line.rstrip())
    if any(b.strip() for b in buf):
        sections.append(Section(heading, _reflow("\n".join(buf))))
    return [Document("guidebook", "A Guide to the Mazes of Menace (Guidebook)", "guidebook", tuple(sections))]


def nethack_documents(texts: Optional[NetHackTexts] = None, known_names: Sequence[str] = ()) -> Iterator[Document]:
    """Every built-in text document: encyclopedia, true rumors, oracles, help, Guidebook."""
    texts = texts or NetHackTexts()
    yield from encyclopedia_documents(texts, known_names)
    yield from rumor_documents(texts)
    yield from oracle_documents(texts)
    yield from help_documents(texts)
    yield from guidebook_documents()

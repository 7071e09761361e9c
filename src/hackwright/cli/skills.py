"""`hackwright skills`: the skill library."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .common import SEED_HELP, app, console, fail, print_rows


skills_app = typer.Typer(help="The skill library: list, inspect, retire, revive and restore skills.",
                         no_args_is_help=True)
app.add_typer(skills_app, name="skills")

_LIBRARY_HELP = ("The skill library folder (default: $HACKWRIGHT_LIBRARY, else skills.library_path of config.yaml: "
                 "./skills).")
_DB_HELP = ("The run database holding the skills' statistics (default: $HACKWRIGHT_MEMORY_DATABASE_PATH, else "
            "the database the library's runs were last recorded in, else runs.db beside an evaluation's library, "
            "else memory.database_path of config.yaml: ./data/memory.db).")


def _choose(library: Optional[Path], db: Optional[Path]):
    """The library folder and the database its statistics are read from (with why)."""
    from ..skills.database import library_database
    from .common import load_config_or_exit

    cfg = load_config_or_exit()
    root = library or Path(cfg.get("skills", "library_path"))
    return root, library_database(root, db, given_as="--db", config=cfg)


def _open_library(library: Optional[Path], db: Optional[Path], *, load: bool = True):
    from ..skills.library import SkillLibrary

    root, database = _choose(library, db)
    lib = SkillLibrary(root, db_path=database)
    if load:
        report = lib.load()
        for q in report.quarantined:
            console.print(f"[yellow]quarantined[/yellow] {q.path} → {q.moved_to}: "
                          f"{q.reason.splitlines()[0] if q.reason else ''}", highlight=False)
        for b in report.invalid_builtins:
            console.print(f"[yellow]invalid built-in[/yellow] {b.path}: "
                          f"{b.reason.splitlines()[0] if b.reason else ''}", highlight=False)
        if report.db_recovered_from:
            console.print(f"[yellow]corrupt database moved to[/yellow] {report.db_recovered_from}", highlight=False)
        if report.meta_recovered_from:
            console.print(f"[yellow]unreadable meta.json moved to[/yellow] {report.meta_recovered_from}",
                          highlight=False)
        merged = report.merged
        if merged is not None and merged.problem:
            console.print(f"[yellow]old database not merged:[/yellow] {merged.problem}", highlight=False,
                          soft_wrap=True)
        elif merged is not None and merged.moved_to is not None:
            console.print(f"merged {merged.runs} runs from the old {merged.path} into {lib.db_path} "
                          f"(the old file is kept as {merged.moved_to.name})", highlight=False, soft_wrap=True)
    return lib


def _source_line(lib) -> str:
    return f"statistics from {lib.database.describe()}"


def _rate(st) -> str:
    """Successes of the finished runs; interrupted runs are neither successes nor failures."""
    if not st or not st.executions:
        return "–"
    return f"{st.success_rate:.0%} of {st.finished:,}" + (f" (+{st.interrupted:,} int.)" if st.interrupted else "")


def _value(st) -> str:
    return f"{st.mean_value:+.1f}" if st and st.executions else "–"


@skills_app.command("list")
def skills_list(
    all_: bool = typer.Option(False, "--all", help="Include retired skills."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """List the skills (built-in and model-written) by category.

    Loading validates every file: invalid ones are quarantined (and listed first)."""
    with _open_library(library, db) as lib:
        stats = lib.all_stats()
        skills = lib.all(include_retired=all_)
        table = Table(title=f"Skills in {lib.root} ({len(skills)})", caption=_source_line(lib))
        wide = console.width >= 110
        cols = ("category", "name", "version", "success", "value", "description") + (("triggers",) if wide else ())
        for col in cols:
            table.add_column(col, justify="right" if col in ("success", "value") else "left",
                             no_wrap=col in ("category", "name", "version"),
                             ratio={"description": 2, "triggers": 1}.get(col))
        for s in skills:
            st = stats.get(s.name)
            name = f"{s.name} [red](retired)[/red]" if s.retired else s.name
            cut = 70 if wide else 36
            desc = s.description if len(s.description) <= cut else s.description[:cut - 1] + "…"
            row = [s.category, name, f"{'built-in' if s.is_builtin else 'model'} v{s.version}", _rate(st),
                   _value(st), desc]
            if wide:
                row.append(", ".join(s.triggers) or "–")
            table.add_row(*row)
        console.print(table)


@skills_app.command("show")
def skills_show(
    name: str = typer.Argument(..., help="The skill's name."),
    code: bool = typer.Option(False, "--code", help="Print the skill's code."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """One skill: description, parameters, triggers, versions and record."""
    from rich.syntax import Syntax

    from ..skills.library import SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            s = lib.get(name)
        except SkillNotFoundError as e:
            raise fail(e, 1)
        st = lib.stats(name)
        table = Table(title=s.signature(), show_header=False, caption=_source_line(lib))
        table.add_row("description", s.description or "–")
        table.add_row("category", s.category)
        table.add_row("source", f"{s.source}, version {s.version} ({len(lib.versions(name))} known)")
        records = lib.version_records(name)
        table.add_row("versions", ", ".join(
            f"v{v.version}" + (" (current)" if v.current else "")
            + (f": {records[v.version].successes}/{records[v.version].runs - records[v.version].interrupted} ok"
               if v.version in records else "") for v in lib.versions(name)))
        table.add_row("triggers", ", ".join(s.triggers) or "none")
        table.add_row("parameters", ", ".join(
            f"{p.name}: {p.type}" + (f" = {p.default}" if p.default is not None else "") for p in s.parameters) or "none")
        table.add_row("runs", f"{st.executions:,} ({st.successes:,} successful, {st.interrupted:,} interrupted, "
                              f"{st.errors} errors, {st.deaths} deaths; {st.mean_turns:.0f} turns each)")
        table.add_row("success rate", _rate(st))
        table.add_row("mean value", _value(st))
        table.add_row("judged runs", f"{st.recent_executions} (since this version / last revival), "
                                     f"mean value {st.recent_mean_value:+.1f}")
        table.add_row("last used", st.last_used or "never")
        table.add_row("retired", f"yes: {s.retired_reason or ''}" if s.retired else "no")
        table.add_row("file", str(s.path))
        console.print(table)
        if code:
            console.print(Syntax(s.code, "python", line_numbers=True))


@skills_app.command("stats")
def skills_stats(
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Every skill's record in the run database: runs, successes, value, last use.

    The first line names the database read and why that one (see --db)."""
    with _open_library(library, db) as lib:
        stats = lib.all_stats()
        console.print(f"database: {lib.database.describe()}", highlight=False, soft_wrap=True)
        table = Table(title=f"Skill statistics of {lib.root}")
        for col in ("name", "runs", "success", "value", "judged", "err/died", "last used", "state"):
            table.add_column(col, justify="left" if col in ("name", "last used", "state") else "right")
        known = {s.name: s for s in lib.all(include_retired=True)}
        for name in sorted(set(known) | set(stats)):
            st = stats.get(name)
            s = known.get(name)
            state = "draft" if s is None else ("retired" if s.retired else s.source)
            if st is None:
                table.add_row(name, "0", "–", "–", "–", "–", "never", state)
                continue
            table.add_row(name, f"{st.executions:,}", f"{st.success_rate:.0%}", f"{st.mean_value:+.1f}",
                          f"{st.recent_executions} @ {st.recent_mean_value:+.1f}", f"{st.errors}/{st.deaths}",
                          (st.last_used or "never")[:16].replace("T", " "), state)
        console.print("value: mean per run; judged: runs of the current version since saved/revived @ their "
                      "mean value (what prune judges)", style="dim")
        console.print(table)


@skills_app.command("retire")
def skills_retire(
    name: str = typer.Argument(..., help="The skill's name."),
    reason: str = typer.Option("retired by hand", "--reason", help="Why (kept in meta.json and SKILL.md)."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Retire a skill: kept on disk, no longer offered to the agent."""
    from ..skills.library import SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            lib.retire(name, reason)
        except SkillNotFoundError as e:
            raise fail(e, 1)
        console.print(f"retired {name}: {reason}")


@skills_app.command("revive")
def skills_revive(
    name: str = typer.Argument(..., help="The skill's name."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Bring a retired skill back (its judged runs start afresh)."""
    from ..skills.library import SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            lib.revive(name)
        except SkillNotFoundError as e:
            raise fail(e, 1)
        console.print(f"revived {name}")


@skills_app.command("restore")
def skills_restore(
    name: str = typer.Argument(..., help="The skill's name."),
    version: int = typer.Argument(..., help="The version to make current (`hackwright skills show NAME` lists them)."),
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Make an older (or kept-aside) version of a model-written skill current again.

    The version it replaces stays stored; the skill's judged runs start afresh."""
    from ..sandbox.errors import SkillExecutionError
    from ..skills.library import SkillLibraryError, SkillNotFoundError

    with _open_library(library, db) as lib:
        try:
            before = lib.get(name).version
            skill = lib.restore(name, version)
        except (SkillNotFoundError, SkillLibraryError) as e:
            raise fail(e, 1)
        except SkillExecutionError as e:
            raise fail(f"version {version} of {name} cannot be restored: {e}", 1)
        if before == skill.version:
            console.print(f"{name} v{skill.version} is already current", highlight=False)
        else:
            console.print(f"restored {name} v{skill.version} (v{before} is kept)", highlight=False)


@skills_app.command("path")
def skills_path(
    library: Optional[Path] = typer.Option(None, "--library", envvar="HACKWRIGHT_LIBRARY", help=_LIBRARY_HELP),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Where the library keeps its files and which database holds its statistics (prints
    the folder first; nothing is created)."""
    from ..skills.database import old_database

    lib = _open_library(library, db, load=False)
    print(lib.root.resolve())
    table = Table(show_header=False)
    table.add_row("database", str(lib.db_path.resolve()))
    table.add_row("chosen by", lib.database.reason)
    old = old_database(lib.root, lib.db_path)
    if old is not None:
        table.add_row("old database", f"{old.resolve()} (its runs are merged into the database at the next load)")
    table.add_row("meta", str(lib.meta_path.resolve()))
    table.add_row("built-ins", str(lib.builtin_root) if lib.builtin_root else "none")
    table.add_row("older versions", str(lib.versions_dir.resolve()))
    table.add_row("quarantine", str(lib.quarantine_dir.resolve()))
    console.print(table)

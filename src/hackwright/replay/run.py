"""Finding a recorded episode: its files (frames, ttyrec, summary) and its database rows.

``RUN`` on the command line is one of

* an episode id in the run database (``episodes.id``): the record directory is
  the folder of the ttyrec stored in ``episodes.ttyrec`` (the agent loop
  records the ttyrec, ``frames.bin`` and ``summary.json`` into one folder);
* a record directory (``runs/20250101-120000-seed0``);
* a file inside one (``frames.bin``, the ``*.ttyrec*`` or ``summary.json``).

For a directory the episode id comes from ``summary.json``, else from the
frame file's header (``meta.episode_id``), else from the database row whose
ttyrec lies in that directory. The database is opened read-only and never
created: a viewer must not change the runs it shows.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from .frames import FrameFileError, FrameLog, load_frames, read_header

FRAMES_NAME = "frames.bin"
SUMMARY_NAME = "summary.json"
DEFAULT_DB = "data/memory.db"


class RunNotFoundError(LookupError):
    """``RUN`` names no episode and no record directory."""


@dataclass
class DecisionRow:
    """One row of the ``decisions`` table: what the strategist chose at a step and how it went."""

    step: int
    turn: Optional[int]
    type: str
    skill_name: Optional[str]
    params: Any
    code: Optional[str]
    reasoning: Optional[str]
    stopped_reason: Optional[str]
    success: Optional[bool]
    error: Optional[str]

    def label(self) -> str:
        """A short name for the decision: the skill, or the type (``direct_action`` …)."""
        return self.skill_name or self.type

    def headline(self) -> str:
        """One line: step, skill with parameters, and how it ended."""
        params = ""
        if self.params not in (None, {}, [], ""):
            params = " " + json.dumps(self.params, default=str, separators=(",", ":"))
        outcome = "ok" if self.success else "failed"
        if self.stopped_reason:
            outcome += f" ({self.stopped_reason})"
        if self.error:
            outcome += f": {self.error.splitlines()[0][:120]}"
        return f"step {self.step} [{self.type}] {self.label()}{params} -> {outcome}"


@dataclass
class EventRow:
    """One row of the ``events`` table (a game event seen during a step)."""

    step: int
    turn: Optional[int]
    kind: str
    message: Optional[str]
    data: Any


@dataclass
class RunRecord:
    """Everything known about one recorded episode."""

    run: str  # what was asked for
    episode_id: Optional[int] = None
    record_dir: Optional[Path] = None
    frames: Optional[Path] = None  # frames.bin, when present
    ttyrec: Optional[Path] = None
    summary: Optional[dict] = None  # summary.json, else the database's copy
    episode: dict = field(default_factory=dict)  # the episodes row
    decisions: list[DecisionRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def decision_at(self, step: int) -> Optional[DecisionRow]:
        """The decision made at ``step`` (None for step 0 and unknown steps)."""
        for d in self.decisions:
            if d.step == step:
                return d
        return None

    def load_frames(self, source: str = "auto", every: int = 1) -> FrameLog:
        """The recording's frames: from ``frames.bin`` ("frames"), the ttyrec ("ttyrec"), or
        the first of the two that exists ("auto"). ``every`` thins frames.bin (see
        :func:`~hackwright.replay.frames.load_frames`)."""
        if source not in ("auto", "frames", "ttyrec"):
            raise ValueError(f"unknown source {source!r}: use auto, frames or ttyrec")
        if source in ("auto", "frames") and self.frames is not None:
            return load_frames(self.frames, every=every)
        if source in ("auto", "ttyrec") and self.ttyrec is not None and self.ttyrec.is_file():
            from .ttyrec import load_ttyrec

            return load_ttyrec(self.ttyrec)
        raise RunNotFoundError(f"{self.run}: no {'ttyrec' if source == 'ttyrec' else FRAMES_NAME}"
                               + (" or ttyrec" if source == "auto" else "") + " to replay")

    def title(self) -> str:
        """A human title: episode, seed, role, strategist, how it ended."""
        s = self.summary or {}
        e = self.episode
        parts = [f"episode {self.episode_id}" if self.episode_id is not None else str(self.record_dir or self.run)]
        seed = s.get("seed", e.get("seed"))
        if seed is not None:
            parts.append(f"seed {seed}")
        for key in ("role", "strategist"):
            v = s.get(key, e.get(key))
            if v:
                parts.append(str(v))
        end = s.get("end_reason", e.get("end_reason"))
        if end:
            death = s.get("death_reason", e.get("death_reason"))
            parts.append(f"ended by {end}" + (f" ({death})" if death else ""))
        return " · ".join(parts)


def _json(text: Any) -> Any:
    if text is None or text == "":
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def _open_db(db: Union[str, Path, None]) -> Optional[sqlite3.Connection]:
    if db is None or not Path(db).is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{Path(db).resolve()}?mode=ro", uri=True, timeout=10)
        conn.row_factory = sqlite3.Row
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
        return conn
    except sqlite3.Error:
        return None


def _find_ttyrec(folder: Path) -> Optional[Path]:
    found = sorted(folder.glob("*.ttyrec*"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def resolve_run(run: Union[str, int, Path], db: Union[str, Path, None] = DEFAULT_DB) -> RunRecord:
    """Find the files and database rows of ``run`` (an episode id or a record path).

    Raises :class:`RunNotFoundError` when there is neither.
    """
    rec = RunRecord(run=str(run))
    conn = _open_db(db)
    try:
        path = Path(str(run)).expanduser()
        if path.exists():
            folder = path if path.is_dir() else path.parent
            rec.record_dir = folder.resolve()
            if path.is_file() and ".ttyrec" in path.name:
                rec.ttyrec = path.resolve()
        elif str(run).isdigit():
            rec.episode_id = int(str(run))
        else:
            raise RunNotFoundError(f"{run!r} is neither an episode id nor an existing record path")

        if rec.episode_id is not None:
            if conn is None or not _has_table(conn, "episodes"):
                raise RunNotFoundError(f"episode {rec.episode_id}: no run database at {db}")
            row = conn.execute("SELECT * FROM episodes WHERE id=?", (rec.episode_id,)).fetchone()
            if row is None:
                raise RunNotFoundError(f"episode {rec.episode_id} is not in {db}")
            rec.episode = dict(row)
            tty = rec.episode.get("ttyrec") or (_json(rec.episode.get("summary")) or {}).get("ttyrec")
            if tty:
                rec.ttyrec = Path(tty)
                rec.record_dir = Path(tty).parent
                if not rec.record_dir.is_dir():
                    rec.warnings.append(f"the record directory {rec.record_dir} is gone")
            else:
                rec.warnings.append("the episode has no recording (not finished, or played with --no-record)")

        folder = rec.record_dir
        if folder is not None and folder.is_dir():
            if (folder / FRAMES_NAME).is_file():
                rec.frames = folder / FRAMES_NAME
            if rec.ttyrec is None or not rec.ttyrec.is_file():
                rec.ttyrec = _find_ttyrec(folder) or rec.ttyrec
            if (folder / SUMMARY_NAME).is_file():
                try:
                    rec.summary = json.loads((folder / SUMMARY_NAME).read_text())
                except (OSError, ValueError) as e:
                    rec.warnings.append(f"unreadable {SUMMARY_NAME}: {e}")
        if rec.episode_id is None:
            rec.episode_id = _episode_of_folder(rec, conn)
            if rec.episode_id is not None and conn is not None:
                row = conn.execute("SELECT * FROM episodes WHERE id=?", (rec.episode_id,)).fetchone()
                if row is not None:
                    rec.episode = dict(row)
                    _check_same_run(rec)
        if rec.summary is None and rec.episode.get("summary"):
            s = _json(rec.episode["summary"])
            rec.summary = s if isinstance(s, dict) else None
        if rec.episode and conn is not None:
            _load_rows(rec, conn)
        if rec.frames is None and (rec.ttyrec is None or not rec.ttyrec.is_file()):
            where = rec.record_dir or db
            rec.warnings.append(f"no {FRAMES_NAME} and no ttyrec in {where}: nothing to replay")
        return rec
    finally:
        if conn is not None:
            conn.close()


def _episode_of_folder(rec: RunRecord, conn: Optional[sqlite3.Connection]) -> Optional[int]:
    if rec.summary and isinstance(rec.summary.get("episode_id"), int):
        return int(rec.summary["episode_id"])
    if rec.frames is not None:
        try:
            eid = (read_header(rec.frames).get("meta") or {}).get("episode_id")
            if isinstance(eid, int):
                return eid
        except (OSError, FrameFileError):
            pass
    if conn is not None and rec.record_dir is not None and _has_table(conn, "episodes"):
        prefix = str(rec.record_dir) + "/"
        row = conn.execute("SELECT id FROM episodes WHERE substr(ttyrec, 1, ?) = ? ORDER BY id DESC LIMIT 1",
                           (len(prefix), prefix)).fetchone()
        if row is not None:
            return int(row[0])
    return None


def _check_same_run(rec: RunRecord) -> None:
    """A copied folder read against another database would show someone else's decisions."""
    stored = rec.episode.get("ttyrec")
    if stored and rec.ttyrec is not None and Path(stored).name != rec.ttyrec.name:
        rec.warnings.append(f"episode {rec.episode_id} in the database recorded {Path(stored).name}, "
                            f"not {rec.ttyrec.name}: decisions not shown (wrong --db?)")
        rec.episode = {}


def _load_rows(rec: RunRecord, conn: sqlite3.Connection) -> None:
    if _has_table(conn, "decisions"):
        for r in conn.execute("SELECT * FROM decisions WHERE episode_id=? ORDER BY step, id", (rec.episode_id,)):
            success = r["success"]
            rec.decisions.append(DecisionRow(
                step=int(r["step"] or 0), turn=r["turn"], type=str(r["type"] or ""), skill_name=r["skill_name"],
                params=_json(r["params"]), code=r["code"], reasoning=r["reasoning"],
                stopped_reason=r["stopped_reason"], success=None if success is None else bool(success),
                error=r["error"]))
    if _has_table(conn, "events"):
        for r in conn.execute("SELECT * FROM events WHERE episode_id=? ORDER BY id", (rec.episode_id,)):
            rec.events.append(EventRow(step=int(r["step"] or 0), turn=r["turn"], kind=str(r["kind"] or ""),
                                       message=r["message"], data=_json(r["data"])))

"""The runs of skills and the judgement on them: ``record_execution``, statistics,
``should_save``, ``retire`` / ``revive`` and ``prune``."""

from __future__ import annotations

import logging
from typing import Any, Mapping, Optional, Union

from ...store import utc_now
from ...store import skills as sql
from ..database import remember_database
from ..result import SkillResult
from ..stats import (
    DEATH_REASONS,
    EXPLORED_KEY,
    ExecutionRecord,
    SkillStats,
    compute_deltas,
    execution_value,
    json_text,
    jsonable,
    number_of,
    record_from_row,
    snapshot,
    stats_from_row,
)
from .folder import LibraryFolder
from .records import Skill
from .skill_files import _error_text
from .vocabulary import MIN_RUNS_TO_JUDGE

log = logging.getLogger("hackwright.skills")


class LibraryHistory(LibraryFolder):
    """Runs, statistics, retiring and pruning."""

    def record_execution(
        self,
        name: str,
        *,
        params: Optional[Mapping[str, Any]],
        result: Union[SkillResult, Mapping[str, Any], None],
        before: Any,
        after: Any,
        error: Union[str, BaseException, None] = None,
        episode_id: Optional[int] = None,
        died: Optional[bool] = None,
        draft: bool = False,
        explored_before: Optional[int] = None,
        explored_after: Optional[int] = None,
    ) -> ExecutionRecord:
        """Store one run of ``name`` (a library skill or a model's draft) and its value.

        ``before`` / ``after`` are the hero's ``Stats`` (or dicts of them) around
        the run. ``result`` may be None when the run failed with ``error``.
        ``died`` defaults to: ``after.hp <= 0`` or a stopped reason such as
        "died"/"game_over". Safe to call from several processes at once. The
        ``draft``: the code that ran is not the library's current version of ``name``
        (a model's rewrite, saved only afterwards): the run is recorded without a
        version and does not count for the stored one. ``explored_before`` /
        ``explored_after``: the squares of every level the hero knew to walk on around
        the run (kept in the snapshots as ``explored_squares``; the value counts the
        squares gained as progress). A run whose stopped reason is
        ``interrupted:<event>`` counts as neither success nor failure. Code that never
        ran (rejected by validation) is no run: do not record it. The
        first run recorded by a library object also names its database in
        ``<root>/run-database.json``, which is how ``hackwright skills`` and a
        ``SkillLibrary`` made without ``db_path`` find these runs.
        """
        if result is None:
            res = SkillResult(stopped_reason="error" if error is not None else "no_result", success=False)
        else:
            res = SkillResult.coerce(dict(result) if isinstance(result, Mapping) else result)
        err = None if error is None else (_error_text(error) if isinstance(error, BaseException) else str(error))
        b, a = snapshot(before), snapshot(after)
        if explored_before is not None and explored_after is not None:
            b[EXPLORED_KEY], a[EXPLORED_KEY] = int(explored_before), int(explored_after)
        deltas = compute_deltas(b, a)
        if died is None:
            hp = number_of(a, "hp")
            died = (hp is not None and hp <= 0 and number_of(a, "max_hp") not in (None, 0.0)) or \
                str(res.stopped_reason).strip().lower() in DEATH_REASONS
        value = execution_value(deltas, success=bool(res.success), error=err is not None, died=bool(died),
                                weights=self.weights)
        ts = utc_now()
        p = dict(params or {})
        rid, version = sql.insert_execution(
            self.db, name, timestamp=ts, params=json_text(p), stopped_reason=str(res.stopped_reason),
            success=bool(res.success), actions_taken=int(res.actions_taken or 0),
            turns_elapsed=int(res.turns_elapsed or 0), before=json_text(b), after=json_text(a), episode_id=episode_id,
            error=err, deltas=json_text(deltas), value=value, died=bool(died), data=json_text(res.data or {}),
            draft=draft,
        )
        self._remember_database()
        return ExecutionRecord(
            id=rid, name=name, version=version, timestamp=ts, params=jsonable(p), stopped_reason=str(res.stopped_reason),
            success=bool(res.success), actions_taken=int(res.actions_taken or 0),
            turns_elapsed=int(res.turns_elapsed or 0), before=b, after=a, deltas=deltas, value=value,
            died=bool(died), error=err, episode_id=episode_id,
        )

    def executions(self, name: Optional[str] = None, *, limit: int = 50) -> list[ExecutionRecord]:
        """The latest recorded runs (of ``name``, or of every skill), newest first."""
        return [record_from_row(r) for r in sql.execution_rows(self.db, name, limit=limit)]

    def _remember_database(self) -> None:
        if self._remembered:
            return
        self._remembered = True
        try:
            remember_database(self.root, self.db_path)
        except OSError as e:  # a read-only library folder: the runs are recorded all the same
            log.warning("could not write %s: %s", self.root / "run-database.json", e)

    def stats(self, name: str) -> SkillStats:
        """What ``name``'s runs earned (zeros when it never ran)."""
        rows = sql.stats_rows(self.db, name)
        return stats_from_row(rows[0]) if rows else SkillStats(name=name)

    def all_stats(self) -> dict[str, SkillStats]:
        """Stats of every skill name that has runs."""
        return {r["name"]: stats_from_row(r) for r in sql.stats_rows(self.db)}

    # ------------------------------------------------------------ judging
    def should_save(
        self,
        result: Union[SkillResult, Mapping[str, Any], None],
        name: Optional[str] = None,
        min_success_rate_to_save: float = 0.3,
    ) -> bool:
        """Should the library keep this model-written skill (spec §9.3 ``skills``)?

        * new name (or none, or a retired skill being rewritten): save after a
          successful run — ``result.success``;
        * a built-in's name: False (model code cannot replace a built-in);
        * an existing model-written skill: it stays while the success rate of
          its judged runs (current version, since saved/revived; interrupted runs
          left out) is ≥ ``min_success_rate_to_save``; with fewer than
          ``MIN_RUNS_TO_JUDGE`` finished runs it stays. Call it after
          ``record_execution`` of the run. (The agent loop calls :meth:`adopt`,
          which also keeps a working version current.)
        """
        if result is None:
            res = None
        else:
            res = SkillResult.coerce(dict(result) if isinstance(result, Mapping) else result)
        if name is not None:
            self._ensure_loaded()
            if name in {p.stem for _, p in self._builtin_files()}:
                return False
            skill = self._skills.get(name)
            if skill is not None and skill.is_builtin:
                return False
            if skill is not None and not skill.retired:
                st = self.stats(name)
                if st.recent_finished < MIN_RUNS_TO_JUDGE:
                    return True
                return st.recent_success_rate >= min_success_rate_to_save
        return bool(res is not None and res.success)

    def retire(self, name: str, reason: str = "retired by hand") -> Skill:
        """Mark ``name`` retired (kept on disk; hidden from ``all()`` and ``relevant()``)."""
        return self._set_retired(name, True, reason)

    def revive(self, name: str) -> Skill:
        """Undo ``retire``; the skill's judged runs start afresh."""
        return self._set_retired(name, False, None)

    def _set_retired(self, name: str, retired: bool, reason: Optional[str], docs: bool = True) -> Skill:
        self._ensure_loaded()
        with self._lock():
            skill = self.get(name)
            now = utc_now()
            skill.retired = retired
            skill.retired_reason = reason if retired else None
            skill.updated_at = now
            if retired:
                sql.mark_retired(self.db, name, reason, now)
            else:
                sql.mark_revived(self.db, name, now)
            self._merge_meta_and_write(self._read_meta())
            if docs:
                self._write_docs(categories={skill.category})
        log.info("skill %s %s%s", name, "retired" if retired else "revived", f": {reason}" if reason else "")
        return skill

    def prune(self, min_runs: int = 5, threshold: float = 0.0, builtins: bool = False) -> list[str]:
        """Retire every model-written skill (built-ins too with ``builtins=True``) whose
        mean value is ≤ ``threshold`` over ≥ ``min_runs`` judged runs; return their
        names. The value weighs turns against progress (a run that burns turns without
        going deeper, gaining a level or score, or exploring squares costs; see
        :mod:`hackwright.skills.stats`), so a skill that only wastes time is retired too.
        Regenerates the docs. Built-ins are spared by default: the offline
        strategist is built on them, and their value depends on who calls them."""
        self._ensure_loaded()
        out = []
        with self._lock():
            stats = self.all_stats()
            for skill in self.all():
                if skill.source == "builtin" and not builtins:
                    continue
                st = stats.get(skill.name)
                if st is None or st.recent_executions < min_runs or st.recent_mean_value > threshold:
                    continue
                reason = (f"mean value {st.recent_mean_value:+.1f} ≤ {threshold:g} after "
                          f"{st.recent_executions} runs (success {st.recent_success_rate:.0%})")
                self._set_retired(skill.name, True, reason, docs=False)
                out.append(skill.name)
            self.regenerate_docs()
        return out

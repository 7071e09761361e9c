"""Episodes in the run database: written by the agent loop and the bot runner, read by
``hackwright runs``.

An episode's row is opened when its game starts and completed from its summary (the
fields of ``EpisodeSummary``) when it ends; decisions, game events and model exchanges
are written as they happen, each decision with who made it (``decided_by``).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterable, Mapping, Optional

from .db import transaction, utc_now


# ---------------------------------------------------------------- writing
def start_episode(conn: sqlite3.Connection, *, seed: Optional[int], env_id: str, role: str,
                  strategist: str) -> int:
    """Insert the row of an episode that begins now; return its id."""
    with transaction(conn):
        cur = conn.execute(
            "INSERT INTO episodes (started_at, seed, env_id, role, strategist) VALUES (?, ?, ?, ?, ?)",
            (utc_now(), seed, env_id, role, strategist))
        return int(cur.lastrowid)


def finish_episode(conn: sqlite3.Connection, episode_id: int, summary: Mapping[str, Any]) -> None:
    """Complete an episode's row from its summary; the whole summary is kept as JSON in
    ``episodes.summary``. The decisions another strategist made are counted in their own
    columns (fallback for a failed model, loop breaks); a MiniHack task's success and
    reward in ``task_success`` and ``task_reward`` (NULL without a task)."""
    loop_breaks = int(summary.get("loop_break_steps") or 0)
    fallbacks = int(summary.get("fallback_steps") or 0) - loop_breaks
    task_success = summary.get("task_success")  # None: no MiniHack task was tracked
    with transaction(conn):
        conn.execute(
            "UPDATE episodes SET ended_at=?, final_score=?, final_dlvl=?, death_reason=?, total_turns=?, "
            "skills_used=?, end_reason=?, max_depth=?, max_xp_level=?, progression=?, decisions=?, "
            "model_calls=?, input_tokens=?, output_tokens=?, cost_usd=?, skills_created=?, ttyrec=?, "
            "summary=?, fallback_decisions=?, loop_break_decisions=?, task_success=?, task_reward=? WHERE id=?",
            (utc_now(), summary.get("score"), summary.get("depth"), summary.get("death_reason"),
             summary.get("turns"), json.dumps(summary.get("skills_used") or {}), summary.get("end_reason"),
             summary.get("max_depth"), summary.get("max_xp_level"), summary.get("progression"),
             summary.get("decisions"), summary.get("model_calls") or 0, summary.get("input_tokens") or 0,
             summary.get("output_tokens") or 0, summary.get("cost_usd") or 0.0,
             json.dumps(summary.get("skills_created") or []), summary.get("ttyrec"),
             json.dumps(dict(summary), indent=2, default=str), max(fallbacks, 0), loop_breaks,
             None if task_success is None else int(bool(task_success)), summary.get("task_reward"), episode_id))


def record_decision(conn: sqlite3.Connection, episode_id: int, step: int, turn: int, *, type: str,
                    decided_by: str, skill_name: Optional[str] = None, params: Optional[dict] = None,
                    code: Optional[str] = None, reasoning: Optional[str] = None,
                    stopped_reason: Optional[str] = None, success: bool = False, error: Optional[str] = None,
                    events: Iterable[Any] = ()) -> None:
    """One decision and the game events (``GameEvent``) seen while it ran, in one transaction."""
    with transaction(conn):
        conn.execute(
            "INSERT INTO decisions (episode_id, step, turn, type, skill_name, params, code, reasoning, "
            "stopped_reason, success, error, decided_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (episode_id, step, turn, type, skill_name, json.dumps(params or {}, default=str), code, reasoning,
             stopped_reason, int(bool(success)), error, decided_by))
        for e in events:
            conn.execute(
                "INSERT INTO events (episode_id, step, turn, kind, message, data) VALUES (?,?,?,?,?,?)",
                (episode_id, step, e.turn, e.kind, e.message, json.dumps(e.data, default=str)))


def record_model_call(conn: sqlite3.Connection, episode_id: int, step: int, *, backend: str, reply: Any,
                      prompt: str) -> None:
    """One model exchange (a ``ModelReply``): what was sent last, the reply, tokens, latency, cost."""
    with transaction(conn):
        conn.execute(
            "INSERT INTO model_calls (episode_id, step, timestamp, backend, model, prompt, reply, tool_input, "
            "input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, latency_s, cost_usd) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (episode_id, step, utc_now(), backend, reply.model, prompt, reply.text,
             json.dumps(reply.tool_input) if reply.tool_input else None, reply.input_tokens, reply.output_tokens,
             reply.cache_read_tokens, reply.cache_write_tokens, reply.latency_s, reply.cost_usd))


# ---------------------------------------------------------------- reading
def latest_episodes(conn: sqlite3.Connection, limit: int) -> list[sqlite3.Row]:
    """The ``limit`` most recent episodes, newest first."""
    return list(conn.execute("SELECT * FROM episodes ORDER BY id DESC LIMIT ?", (limit,)))


def episode(conn: sqlite3.Connection, episode_id: int) -> Optional[sqlite3.Row]:
    """One episode's row, or None."""
    return conn.execute("SELECT * FROM episodes WHERE id=?", (episode_id,)).fetchone()


def decisions_of(conn: sqlite3.Connection, episode_id: int) -> list[sqlite3.Row]:
    """Every decision of an episode, in the order they were made."""
    return list(conn.execute("SELECT * FROM decisions WHERE episode_id=? ORDER BY id", (episode_id,)))


__all__ = ["start_episode", "finish_episode", "record_decision", "record_model_call", "latest_episodes", "episode",
           "decisions_of"]

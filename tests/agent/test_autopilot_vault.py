"""The autopilot in a gold vault: when its guard comes, the hero leaves with him alive."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hackwright.agent.loop import Agent
from hackwright.agent.episode import EpisodeConfig

VAULT = (Path(__file__).resolve().parents[1] / "levels" / "gold_vault.des").read_text()


async def test_an_autopilot_hero_in_a_closed_vault_follows_its_guard_out_and_lives(tmp_path):
    """A trap in a dead-end niche teleports heroes into a closed vault, where the
    autopilot searched for a way out until the guard came, kept searching through his
    warnings and fought him: six Valkyries, a Rogue, a Priest and a Samurai died so."""
    config = EpisodeConfig(seed=0, env_id="MiniHack-Navigation-Custom-v0", des_file=VAULT, role="valkyrie",
                           max_turns=120, db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"))
    summary = await Agent(config).run()
    assert summary.end_reason == "turn cap", summary
    with sqlite3.connect(tmp_path / "m.db") as db:
        runs = db.execute("select skill_name, stopped_reason from decisions order by step").fetchall()
    assert ("follow_vault_guard", "escorted") in runs, runs
    assert not any(name == "melee_fight" for name, _ in runs), runs

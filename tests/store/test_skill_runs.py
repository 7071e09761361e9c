"""Finding the games in which a skill ended a given way (scripts/seeds_with_run.py)."""

from __future__ import annotations

from hackwright.store import connect
from hackwright.store import skills as store_skills


def _run(conn, name, reason, episode, data="{}"):
    store_skills.insert_execution(conn, name, timestamp="2026-12-05T10:00:00", params="{}", stopped_reason=reason,
                                  success=False, actions_taken=0, turns_elapsed=0, before="{}", after="{}",
                                  episode_id=episode, error=None, deltas="{}", value=0.0, died=False, data=data)


def test_the_episodes_where_the_survival_skill_refused_a_bouncing_ray_are_found_and_no_others(tmp_path):
    conn = connect(tmp_path / "runs.db")
    bounce = '{"why": "only ray wands, and a wall close behind the monster would bounce the ray back at you"}'
    _run(conn, "quaff_or_zap_to_survive", "nothing_to_use", 3, bounce)
    _run(conn, "quaff_or_zap_to_survive", "nothing_to_use", 3, bounce)
    _run(conn, "quaff_or_zap_to_survive", "nothing_to_use", 5, '{"why": "no attack wand"}')
    _run(conn, "quaff_or_zap_to_survive", "quaffed", 7)
    _run(conn, "melee_fight", "nothing_to_use", 9, bounce)
    runs = store_skills.episodes_with_run
    assert runs(conn, "quaff_or_zap_to_survive", "nothing_to_use", "bounce") == [3]
    assert runs(conn, "quaff_or_zap_to_survive", "nothing_to_use") == [3, 5]
    assert runs(conn, "quaff_or_zap_to_survive") == [3, 5, 7]
    assert runs(conn, "get_digging_tool") == []

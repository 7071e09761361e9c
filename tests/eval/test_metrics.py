"""Evaluation metrics against hand-computed episodes (and four real autopilot episodes)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hackwright.eval.metrics import (
    EpisodeRecord,
    Estimate,
    compare,
    group_by_agent,
    load_episodes,
    normalise_death,
    progression_curve,
    skill_stats,
    summarize,
    turn_grid,
)
from hackwright.eval.progression import progression

DATA = Path(__file__).parent / "data"
REAL = DATA / "autopilot_episodes.jsonl"  # `hackwright play --seed S --json`, S = 0, 1 (30 steps), 2, 3 (250)

# Values read by hand from src/hackwright/eval/data/balrog_achievements.json.
DLVL_2, DLVL_3, DLVL_4, DLVL_7 = 0.015392269075361172, 0.017539535798967013, 0.021221378364235505, 0.04846098359243788
XP_2, XP_3, XP_5 = 0.01847840456172601, 0.02081163581974355, 0.029108986017138745


def ep(**kw) -> EpisodeRecord:
    kw.setdefault("agent", "test")
    return EpisodeRecord.from_dict(kw)


# ---------------------------------------------------------------- progression
def test_progression_takes_the_larger_of_depth_and_level():
    # Dlvl 3 → 1.75 %, XL 5 → 2.91 %: the experience level wins.
    assert progression(3, 5) == pytest.approx(XP_5)
    assert progression(7, 5) == pytest.approx(DLVL_7)  # here the depth wins
    assert progression(1, 1) == 0.0


def test_record_recomputes_progression_and_keeps_maxima_when_the_last_frame_is_zeroed():
    # NLE zeroes the status line in the final observation: depth 0 / XL 0 at the end.
    e = ep(depth=0, xp_level=0, turns=812, end_reason="death", death_reason="killed by a jackal",
           timeline=[[10, 1, 1, 0], [400, 3, 4, 120], [800, 3, 5, 150], [812, 0, 0, 0]])
    assert (e.max_depth, e.max_xp_level) == (3, 5)
    assert e.progression == pytest.approx(XP_5)


def test_record_from_sparse_dict_uses_defaults():
    e = EpisodeRecord.from_dict({"score": "17", "strategist": "random"})
    assert e.agent == "random" and e.score == 17 and e.turns == 0
    assert e.skills_used == {} and e.timeline == [] and e.seed is None and e.goal_reached is None
    assert e.progression == 0.0 and not e.died and not e.survived


def test_real_episodes_match_the_table():
    eps = load_episodes(REAL)
    assert [e.seed for e in eps] == [0, 1, 2, 3] and {e.agent for e in eps} == {"autopilot"}
    by_seed = {e.seed: e for e in eps}
    assert (by_seed[3].max_depth, by_seed[3].max_xp_level) == (7, 5)
    assert by_seed[3].progression == pytest.approx(DLVL_7)
    assert by_seed[1].progression == pytest.approx(DLVL_3)  # Dlvl 3, XL 1
    assert by_seed[0].progression == pytest.approx(XP_2)  # Dlvl 3, XL 2: 1.85 % > 1.75 %
    assert by_seed[2].death_cause == "giant bat"


# ---------------------------------------------------------------- statistics
def test_standard_error_by_hand():
    est = Estimate.of([100, 200, 600])
    # mean 300; squared deviations 40,000 + 10,000 + 90,000 = 140,000; s² = 70,000; SE = √(70,000 / 3)
    assert est.mean == pytest.approx(300.0)
    assert est.sd == pytest.approx(math.sqrt(70_000))
    assert est.se == pytest.approx(152.7525231651947)
    assert est.median == 200.0
    assert est.fmt(0) == "300 ± 153"


def test_estimate_of_one_or_no_values():
    one = Estimate.of([4])
    assert one.mean == 4 and math.isnan(one.se) and one.fmt() == "4.0"
    none = Estimate.of([])
    assert none.n == 0 and math.isnan(none.mean) and none.fmt() == "—"


def test_summarize_hand_computed():
    eps = [
        ep(score=100, max_depth=1, max_xp_level=1, turns=500, decisions=10, model_calls=5,
           end_reason="death", death_reason="killed by a jackal",
           skills_used={"explore": 6, "my_skill": 2, "other_new": 1}, skills_created=["my_skill"],
           input_tokens=1000, output_tokens=100, cost_usd=0.25, fallback_steps=2),
        ep(score=200, max_depth=3, max_xp_level=5, turns=1000, decisions=30, model_calls=15,
           end_reason="step cap", skills_used={"explore": 3, "my_skill": 2},
           input_tokens=3000, output_tokens=300, cost_usd=0.75),
        ep(score=600, max_depth=2, max_xp_level=2, turns=1001, decisions=0, end_reason="error: boom"),
    ]
    m = summarize(eps)
    assert m.n == 3 and m.agent == "test"
    assert m.score.mean == pytest.approx(300) and m.score.se == pytest.approx(152.7525231651947)
    assert m.score.median == 200
    assert m.depth.mean == pytest.approx(2.0) and m.depth.se == pytest.approx(1 / math.sqrt(3))
    assert m.xp_level.median == 2
    # progression per episode: 0, XL 5 (2.91 %), XL 2 (1.85 %)
    assert m.progression_pct.mean == pytest.approx(100 * (0 + XP_5 + XP_2) / 3)
    assert m.survival_rate == pytest.approx(1 / 3)  # only 1001 turns is *more* than 1,000
    assert m.death_rate == pytest.approx(1 / 3)
    assert m.harness_errors == 1
    assert m.end_reasons == {"death": 1, "step cap": 1, "error": 1}
    assert m.causes_of_death == {"jackal": 1}
    # skill runs 9 + 5 = 14; fresh: my_skill's 2 runs in the episode that created it; reused 12
    assert (m.skill_runs, m.reused_skill_runs) == (14, 12)
    assert m.skill_reuse_pct == pytest.approx(100 * 12 / 14)
    assert m.novel_skills_per_episode == pytest.approx(1 / 3)
    # pooled: 1000 × 40 / 2501; per episode: 20, 30, 0 → median 20
    assert m.decisions_per_1000_turns == pytest.approx(1000 * 40 / 2501)
    assert m.decisions_per_1000_turns_median == pytest.approx(20.0)
    assert m.model_calls_per_1000_turns == pytest.approx(1000 * 20 / 2501)
    assert m.model_calls_per_1000_turns_median == pytest.approx(10.0)
    assert m.fallback_share == pytest.approx(2 / 40)
    assert (m.input_tokens, m.output_tokens) == (4000, 400)
    assert m.cost_usd == pytest.approx(1.0) and m.cost_usd_per_episode == pytest.approx(1 / 3)
    assert m.goal_rate is None


def test_goal_rate_counts_only_episodes_with_a_goal():
    m = summarize([ep(goal_reached=True), ep(goal_reached=False), ep(goal_reached=True), ep()])
    assert m.goal_rate == pytest.approx(2 / 3)


def test_summarize_nothing():
    m = summarize([], agent="nobody")
    assert m.n == 0 and math.isnan(m.score.mean) and math.isnan(m.survival_rate)
    assert math.isnan(m.skill_reuse_pct)


@pytest.mark.parametrize("raw, cause", [
    ("killed by a jackal", "jackal"),
    ("killed by an arrow", "arrow"),
    ("killed by the Oracle", "Oracle"),
    ("killed by a hill orc, while helpless", "hill orc"),
    ("killed by a gnome lord on dungeon level 3", "gnome lord"),
    ("killed by an invisible jackal", "jackal"),
    ("starved to death", "starvation"),
    ("starved", "starvation"),
    ("died of starvation", "starvation"),
    ("choked on a food ration", "choking"),
    ("drowned in a pool of water", "drowning"),
    ("turned to stone", "petrification"),
    ("was poisoned by a killer bee", "killer bee (poison)"),
    (None, "unknown"),
    ("", "unknown"),
])
def test_causes_of_death_are_normalised(raw, cause):
    assert normalise_death(raw) == cause


def test_death_cause_only_for_deaths():
    assert ep(end_reason="step cap", death_reason="killed by a jackal").death_cause is None
    assert ep(end_reason="death").death_cause == "unknown"
    assert ep(end_reason="death", death_reason="killed by a newt").end_label == "death: newt"


# ---------------------------------------------------------------- progression over turns
def test_progression_curve_hand_computed():
    a = ep(turns=300, timeline=[[100, 1, 1, 0], [200, 2, 1, 10], [300, 3, 2, 20]])
    b = ep(turns=150, timeline=[[50, 1, 1, 0], [150, 1, 3, 5]])
    grid = [0, 100, 150, 200, 400]
    # a: 0, 0, 0, Dlvl 2, XL 2 (held after its end); b: 0, 0, XL 3, XL 3 (held), XL 3 (held)
    want = [0.0, 0.0, XP_3 / 2, (DLVL_2 + XP_3) / 2, (XP_2 + XP_3) / 2]
    assert progression_curve([a, b], grid) == pytest.approx(want)


def test_progression_curve_holds_final_value_without_timeline():
    e = ep(turns=100, max_depth=4, max_xp_level=1)
    assert progression_curve([e], [0, 50, 100, 200]) == pytest.approx([0, 0, DLVL_4, DLVL_4])


def test_turn_grid():
    g = turn_grid([ep(turns=1000), ep(turns=10)], points=11)
    assert g[0] == 0 and g[-1] == 1000 and len(g) == 11
    assert turn_grid([ep(turns=3)], points=50) == [0, 1, 2, 3]
    assert turn_grid([]) == [0]


# ---------------------------------------------------------------- loading and grouping
def test_load_single_summary_list_and_directory(tmp_path):
    rows = [json.loads(ln) for ln in REAL.read_text().splitlines()]
    (tmp_path / "one.json").write_text(json.dumps(rows[0], indent=2))
    assert len(load_episodes(tmp_path / "one.json")) == 1
    (tmp_path / "all.json").write_text(json.dumps(rows))
    assert len(load_episodes(tmp_path / "all.json", agent="x")) == 4
    (tmp_path / "episodes.jsonl").write_text(REAL.read_text() + "\n\n")
    assert len(load_episodes(tmp_path)) == 4


def test_compare_keeps_order_and_names():
    eps = [ep(agent="random", score=1), ep(agent="autopilot", score=5), ep(agent="random", score=3)]
    groups = group_by_agent(eps)
    assert list(groups) == ["random", "autopilot"]
    res = compare(groups)
    assert list(res) == ["random", "autopilot"]
    assert res["random"].n == 2 and res["random"].score.mean == 2


# ---------------------------------------------------------------- per-skill statistics
def test_skill_stats_with_run_database(tmp_path):
    from hackwright.store.db import connect

    db = tmp_path / "memory.db"
    con = connect(db)
    rows = [("explore", 1, 7), ("explore", 0, 7), ("explore", 1, 7), ("my_skill", 0, 7),
            ("explore", 0, 99)]  # episode 99 is not in the set
    con.executemany("INSERT INTO skill_executions (skill_name, success, episode_id) VALUES (?,?,?)", rows)
    con.commit()
    con.close()
    eps = [ep(episode_id=7, skills_used={"explore": 3, "my_skill": 1}, skills_created=["my_skill"])]
    stats = {s.name: s for s in skill_stats(eps, db)}
    assert stats["explore"].runs == 3 and stats["explore"].db_runs == 3
    assert stats["explore"].success_rate == pytest.approx(2 / 3)
    assert stats["my_skill"].created and stats["my_skill"].success_rate == 0.0
    without = skill_stats(eps)
    assert [s.name for s in without] == ["explore", "my_skill"] and without[0].success_rate is None
    assert skill_stats(eps, tmp_path / "missing.db")[0].success_rate is None

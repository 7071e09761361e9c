"""Success rates of MiniHack tasks in the evaluation's metrics and tables."""

from hackwright.eval.metrics import EpisodeRecord, summarize
from hackwright.eval.tables import format_summary_table


def test_task_success_rate_counts_only_episodes_that_played_a_task_and_reads_csv_text():
    eps = [EpisodeRecord.from_dict({"end_reason": "task solved", "task_success": True, "task_reward": 0.97}, "a"),
           EpisodeRecord.from_dict({"end_reason": "death", "task_success": "False", "task_reward": "0.0"}, "a"),
           EpisodeRecord.from_dict({"end_reason": "task solved", "task_success": "True", "task_reward": "0.99"}, "a"),
           EpisodeRecord.from_dict({"end_reason": "step cap"}, "a")]  # the challenge env: no task
    m = summarize(eps)
    assert m.task_success_rate == 2 / 3
    assert abs(m.task_reward.mean - (0.97 + 0.0 + 0.99) / 3) < 1e-9
    table = format_summary_table({"a": m})
    assert "task success" in table.splitlines()[0] and "67%" in table.splitlines()[2]


def test_tables_without_tasks_keep_their_columns():
    m = summarize([EpisodeRecord.from_dict({"end_reason": "death", "turns": 900}, "a")])
    assert m.task_success_rate is None and m.task_reward is None
    assert "task success" not in format_summary_table({"a": m})

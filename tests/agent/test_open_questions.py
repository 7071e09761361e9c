"""A question the game asks during a monster's turn, after the autopilot's raw keys, must
not swallow the autopilot's next keys: three games of 2,150 stood still until the step cap
with "Shall I remove your mail, dear?" (an incubus) or "Call a murky potion:" open while
every fight and search key went into it."""

from __future__ import annotations

from hackwright.agent.loop import Agent, EpisodeConfig
from hackwright.agent.strategists.autopilot import Autopilot
from hackwright.agent.strategists.autopilot_context import press
from tests.conftest import room_des

BEDROOM = room_des(["--------", "|......|", "|......|", "--------"], hero=(1, 1),
                   extra="MONSTER:('&',\"incubus\"),(2,1),hostile,awake")


class OnlySearches(Autopilot):
    """The autopilot reduced to one raw-key decision, so that every step is send_keys."""

    async def decide(self, ctx):
        return press("s", "search one turn")


async def test_an_incubus_question_after_the_autopilots_search_is_answered_no_and_the_clock_goes_on(tmp_path):
    config = EpisodeConfig(seed=4, llm="autopilot", max_steps=30, db_path=str(tmp_path / "m.db"),
                           library_path=str(tmp_path / "skills"), env_id="MiniHack-Navigation-Custom-v0",
                           des_file=BEDROOM, role="samurai")
    turns: list[int] = []
    questions: list[str] = []

    def on_step(report, agent):
        turns.append(report.stats.turn)
        questions.extend(m for m in agent.api._kb.history if "Shall I remove" in m and m not in questions)

    summary = await Agent(config, on_step=on_step, strategist=OnlySearches()).run()
    assert questions and all(q.endswith("[escaped]") for q in questions), questions
    assert summary.end_reason == "death", (summary.end_reason, turns)
    # (the step the question came in ends before the monsters' turn is over: one repeat)
    assert max(turns.count(t) for t in turns) <= 2, turns

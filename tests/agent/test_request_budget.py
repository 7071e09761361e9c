"""Every request stays within the configured prompt budget, whatever the model writes —
a 40-decision game on a real seed against a scripted model on 127.0.0.1 (OpenAI wire
format) that makes everything it can long (see ``hostile_game.py``)."""

from __future__ import annotations

from hackwright.agent.prompt import estimate_tokens

from .hostile_game import DECISIONS, DOCSTRING, QUERY, play, request_chars

BUDGET = 9_000  # ≈ tokens: half the system part alone, so every stage of the trimming runs


def system_of(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "system")


def user_of(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def decide_requests(bodies: list[dict]) -> list[dict]:
    return [b for b in bodies if b.get("tools")]  # the summaries are asked without the tool


async def test_a_hostile_game_keeps_every_request_within_a_small_budget(tmp_path):
    played = await play(tmp_path, BUDGET)
    s = played.summary
    assert s.decisions == DECISIONS and s.model_error is None and played.leftover == 0, s
    assert len(s.skills_created) == 30 and s.decided_by.get("retry") == 3
    bodies = played.bodies
    assert len(bodies) == DECISIONS + 2 + 4  # two lookup summaries, four unusable replies sent back
    for i, body in enumerate(bodies):
        assert estimate_tokens("x" * request_chars(body)) <= BUDGET, (i, request_chars(body))
    # the one decision that needed every retry carried two echoed replies, still within budget
    widest = max(bodies, key=lambda b: len(b["messages"]))
    assert [m["role"] for m in widest["messages"]] == ["system", "user", "assistant", "user", "assistant", "user"]
    # every stage ran: the system part cut with a marker, the user part's items trimmed …
    decides = decide_requests(bodies)
    system = system_of(decides[0])
    assert "to keep the request within its budget" in system and "Answer with one JSON object" in system
    assert any("(trimmed:" in user_of(b) for b in decides)
    # … and the system part is the same in every request, so a backend can cache it
    assert {system_of(b) for b in decides} == {system}
    # the budget is used, not starved
    assert max(played.sizes) > 0.8 * BUDGET * 4
    for body in decides:  # what a model wrote comes back cut
        user = user_of(body)
        assert DOCSTRING not in user and user.count("floating eye corpse") < 20
        assert "What do you do?" in user and "CURRENT STATE" in user and "MAP:" in user


async def test_the_same_game_without_a_budget_stays_bounded_and_reports_its_sizes(tmp_path, capsys):
    played = await play(tmp_path, None)
    s = played.summary
    assert s.decisions == DECISIONS and played.leftover == 0 and len(s.skills_created) == 30
    users = [user_of(b) for b in decide_requests(played.bodies)]
    # 30 long-winded skills, long errors and output, shows and lookups: the user part stays bounded
    assert max(len(u) for u in users) < 30_000, max(len(u) for u in users)
    for user in users:
        assert DOCSTRING not in user and QUERY[:1000] not in user and user.count("floating eye corpse") < 20
    with capsys.disabled():
        print(f"\nhostile {DECISIONS}-decision game, no budget: {played.report()}")


async def test_a_budget_below_what_is_never_cut_sends_nothing_and_says_so(tmp_path):
    played = await play(tmp_path, 1_500)
    s = played.summary
    assert played.bodies == [] and s.decisions == 0
    assert s.model_error is not None and "max_prompt_tokens is 1,500" in s.model_error and "raise it" in s.model_error

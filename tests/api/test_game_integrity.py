"""A skill can neither end nor void the game through the API.

Commands that save, quit or change the game's mode or options are refused however
they are typed, and prayers the prayer clock calls too soon are refused unless
forced. Every scenario runs on a real game; whether the game is still a normal,
scoring one is asked of NetHack itself, by typing ``#exploremode`` straight into
the game (past the API) and answering no.
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from hackwright.api import integrity
from hackwright.api.keyboard import PromptKind
from hackwright.api.knowledge import PrayerClock
from tests.conftest import room_des

POLICY = "the harness refuses commands that save, quit or change the game's mode or options"
ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]


def explore_mode_is_offered(api) -> bool:
    """True when NetHack, asked for explore mode, warns and asks (so the game is a
    normal scoring one); the question is answered no. Keys go straight to the game."""
    game = api.game
    assert api._kb.key_entry()[0] is integrity.Entry.COMMAND, api._kb.prompt()
    for ch in "#exploremode\r":
        game.step_key(ord(ch))
    seen = []
    for _ in range(10):
        internal = game.obs["internal"]
        seen.append(api._kb.message())
        if internal[3]:  # --More--
            game.step_key(13)
        elif internal[1]:  # the y/n question
            game.step_key(ord("n"))
        else:
            break
    seen.append(api._kb.message())
    assert api._kb.prompt().kind is PromptKind.NONE, seen
    text = " ".join(seen)
    if "already in explore mode" in text:
        return False
    assert "Do you want to enter explore mode?" in text and "Resuming normal game." in text, seen
    return True


def still_scoring(api) -> bool:
    return not api.game_over and explore_mode_is_offered(api)


def read_here(messages: list[str]) -> str:
    m = re.search(r'You read: "(.*?)"', " ".join(messages))
    assert m, messages
    return m.group(1)


def written(read: str, text: str) -> bool:
    """Fingers in the dust slip now and then (one letter in 25 comes out random)."""
    return len(read) == len(text) and sum(a != b for a, b in zip(read, text)) <= 3


@pytest.fixture
def valkyrie(make_api):
    return make_api(seed=5, role="valkyrie")


REFUSED_FORMS = {
    "#exploremode then y": ("#exploremode\ry", "#exploremode switches the game to non-scoring explore mode"),
    "#EXPLOREMODE in capitals": ("#EXPLOREMODE\ry", "#EXPLOREMODE switches the game to non-scoring explore mode"),
    "#explore, a prefix only #exploremode starts with": (
        "#explore\ry", "#explore (#exploremode) switches the game to non-scoring explore mode"),
    "S": ("S", "S (#save) saves the game and leaves it"),
    "S after a count": ("12S", "S (#save) saves the game and leaves it"),
    "#save": ("#save\r", "#save saves the game and leaves it"),
    "O": ("O", "O (#options) changes the game's options"),
    "#options": ("#options\r", "#options changes the game's options"),
    "#quit then y": ("#quit\ry", "#quit ends the game"),
    "#q, which NetHack completes to #quit": ("#q\ry", "#q (#quit) ends the game"),
    "#Qu in mixed case": ("#Qu<enter>y", "#Qu (#quit) ends the game"),
    "M-q, the meta key of #quit": ("\xf1y", "M-q (#quit) ends the game"),
    "#wizwish": ("#wizwish\r", "#wizwish is a wizard-mode (debug) command"),
    "^W, the key of #wizwish": ("\x17", "^W (#wizwish) is a wizard-mode (debug) command"),
}


@pytest.mark.parametrize("form", list(REFUSED_FORMS))
async def test_a_skill_that_sends_a_game_ending_or_mode_changing_command_is_refused_and_the_game_keeps_scoring(
        valkyrie, form):
    keys, what = REFUSED_FORMS[form]
    api = valkyrie
    steps, turn = api.game.steps, (await api.get_stats()).turn
    res = await api.send_keys(keys)
    assert not res.success
    assert res.error == f"{what}: {POLICY}"
    assert api.game.steps == steps  # not one key reached the game
    assert (await api.get_stats()).turn == turn
    assert still_scoring(api)
    assert (await api.search()).success  # and play goes on


async def test_a_quit_split_across_two_send_keys_calls_is_refused_on_the_open_extended_line(valkyrie):
    api = valkyrie
    opened = await api.send_keys("#")
    assert opened.success and opened.prompt == "#"
    typed = await api.send_keys("qu")
    assert typed.success and typed.prompt == "# quit"  # NetHack shows its completion
    steps = api.game.steps
    res = await api.send_keys("it\ry")
    assert not res.success and res.error == f"#quit ends the game: {POLICY}"
    bare_enter = await api.send_keys("<enter>")
    assert not bare_enter.success and bare_enter.error == f"#qu (#quit) ends the game: {POLICY}"
    assert api.game.steps == steps
    closed = await api.send_keys("<esc><esc>")  # the first Esc clears the line, the second closes it
    assert closed.success and closed.prompt is None
    assert still_scoring(api)


async def test_exploremode_typed_as_exp_then_loremode_is_refused(valkyrie):
    api = valkyrie
    assert (await api.send_keys("#exp")).success
    res = await api.send_keys("loremode\ry")
    assert not res.success and res.error == f"#exploremode switches the game to non-scoring explore mode: {POLICY}"
    assert res.prompt == "# exp"  # nothing of the second call was typed; the line is still open
    assert (await api.search()).success  # the next action closes it
    assert still_scoring(api)


async def test_a_line_cleared_with_esc_and_retyped_as_quit_is_refused_before_any_key_is_sent(valkyrie):
    api = valkyrie
    assert (await api.send_keys("#sit")).success
    steps = api.game.steps
    res = await api.send_keys("<esc>quit\r")  # Esc clears "sit", the line stays open
    assert not res.success and res.error == f"#quit ends the game: {POLICY}"
    assert api.game.steps == steps
    await api.send_keys("<esc><esc>")
    assert still_scoring(api)


async def test_keys_before_a_refused_command_are_played_and_the_command_is_not(valkyrie):
    api = valkyrie
    steps = api.game.steps
    # 'i' shows the inventory and Esc closes it: only the game can tell that S then
    # stands at the command prompt, so the keyboard refuses it there.
    res = await api.send_keys("i<esc>S")
    assert not res.success and res.error == f"S (#save) saves the game and leaves it: {POLICY}"
    assert api.game.steps == steps + 2
    assert not any("save yourself" in m for m in res.messages)  # NLE's answer to S never came
    assert still_scoring(api)


async def test_an_allowed_extended_command_and_its_completion_still_run(valkyrie):
    api = valkyrie
    res = await api.send_keys("#s\r")  # NetHack completes #s to #sit
    assert res.success and res.error is None
    assert any("You sit" in m for m in res.messages), res.messages


async def test_text_with_S_O_and_quit_typed_into_the_engrave_prompt_is_text(make_api):
    api = make_api(room_des(ROOM), seed=1, role="valkyrie")
    assert (await api.move("e")).success  # off the stairs
    res = await api.engrave("SOS Quit Options #quit")
    assert res.success, res
    look = await api.send_keys(":")
    assert written(read_here(look.messages), "SOS Quit Options #quit"), look.messages
    assert still_scoring(api)


async def test_text_typed_into_a_prompt_that_send_keys_opened_is_text_too(make_api):
    api = make_api(room_des(ROOM), seed=1, role="valkyrie")
    assert (await api.move("e")).success  # off the stairs
    ask = await api.send_keys("E")
    assert ask.success and "write with" in ask.prompt
    ask = await api.send_keys("-")
    assert ask.success and re.search(r"write in the dust", ask.prompt or ""), ask
    res = await api.send_keys("Save Our Souls\r")
    assert res.success and res.error is None, res
    look = await api.send_keys(":")
    assert written(read_here(look.messages), "Save Our Souls"), look.messages
    assert still_scoring(api)


def test_the_refusal_rule_knows_every_extended_command_the_game_lists_and_which_ones_complete(valkyrie):
    api = valkyrie
    game = api.game
    for ch in "#?\r":
        game.step_key(ord(ch))
    listed, completes = set(), set()
    for _ in range(10):
        for line in api._kb.screen_lines():
            m = re.match(r"^  (\S+)\s+(\[A\])?\s*\S", line)
            if m and m.group(1) != "#":
                listed.add(m.group(1))
                if m.group(2):
                    completes.add(m.group(1))
        if not game.obs["internal"][3]:
            break
        game.step_key(ord(" "))
    assert {"quit", "save", "options", "exploremode", "pray", "zap"} <= listed
    # The game lists what a normal (not wizard-mode) game offers; '#shell' is compiled out.
    assert listed == integrity.COMMANDS - integrity.WIZARD_MODE - {"shell"}
    assert completes == integrity.AUTOCOMPLETE


async def test_a_direct_action_of_the_agent_that_quits_is_refused_and_the_model_is_told(tmp_path):
    from hackwright.agent.loop import Agent, EpisodeConfig
    from tests.agent.fake_model_server import FakeModelServer, Reply

    def direct(key: str) -> Reply:
        return Reply(text=json.dumps({"action": "direct", "key": key, "reasoning": "scripted"}))

    with FakeModelServer() as server:
        server.script(direct("#quit\ry"), direct("\xf1y"), direct("s"))
        cfg = EpisodeConfig(seed=5, llm=f"anthropic:claude-sonnet-5-5@{server.url}", max_steps=3,
                            db_path=str(tmp_path / "m.db"), library_path=str(tmp_path / "skills"),
                            record_dir=str(tmp_path / "rec"), backend_options={"timeout": 5.0, "max_retries": 1})
        summary = await Agent(cfg).run()
        third_prompt = json.dumps(server.bodies("/v1/messages")[2]["messages"])
    assert summary.end_reason == "step cap" and summary.decisions == 3
    db = sqlite3.connect(tmp_path / "m.db")
    rows = db.execute("SELECT type, success, error FROM decisions ORDER BY id").fetchall()
    assert rows[0] == ("direct_action", 0, f"#quit ends the game: {POLICY}")
    assert rows[1] == ("direct_action", 0, f"M-q (#quit) ends the game: {POLICY}")
    assert rows[2][:2] == ("direct_action", 1)
    assert "M-q (#quit) ends the game" in third_prompt  # the model sees why


# ------------------------------------------------------------------ prayer
async def test_thirty_prayers_on_turn_one_are_all_refused_and_nothing_reaches_the_game(valkyrie):
    api = valkyrie
    steps, turn = api.game.steps, (await api.get_stats()).turn
    for _ in range(30):
        res = await api.pray()
        assert not res.success and not res.turn_elapsed
        assert res.error == (f"not praying: the prayer timeout is about {301 - turn} and must be 0 without trouble, "
                             f"so praying is likely safe in {301 - turn} turns; pray(force=True) prays anyway")
    assert api.game.steps == steps
    assert await api.get_prayer_timeout() == 301 - turn  # no prayer was counted
    assert still_scoring(api)


async def test_thirty_prayers_after_turn_300_are_one_answered_prayer_and_29_refusals(make_api):
    api = make_api(room_des(ROOM), seed=1, role="valkyrie")
    while (await api.get_stats()).turn <= 300:
        assert (await api.search(200)).success
    assert await api.get_prayer_timeout() == 0
    prayed_on = (await api.get_stats()).turn
    first = await api.pray()
    assert first.success and first.error is None, first.messages
    assert any("You begin praying" in m for m in first.messages)
    refused = [await api.pray() for _ in range(29)]
    assert all(not r.success for r in refused)
    assert all(re.fullmatch(r"not praying: the prayer timeout is about \d+ \(counted from the prayer on turn "
                            rf"{prayed_on}\) and must be 0 without trouble, so praying is likely safe in \d+ "
                            r"turns; pray\(force=True\) prays anyway", r.error) for r in refused), refused[0].error
    stats = await api.get_stats()
    assert not api.game_over and stats.hp == stats.max_hp
    assert still_scoring(api)


async def test_a_forced_prayer_is_prayed_and_the_angered_god_then_closes_the_clock(valkyrie):
    api = valkyrie
    res = await api.pray(force=True)
    text = " ".join(res.messages)
    assert "You begin praying to Tyr" in text and "You finish your prayer" in text, res.messages
    assert not res.success and res.error == "the prayer was not answered kindly (prayed too soon or with bad luck)"
    assert await api.get_prayer_timeout() == PrayerClock.UNKNOWN
    again = await api.pray()
    assert not again.success and again.error.startswith("not praying: your god has been angry since the prayer on turn")
    assert again.error.endswith("; pray(force=True) prays anyway")
    assert not api.game_over


async def test_force_must_be_a_boolean(valkyrie):
    res = await valkyrie.pray(force="yes")
    assert not res.success and res.error == "force must be True or False, not 'yes'"


async def test_a_sandboxed_skill_passes_force_through_to_the_game(make_api):
    from hackwright.sandbox.runner import SandboxLimits, SkillRunner

    api = make_api(room_des(ROOM), seed=1, role="valkyrie")
    skill = '''
async def pray_twice(nh):
    plain = await nh.pray()
    forced = await nh.pray(force=True)
    return SkillResult("prayed", {"plain": plain.error, "forced": forced.messages}, 2, 0, True)
'''
    runner = SkillRunner(api, limits=SandboxLimits(wall_seconds=20, cpu_seconds=5))
    try:
        out = await runner.run(skill)
    finally:
        runner.close()
    assert out.result.data["plain"].startswith("not praying: the prayer timeout is about")
    assert any("You begin praying" in m for m in out.result.data["forced"]), out.result.data
    assert await api.get_prayer_timeout() == PrayerClock.UNKNOWN  # the forced prayer angered the god

"""Decision parsing on the kinds of replies models really write."""

from __future__ import annotations

import json

import pytest

from hackwright.agent.decisions import (
    ALL_ACTIONS,
    DECISION_TOOL,
    AgentDecision,
    DecisionError,
    decision_from_dict,
    decision_from_reply,
    decision_tool,
    format_decision,
    parse_decision,
)

SKILL = '''async def fight_adjacent(nh, direction="n"):
    """Attack until the monster dies."""
    result = await nh.attack(direction)
    return SkillResult(stopped_reason="done", data={"msg": f"{result}"}, success=True)
'''


def test_fenced_json_with_prose_before_it():
    text = (
        "A grid bug is east of me; exploring is still the best use of time.\n\n"
        "```json\n"
        '{"action": "invoke", "skill": "cautious_explore", "params": {"hp_threshold": 0.5}}\n'
        "```\n"
    )
    d = parse_decision(text)
    assert d.type == "invoke_skill"
    assert d.skill_name == "cautious_explore"
    assert d.params == {"hp_threshold": 0.5}
    assert d.code is None and d.action is None
    assert "grid bug" in d.reasoning  # the prose becomes the reasoning when the JSON has none


def test_json_inside_prose_without_fence_and_params_missing():
    d = parse_decision('I will press on. {"action": "invoke", "skill": "explore_level", "reasoning": "unexplored"} '
                       "Let's see what happens.")
    assert d == AgentDecision(type="invoke_skill", skill_name="explore_level", params={}, reasoning="unexplored")


def test_direct_action():
    d = parse_decision('{"action": "direct", "key": "h", "reasoning": "step west"}')
    assert (d.type, d.action, d.reasoning, d.params) == ("direct_action", "h", "step west", {})


def test_code_as_escaped_json_string():
    payload = {"action": "create", "name": "fight_adjacent", "category": "combat",
               "description": "Fight the adjacent monster", "triggers": ["low_hp"],
               "params": {"direction": "e"}, "code": SKILL}
    d = parse_decision("Writing a combat skill:\n" + json.dumps(payload))
    assert d.type == "create_skill"
    assert d.skill_name == "fight_adjacent"
    assert d.code == SKILL
    assert d.category == "combat" and d.description == "Fight the adjacent monster"
    assert d.triggers == ("low_hp",) and d.params == {"direction": "e"}


def test_code_escaped_twice_is_unescaped():
    once = json.dumps(SKILL)[1:-1]  # the source with \n and \" escapes, as one line
    text = json.dumps({"action": "create", "name": "fight_adjacent", "code": once})
    d = parse_decision(text)
    assert d.code == SKILL


def test_code_with_raw_newlines_and_regex_backslashes_inside_the_json_string():
    text = ('{"action": "create", "name": "read_number", "code": "import re\n'
            'async def read_number(nh):\n    m = re.search(\'\\d+\', \'a1\')\n    return m\n"}')
    d = parse_decision(text)
    assert d.code.startswith("import re\nasync def read_number(nh):")
    assert "re.search('\\d+'" in d.code


def test_code_in_a_separate_python_fence_when_the_json_has_a_placeholder():
    text = (
        "Here is the decision:\n```json\n"
        '{"action": "create", "name": "fight_adjacent", "code": "see below", "params": {}}\n```\n'
        "And the code:\n```python\n" + SKILL + "```\n"
    )
    d = parse_decision(text)
    assert d.type == "create_skill" and d.code == SKILL


def test_code_in_a_separate_python_fence_when_the_json_has_no_code():
    text = ('{"action": "create", "name": "fight_adjacent"}\n\n```python\n' + SKILL + "```")
    assert parse_decision(text).code == SKILL


def test_dicts_inside_the_python_fence_do_not_count_as_decisions():
    code = 'async def probe(nh):\n    report = {"action": "not a decision"}\n    return report\n'
    text = '{"action": "create", "name": "probe", "code": "..."}\n```python\n' + code + "```"
    d = parse_decision(text)
    assert d.skill_name == "probe" and d.code == code


def test_last_of_several_json_objects_wins():
    text = (
        'The format is {"action": "invoke", "skill": "name", "params": {...}}. '
        'I first thought of {"action": "direct", "key": "s"} but will instead do:\n'
        '```json\n{"action": "direct", "key": "j"}\n```'
    )
    d = parse_decision(text)
    assert d.action == "j"


def test_single_quotes_trailing_commas_and_python_literals():
    d = parse_decision("{'action': 'invoke', 'skill': 'rest', 'params': {'full': True, 'limit': None,},}")
    assert d.skill_name == "rest" and d.params == {"full": True, "limit": None}
    d = parse_decision('{"action": "invoke", "skill": "rest", "params": {"full": true,},}')
    assert d.params == {"full": True}


def test_synonyms_for_the_skill_name():
    for key in ("skill", "name", "skill_name"):
        assert parse_decision(json.dumps({"action": "invoke", key: "explore_level"})).skill_name == "explore_level"
    assert parse_decision('{"action": "create", "skill": "x_y", "code": ' + json.dumps(SKILL) + "}").skill_name == "x_y"


def test_truncated_object_is_closed():
    d = parse_decision('{"action": "invoke", "skill": "explore_level", "params": {"max_steps": 50}')
    assert d.params == {"max_steps": 50}


def test_missing_action_names_the_allowed_actions():
    with pytest.raises(DecisionError) as e:
        parse_decision('```json\n{"skill": "explore_level", "params": {}}\n```')
    msg = str(e.value)
    assert '"action"' in msg and "invoke, create, direct" in msg


def test_garbage_is_a_decision_error():
    with pytest.raises(DecisionError) as e:
        parse_decision("I am not sure what to do here. Maybe go north?")
    assert "no JSON object" in str(e.value) and '"action": "invoke"' in str(e.value)
    with pytest.raises(DecisionError):
        parse_decision("")
    with pytest.raises(DecisionError) as e:
        parse_decision('{"action": "create", "name": "x" "code": "async def x(nh): pass"}')  # no comma
    # a broken object that mentions "action" gets the JSON error, not "no JSON found"
    assert "could not be parsed" in str(e.value)


@pytest.mark.parametrize("text,needle", [
    ('{"action": "fly", "skill": "x"}', 'unknown action "fly"'),
    ('{"action": "invoke"}', '"skill"'),
    ('{"action": "create", "name": "x"}', "```python block"),
    ('{"action": "create", "name": "x", "code": "TODO"}', "async def"),
    ('{"action": "create", "name": "Fight Adjacent", "code": "async def f(nh): pass"}', '"fight_adjacent"'),
    ('{"action": "direct"}', '"key"'),
    ('{"action": "direct", "key": 7}', '"key" must be a string'),
    ('{"action": "invoke", "skill": "x", "params": [1, 2]}', '"params" must be a JSON object'),
])
def test_errors_say_what_to_fix(text, needle):
    with pytest.raises(DecisionError) as e:
        parse_decision(text)
    assert needle in str(e.value)


def test_a_lookup_is_refused_where_no_knowledge_base_is_offered():
    with pytest.raises(DecisionError) as e:
        parse_decision('{"action": "lookup", "query": "floating eye"}', allowed=("invoke", "create", "direct"))
    assert "not available here" in str(e.value)


def test_lookup_when_offered():
    d = parse_decision('{"action": "lookup", "query": "floating eye"}', allowed=ALL_ACTIONS)
    assert d.type == "lookup" and d.query == "floating eye"


def test_tool_input_dict_to_decision():
    d = decision_from_dict({"action": "invoke", "skill": "cautious_explore", "params": '{"hp_threshold": 0.4}'},
                           reasoning="text before the tool call")
    assert d.type == "invoke_skill" and d.params == {"hp_threshold": 0.4}
    assert d.reasoning == "text before the tool call"
    d = decision_from_dict({"action": "create", "name": "fight_adjacent", "code": SKILL,
                            "triggers": "monster, low_hp", "category": "combat"})
    assert d.code == SKILL and d.triggers == ("monster", "low_hp")
    with pytest.raises(DecisionError, match='no "action" field'):
        decision_from_dict({"skill": "x"})


def test_format_decision_round_trips():
    decisions = [
        AgentDecision(type="invoke_skill", skill_name="explore_level", params={"max_steps": 10}, reasoning="go"),
        AgentDecision(type="create_skill", skill_name="fight_adjacent", code=SKILL, params={"direction": "e"},
                      category="combat", description="fight", triggers=("low_hp",)),
        AgentDecision(type="direct_action", action="\x1b"),
        AgentDecision(type="lookup", query="cockatrice"),
        AgentDecision(type="show_skill", skill_name="go_to"),
    ]
    for d in decisions:
        text = format_decision(d)
        assert "\n" not in text
        assert parse_decision(text, allowed=ALL_ACTIONS) == d
        assert decision_from_dict(json.loads(text), allowed=ALL_ACTIONS) == d


def test_signature_ignores_reasoning_and_whitespace_but_not_arguments():
    a = AgentDecision(type="invoke_skill", skill_name="rest", params={"a": 1, "b": 2}, reasoning="tired")
    b = AgentDecision(type="invoke_skill", skill_name="rest", params={"b": 2, "a": 1}, reasoning="still tired")
    c = AgentDecision(type="invoke_skill", skill_name="rest", params={"a": 2, "b": 2})
    assert a.signature() == b.signature() != c.signature()
    x = AgentDecision(type="create_skill", skill_name="f", code="async def f(nh):\n    pass\n")
    y = AgentDecision(type="create_skill", skill_name="f", code="\nasync def f(nh):   \n\n    pass")
    z = AgentDecision(type="create_skill", skill_name="f", code="async def f(nh):\n    return 1\n")
    assert x.signature() == y.signature() != z.signature()
    assert AgentDecision(type="direct_action", action="h").signature() != \
        AgentDecision(type="direct_action", action="j").signature()


def test_decision_tool_schema():
    assert DECISION_TOOL["name"] == "decide"
    schema = DECISION_TOOL["input_schema"]
    assert schema["type"] == "object" and schema["required"] == ["action"]
    assert schema["properties"]["action"]["enum"] == ["invoke", "create", "direct", "lookup", "show"]
    for key in ("skill", "name", "code", "params", "key", "category", "description", "triggers", "reasoning",
                "query"):
        assert key in schema["properties"]
    assert "query" not in decision_tool(("invoke", "create", "direct"))["input_schema"]["properties"]
    assert "show" in schema["properties"]["action"]["description"]
    assert "show" not in decision_tool(("invoke", "create"))["input_schema"]["properties"]["action"]["description"]
    json.dumps(DECISION_TOOL)  # plain JSON


# ------------------------------------------------------------------ code without escaping
def test_the_code_fence_may_come_before_the_json():
    text = "Here is my skill:\n```python\n" + SKILL + "```\nand the decision:\n" \
           '{"action": "create", "name": "fight_adjacent", "category": "combat"}'
    d = parse_decision(text)
    assert d.type == "create_skill" and d.code == SKILL and d.category == "combat"


def test_of_several_fences_the_one_defining_the_named_function_wins():
    helper = 'async def probe(nh):\n    """A first draft."""\n    return None\n'
    other = 'def unrelated():\n    return 1\n'
    text = ("A draft first:\n```python\n" + helper + "```\nThe skill:\n```python\n" + SKILL + "```\n"
            "An aside:\n```python\n" + other + "```\n"
            '{"action": "create", "name": "fight_adjacent"}')
    assert parse_decision(text).code == SKILL
    # no fence defines the name: the last one defining a function, as before
    text = "```python\n" + helper + "```\n```python\n" + other + "```\n" + '{"action": "create", "name": "zzz"}'
    assert parse_decision(text).code == other


def test_the_decision_format_in_the_prompt_shows_the_fenced_form_and_it_parses():
    from hackwright.agent.prompt import DECISION_FORMAT

    assert '"code": "' not in DECISION_FORMAT  # no escaped code anywhere in the instructions
    start = DECISION_FORMAT.index('{"action": "create"')
    end = DECISION_FORMAT.index("```", DECISION_FORMAT.index("```python", start) + 9) + 3
    example = DECISION_FORMAT[start:end]
    assert example.index("}") < example.index("```python")  # JSON first, then the code
    d = parse_decision(example)
    assert d.type == "create_skill" and d.code.startswith(f"async def {d.skill_name}(nh")
    assert '{"action": "show", "skill": "go_to"}' in DECISION_FORMAT


def test_a_tool_call_without_code_takes_the_python_fence_of_the_replys_text():
    text = "The skill is short.\n```python\n" + SKILL + "```"
    d = decision_from_reply(text, {"action": "create", "name": "fight_adjacent", "category": "combat"})
    assert d.code == SKILL and d.reasoning == "The skill is short."
    # the code argument itself wins over a fence
    d = decision_from_reply("```python\nasync def other(nh):\n    pass\n```",
                            {"action": "create", "name": "fight_adjacent", "code": SKILL})
    assert d.code == SKILL
    # no tool call: the text is parsed
    assert decision_from_reply('{"action": "show", "skill": "go_to"}', None).type == "show_skill"
    with pytest.raises(DecisionError, match="```python block"):
        decision_from_reply("no code here", {"action": "create", "name": "fight_adjacent"})


# ------------------------------------------------------------------ show
def test_show_names_a_library_skill_and_has_synonyms():
    for text in ('{"action": "show", "skill": "go_to"}', '{"action": "show_code", "name": "go_to"}',
                 '{"action": "view_skill", "skill_name": "go_to()"}'):
        d = parse_decision(text)
        assert d.type == "show_skill" and d.skill_name == "go_to"
    assert decision_from_dict({"action": "show", "skill": "descend"}).to_dict() == {"action": "show",
                                                                                      "skill": "descend"}
    with pytest.raises(DecisionError, match='"show" decision needs "skill"'):
        parse_decision('{"action": "show"}')
    with pytest.raises(DecisionError, match="not available here"):
        parse_decision('{"action": "show", "skill": "go_to"}', allowed=("invoke", "create", "direct"))
    assert AgentDecision(type="show_skill", skill_name="a").signature() != \
        AgentDecision(type="show_skill", skill_name="b").signature()

"""A decision from a dict: the ``decide`` tool's input, or the JSON object found in a text
reply. Synonyms of action words and keys are accepted; what cannot be used raises
:class:`DecisionError` saying what to change."""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Optional

from .decision_core import DEFAULT_ACTIONS, MAX_DECISION_DEPTH, MAX_REPLY_CHARS, AgentDecision, DecisionError, \
    clip_echo
from .lenient_json import json_shape, loads_lenient

_ACTION_SYNONYMS = {
    "invoke": "invoke", "invoke_skill": "invoke", "run": "invoke", "run_skill": "invoke", "call": "invoke",
    "use": "invoke", "use_skill": "invoke", "execute": "invoke",
    "create": "create", "create_skill": "create", "write": "create", "write_skill": "create",
    "new": "create", "new_skill": "create",
    "direct": "direct", "direct_action": "direct", "key": "direct", "press": "direct", "keypress": "direct",
    "lookup": "lookup", "look_up": "lookup", "search": "lookup", "query": "lookup", "knowledge": "lookup",
    "show": "show", "show_skill": "show", "show_code": "show", "view_skill": "show", "read_skill": "show",
    "get_code": "show", "inspect_skill": "show",
}

_NAME_KEYS = ("skill", "skill_name", "name")
_PARAM_KEYS = ("params", "parameters", "args", "arguments", "kwargs")
_KEY_KEYS = ("key", "keys", "command", "input")
_REASON_KEYS = ("reasoning", "reason", "rationale", "thought", "thoughts", "why")
_QUERY_KEYS = ("query", "question", "topic", "q")
_DESC_KEYS = ("description", "desc", "summary")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def decision_from_dict(d: dict, *, allowed: Iterable[str] = DEFAULT_ACTIONS,
                       fallback_code: Optional[str] = None, reasoning: str = "") -> AgentDecision:
    """Build a decision from the model's object (the ``decide`` tool's input, or the JSON it
    wrote). ``fallback_code`` is used when a create decision's ``code`` is missing or a
    placeholder; ``reasoning`` when the object has none."""
    if not isinstance(d, dict):
        raise DecisionError(f"the decision must be a JSON object, not {type(d).__name__}; "
                            + _example(allowed))
    _check_shape(d)
    d = {str(k).strip().lower(): v for k, v in d.items()}
    allowed = tuple(allowed)
    choices = ", ".join(allowed)
    raw_action = d.get("action")
    if raw_action is None and isinstance(d.get("type"), str) and _norm_action(d["type"]):
        raw_action = d["type"]  # {"type": "invoke_skill", ...}: the dataclass's own spelling
    if raw_action is None:
        raise DecisionError(f'the JSON has no "action" field; use one of {choices}')
    if not isinstance(raw_action, str) or not raw_action.strip():
        raise DecisionError(f'"action" must be a string: one of {choices}')
    action = _norm_action(raw_action)
    if action is None:
        raise DecisionError(f'unknown action "{clip_echo(raw_action, 80)}"; use one of {choices}')
    if action not in allowed:
        raise DecisionError(f'the action "{action}" is not available here; use one of {choices}')

    why = _first_str(d, _REASON_KEYS) or reasoning
    params = _params(d)
    _check_shape(params)  # params given as a JSON string were only decoded now
    if action == "invoke":
        name = _skill_name(d, "invoke")
        return AgentDecision(type="invoke_skill", skill_name=name, params=params, reasoning=why)
    if action == "create":
        name = _skill_name(d, "create")
        code = _code(d.get("code"))
        if code is None or _is_placeholder(code):
            if fallback_code is not None and fallback_code.strip():
                code = fallback_code
            elif code is None or not code.strip():
                raise DecisionError('a "create" decision needs its code: put the complete skill source in a '
                                    '```python block after the JSON (no escaping needed)')
            else:
                raise DecisionError(f'the "code" of the "create" decision is {code.strip()[:60]!r}, not a skill; '
                                    'give the complete source (an async def whose first parameter is nh) '
                                    'in "code" or in a ```python block after the JSON')
        category = d.get("category")
        return AgentDecision(
            type="create_skill", skill_name=name, code=code, params=params, reasoning=why,
            category=str(category).strip() if category not in (None, "") else None,
            description=_first_str(d, _DESC_KEYS), triggers=_triggers(d.get("triggers")),
        )
    if action == "show":
        return AgentDecision(type="show_skill", skill_name=_skill_name(d, "show"), reasoning=why)
    if action == "direct":
        key = None
        for k in _KEY_KEYS:
            if d.get(k) not in (None, ""):
                key = d[k]
                break
        if key is None:
            raise DecisionError('a "direct" decision needs "key": the one key to press, such as "h" '
                                '(move west) or "s" (search)')
        if isinstance(key, list) and len(key) == 1:
            key = key[0]
        if not isinstance(key, str):
            raise DecisionError(f'"key" must be a string such as "h", not {clip_echo(json.dumps(key), 80)}')
        return AgentDecision(type="direct_action", action=key, reasoning=why)
    query = _first_str(d, _QUERY_KEYS)
    if not query:
        raise DecisionError('a "lookup" decision needs "query": what to look up, such as "floating eye"')
    return AgentDecision(type="lookup", query=query, reasoning=why)


def _check_shape(value: Any) -> None:
    """DecisionError when a decision object nests too deep or holds too much text."""
    depth, chars = json_shape(value, max_depth=MAX_DECISION_DEPTH)
    if depth > MAX_DECISION_DEPTH:
        raise DecisionError(f"the decision nests more than {MAX_DECISION_DEPTH} levels deep; write one flat JSON "
                            'object such as {"action": "invoke", "skill": "name", "params": {"x": 1}}')
    if chars > MAX_REPLY_CHARS:
        raise DecisionError(f"the decision holds {chars:,} characters of text; keep it under {MAX_REPLY_CHARS:,} "
                            "(the code of a skill included)")


def _example(allowed: Iterable[str]) -> str:
    return 'answer with one JSON object such as {"action": "invoke", "skill": "name", "params": {}} ' \
           f'(actions: {", ".join(allowed)})'


def _norm_action(value: Any) -> Optional[str]:
    if not isinstance(value, str):
        return None
    return _ACTION_SYNONYMS.get(value.strip().lower().replace("-", "_").replace(" ", "_"))


def _first_str(d: dict, keys: Iterable[str]) -> str:
    for k in keys:
        v = d.get(k)
        if isinstance(v, str) and v.strip():
            return v.strip()
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            return " ".join(x.strip() for x in v)
    return ""


def _skill_name(d: dict, action: str) -> str:
    raw = None
    for k in _NAME_KEYS:
        if d.get(k) not in (None, ""):
            raw = d[k]
            break
    if raw is None:
        if action == "invoke":
            raise DecisionError('an "invoke" decision needs "skill": the name of a skill from AVAILABLE SKILLS')
        if action == "show":
            raise DecisionError('a "show" decision needs "skill": the name of the library skill whose code you '
                                'want to read, such as "go_to"')
        raise DecisionError('a "create" decision needs "name": a snake_case skill name such as "fight_adjacent"')
    if not isinstance(raw, str):
        raise DecisionError(f'the skill name must be a string, not {clip_echo(json.dumps(raw, default=str), 80)}')
    name = raw.strip().strip("`'\"")
    if name.endswith("()"):
        name = name[:-2].rstrip()
    if not _IDENT.match(name):
        suggestion = re.sub(r"[^0-9A-Za-z]+", "_", name[:60]).strip("_").lower() or "my_skill"
        if suggestion[0].isdigit():
            suggestion = "skill_" + suggestion
        raise DecisionError(f'the skill name "{clip_echo(raw, 80)}" is not a Python identifier; use snake_case such as "{suggestion}"')
    return name


def _params(d: dict) -> dict:
    for k in _PARAM_KEYS:
        if k in d:
            value = d[k]
            break
    else:
        return {}
    if value is None or value == "" or value == []:
        return {}
    if isinstance(value, str):
        try:
            value = loads_lenient(value)
        except ValueError:
            value = None
    if not isinstance(value, dict):
        raise DecisionError('"params" must be a JSON object of keyword arguments such as {"hp_threshold": 0.5}')
    return value


def _triggers(value: Any) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        items = re.split(r"[,\s]+", value)
    elif isinstance(value, (list, tuple)):
        items = [str(x) for x in value]
    else:
        raise DecisionError('"triggers" must be a list of event names such as ["monster", "low_hp"]')
    return tuple(x.strip().strip("'\"") for x in items if x.strip().strip("'\""))


def _code(value: Any) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        value = "\n".join(x.rstrip("\n") for x in value)  # code given as a list of lines
    if not isinstance(value, str):
        raise DecisionError('"code" must be a string holding the skill source')
    if "\n" not in value and ("\\n" in value):
        value = _unescape(value)  # escaped twice: literal backslash-n sequences instead of newlines
    return value


def _unescape(s: str) -> str:
    try:
        out = json.loads('"' + s + '"', strict=False)
        if isinstance(out, str):
            return out
    except ValueError:
        pass
    return s.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"')


def _is_placeholder(code: str) -> bool:
    """Code that cannot be a skill (every skill defines an async function)."""
    s = code.strip()
    return not s or ("def " not in s and len(s) < 200)

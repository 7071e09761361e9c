"""The model's decision each turn (spec §7.3) and a parser robust to real model output.

The model answers with one JSON object (spec §7.2)::

    {"action": "invoke", "skill": "name", "params": {...}}
    {"action": "create", "name": "...", "category": "...", "description": "...",
     "triggers": [...], "params": {...}}        and the code in a ```python block after it
    {"action": "direct", "key": "h"}
    {"action": "lookup", "query": "..."}          (only where lookups are offered)
    {"action": "show", "skill": "name"}           (a library skill's code, for the next prompt)

either as text (:func:`parse_decision`) or as the input of the native ``decide`` tool
(:data:`DECISION_TOOL`, :func:`decision_from_dict`). Text parsing copes with what models
actually write: the JSON inside a ```json fence or inside prose, several objects (the last
with an ``"action"`` wins), single quotes, Python literals and trailing commas, raw
newlines or stray backslashes inside strings, code given as an (even doubly) escaped JSON
string or as a list of lines, and code given in a separate ```python fence (before or after
the JSON) when the JSON's ``"code"`` is missing or a placeholder (``"see below"``); of several
fences, the one defining the named function wins. A native tool call may carry the code in
its ``code`` argument or leave it to a fence in the reply's text
(:func:`decision_from_reply`). ``"skill"``, ``"name"`` and ``"skill_name"`` are synonyms; a
missing ``"params"`` is ``{}``.

Whatever cannot be understood raises :class:`DecisionError`, whose message tells the model
exactly what to change, ready to be sent back to it. That includes what is too big to be a
decision: a text reply over :data:`MAX_REPLY_CHARS` characters, or a decision nesting deeper
than :data:`MAX_DECISION_DEPTH` levels; no reply makes these functions raise anything else.
"""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from .lenient_json import json_shape, loads_lenient

# action word -> AgentDecision.type
ACTION_TYPES = {
    "invoke": "invoke_skill",
    "create": "create_skill",
    "direct": "direct_action",
    "lookup": "lookup",
    "show": "show_skill",
}
TYPE_ACTIONS = {v: k for k, v in ACTION_TYPES.items()}
ALL_ACTIONS: tuple[str, ...] = ("invoke", "create", "direct", "lookup", "show")
# What the model is offered unless the caller says otherwise: everything, lookups in the
# knowledge base included (a caller without one leaves "lookup" out of ``allowed``).
DEFAULT_ACTIONS: tuple[str, ...] = ALL_ACTIONS

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
_MAX_REASONING = 2000


ECHO_CHARS = 400  # of anything the model wrote that is echoed back to it
# A decision is one small object (a create's code included): far bigger or deeper is a
# broken reply, and refusing it early keeps the parsers linear and their recursion bounded.
MAX_REPLY_CHARS = 200_000
MAX_DECISION_DEPTH = 32


def clip_echo(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` as echoed back to the model: at most ``limit`` characters of its start, and
    how many were cut ("(… 2999600 characters cut)"); a reply of megabytes must not come
    back whole in the next request."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]} (… {len(text) - limit} characters cut)"


class DecisionError(ValueError):
    """The reply could not be turned into a decision; the message says what to fix
    (bounded: a message quoting the reply keeps only the start of each quote)."""

    MAX_CHARS = 1200

    def __init__(self, message: str = "", *args):
        super().__init__(clip_echo(message, self.MAX_CHARS), *args)


@dataclass
class AgentDecision:
    """One decision (spec §7.3). ``type`` is "invoke_skill", "create_skill", "direct_action",
    "lookup" or "show_skill" (a library skill's code shown to the model; no game time);
    ``action`` is the key of a direct action."""

    type: str
    skill_name: Optional[str] = None
    code: Optional[str] = None
    params: dict = field(default_factory=dict)
    action: Optional[str] = None
    reasoning: str = ""
    category: Optional[str] = None
    description: str = ""
    triggers: tuple[str, ...] = ()
    query: Optional[str] = None  # a question for the knowledge base

    def to_dict(self) -> dict:
        """The decision in the wire format the model writes (canonical key order)."""
        d: dict[str, Any] = {"action": TYPE_ACTIONS.get(self.type, self.type)}
        if self.type == "invoke_skill":
            d["skill"] = self.skill_name
            d["params"] = self.params
        elif self.type == "create_skill":
            d["name"] = self.skill_name
            if self.category:
                d["category"] = self.category
            if self.description:
                d["description"] = self.description
            if self.triggers:
                d["triggers"] = list(self.triggers)
            if self.params:
                d["params"] = self.params
            d["code"] = self.code
        elif self.type == "direct_action":
            d["key"] = self.action
        elif self.type == "lookup":
            d["query"] = self.query
        elif self.type == "show_skill":
            d["skill"] = self.skill_name
        if self.reasoning:
            d["reasoning"] = self.reasoning
        return d

    def signature(self) -> str:
        """A key that is equal for decisions that would do the same thing (loop detection):
        reasoning, descriptions and code formatting do not count."""
        if self.type == "invoke_skill":
            return f"invoke_skill|{self.skill_name}|{_canonical(self.params)}"
        if self.type == "create_skill":
            code = "\n".join(line.rstrip() for line in (self.code or "").strip().splitlines() if line.strip())
            digest = hashlib.sha1(code.encode("utf-8")).hexdigest()[:12]
            return f"create_skill|{self.skill_name}|{digest}|{_canonical(self.params)}"
        if self.type == "direct_action":
            return f"direct_action|{self.action!r}"
        if self.type == "lookup":
            return f"lookup|{' '.join((self.query or '').lower().split())}"
        if self.type == "show_skill":
            return f"show_skill|{self.skill_name}"
        return f"{self.type}|{self.skill_name}|{self.action}"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def format_decision(decision: AgentDecision) -> str:
    """Canonical one-line JSON of a decision (transcripts, conversation history)."""
    return json.dumps(decision.to_dict(), ensure_ascii=False)


def decision_tool(allowed: Iterable[str] = DEFAULT_ACTIONS) -> dict:
    """The ``decide`` tool (name, description, JSON schema) offering the ``allowed`` actions.
    Backends translate it into their API's tool format."""
    allowed = tuple(allowed)
    props: dict[str, Any] = {
        "action": {
            "type": "string",
            "enum": list(allowed),
            "description": "invoke = run a library skill; create = write a new skill and run it; "
            "direct = press one key" + ("; lookup = ask the knowledge base" if "lookup" in allowed else "")
            + ("; show = read a library skill's code (shown in the next prompt, takes no game time)"
               if "show" in allowed else ""),
        },
        "skill": {"type": "string", "description": "invoke: the name of the library skill to run"
                  + ("; show: the skill whose code to read" if "show" in allowed else "")},
        "name": {"type": "string", "description": "create: snake_case name of the new skill"},
        "code": {
            "type": "string",
            "description": "create: the complete Python source of the skill (an async def whose first parameter "
            "is nh), as plain text with real newlines",
        },
        "params": {"type": "object", "description": "invoke/create: keyword arguments for the skill"},
        "category": {"type": "string", "description": "create: skill category, e.g. exploration, combat"},
        "description": {"type": "string", "description": "create: one line saying what the skill does"},
        "triggers": {
            "type": "array",
            "items": {"type": "string"},
            "description": "create: events that stop the skill (monster, low_hp, very_low_hp, deadly, hunger, level_change, "
            "teleport, items, engulfed, message)",
        },
        "key": {"type": "string", "description": "direct: the one key to press, e.g. \"h\""},
        "reasoning": {"type": "string", "description": "a short reason for this decision"},
    }
    if "lookup" in allowed:
        props["query"] = {"type": "string", "description": "lookup: what to look up"}
    return {
        "name": "decide",
        "description": "Make this turn's decision. Call it exactly once.",
        "input_schema": {"type": "object", "properties": props, "required": ["action"]},
    }


DECISION_TOOL: dict = decision_tool()


# ---------------------------------------------------------------------------------------------
# From a dict (tool input, or the object found in text)


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


# ---------------------------------------------------------------------------------------------
# From text


_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


def parse_decision(text: str, *, allowed: Iterable[str] = DEFAULT_ACTIONS) -> AgentDecision:
    """Parse a model's text reply into a decision, or raise :class:`DecisionError`."""
    allowed = tuple(allowed)
    if not isinstance(text, str) or not text.strip():
        raise DecisionError("the reply is empty; " + _example(allowed))
    if len(text) > MAX_REPLY_CHARS:
        raise DecisionError(f"the reply is {len(text):,} characters long; answer with one JSON decision, the whole "
                            f"reply under {MAX_REPLY_CHARS:,} characters")
    try:
        return _parse_text(text, allowed)
    except (RecursionError, MemoryError):
        raise DecisionError(_UNREADABLE) from None


_UNREADABLE = ("the reply could not be read (it nests too deeply or is too large); answer with one small, "
               "flat JSON decision")


def _parse_text(text: str, allowed: tuple[str, ...]) -> AgentDecision:
    code_spans, code_blocks = _code_fences(text)
    objects, broken = _json_objects(text, code_spans)
    chosen = None
    for start, end, obj in reversed(objects):
        found = _with_action(obj)
        if found is not None:
            chosen = (start, end, found)
            break
    if chosen is None:
        if broken is not None:
            raise DecisionError(
                f"the JSON decision could not be parsed ({broken}); write one valid JSON object with "
                'double-quoted strings, and write newlines inside "code" as \\n')
        if objects:
            raise DecisionError(f'the JSON has no "action" field; use one of {", ".join(allowed)}')
        raise DecisionError("no JSON object found in the reply; " + _example(allowed))
    start, end, obj = chosen
    return decision_from_dict(obj, allowed=allowed, fallback_code=_pick_code(code_blocks, _named(obj)),
                              reasoning=_prose(text, (start, end), code_spans))


def decision_from_reply(text: str, tool_input: Optional[dict], *,
                        allowed: Iterable[str] = DEFAULT_ACTIONS) -> AgentDecision:
    """The decision in a model's reply: the ``decide`` tool's input when the model called it
    (a create's code may be its ``code`` argument or a ```python block in the reply's text;
    the rest of the text is the reasoning), else the decision parsed from the text. When the
    tool input cannot be used but the text holds a decision, that one. Raises
    :class:`DecisionError`."""
    allowed = tuple(allowed)
    text = text if isinstance(text, str) else ""
    if tool_input is None:
        return parse_decision(text, allowed=allowed)
    try:
        return _from_tool_input(text, tool_input, allowed)
    except (RecursionError, MemoryError):
        raise DecisionError(_UNREADABLE) from None


def _from_tool_input(text: str, tool_input: Any, allowed: tuple[str, ...]) -> AgentDecision:
    spans, blocks = _code_fences(text)
    name = _named(tool_input) if isinstance(tool_input, dict) else None
    try:
        return decision_from_dict(tool_input, allowed=allowed, fallback_code=_pick_code(blocks, name),
                                  reasoning=_prose(text, (0, 0), spans))
    except DecisionError as tool_error:
        if text.strip():
            try:
                return parse_decision(text, allowed=allowed)
            except DecisionError:
                pass
        raise tool_error


def _code_fences(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    """Spans and dedented bodies of the fenced blocks of ``text`` that hold Python code."""
    spans: list[tuple[int, int]] = []
    blocks: list[str] = []
    for m in _FENCE.finditer(text):
        lang, body = m.group(1).lower(), m.group(2)
        is_code = lang in ("python", "py", "python3") or (
            lang in ("", "text") and not body.lstrip().startswith(("{", "[")) and "def " in body)
        if is_code:
            spans.append((m.start(), m.end()))
            blocks.append(textwrap.dedent(body).strip("\n") + "\n")
    return spans, blocks


def _named(obj: dict) -> Optional[str]:
    """The skill name an object gives, as written (None when it gives none)."""
    for k, v in obj.items():
        if str(k).strip().lower() in _NAME_KEYS and isinstance(v, str) and v.strip():
            return v.strip().strip("`'\"").removesuffix("()").rstrip()
    return None


def _pick_code(blocks: list[str], name: Optional[str]) -> Optional[str]:
    """The fenced block holding the skill: the last one defining ``name``, else the last one
    defining any function, else the last block."""
    if name:
        defines = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+{re.escape(name)}[ \t]*\(", re.M)
        named = [b for b in blocks if defines.search(b)]
        if named:
            return named[-1]
    with_def = [b for b in blocks if "def " in b]
    if with_def:
        return with_def[-1]
    return blocks[-1] if blocks else None


def _with_action(obj: dict) -> Optional[dict]:
    keys = {str(k).strip().lower() for k in obj}
    if "action" in keys or (isinstance(obj.get("type"), str) and _norm_action(obj["type"])):
        return obj
    for v in obj.values():  # {"decision": {"action": ...}}
        if isinstance(v, dict) and any(str(k).strip().lower() == "action" for k in v):
            return v
    return None


def _prose(text: str, span: tuple[int, int], code_spans: list[tuple[int, int]]) -> str:
    """The model's words around the decision, as its reasoning when the JSON gives none."""
    cuts = sorted([span, *code_spans])
    pieces, pos = [], 0
    for a, b in cuts:
        if a > pos:
            pieces.append(text[pos:a])
        pos = max(pos, b)
    pieces.append(text[pos:])
    prose = "\n".join(pieces)
    prose = re.sub(r"```[A-Za-z0-9_+.-]*", "", prose)
    prose = re.sub(r"<(/?)(think|thinking)>", "", prose)
    prose = "\n".join(line.rstrip() for line in prose.strip().splitlines() if line.strip())
    return prose[:_MAX_REASONING]


def _json_objects(text: str, skip: list[tuple[int, int]]) -> tuple[list[tuple[int, int, dict]], Optional[str]]:
    """Balanced ``{...}`` spans of ``text`` (outside ``skip`` spans) that parse as objects,
    and the parse error of the last span that mentioned "action" but did not parse."""
    found: list[tuple[int, int, dict]] = []
    broken: Optional[str] = None
    i = 0
    while True:
        i = text.find("{", i)
        if i < 0:
            break
        inside = next((b for a, b in skip if a <= i < b), None)
        if inside is not None:
            i = inside
            continue
        end, depth = _match_brace(text, i)
        if end is None:
            if depth > 0 and re.search(r"""["']action["']\s*:""", text[i:]):
                # truncated: the model forgot the closing braces (or was cut off)
                tail = re.sub(r"\s*(```\s*)?$", "", text[i:])
                try:
                    obj = loads_lenient(tail + "}" * depth)
                except ValueError:
                    obj = None
                if isinstance(obj, dict):
                    found.append((i, len(text), obj))
                    break
            if re.search(r"""["']action["']\s*:""", text[i:]):
                broken = "the object is never closed: a string or a brace is left open"
            i += 1
            continue
        chunk = text[i:end]
        try:
            obj = loads_lenient(chunk)
        except ValueError as e:
            if re.search(r"""["']action["']\s*:""", chunk):
                broken = str(e)
            i += 1
            continue
        if isinstance(obj, dict):
            found.append((i, end, obj))
            i = end
        else:
            i += 1
    return found, broken


def _match_brace(text: str, start: int) -> tuple[Optional[int], int]:
    """End (exclusive) of the balanced object starting at ``text[start] == "{"``, skipping
    braces inside strings, or (None, depth still open; 0 when a string is left open).
    Braces nesting deeper than MAX_DECISION_DEPTH raise DecisionError."""
    depth = 0
    quote = None
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if quote is not None:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
            elif c == "\n" and quote == "'":
                quote = None  # an apostrophe in prose, not a single-quoted string
        elif c in "\"'":
            quote = c
        elif c == "{":
            depth += 1
            if depth > MAX_DECISION_DEPTH:  # also keeps the scan of a wall of braces linear
                raise DecisionError(f"the JSON nests more than {MAX_DECISION_DEPTH} levels deep; write one flat "
                                    'JSON object such as {"action": "invoke", "skill": "name", "params": {}}')
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1, 0
        i += 1
    return None, (depth if quote is None else 0)

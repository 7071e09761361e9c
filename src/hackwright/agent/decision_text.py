"""A decision from a text reply (:func:`parse_decision`), or from a reply that called the
``decide`` tool (:func:`decision_from_reply`): the JSON object is found among prose, fences
and several candidates, a create's code may come from a ```python fence, and the words around
the decision become its reasoning."""

from __future__ import annotations

import re
import textwrap
from typing import Any, Iterable, Optional

from .decision_core import DEFAULT_ACTIONS, MAX_DECISION_DEPTH, MAX_REPLY_CHARS, AgentDecision, DecisionError
from .decision_dict import _NAME_KEYS, _example, _norm_action, decision_from_dict
from .lenient_json import loads_lenient

_MAX_REASONING = 2000

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

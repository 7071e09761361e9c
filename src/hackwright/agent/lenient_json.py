"""JSON as models write it: ``json.loads`` first, then repaired (trailing commas, lone
backslashes), then as a Python literal (single quotes, True/None). Whatever cannot be read —
nesting too deep for the parsers, text too large to repair — is a ValueError, never
RecursionError or MemoryError; :func:`json_shape` measures parsed JSON without recursion."""

from __future__ import annotations

import ast
import json
import warnings
from typing import Any


def loads_lenient(s: str) -> Any:
    """json.loads, then JSON with trailing commas / stray backslashes repaired, then a Python
    literal (single quotes, True/None); ValueError with the JSON error when all fail."""
    try:
        return json.loads(s, strict=False)
    except ValueError as e:
        first = e
    except (RecursionError, MemoryError):
        raise ValueError("the JSON nests too deeply or is too large to read") from None
    if len(s) > MAX_REPAIR_CHARS:  # repairs walk the text in Python: not for megabytes
        raise ValueError(str(first))
    try:
        return json.loads(_repair(s, python=False), strict=False)
    except (ValueError, RecursionError, MemoryError):
        pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.literal_eval(_repair(s, python=True))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    raise ValueError(str(first))


MAX_REPAIR_CHARS = 200_000


def json_shape(value: Any, *, max_depth: int) -> tuple[int, int]:
    """(depth, characters) of parsed JSON: how deep its objects and arrays nest (a scalar
    is 0, ``{"a": 1}`` is 1) and how many characters its strings and keys hold. Iterative,
    so any depth is measured; the walk stops once ``max_depth`` is exceeded (the depth
    returned is then ``max_depth + 1``)."""
    depth = chars = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            chars += len(item)
        elif isinstance(item, (dict, list, tuple)):
            level += 1
            depth = max(depth, level)
            if depth > max_depth:
                return depth, chars
            if isinstance(item, dict):
                chars += sum(len(str(k)) for k in item)
                stack.extend((v, level) for v in item.values())
            else:
                stack.extend((v, level) for v in item)
    return depth, chars


_JSON_ESCAPES = set('"\\/bfnrtu')
_LITERALS = {"true": "True", "false": "False", "null": "None"}


def _repair(s: str, *, python: bool) -> str:
    """One string-aware pass: drop trailing commas; in JSON mode double lone backslashes
    (``"\\d"``); in Python mode spell true/false/null the Python way."""
    out: list[str] = []
    quote = None
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if quote is not None:
            if c == "\\":
                nxt = s[i + 1] if i + 1 < n else ""
                if not python and quote == '"' and nxt not in _JSON_ESCAPES:
                    out.append("\\\\")
                    i += 1
                    continue
                out.append(s[i:i + 2])
                i += 2
                continue
            if c == quote:
                quote = None
            out.append(c)
            i += 1
            continue
        if c in "\"'":
            quote = c
            out.append(c)
        elif c == ",":
            j = i + 1
            while j < n and s[j] in " \t\r\n":
                j += 1
            if j >= n or s[j] not in "}]":
                out.append(c)
        elif python and c.isalpha() and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "_")):
            j = i
            while j < n and (s[j].isalnum() or s[j] == "_"):
                j += 1
            word = s[i:j]
            out.append(_LITERALS.get(word, word))
            i = j
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)

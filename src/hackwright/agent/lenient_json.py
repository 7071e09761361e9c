"""JSON as models write it: ``json.loads`` first, then repaired (trailing commas, lone
backslashes), then as a Python literal (single quotes, True/None)."""

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
    try:
        return json.loads(_repair(s, python=False), strict=False)
    except ValueError:
        pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.literal_eval(_repair(s, python=True))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    raise ValueError(str(first))


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

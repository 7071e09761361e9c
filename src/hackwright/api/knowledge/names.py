"""Matching a name someone typed against NetHack's own names.

``UnknownNameError`` is what ``lookup_monster``, ``lookup_item`` and
``corpse_verdict`` raise for a name NetHack does not know; it carries the
closest real names.
"""

from __future__ import annotations

import difflib
from typing import Iterable


class UnknownNameError(ValueError):
    """A monster or item name NetHack does not know; ``suggestions`` holds the closest ones."""

    def __init__(self, kind: str, name: str, suggestions: list[str]):
        self.kind, self.name, self.suggestions = kind, name, suggestions
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else "; no similar name found"
        super().__init__(f"no {kind} named {name!r}{hint}")


def _suggest(query: str, candidates: Iterable[str], n: int = 5) -> list[str]:
    cands = sorted(set(candidates))
    lower = {c.lower(): c for c in cands}
    hits = difflib.get_close_matches(query.lower(), list(lower), n=n, cutoff=0.6)
    if not hits:  # a looser net beats an empty answer
        hits = difflib.get_close_matches(query.lower(), list(lower), n=3, cutoff=0.4)
    return [lower[h] for h in hits]

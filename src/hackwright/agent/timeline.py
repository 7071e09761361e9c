"""The timeline as the prompt shows it: repeats collapsed into one line each.

NetHack says the same things again and again while the hero repeats an action: four
kicks at a locked door make twelve messages ("There is a staircase up here.", "In what
direction? j", "WHAMM!!" three times over, then "As you kick the door, it crashes
open!"). :func:`collapse` renders them as ``T3–T6: kicked the door 4×, it crashed open``,
in three deterministic passes over the entries, oldest first:

1. **acts**: a run of the same act on the same target (kicks at a door, blows at a
   monster), interrupted by at most :data:`MAX_GAP` other messages at a time, becomes one
   line saying how often and how it ended; the other messages of the run are listed
   after it with their counts ("also: …"), and prompt echoes ("In what direction? j")
   are left out;
2. **identical messages** in a row (counted when they were added) become ``text ×N``;
3. **cycles**: two or three messages repeated in the same order become
   ``(A / B) ×N``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Union

MAX_GAP = 4  # other messages allowed between two acts of one run
MAX_ALSO = 4  # distinct other messages listed after a run's line
MAX_PERIOD = 3  # longest cycle of messages collapsed by pass 3


@dataclass
class TimelineEntry:
    turn: int
    text: str
    count: int = 1  # the same text this many times in a row
    last_turn: Optional[int] = None  # the turn of the last repeat (count > 1)

    @property
    def end_turn(self) -> int:
        return self.last_turn if self.last_turn is not None else self.turn


@dataclass(frozen=True)
class Act:
    """One message read as an act: ``kind`` on ``target`` with an ``outcome``;
    ``final`` when the outcome ends the run (the door broke, the monster died)."""

    kind: str
    target: str
    outcome: str
    final: bool = False


_KICK_HELD = re.compile(r"^WHAMM+!+$")
_KICK_BROKE = re.compile(r"^As you kick the door, it (?P<how>crashes open|shatters to pieces)!")
_BLOW = re.compile(r"^You (?P<verb>hit|miss|kill|destroy|smite) (?:the |an? )?(?P<target>[^.!]+?)[.!]$")
_PROMPT_ECHO = re.compile(r"^In what direction\?")
_LOCKED = re.compile(r"^This door is locked\.")
_PAST = {"crashes open": "crashed open", "shatters to pieces": "shattered"}


def read_act(text: str) -> Optional[Act]:
    """The act a message reports, or None for any other message."""
    if _KICK_HELD.match(text):
        return Act("kick", "door", "held")
    m = _KICK_BROKE.match(text)
    if m:
        return Act("kick", "door", _PAST[m.group("how")], final=True)
    m = _BLOW.match(text)
    if m:
        verb = m.group("verb")
        outcome = {"miss": "miss", "kill": "killed", "destroy": "destroyed"}.get(verb, "hit")
        return Act("attack", m.group("target"), outcome, final=outcome in ("killed", "destroyed"))
    return None


def _turns(first: int, last: int) -> str:
    return f"T{first}" if first == last else f"T{first}–T{last}"


def _times(text: str, n: int) -> str:
    return f"{text} ×{n}" if n > 1 else text


@dataclass
class _Run:
    first: int
    last: int
    act: Act
    outcomes: dict[str, int]  # outcome -> how many acts had it
    end: Optional[Act]  # the final act, when the run ended with one
    also: dict[str, int]
    locked: bool

    def line(self) -> str:
        n = sum(self.outcomes.values())
        if self.act.kind == "kick":
            text = f"kicked the {'locked ' if self.locked else ''}door {n}×, " \
                   f"it {self.end.outcome if self.end is not None else 'held'}"
        else:
            hits = n - self.outcomes.get("miss", 0)  # a killing blow is a hit
            misses = self.outcomes.get("miss", 0)
            text = f"attacked the {self.act.target} {n}× ({hits} hit{'s' if hits != 1 else ''}, " \
                   f"{misses} miss{'es' if misses != 1 else ''})"
            if self.end is not None:
                text += f", {self.end.outcome} it"
        if self.also:
            shown = [_times(t, c) for t, c in list(self.also.items())[:MAX_ALSO]]
            more = len(self.also) - MAX_ALSO
            text += f" (also: {'; '.join(shown)}{f'; … {more} more' if more > 0 else ''})"
        return f"{_turns(self.first, self.last)}: {text}"


def _run_from(entries: list[TimelineEntry], i: int) -> tuple[Optional[_Run], int]:
    """The run of acts starting at ``entries[i]`` (an act) and the index after it; None
    when the act is not repeated."""
    act = read_act(entries[i].text)
    assert act is not None
    acts = [i]
    j, gap = i + 1, 0
    ended = act.final
    while j < len(entries) and not ended:
        a = read_act(entries[j].text)
        if a is not None and (a.kind, a.target) == (act.kind, act.target):
            acts.append(j)
            gap = 0
            ended = a.final
        elif a is not None:
            break
        else:
            gap += 1
            if gap > MAX_GAP:
                break
        j += 1
    last = acts[-1]
    if sum(entries[k].count for k in acts) < 2:
        return None, i + 1
    outcomes: dict[str, int] = {}
    end: Optional[Act] = None
    also: dict[str, int] = {}
    locked = False
    for k in range(i, last + 1):
        e = entries[k]
        a = read_act(e.text)
        if a is not None:
            outcomes[a.outcome] = outcomes.get(a.outcome, 0) + e.count
            if a.final:
                end = a
        elif _LOCKED.match(e.text):
            locked = True
        elif not _PROMPT_ECHO.match(e.text):
            also[e.text] = also.get(e.text, 0) + e.count
    return _Run(entries[i].turn, entries[last].end_turn, act, outcomes, end, also, locked), last + 1


def _take_lead_in(items: list[Union[TimelineEntry, str]], run: _Run) -> None:
    """The messages just before a run that belong to its first act: its prompt echo, "This
    door is locked.", and messages the run repeats (at most MAX_GAP of them)."""
    for _ in range(MAX_GAP):
        e = items[-1] if items else None
        if not isinstance(e, TimelineEntry):
            return
        if _PROMPT_ECHO.match(e.text):
            pass
        elif _LOCKED.match(e.text) and run.act.kind == "kick":
            run.locked = True
        elif e.text in run.also:
            run.also[e.text] += e.count
        else:
            return
        items.pop()
        run.first = e.turn


def _plain(e: TimelineEntry) -> str:
    return f"{_turns(e.turn, e.end_turn)}: {_times(e.text, e.count)}"


def _cycles(entries: list[TimelineEntry]) -> list[str]:
    """Pass 3 over entries outside act runs: cycles of 2..MAX_PERIOD messages."""
    out: list[str] = []
    i = 0
    while i < len(entries):
        best = (1, 1)  # (period, repeats)
        for p in range(2, MAX_PERIOD + 1):
            key = [(e.text, e.count) for e in entries[i:i + p]]
            if len(key) < p or len({t for t, _ in key}) < p:
                continue
            r = 1
            while [(e.text, e.count) for e in entries[i + r * p:i + (r + 1) * p]] == key:
                r += 1
            if r >= 2 and p * r > best[0] * best[1]:
                best = (p, r)
        p, r = best
        if r >= 2:
            block = entries[i:i + p * r]
            texts = " / ".join(_times(e.text, e.count) for e in entries[i:i + p])
            out.append(f"{_turns(block[0].turn, block[-1].end_turn)}: ({texts}) ×{r}")
            i += p * r
        else:
            out.append(_plain(entries[i]))
            i += 1
    return out


def collapse(entries: list[TimelineEntry]) -> list[str]:
    """The timeline's lines, oldest first, with repeats collapsed (see the module)."""
    items: list[Union[TimelineEntry, str]] = []  # entries, or the line of a collapsed run
    i = 0
    while i < len(entries):
        if read_act(entries[i].text) is not None:
            run, nxt = _run_from(entries, i)
            if run is not None:
                _take_lead_in(items, run)
                items.append(run.line())
                i = nxt
                continue
        items.append(entries[i])
        i += 1
    out: list[str] = []
    plain: list[TimelineEntry] = []
    for item in items:
        if isinstance(item, TimelineEntry):
            plain.append(item)
            continue
        out += _cycles(plain)
        plain = []
        out.append(item)
    return out + _cycles(plain)

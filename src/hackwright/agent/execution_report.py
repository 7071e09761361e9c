"""What a skill run did, told to the model in its next prompt.

A stopped reason and two counts hide what went on inside a skill: an exploring
loop once spent 744 turns pushing at a locked door, reported as
"budget (ok, 300 actions, 744 turns)". :class:`ExecutionProbe` looks at the game
before a skill runs and again after, and builds an :class:`ExecutionReport`:

* progress against the turns spent, measured by the harness, not the skill's own
  counts: "744 turns: +0 squares, Dlvl 3→3, XL 2→2, HP 14→9";
* the actions that failed, grouped: "290 × move: This door is locked."
  (counted by the skill runner, see ``sandbox/failed_actions.py``);
* the result's ``data`` and the end of what the skill printed;
* the state it left that matters next (a pick-axe in hand, a pit, Burdened …);
* after a ``create``, what became of the skill: "saved as version 2 of fight_east"
  or "not saved: …".

Everything is bounded by the constants below; :meth:`ExecutionReport.brief` keeps
only the progress, the largest failure group and the save line, for older runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from ..sandbox.failed_actions import FailedActions, FailureGroup

DATA_CHARS = 400  # of the result's data, as a compact repr
OUTPUT_LINES = 10  # of the skill's printed output, the last lines …
OUTPUT_CHARS = 600  # … and at most this many characters of them
FAILURE_GROUPS = 3  # groups of failed actions shown (the largest)
STATE_ITEMS = 8  # things named on the "left behind" line

# How SkillExecutionError.for_model introduces the skill's output (sandbox/errors.py):
# the report shows that output as its own tail, so the error text is cut before it.
_OUTPUT_MARKER = "\nOutput before the error:\n"
_DIGGER = re.compile(r"pick-axe|mattock", re.I)
_TRAPPED_BY = {"pit": "in a pit (climbing out takes turns)",
               "spiked pit": "in a spiked pit (climbing out takes turns)",
               "bear trap": "on a bear trap (caught: escaping takes turns)",
               "web": "in a web (stuck for a while)"}


def split_error(text: str) -> tuple[str, str, bool]:
    """An error's text without the skill's output, that output ("" when none), and
    whether the error had already cut earlier lines of it."""
    head, sep, output = text.partition(_OUTPUT_MARKER)
    if not sep:
        return text, "", False
    cut = output.startswith("[…]\n")
    return head, output.removeprefix("[…]\n"), cut


def output_tail(log: str, lines: int = OUTPUT_LINES, chars: int = OUTPUT_CHARS) -> tuple[str, int]:
    """The last ``lines`` lines of ``log`` within ``chars`` characters, and how many lines
    it had in all."""
    all_lines = [ln.rstrip() for ln in (log or "").rstrip("\n").splitlines()]
    while all_lines and not all_lines[0].strip():
        all_lines.pop(0)
    text = "\n".join(all_lines[-lines:])
    if len(text) > chars:
        text = "…" + text[-(chars - 1):]
    return text, len(all_lines)


def compact_data(data: Any, chars: int = DATA_CHARS) -> str:
    """``data`` as one short line: its repr, whitespace squeezed, cut at ``chars``."""
    if data is None or data == {}:
        return ""
    text = " ".join(repr(data).split())
    return text if len(text) <= chars else f"{text[:chars - 1]}… ({len(text) - chars + 1} more characters)"


@dataclass(frozen=True)
class Progress:
    """The measures of progress at one moment."""

    turn: int
    depth: int  # Dlvl
    level: tuple[int, int]  # (dungeon number, level in it): which level's squares these are
    xl: int
    hp: int
    max_hp: int
    squares: int  # squares of this level known to walk on

    @classmethod
    def of(cls, api) -> Optional["Progress"]:
        """The hero's progress now, or None when the game has no live hero."""
        s = api.last_stats
        if s is None or api.game_over:
            return None
        try:
            level = api.level_id()
            squares = int(api.level_memory().passable_mask().sum())
        except Exception:  # a report is an aid; never let it cost a step
            level, squares = (0, s.dungeon_level), 0
        return cls(s.turn, s.dungeon_level, level, s.xp_level, s.hp, s.max_hp, squares)


def progress_line(before: Progress, after: Optional[Progress]) -> str:
    """ "744 turns: +0 squares, Dlvl 3→3, XL 2→2, HP 14→9" (the hero died: says so)."""
    if after is None:
        return f"the hero died (from Dlvl {before.depth}, XL {before.xl}, HP {before.hp})"
    turns = after.turn - before.turn
    if after.level == before.level:
        squares = f"{after.squares - before.squares:+d} squares"
    else:
        squares = f"new level ({after.squares} squares known there)"
    return (f"{turns} turn{'' if turns == 1 else 's'}: {squares}, Dlvl {before.depth}→{after.depth}, "
            f"XL {before.xl}→{after.xl}, HP {before.hp}→{after.hp}")


async def left_behind(api) -> list[str]:
    """What about the hero matters for the next decision: a digging tool in hand while a
    weapon is carried, a pit or bear trap underfoot, and the status line's troubles
    (Hungry, Burdened, Blind, Engulfed …)."""
    if api.game_over:
        return []
    out: list[str] = []
    try:
        inv = await api.get_inventory()
        wielded = next((i for i in inv if i.equipped == "weapon"), None)
        if wielded is not None and _DIGGER.search(wielded.name):
            spare = next((i for i in inv if i.object_class == "weapon" and i is not wielded
                          and not _DIGGER.search(i.name)), None)
            out.append(f"wielding the {wielded.name}" + (f", not your {spare.name} ({spare.slot})" if spare else ""))
        hero = api.last_stats.position
        level = await api.get_current_level()
        trap = level.tiles[hero.y][hero.x].trap_type if hero is not None else None
        if trap in _TRAPPED_BY:
            out.append(_TRAPPED_BY[trap])
        out += [e for e in await api.get_status_effects() if e not in ("Not Hungry", "Unencumbered")]
    except Exception:  # a report is an aid; never let it cost a step
        pass
    return out[:STATE_ITEMS]


@dataclass
class ExecutionReport:
    """What one skill run did, beyond its stopped reason (see the module)."""

    before: Optional[Progress] = None
    after: Optional[Progress] = None  # None: the hero died, or nothing was measured
    data: str = ""  # compact_data(result.data)
    output: str = ""  # output_tail of what the skill printed
    output_lines: Optional[int] = 0  # lines it printed in all (None: more than were kept, how many unknown)
    failures: list[FailureGroup] = field(default_factory=list)  # the largest groups
    failed_total: int = 0  # failed actions in all
    actions: int = 0  # actions noted by the runner
    left_behind: list[str] = field(default_factory=list)
    saved: Optional[str] = None  # after a create: what became of the skill

    def lines(self) -> list[str]:
        """The report for the prompt, one line per part that has something to say."""
        out = []
        if self.saved:
            out.append(self.saved)
        if self.before is not None and (self.after is None or self.after.turn != self.before.turn
                                        or self.actions or self.after != self.before):
            out.append(progress_line(self.before, self.after))
        if self.failures:
            shown = sum(g.count for g in self.failures)
            rest = self.failed_total - shown
            more = f" (and {rest} other failed)" if rest > 0 else ""
            out.append(f"failed actions, {self.failed_total} of {self.actions}: "
                       + "; ".join(g.line() for g in self.failures) + more)
        if self.data:
            out.append(f"data: {self.data}")
        if self.output:
            kept = len(self.output.splitlines())
            if self.output_lines is None:
                head = f"printed (its last {kept} lines; earlier ones cut):"
            elif self.output_lines > kept:
                head = f"printed (last {kept} of {self.output_lines} lines):"
            else:
                head = "printed:"
            out.append(head + "\n" + "\n".join(f"  | {ln}" for ln in self.output.splitlines()))
        if self.left_behind:
            out.append("left you: " + ", ".join(self.left_behind))
        return out

    def brief(self) -> "ExecutionReport":
        """The report of an older run: progress, the largest failure group, the save line."""
        return replace(self, data="", output="", output_lines=0, failures=self.failures[:1], left_behind=[])


def _how_it_ended(result, error: Optional[str]) -> str:
    if error or result is None:
        return "its run raised an error (see it above)"
    return f"its run did not succeed ({result.stopped_reason})"


class ExecutionProbe:
    """Looks at the game before a skill runs; :meth:`finish` makes the report after it."""

    def __init__(self, before: Optional[Progress], created: Optional[tuple[Any, str, str, bool]] = None,
                 on_record: Optional[tuple[int, str, bool]] = None, errors_seen: int = 0):
        self.before = before
        self.created = created  # (library, name, code, auto_save) of a ``create`` decision
        self.on_record = on_record  # (version, code, retired) of the created name before the run
        self.errors_seen = errors_seen

    @classmethod
    def start(cls, api, library, decision, auto_save: bool = True, errors_seen: int = 0) -> "ExecutionProbe":
        """Before the run of ``decision`` (an AgentDecision); for a ``create``, the library's
        state of its name is kept, to tell after the run what became of the skill.
        ``errors_seen``: len(memory.errors) now."""
        created = on_record = None
        if decision.type == "create_skill":
            name = decision.skill_name or ""
            created = (library, name, decision.code or "", auto_save)
            if name and name in library:
                s = library.get(name)
                on_record = (s.version, s.code, s.retired)
        return cls(Progress.of(api), created, on_record, errors_seen)

    async def finish(self, api, result=None, log: str = "", error: Optional[str] = None,
                     failed: Optional[FailedActions] = None, errors: list[str] = ()) -> ExecutionReport:
        """The report after the run (and after a created skill was saved or not):
        ``result`` its SkillResult (None when it raised), ``log`` what it printed,
        ``error`` the error text, ``failed`` the runner's tally, ``errors`` memory.errors."""
        cut = False
        if not log and error:
            _, log, cut = split_error(error)
        output, n = output_tail(log)
        groups = failed.top(FAILURE_GROUPS) if failed is not None else []
        saved = None
        if self.created is not None:
            library, name, code, auto_save = self.created
            saved = self.save_line(library, name, code, result=result, error=error, auto_save=auto_save,
                                   errors=errors)
        return ExecutionReport(
            before=self.before, after=Progress.of(api),
            data=compact_data(getattr(result, "data", None)), output=output, output_lines=None if cut else n,
            failures=groups, failed_total=failed.total if failed is not None else 0,
            actions=failed.actions if failed is not None else 0,
            left_behind=await left_behind(api), saved=saved)

    def save_line(self, library, name: str, code: str, *, result=None, error: Optional[str] = None,
                  auto_save: bool = True, errors: list[str] = ()) -> str:
        """What became of a created skill, judged from the library before and after:
        "saved as version N of name", or "not saved: <why>". ``errors``: memory.errors,
        whose entries since ``start`` may say why saving failed."""
        now = library.get(name) if name and name in library else None
        if now is not None and not now.is_builtin and now.code.strip() == (code or "").strip():
            same = self.on_record is not None and self.on_record[1].strip() == now.code.strip()
            if now.retired:
                return (f"not saved for use: {_how_it_ended(result, error)}; the code is kept retired as version "
                        f"{now.version} of {name} (create {name} again to fix it)")
            if same and self.on_record[0] == now.version:
                return f"unchanged: this is already version {now.version} of {name}"
            return f"saved as version {now.version} of {name}"
        why = self._why_not(library, name, now, result, error, auto_save, errors)
        return f"not saved: {why}"

    def _why_not(self, library, name: str, now, result, error, auto_save: bool, errors) -> str:
        if not name:
            return "the decision named no skill"
        if now is not None and now.is_builtin:
            return f"{name} is a built-in skill's name; choose another"
        stays = f"; {name} stays at version {now.version}" if now is not None and not now.retired else ""
        if not auto_save:
            return "saving created skills is off in this episode" + stays
        said = [e for e in errors[self.errors_seen:] if name in e]
        if said:
            return " ".join(said[-1].split())[:300] + stays
        if error:
            if error.startswith(("Skill rejected", "Syntax error")):
                return "the code was rejected before it ran (see the error)" + stays
            if error.startswith("model-written skills cannot run here"):
                return "it could not run here (see the error)" + stays
            return f"{_how_it_ended(result, error)}" + stays
        if result is None:
            return "it did not run" + stays
        if not getattr(result, "success", False):
            return f"{_how_it_ended(result, error)}; a new skill is kept after a successful run" + stays
        return f"the library keeps the current code of {name}: its recent runs succeed too rarely" + stays

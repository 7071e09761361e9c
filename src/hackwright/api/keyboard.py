"""The only place that sends keys to NetHack.

Every action of the API is a short key sequence followed by ``settle()``, which
answers whatever NetHack asks until the game is back at the ordinary command
prompt: it collects every ``--More--`` part into the action's messages, drives
menus, answers the y/n, item, direction and text questions the action implies
(through :class:`Rule` objects the caller passes), and escapes from anything
else. Prompts are told apart with NLE's program-state flags (``internal[1:4]``
= in_yn_function, in_getlin, xwaitforspace), not only with message text.

Before a key goes out, ``press`` asks :mod:`.integrity` whether it would run a
command that saves, quits or changes the game's mode or options, given what the
game is waiting for right now, and raises ``CommandRefused`` instead of sending it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Optional, Union

import numpy as np

from ..env.make import Game
from . import integrity

ESC = 27
ENTER = 13
SPACE = 32

# Menus end with "(end)" on their last page or "(n of m)" on a page of several.
_MENU_FOOTER = re.compile(r"\((end)\)|\((\d+) of (\d+)\)")
_MENU_ENTRY = re.compile(r"^([a-zA-Z$#*]) ([-+#]) (.*)$")
_MORE = "--More--"


class PromptKind(Enum):
    NONE = "none"  # the ordinary command prompt
    MORE = "more"  # --More-- after a message, or a text window to dismiss
    MENU = "menu"  # a menu of lettered entries
    QUESTION = "question"  # a one-key question: y/n, an item letter, a direction
    TEXT = "text"  # a line of text (getlin), e.g. "Call a bubbly potion:"
    EXTENDED = "extended"  # an unfinished '#' extended command line
    GAME_OVER = "game_over"


@dataclass
class MenuEntry:
    letter: str
    selected: bool
    text: str


@dataclass
class Prompt:
    """What NetHack is waiting for right now."""

    kind: PromptKind
    text: str = ""  # the question, or the menu's title and headers
    entries: list[MenuEntry] = field(default_factory=list)  # menus only
    page: int = 1
    pages: int = 1


MenuPicker = Callable[[Prompt], list[str]]  # returns letters to select on this page
Answer = Union[str, MenuPicker, None]  # None: escape


@dataclass
class Rule:
    """How to answer a prompt whose text matches ``pattern``.

    ``answer`` is the keys to type (for menus: a picker returning the letters to
    select on the current page). ``limit`` stops a rule from answering the same
    question forever (NetHack re-asks after an invalid answer). ``note`` is
    recorded in the action's messages when set, e.g. the reason for a refusal.
    """

    pattern: str
    answer: Answer
    kinds: tuple[PromptKind, ...] = (PromptKind.QUESTION, PromptKind.MENU, PromptKind.TEXT)
    limit: int = 2
    error: Optional[str] = None  # mark the action failed with this error when the rule fires
    used: int = 0

    def matches(self, prompt: Prompt) -> bool:
        return prompt.kind in self.kinds and re.search(self.pattern, prompt.text, re.I | re.S) is not None


@dataclass
class Exchange:
    """What happened between a command and the return to the command prompt."""

    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    steps: int = 0
    game_over: bool = False
    open_prompt: Optional[Prompt] = None  # send_keys only: what was left open


def _line(row: np.ndarray) -> str:
    return row.tobytes().decode("latin-1")


class Keyboard:
    """Sends keys to a :class:`Game` and reads what the game is waiting for."""

    # A settle() that needs more than this many keys is stuck; escape hard.
    MAX_SETTLE_KEYS = 400

    def __init__(self, game: Game):
        self.game = game
        self.history: list[str] = []  # every message seen this game, oldest first
        self.history_turns: list[int] = []  # the game turn each message of history was seen on
        self.messages_seen = 0  # all messages ever noted (history keeps the last ones)
        self.death_reason: Optional[str] = None  # read from the end-of-game screens
        self.on_step: Optional[Callable[[], None]] = None  # called after every key

    # ---------------------------------------------------------------- reading
    def message(self) -> str:
        return self.game.obs["message"].tobytes().rstrip(b"\0").decode("latin-1").strip()

    def screen_lines(self) -> list[str]:
        if self.game.done:  # how the game ended (the tombstone), not NLE's last screen
            return self.game.final_screen().lines()
        return [_line(r) for r in self.game.obs["tty_chars"]]

    def at_command_prompt(self) -> bool:
        """Cheap check used before every action: no flag set, no '#' line open."""
        o = self.game.obs
        if self.game.done or o["program_state"][0]:
            return False
        i = o["internal"]
        return not (i[1] or i[2] or i[3]) and o["message"][0] != 35  # '#'

    def prompt(self) -> Prompt:
        """Classify the game's current input state."""
        g = self.game
        if g.done or g.obs["program_state"][0]:
            return Prompt(PromptKind.GAME_OVER, self.message())
        internal = g.obs["internal"]
        in_yn, in_getlin, waiting = int(internal[1]), int(internal[2]), int(internal[3])
        if waiting:
            lines = self.screen_lines()
            if any(_MORE in ln for ln in lines):
                return Prompt(PromptKind.MORE, self.message() or self._window_text(lines))
            menu = self._parse_menu(lines)
            if menu is not None:
                return menu
            return Prompt(PromptKind.MORE, self.message() or self._window_text(lines))
        if in_yn:
            return Prompt(PromptKind.QUESTION, self.message())
        if in_getlin:
            return Prompt(PromptKind.TEXT, self.message())
        msg = self.message()
        cursor = g.obs["tty_cursor"]
        if msg.startswith("#") and int(cursor[0]) == 0:
            return Prompt(PromptKind.EXTENDED, msg)
        return Prompt(PromptKind.NONE, msg)

    def key_entry(self) -> tuple[integrity.Entry, str, str]:
        """Where the next key goes, and on an open '#' line what was typed and what
        the game shows (the typed part, then NetHack's completion of it)."""
        g = self.game
        if g.done or g.obs["program_state"][0]:
            return integrity.Entry.OTHER, "", ""
        i = g.obs["internal"]
        if i[1] or i[2] or i[3]:
            return integrity.Entry.OTHER, "", ""
        raw = g.obs["message"].tobytes().rstrip(b"\0").decode("latin-1")
        row, col = (int(c) for c in g.obs["tty_cursor"])
        if raw.startswith("#") and row == 0:
            # The line reads "# " + text; the cursor stands after the typed part.
            return integrity.Entry.EXTENDED, raw[2:max(col, 2)], raw[2:].rstrip()
        return integrity.Entry.COMMAND, "", ""

    def check_key(self, code: int) -> None:
        """Raise ``CommandRefused`` when ``code``, typed now, would run a refused command."""
        if code not in integrity.GATED_KEYS:
            return
        entry, typed, shown = self.key_entry()
        refusal = None
        if entry is integrity.Entry.COMMAND:
            refusal = integrity.key_refusal(code)
        elif entry is integrity.Entry.EXTENDED and code in (integrity.ENTER, integrity.NEWLINE):
            refusal = integrity.line_refusal(typed, shown)
        if refusal is not None:
            raise integrity.CommandRefused(refusal)

    @staticmethod
    def _window_text(lines: list[str]) -> str:
        """Text of a window drawn over the map: the lines right of its --More--
        column, above it (the map beside the window is not part of it)."""
        more_row = next((r for r in range(len(lines) - 1, 0, -1) if _MORE in lines[r]), None)
        if more_row is None:
            return "\n".join(ln.strip() for ln in lines[1:22] if ln.strip())
        col = lines[more_row].index(_MORE)
        if col <= 1:
            col = 0  # a full-screen window writes " --More--" but its text starts at column 0
        body = [ln[col:].rstrip() for ln in lines[:more_row]]
        return "\n".join(b.strip() for b in body if b.strip())

    @staticmethod
    def _parse_menu(lines: list[str]) -> Optional[Prompt]:
        footer_row = None
        for r in range(len(lines) - 1, -1, -1):
            m = _MENU_FOOTER.search(lines[r])
            if m and lines[r][m.end():].strip() == "":
                footer_row, footer = r, m
                break
        if footer_row is None:
            return None
        col = footer.start()
        page, pages = (1, 1) if footer.group(1) else (int(footer.group(2)), int(footer.group(3)))
        entries, text_lines = [], []
        for ln in lines[:footer_row]:
            part = ln[col:].rstrip() if len(ln) > col else ""
            # A menu drawn over the map: the part left of the menu column is map.
            m = _MENU_ENTRY.match(part)
            if m:
                entries.append(MenuEntry(m.group(1), m.group(2) != "-", m.group(3).strip()))
            elif part.strip():
                text_lines.append(part.strip())
        return Prompt(PromptKind.MENU, "\n".join(text_lines), entries, page, pages)

    # ---------------------------------------------------------------- writing
    def press(self, key: Union[int, str]) -> None:
        """Send one key; raises ``integrity.CommandRefused`` (sending nothing) for a
        key that would save, quit or change the game's mode or options."""
        code = ord(key) if isinstance(key, str) else int(key)
        self.check_key(code)
        self.game.step_key(code)
        if self.on_step is not None:
            self.on_step()

    def _note(self, ex: Exchange, text: str) -> None:
        text = text.strip()
        if text and (not ex.messages or ex.messages[-1] != text):
            ex.messages.append(text)
            self.history.append(text)
            self.history_turns.append(int(self.game.obs["blstats"][20]))
            self.messages_seen += 1
            if len(self.history) > 2000:
                del self.history[:1000]
                del self.history_turns[:1000]

    def type_keys(self, keys: str, ex: Exchange) -> None:
        """Type keys; a --More-- that appears in between is dismissed first."""
        for ch in keys:
            if self.game.done:
                return
            while self.game.obs["internal"][3] and self.prompt().kind is PromptKind.MORE and ex.steps < self.MAX_SETTLE_KEYS:
                self._note(ex, self.prompt().text)
                self.press(ENTER)
                ex.steps += 1
            self.press(ch)
            ex.steps += 1

    def settle(self, ex: Exchange, rules: list[Rule] = (), *, keep_open: bool = False) -> Exchange:
        """Answer prompts until the command prompt (or game over) is back.

        With ``keep_open`` (send_keys), --More-- is still dismissed but the first
        question, menu or text prompt is left open and reported.
        """
        rules = list(rules)
        escapes = 0
        while not self.game.done:
            if ex.steps >= self.MAX_SETTLE_KEYS:
                ex.errors.append("the game kept asking questions; escaped out of them")
                self._escape_hard(ex)
                break
            p = self.prompt()
            if p.kind is PromptKind.NONE:
                self._note(ex, p.text)
                break
            if p.kind is PromptKind.GAME_OVER:
                ex.game_over = True
                self._drain_game_over(ex)
                break
            if p.kind is PromptKind.MORE:
                self._note(ex, p.text)
                self.press(ENTER)
                ex.steps += 1
                continue
            if keep_open:
                ex.open_prompt = p
                return ex
            rule = next((r for r in rules if r.used < r.limit and r.matches(p)), None)
            if p.kind is PromptKind.QUESTION:
                ex.questions.append(p.text)
            if rule is None:
                escapes += 1
                if p.kind is PromptKind.QUESTION:
                    self._note(ex, f"{p.text} [escaped]")
                if escapes > 20:
                    self._escape_hard(ex)
                    break
                self.press(ESC)
                ex.steps += 1
                continue
            rule.used += 1
            if rule.error:
                ex.errors.append(rule.error)
            if p.kind is PromptKind.MENU:
                self._drive_menu(p, rule, ex)
            elif rule.answer is None:
                self.press(ESC)
                ex.steps += 1
            else:
                ans = rule.answer(p) if callable(rule.answer) else rule.answer
                if p.kind is PromptKind.QUESTION:
                    self._note(ex, f"{p.text} {ans if ans != chr(ESC) else '[escaped]'}")
                for ch in ans:
                    self.press(ch)
                    ex.steps += 1
                    if p.kind is PromptKind.QUESTION:
                        break  # one key answers a one-key question
                if p.kind is PromptKind.TEXT:
                    self.press(ENTER)
                    ex.steps += 1
        if self.game.done:
            ex.game_over = True
        return ex

    def _drive_menu(self, p: Prompt, rule: Rule, ex: Exchange) -> None:
        """Select entries page by page, then confirm."""
        picker = rule.answer
        for _ in range(max(p.pages, 1) + 2):
            if not callable(picker):
                break
            for letter in picker(p):
                if not any(e.letter == letter and not e.selected for e in p.entries):
                    continue
                self.press(letter)
                ex.steps += 1
            if p.page >= p.pages:
                break
            self.press(">")
            ex.steps += 1
            nxt = self.prompt()
            if nxt.kind is not PromptKind.MENU or nxt.page == p.page:
                break
            p = nxt
        if picker is None:
            self.press(ESC)
        elif self.prompt().kind is PromptKind.MENU:
            self.press(ENTER)
        else:
            return  # a pick-one menu closes on its letter: an Enter now would answer the next question
        ex.steps += 1

    def _escape_hard(self, ex: Exchange) -> None:
        for _ in range(30):
            if self.game.done:
                return
            p = self.prompt()
            if p.kind is PromptKind.NONE:
                return
            self.press(ENTER if p.kind is PromptKind.MORE else ESC)
            ex.steps += 1

    # A cause runs to the next full stop or comma, except the stop of a title: "killed by
    # Mr. Asidonhopo, the shopkeeper" was recorded as "killed by Mr".
    # (A message's "!" ends a cause too: "killed by the death ray!  The death ray hits you!--More--".)
    _CAUSE = r"(?:(?:Mrs?|Ms|St)\. |[^.,;!])+"
    _DEATH = re.compile(rf"(killed by {_CAUSE}|died of {_CAUSE}|choked on {_CAUSE}|starved to death|"
                        rf"drowned in {_CAUSE}|turned to stone|petrified by {_CAUSE}|burned by {_CAUSE}|"
                        rf"dissolved in {_CAUSE}|crushed to death by {_CAUSE}|poisoned by {_CAUSE})")
    _GOODBYE = re.compile(rf"(?:You|you) (?:were|was)?\s*(killed by {_CAUSE}|died of {_CAUSE}|choked on {_CAUSE}|"
                          r"starved|drowned[^.,]*|turned to stone[^.,]*|dissolved[^.,]*)")

    _TOMB_ROW = re.compile(r"^\s*\*?\|(.*)\|[\s*]*$")

    @classmethod
    def _tombstone_cause(cls, lines: list[str]) -> Optional[str]:
        """The cause carved on the tombstone, its wrapped rows joined ("killed by a" /
        "giant ant"): the rows inside the stone's borders from the cause's first row to
        the first empty one (the year comes after it)."""
        rows = [m.group(1).strip() for m in map(cls._TOMB_ROW.match, lines) if m]
        for i, row in enumerate(rows):
            if cls._DEATH.match(row) or re.match(r"(?:killed|died|choked|drowned|petrified|burned|dissolved|"
                                                 r"crushed|poisoned|starved|turned)\b", row):
                cause = [row]
                for more in rows[i + 1:]:
                    if not more or more.isdigit():
                        break
                    cause.append(more)
                return " ".join(cause)
        return None

    def _read_death_reason(self) -> None:
        """The tombstone and the "Goodbye … you were killed by …" lines."""
        lines = self.screen_lines()
        text = " ".join(ln.strip() for ln in lines if ln.strip())
        m = self._GOODBYE.search(text)
        if m:
            self.death_reason = m.group(1).strip()[:120]
            return
        carved = self._tombstone_cause(lines)
        if carved:
            self.death_reason = re.sub(r"\s+on dungeon level.*$", "", carved).strip()[:120]
            return
        m = self._DEATH.search(text)
        if m:
            self.death_reason = re.sub(r"\s+on dungeon level.*$", "", m.group(1)).strip()[:120]

    def _drain_game_over(self, ex: Exchange) -> None:
        """After death NetHack shows --More--s, the inventory, the tombstone …"""
        for _ in range(500):
            if self.game.done:
                return
            if self.death_reason is None:
                self._read_death_reason()
            p = self.prompt()
            if p.kind in (PromptKind.MORE, PromptKind.GAME_OVER, PromptKind.NONE):
                if p.text:
                    self._note(ex, p.text.splitlines()[0])
                self.press(ENTER)
            elif p.kind is PromptKind.QUESTION:
                self.press("q" if "[yn" not in p.text else "n")
            else:
                self.press(ESC)
            ex.steps += 1

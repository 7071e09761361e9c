"""Which keys the harness never lets reach the game: commands that save, quit or
change the game's mode or options.

A skill plays the game; it must not end it (``#quit``), leave it (``S``, ``!``,
``^Z``), switch it to non-scoring explore mode (``#exploremode``), touch the
options (``O``) or use wizard-mode debug commands. Each can be typed several
ways in NetHack 3.6: a command key, a meta key (``M-q`` is ``#quit``), or an
extended command line ``#`` + name, where NetHack matches the name without
regard to case and completes a unique prefix of some commands by itself
(``#q`` + Enter asks "Really quit?"). This module knows those forms; the
keyboard asks it before every key, with the game's real input state, and
``send_keys`` asks it about a whole key string before sending any of it.

Keys typed while a question, menu or text prompt is open are answers, not
commands: "Elbereth" or "Sting" typed into a text prompt is never refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional

ESC = 27
ENTER = 13
NEWLINE = 10
BACKSPACE = 8
DELETE = 127

POLICY = "the harness refuses commands that save, quit or change the game's mode or options"

# What each refused command does, in a few words (NetHack 3.6's extended command names).
REFUSED: dict[str, str] = {
    "quit": "ends the game",
    "save": "saves the game and leaves it",
    "exploremode": "switches the game to non-scoring explore mode",
    "options": "changes the game's options",
    "shell": "leaves the game",
    "suspend": "leaves the game",
}
# Commands only wizard (debug) mode offers.
WIZARD_MODE = frozenset((
    "levelchange lightsources migratemons panic polyself seenv stats timeout vanquished vision wizbury "
    "wizdetect wizgenesis wizidentify wizintrinsic wizlevelport wizmakemap wizmap wizrumorcheck wizsmell "
    "wizwhere wizwish wmode").split())
REFUSED.update({name: "is a wizard-mode (debug) command" for name in WIZARD_MODE})

# NetHack 3.6's other extended commands; '*' marks those it completes from a unique
# prefix outside wizard mode (the commands flagged AUTOCOMPLETE in cmd.c).
_ALLOWED = (
    "?* adjust* annotate* apply attributes autopickup call cast chat* close conduct* dip* down drop droptype "
    "eat engrave enhance* fire force* glance help herecmdmenu history inventory inventtype invoke* jump* kick "
    "known knownclass look loot* monster* name* offer* open overview* pay pickup pray* prevmsg puton quaff "
    "quiver read redraw remove ride* rub* search seeall seeamulet seearmor seegold seerings seespells seetools "
    "seetrap seeweapon sit* swap takeoff takeoffall teleport terrain* therecmdmenu throw tip* travel turn* "
    "twoweapon* untrap* up version* versionshort wait wear whatdoes whatis wield wipe* zap"
).split()
COMMANDS = frozenset(n.rstrip("*") for n in _ALLOWED) | frozenset(REFUSED)
AUTOCOMPLETE = frozenset(n.rstrip("*") for n in _ALLOWED if n.endswith("*")) | {"quit"}

# Keys that run a refused command when typed at the command prompt.
REFUSED_KEYS: dict[int, str] = {
    ord("S"): "save",
    ord("O"): "options",
    ord("q") | 0x80: "quit",  # M-q
    ord("!"): "shell",
    26: "suspend",  # ^Z
    5: "wizdetect",  # ^E
    6: "wizmap",  # ^F
    7: "wizgenesis",  # ^G
    9: "wizidentify",  # ^I
    22: "wizlevelport",  # ^V
    23: "wizwish",  # ^W
}
# The keys worth a look at the game's state before they are sent (see Keyboard.press).
GATED_KEYS = frozenset(REFUSED_KEYS) | {ENTER, NEWLINE}


class Entry(Enum):
    """Where the next key goes."""

    COMMAND = "command"  # the ordinary command prompt (a count may be half-typed)
    EXTENDED = "extended"  # an open '#' extended command line
    OTHER = "other"  # a question, menu, text prompt, --More-- or a state the scan cannot follow


@dataclass(frozen=True)
class Refusal:
    """A refused command: its extended-command name, how it was typed, what it does."""

    command: str
    typed: str
    effect: str

    @property
    def error(self) -> str:
        """One line for the model: what the command does and that it is refused."""
        form = self.typed if self.typed.lower() == f"#{self.command}" else f"{self.typed} (#{self.command})"
        return f"{form} {self.effect}: {POLICY}"


class CommandRefused(Exception):
    """Raised by the keyboard instead of sending a key that would run a refused command."""

    def __init__(self, refusal: Refusal):
        super().__init__(refusal.error)
        self.refusal = refusal


def key_name(code: int) -> str:
    """How NetHack writes a key: 'S', '^W', 'M-q'."""
    if code >= 0x80:
        return "M-" + key_name(code & 0x7F)
    if code < 32:
        return "^" + chr(code + 64)
    return chr(code)


def key_refusal(code: int) -> Optional[Refusal]:
    """The refusal for a key typed at the command prompt, or None when it is allowed."""
    name = REFUSED_KEYS.get(code)
    return Refusal(name, key_name(code), REFUSED[name]) if name else None


def line_refusal(typed: str, shown: str = "") -> Optional[Refusal]:
    """The refusal for an extended command line submitted with Enter, or None.

    ``typed`` is what was typed after '#'; ``shown`` what the game displays there
    (NetHack writes its completion after the typed part). Refused: a refused
    command's name in any case; a prefix NetHack completes to one; a prefix
    that only refused commands start with (``#explore``, ``#wiz``).
    """
    text = " ".join(typed.split()).lower()  # NetHack collapses and trims spaces
    if not text:
        return None
    hit = None
    completed = " ".join(shown.split()).lower()
    if text in REFUSED:
        hit = text
    elif completed in REFUSED and completed.startswith(text):
        hit = completed
    elif text not in COMMANDS:
        completions = [n for n in AUTOCOMPLETE if n.startswith(text)]
        starting = [n for n in COMMANDS if n.startswith(text)]
        if len(completions) == 1 and completions[0] in REFUSED:
            hit = completions[0]
        elif starting and all(n in REFUSED for n in starting):
            hit = min(starting)
    return Refusal(hit, f"#{typed.strip()}", REFUSED[hit]) if hit else None


def first_refusal(keys: str, entry: Entry, line: str = "") -> Optional[Refusal]:
    """The first refused command in ``keys`` typed from ``entry`` (with ``line``
    already typed on an open '#' line), as far as the keys can be followed
    without the game: the scan stops at the first key that may open a prompt.
    The keyboard checks every key against the live game as well."""
    for ch in keys:
        code = ord(ch)
        if entry is Entry.COMMAND:
            refusal = key_refusal(code)
            if refusal is not None:
                return refusal
            if ch == "#":
                entry, line = Entry.EXTENDED, ""
            elif not (ch.isdigit() or code == ESC):  # a count, or nothing, keeps the command prompt
                return None
        elif entry is Entry.EXTENDED:
            if code in (ENTER, NEWLINE):
                return line_refusal(line)
            # NLE's line editing, as measured: Esc clears the text (Esc on none closes
            # the line), Backspace erases a character and Delete the whole text.
            if code == ESC:
                entry, line = (Entry.EXTENDED, "") if line else (Entry.COMMAND, "")
            elif code == BACKSPACE:
                line = line[:-1]
            elif code == DELETE:
                line = ""
            elif 32 <= code < 127:
                line += ch
            else:
                return None
        else:
            return None
    return None

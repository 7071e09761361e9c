"""The terminal's live view of a game: NetHack's screen in its own colours, and the agent beside it.

:func:`terminal_view` draws a screen (characters and NetHack colour numbers, as in
``tty_colors``) with rich. On a terminal of at least :data:`SIDE_PANEL_WIDTH`
columns the current skill, the last decision and its reasoning and the recent
messages stand in a panel beside the map; on a narrower one they follow it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SIDE_PANEL_WIDTH = 120  # columns from which the agent's panel stands beside the map

# NetHack's colour numbers (CLR_BLACK … CLR_WHITE) as terminal colours; black is shown
# as dark grey, as NetHack's own tty does, or it would vanish on a dark background.
NETHACK_COLORS = ("bright_black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
                  "white", "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta",
                  "bright_cyan", "bright_white")
_BROWN = "#a0522d"  # NetHack's CLR_BROWN (3) is the terminal's dim yellow: truecolor shows it brown


@dataclass
class AgentPanel:
    """What the view shows about the agent."""

    title: str
    status: str  # step, turn, depth, HP … in one line
    skill: Optional[str] = None
    decision: str = ""  # what was decided and how it went
    reasoning: str = ""
    messages: list[str] = field(default_factory=list)


def colour_screen(chars: np.ndarray, colors: np.ndarray) -> Text:
    """A 24×80 NetHack screen as rich text, in NetHack's colours (trailing blanks dropped)."""
    out = Text(no_wrap=True, overflow="crop")
    rows = np.asarray(chars, dtype=np.uint8)
    cols = np.asarray(colors).astype(np.int16) & 15
    last = max((r for r in range(len(rows)) if bytes(rows[r]).strip(b" \0")), default=-1)
    for r in range(last + 1):
        line = bytes(rows[r]).decode("latin-1").replace("\0", " ").rstrip()
        lead = len(line) - len(line.lstrip(" "))
        out.append(line[:lead])
        c = lead
        while c < len(line):
            # blanks join the run they stand in: a line of one colour stays one piece of text
            e = c + 1
            while e < len(line) and (line[e] == " " or cols[r, e] == cols[r, c]):
                e += 1
            n = int(cols[r, c])
            out.append(line[c:e], style=_BROWN if n == 3 else NETHACK_COLORS[n])
            c = e
        if r < last:
            out.append("\n")
    return out


def terminal_view(chars: np.ndarray, colors: np.ndarray, panel: AgentPanel, width: int) -> RenderableType:
    """The live view for a terminal ``width`` columns wide (side panel from SIDE_PANEL_WIDTH on)."""
    screen = colour_screen(chars, colors)
    side = Text(no_wrap=False)
    side.append("skill  ", style="bold cyan")
    side.append((panel.skill or "—") + "\n")
    if panel.decision:
        side.append("last   ", style="bold cyan")
        side.append(panel.decision + "\n")
    if panel.reasoning:
        side.append("reason ", style="bold cyan")
        side.append(panel.reasoning + "\n", style="italic")
    if panel.messages:
        side.append("messages\n", style="bold cyan")
        for m in panel.messages:
            side.append("  " + m + "\n", style="yellow")
    status = Text(panel.status, style="bold")
    if width >= SIDE_PANEL_WIDTH:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=80, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(Group(screen, status), Panel(side, title="agent", border_style="cyan"))
        return Panel(grid, title=panel.title)
    return Panel(Group(screen, status, side), title=panel.title)

"""Tables of the evaluation outputs, each written as Markdown, as HTML, or as aligned plain text.

A cell is text, or a :class:`Link` (text that opens a file, e.g. an episode's replay viewer).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence, Union

from hackwright.eval.metrics import AgentMetrics


@dataclass(frozen=True)
class Link:
    """A cell whose text links to ``href`` (a relative path or a URL)."""

    text: str
    href: str

    def __str__(self) -> str:
        return self.text


Cell = Union[str, Link]


def num(x: Optional[float], digits: int = 1) -> str:
    """A number with thousands separators; "—" for None or NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:,.{digits}f}"


def signed(x: Optional[float], digits: int = 1) -> str:
    """A difference with its sign ("+1.5", "−0.3", "0.0"); "—" for None or NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    text = f"{x:+,.{digits}f}"
    if float(text.replace(",", "")) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", "−")


def pct(x: Optional[float], digits: int = 0) -> str:
    """A 0..1 share as a percentage; "—" for None or NaN."""
    if x is None or math.isnan(x):
        return "—"
    return f"{100 * x:.{digits}f}%"


@dataclass
class Table:
    """A table rendered both as Markdown and as HTML (and as plain text for the terminal)."""

    headers: list[str]
    rows: list[list[Cell]]
    row_classes: list[str] = field(default_factory=list)
    name: str = ""  # the HTML id

    def markdown(self) -> str:
        def cell(c: Cell) -> str:
            text = str(c).replace("|", "\\|").replace("\n", " ")
            return f"[{text}]({c.href.replace(' ', '%20')})" if isinstance(c, Link) else text

        out = ["| " + " | ".join(cell(h) for h in self.headers) + " |",
               "|" + "|".join("---" for _ in self.headers) + "|"]
        out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in self.rows]
        return "\n".join(out)

    def html(self) -> str:
        def cell(c: Cell) -> str:
            if isinstance(c, Link):
                return f'<td><a href="{html.escape(c.href)}">{html.escape(c.text)}</a></td>'
            return f"<td>{html.escape(c)}</td>"

        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        body = []
        for i, r in enumerate(self.rows):
            cls = self.row_classes[i] if i < len(self.row_classes) else ""
            attr = f' class="{cls}"' if cls else ""
            body.append(f"<tr{attr}>" + "".join(cell(c) for c in r) + "</tr>")
        ident = f' id="{html.escape(self.name)}"' if self.name else ""
        return f"<table{ident}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"

    def text(self) -> str:
        """Aligned plain text: the first column left-aligned, the others right-aligned."""
        return aligned(self.headers, [[str(c) for c in r] for r in self.rows])


def aligned(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to a common width, a dashed rule under the headers."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return "\n".join([line(headers), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


def fallback_cell(m: AgentMetrics) -> str:
    """Decisions another strategist made in the agent's place: "12 (3.4%)" of all its decisions."""
    return f"{m.fallback_steps:,} ({pct(m.fallback_share, 1)})"


def format_summary_table(metrics_by_agent: Mapping[str, AgentMetrics]) -> str:
    """A plain-text table of the headline metrics, one row per agent, for the terminal.

    "fallback decisions" counts the decisions the autopilot made in the agent's place (for a
    model that gave no usable answer, or to break a loop) and their share of all decisions:
    a model run in which the autopilot did much of the playing shows here.

    On MiniHack tasks two more columns follow: "task success" (the share of episodes the task
    itself said solved) and "task reward" (MiniHack's reward per episode, mean ± SE).
    """
    headers = ["agent", "n", "progress %", "score", "med score", "depth", "med depth", "XL",
               "survive", "died", "reuse %", "dec/1kT", "calls/1kT", "fallback decisions", "errors", "cost $"]
    rows = []
    for name, m in metrics_by_agent.items():
        rows.append([name, str(m.n), m.progression_pct.fmt(2), m.score.fmt(0), num(m.score.median, 0),
                     m.depth.fmt(1), num(m.depth.median, 1), m.xp_level.fmt(1), pct(m.survival_rate),
                     pct(m.death_rate), num(m.skill_reuse_pct, 0), num(m.decisions_per_1000_turns),
                     num(m.model_calls_per_1000_turns), fallback_cell(m), str(m.harness_errors),
                     num(m.cost_usd, 2)])
    if any(m.task_success_rate is not None for m in metrics_by_agent.values()):
        headers += ["task success", "task reward"]
        for row, m in zip(rows, metrics_by_agent.values()):
            row += [pct(m.task_success_rate), m.task_reward.fmt(2) if m.task_reward else "—"]
    return aligned(headers, rows)

"""The evaluation report: ``report.md`` and a self-contained ``report.html`` with plots.

Plots are drawn with matplotlib's Agg canvas (no display, no pyplot state), saved as PNGs in
``out_dir/plots/`` and embedded in the HTML as base64 so the page stands alone. Published
anchors (:mod:`hackwright.eval.anchors`) sit beside the measured rows, marked as published and
with their sources.
"""

from __future__ import annotations

import base64
import html
import io
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence, Union

from hackwright.eval import anchors as published
from hackwright.eval.metrics import (
    SURVIVAL_TURNS,
    AgentMetrics,
    EpisodeRecord,
    SkillStat,
    compare,
    progression_curve,
    skill_stats,
    turn_grid,
)

PathLike = Union[str, Path]
DbPaths = Union[PathLike, Mapping[str, PathLike], None]

PLOT_NAMES = ("score_distribution", "depth_histogram", "xl_histogram", "progression_over_turns",
              "causes_of_death", "skill_usage")
_DPI = 110
_TOP_CAUSES = 12
_TOP_SKILLS = 15


@dataclass
class ReportPaths:
    """Where :func:`write_report` put things."""

    out_dir: Path
    markdown: Path
    html: Path
    plots: dict[str, Path] = field(default_factory=dict)


# ---------------------------------------------------------------- formatting helpers
def _num(x: Optional[float], digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:,.{digits}f}"


def _pct(x: Optional[float], digits: int = 0) -> str:
    """A 0..1 share as a percentage."""
    if x is None or math.isnan(x):
        return "—"
    return f"{100 * x:.{digits}f}%"


def _per_1000(pooled: float, median: float) -> str:
    return f"{_num(pooled)} / {_num(median)}"


@dataclass
class _Table:
    """A table rendered both as Markdown and as HTML."""

    headers: list[str]
    rows: list[list[str]]
    row_classes: list[str] = field(default_factory=list)
    name: str = ""  # the HTML id

    def markdown(self) -> str:
        def cell(s: str) -> str:
            return s.replace("|", "\\|").replace("\n", " ")

        out = ["| " + " | ".join(cell(h) for h in self.headers) + " |",
               "|" + "|".join("---" for _ in self.headers) + "|"]
        out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in self.rows]
        return "\n".join(out)

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        body = []
        for i, r in enumerate(self.rows):
            cls = self.row_classes[i] if i < len(self.row_classes) else ""
            attr = f' class="{cls}"' if cls else ""
            body.append(f"<tr{attr}>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>")
        ident = f' id="{html.escape(self.name)}"' if self.name else ""
        return f"<table{ident}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"


# ---------------------------------------------------------------- the terminal table
def format_summary_table(metrics_by_agent: Mapping[str, AgentMetrics]) -> str:
    """A plain-text table of the headline metrics, one row per agent, for the terminal."""
    headers = ["agent", "n", "progress %", "score", "med score", "depth", "med depth", "XL",
               "survive", "died", "reuse %", "dec/1kT", "calls/1kT", "errors", "cost $"]
    rows = []
    for name, m in metrics_by_agent.items():
        rows.append([name, str(m.n), m.progression_pct.fmt(2), m.score.fmt(0), _num(m.score.median, 0),
                     m.depth.fmt(1), _num(m.depth.median, 1), m.xp_level.fmt(1), _pct(m.survival_rate),
                     _pct(m.death_rate), _num(m.skill_reuse_pct, 0), _num(m.decisions_per_1000_turns),
                     _num(m.model_calls_per_1000_turns), str(m.harness_errors), _num(m.cost_usd, 2)])
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    out = [line(headers), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]
    return "\n".join(out)


# ---------------------------------------------------------------- tables
def _outcome_table(metrics: Mapping[str, AgentMetrics]) -> _Table:
    rows = [[name, str(m.n), m.progression_pct.fmt(2), m.score.fmt(0), _num(m.score.median, 0),
             m.depth.fmt(2), _num(m.depth.median, 1), m.xp_level.fmt(2), _num(m.xp_level.median, 1),
             f"{_num(m.turns.mean, 0)} / {_num(m.turns.median, 0)}", _pct(m.survival_rate),
             _pct(m.death_rate), "—" if m.goal_rate is None else _pct(m.goal_rate)]
            for name, m in metrics.items()]
    return _Table(["Agent", "n", "Progression % (± SE)", "Score (± SE)", "Median score", "Max depth (± SE)",
                   "Median depth", "Max XL (± SE)", "Median XL", "Turns mean / median",
                   f"Survival (> {SURVIVAL_TURNS:,} turns)", "Died", "Goal reached"], rows, name="outcomes")


def _behaviour_table(metrics: Mapping[str, AgentMetrics]) -> _Table:
    rows = [[name, _num(m.skill_reuse_pct, 1), f"{m.reused_skill_runs} / {m.skill_runs}",
             _num(m.novel_skills_per_episode, 2),
             _per_1000(m.decisions_per_1000_turns, m.decisions_per_1000_turns_median),
             _per_1000(m.model_calls_per_1000_turns, m.model_calls_per_1000_turns_median),
             _pct(m.fallback_share, 1), str(m.harness_errors),
             f"{m.input_tokens:,} / {m.output_tokens:,}", _num(m.cost_usd, 4), _num(m.cost_usd_per_episode, 4),
             _num(m.wall_s / 60, 1)]
            for name, m in metrics.items()]
    return _Table(["Agent", "Skill reuse %", "Reused / all skill runs", "Novel skills / episode",
                   "Decisions / 1k turns (pooled / median)", "Model calls / 1k turns (pooled / median)",
                   "Fallback steps", "Harness errors", "Tokens in / out", "Cost $ (total)", "Cost $ / episode",
                   "Wall minutes"], rows, name="behaviour")


def _matches(agent: str, counterpart: Optional[str]) -> bool:
    return bool(counterpart) and counterpart.lower() in agent.lower()


def _anchor_table(metrics: Mapping[str, AgentMetrics], refs: dict[str, int]) -> _Table:
    """Measured rows, each followed by the published rows of its counterpart (matched by name:
    an agent called "netplay-style" gets the NetPlay rows); unmatched anchors come last."""

    def v(x: Optional[published.PublishedValue], d: int) -> str:
        return "—" if x is None else x.fmt(d)

    rows, classes = [], []
    placed: set[str] = set()

    def add_anchor(a: published.Anchor) -> None:
        placed.add(a.key)
        rows.append([a.agent, f"published [{refs[a.source.citation]}]",
                     "—" if a.n_episodes is None else str(a.n_episodes), v(a.progression_pct, 2), v(a.score, 2),
                     v(a.depth, 2), v(a.xp_level, 2), v(a.turns, 2), a.protocol + (f". {a.note}" if a.note else "")])
        classes.append("published")

    for name, m in metrics.items():
        rows.append([name, "measured (this run, ± SE)", str(m.n), m.progression_pct.fmt(2), m.score.fmt(0),
                     m.depth.fmt(2), m.xp_level.fmt(2), _num(m.turns.mean, 0), ""])
        classes.append("measured")
        for a in published.ANCHORS:
            if a.key not in placed and _matches(name, a.counterpart):
                add_anchor(a)
    for a in published.ANCHORS:
        if a.key not in placed:
            add_anchor(a)
    return _Table(["Agent", "Kind", "n", "Progression %", "Score", "Max depth", "Max XL", "Turns", "Protocol / note"],
                  rows, classes, name="anchors")


def _references() -> dict[str, int]:
    refs: dict[str, int] = {}
    for s in [a.source for a in published.ANCHORS] + [f.source for f in published.FINDINGS]:
        refs.setdefault(s.citation, len(refs) + 1)
    return refs


def _source_lines(refs: dict[str, int]) -> list[tuple[int, str, str]]:
    """(number, text, url) per cited publication, with the tables/figures used."""
    where: dict[str, list[str]] = {}
    urls: dict[str, str] = {}
    second: dict[str, bool] = {}
    for s in [a.source for a in published.ANCHORS] + [f.source for f in published.FINDINGS]:
        if s.location not in where.setdefault(s.citation, []):
            where[s.citation].append(s.location)
        urls.setdefault(s.citation, s.url)
        second[s.citation] = second.get(s.citation, False) or s.secondary
    out = []
    for cit, k in refs.items():
        text = f"{cit} Used: {'; '.join(where[cit])}."
        if second[cit]:
            text += " (Secondary: as quoted by another publication.)"
        out.append((k, text, urls[cit]))
    return out


def _spread_notes() -> list[str]:
    """What the ± means in each published row, one line per kind of spread."""
    kinds: dict[str, list[str]] = {}
    for a in published.ANCHORS:
        for v in (a.progression_pct, a.score, a.depth, a.xp_level, a.turns):
            if v is not None and v.spread_kind and a.agent not in kinds.setdefault(v.spread_kind, []):
                kinds[v.spread_kind].append(a.agent)
    return [f"{kind}: {', '.join(agents)}." for kind, agents in kinds.items()]


def _deaths_table(metrics: Mapping[str, AgentMetrics]) -> _Table:
    causes: dict[str, int] = {}
    for m in metrics.values():
        for c, k in m.causes_of_death.items():
            causes[c] = causes.get(c, 0) + k
    order = sorted(causes, key=lambda c: (-causes[c], c))
    rows = [[c] + [str(m.causes_of_death.get(c, 0)) for m in metrics.values()] for c in order]
    return _Table(["Cause of death"] + list(metrics), rows, name="deaths")


def _end_table(metrics: Mapping[str, AgentMetrics]) -> _Table:
    kinds: list[str] = []
    for m in metrics.values():
        kinds += [k for k in m.end_reasons if k not in kinds]
    rows = [[k] + [str(m.end_reasons.get(k, 0)) for m in metrics.values()] for k in kinds]
    return _Table(["Episode ended by"] + list(metrics), rows, name="endings")


def _skills_table(stats: Mapping[str, list[SkillStat]]) -> _Table:
    rows = []
    for agent, ss in stats.items():
        for s in ss[:_TOP_SKILLS * 2]:
            rate = s.success_rate
            rows.append([agent, s.name, str(s.runs), str(s.episodes), "yes" if s.created else "",
                         "—" if rate is None else f"{100 * rate:.0f}% of {s.db_runs}"])
    return _Table(["Agent", "Skill", "Runs", "Episodes using it", "Created by these episodes", "Success (run database)"],
                  rows, name="skills")


def _episode_table(groups: Mapping[str, Sequence[EpisodeRecord]]) -> _Table:
    rows = []
    for agent, eps in groups.items():
        for e in eps:
            rows.append([agent, str(e.episode_id), "—" if e.seed is None else str(e.seed), e.role or "—",
                         f"{e.score:,}", str(e.max_depth), str(e.max_xp_level), f"{e.turns:,}",
                         f"{100 * e.progression:.2f}", str(e.decisions), str(len(set(e.skills_created))),
                         e.end_label])
    return _Table(["Agent", "Episode", "Seed", "Role", "Score", "Max depth", "Max XL", "Turns", "Progression %",
                   "Decisions", "Skills created", "End"], rows, name="episodes")


# ---------------------------------------------------------------- plots
def _figure(w: float = 7.5, h: float = 4.2):
    from matplotlib.figure import Figure  # imported late: the metrics alone need no plotting stack

    return Figure(figsize=(w, h), layout="constrained")


def _colours(n: int) -> list[str]:
    base = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf"]
    return [base[i % len(base)] for i in range(n)]


def _empty(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#555555")
    ax.set_xticks([])
    ax.set_yticks([])


def _plot_scores(groups: Mapping[str, Sequence[EpisodeRecord]]):
    import numpy as np

    fig = _figure()
    ax = fig.add_subplot()
    names = list(groups)
    data = [[e.score for e in groups[n]] for n in names]
    if not any(data):
        _empty(ax, "no episodes")
        return fig
    cols = _colours(len(names))
    boxes = dict(widths=0.5, showfliers=False, medianprops={"color": "black"})
    try:
        ax.boxplot([d if d else [math.nan] for d in data], orientation="horizontal", **boxes)
    except TypeError:  # matplotlib < 3.10 knows only vert=
        ax.boxplot([d if d else [math.nan] for d in data], vert=False, **boxes)
    rng = np.random.default_rng(0)  # fixed jitter: the same report twice gives the same picture
    for i, d in enumerate(data):
        ys = i + 1 + rng.uniform(-0.15, 0.15, len(d))
        ax.scatter(d, ys, s=14, alpha=0.7, color=cols[i], zorder=3)
    ax.set_yticks(range(1, len(names) + 1), [f"{n} (n={len(d)})" for n, d in zip(names, data)])
    ax.invert_yaxis()  # first agent on top, as in the tables
    if max(max(d) for d in data if d) > 5000:
        ax.set_xscale("symlog", linthresh=100)  # random agents score tens, strong bots thousands
    ax.set_xlabel("in-game score")
    ax.set_title("Score distribution (box: quartiles; dots: episodes)")
    ax.grid(axis="x", alpha=0.3)
    return fig


def _plot_levels(groups: Mapping[str, Sequence[EpisodeRecord]], attr: str, label: str, title: str):
    fig = _figure()
    ax = fig.add_subplot()
    names = list(groups)
    values = {n: [getattr(e, attr) for e in groups[n]] for n in names}
    top = max((v for vs in values.values() for v in vs), default=0)
    if top <= 0:
        _empty(ax, "no episodes")
        return fig
    levels = list(range(1, top + 1))
    width = 0.8 / max(1, len(names))
    for i, (n, c) in enumerate(zip(names, _colours(len(names)))):
        vs = values[n]
        shares = [100.0 * sum(v == lv for v in vs) / len(vs) if vs else 0.0 for lv in levels]
        ax.bar([lv - 0.4 + width * (i + 0.5) for lv in levels], shares, width=width, color=c,
               label=f"{n} (n={len(vs)})")
    ax.set_xticks(levels)
    ax.set_xlabel(label)
    ax.set_ylabel("% of episodes")
    ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return fig


def _plot_progression(groups: Mapping[str, Sequence[EpisodeRecord]]):
    fig = _figure()
    ax = fig.add_subplot()
    every = [e for eps in groups.values() for e in eps]
    grid = turn_grid(every, points=80)
    if len(grid) < 2:
        _empty(ax, "no turns played")
        return fig
    for (n, eps), c in zip(groups.items(), _colours(len(groups))):
        if eps:
            ax.plot(grid, [100 * v for v in progression_curve(eps, grid)], color=c, label=f"{n} (n={len(eps)})")
    ax.set_xlabel("game turn")
    ax.set_ylabel("mean BALROG progression (%)")
    ax.set_title("Progression over turns (finished episodes hold their final value)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return fig


def _plot_deaths(metrics: Mapping[str, AgentMetrics]):
    from matplotlib.ticker import MaxNLocator

    totals: dict[str, int] = {}
    for m in metrics.values():
        for c, k in m.causes_of_death.items():
            totals[c] = totals.get(c, 0) + k
    causes = sorted(totals, key=lambda c: (-totals[c], c))[:_TOP_CAUSES]
    fig = _figure(7.5, max(3.0, 0.9 + 0.35 * len(causes) * max(1, len(metrics)) ** 0.5))
    ax = fig.add_subplot()
    if not causes:
        _empty(ax, "no deaths")
        ax.set_title("Causes of death")
        return fig
    names = list(metrics)
    height = 0.8 / max(1, len(names))
    ys = list(range(len(causes)))
    for i, (n, c) in enumerate(zip(names, _colours(len(names)))):
        ax.barh([y - 0.4 + height * (i + 0.5) for y in ys], [metrics[n].causes_of_death.get(k, 0) for k in causes],
                height=height, color=c, label=n)
    ax.set_yticks(ys, causes)
    ax.invert_yaxis()
    ax.set_xlabel("deaths")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"Causes of death (top {len(causes)})")
    ax.legend(fontsize="small")
    ax.grid(axis="x", alpha=0.3)
    return fig


def _plot_skills(stats: Mapping[str, list[SkillStat]]):
    from matplotlib.ticker import MaxNLocator

    runs: dict[str, int] = {}
    for ss in stats.values():
        for s in ss:
            runs[s.name] = runs.get(s.name, 0) + max(s.runs, s.db_runs)
    skills = sorted(runs, key=lambda k: (-runs[k], k))[:_TOP_SKILLS]
    fig = _figure(10, max(3.2, 1.0 + 0.32 * len(skills) * max(1, len(stats)) ** 0.5))
    left, right = fig.subplots(1, 2, sharey=True)
    if not skills:
        _empty(left, "no skill runs")
        _empty(right, "no skill runs")
        return fig
    names = list(stats)
    height = 0.8 / max(1, len(names))
    ys = list(range(len(skills)))
    any_rate = False
    for i, (n, c) in enumerate(zip(names, _colours(len(names)))):
        by = {s.name: s for s in stats[n]}
        pos = [y - 0.4 + height * (i + 0.5) for y in ys]
        left.barh(pos, [by[k].runs if k in by else 0 for k in skills], height=height, color=c, label=n)
        rates = [by[k].success_rate if k in by else None for k in skills]
        if any(r is not None for r in rates):
            any_rate = True
            right.barh(pos, [100 * r if r is not None else 0 for r in rates], height=height, color=c, label=n)
    left.set_yticks(ys, skills)
    left.invert_yaxis()
    left.set_xlabel("runs")
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_title("Skill usage")
    left.legend(fontsize="small")
    left.grid(axis="x", alpha=0.3)
    if any_rate:
        right.set_xlim(0, 100)
        right.set_xlabel("success rate (%)")
        right.set_title("Success rate (run database)")
        right.grid(axis="x", alpha=0.3)
    else:
        right.text(0.5, 0.5, "success rates need the run database\n(skill_executions)", ha="center",
                   va="center", transform=right.transAxes, color="#555555")
        right.set_xticks([])
        right.set_title("Success rate")
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI)
    return buf.getvalue()


# ---------------------------------------------------------------- assembling
def _db_for(db_path: DbPaths, agent: str) -> Optional[PathLike]:
    if db_path is None:
        return None
    if isinstance(db_path, Mapping):
        return db_path.get(agent)
    return db_path


_DEFINITIONS = [
    "Progression: BALROG's NetHack progression, the larger of the table values for the deepest dungeon "
    "level and the highest experience level reached during the episode, in percent.",
    "± is the standard error of the mean (sample SD / √n) for measured rows; published rows keep the ± "
    "their source printed (see Sources).",
    "Max depth and max XL are maxima over the episode, not the final status line (NLE zeroes it at the end).",
    f"Survival: share of episodes lasting more than {SURVIVAL_TURNS:,} game turns (spec §10.3).",
    "Skill reuse %: of all skill runs, the share whose skill was already in the library when the episode "
    "began (built-in or learned earlier); runs of skills the episode created count as fresh.",
    "Novel skills / episode: distinct skills an episode saved to the library.",
    "Rates per 1,000 turns: pooled over episodes (Σ count / Σ turns) / median of per-episode rates.",
    "Fallback steps: decisions the offline autopilot took in place of the strategist.",
]


def write_report(episodes_by_agent: Mapping[str, Sequence[EpisodeRecord]], out_dir: PathLike, *,
                 title: str = "Hackwright evaluation", db_path: DbPaths = None,
                 anchors: bool = True) -> ReportPaths:
    """Write ``report.md``, ``report.html`` and ``plots/*.png`` into ``out_dir``.

    ``episodes_by_agent`` maps each agent's display name to its episodes (see
    :func:`hackwright.eval.metrics.group_by_agent`). ``db_path`` is the run database holding
    ``skill_executions`` for per-skill success rates — one path for all agents or a mapping
    agent → path; rows are matched to each agent's episodes by episode id. ``anchors`` adds the
    published results beside the measured rows.
    """
    out = Path(out_dir)
    plots_dir = out / "plots"
    plots_dir.mkdir(parents=True, exist_ok=True)
    groups = {k: list(v) for k, v in episodes_by_agent.items()}
    metrics = compare(groups)
    stats = {a: skill_stats(eps, _db_for(db_path, a)) for a, eps in groups.items()}

    makers: dict[str, tuple[str, Callable[[], object]]] = {
        "score_distribution": ("Score distribution", lambda: _plot_scores(groups)),
        "depth_histogram": ("Deepest dungeon level", lambda: _plot_levels(
            groups, "max_depth", "deepest dungeon level reached", "Depth histogram")),
        "xl_histogram": ("Highest experience level", lambda: _plot_levels(
            groups, "max_xp_level", "highest experience level reached", "Experience-level histogram")),
        "progression_over_turns": ("Progression over turns", lambda: _plot_progression(groups)),
        "causes_of_death": ("Causes of death", lambda: _plot_deaths(metrics)),
        "skill_usage": ("Skill usage and success rates", lambda: _plot_skills(stats)),
    }
    images: dict[str, bytes] = {}
    paths: dict[str, Path] = {}
    for key, (_caption, make) in makers.items():
        images[key] = _png(make())
        paths[key] = plots_dir / f"{key}.png"
        paths[key].write_bytes(images[key])

    refs = _references() if anchors else {}
    n_eps = sum(len(v) for v in groups.values())
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lede = f"{n_eps} episodes, {len(groups)} agent{'s' if len(groups) != 1 else ''}; generated {stamp}."

    sections: list[tuple[str, list[object]]] = [
        ("Outcomes", [_outcome_table(metrics)]),
        ("Behaviour and cost", [_behaviour_table(metrics)]),
    ]
    if anchors:
        sections.append(("Published anchors beside the measured rows", [
            "Published rows are copied from their sources and were not re-run here; protocols differ "
            "(role, episode count, limits, model), so read them as orientation, not as a head-to-head result.",
            _anchor_table(metrics, refs),
        ]))
    sections += [
        ("Plots", [("plot", k) for k in makers]),
        ("How episodes ended", [_end_table(metrics)]),
        ("Causes of death", [_deaths_table(metrics) if any(m.causes_of_death for m in metrics.values())
                             else "No episode ended in death."]),
        ("Skills", [_skills_table(stats)]),
        ("Episodes", [_episode_table(groups)]),
        ("Definitions", [("list", _DEFINITIONS)]),
    ]
    if anchors:
        sections.append(("Published findings", [("list", [f"{f.text} [{refs[f.source.citation]}]"
                                                          for f in published.FINDINGS])]))
        sections.append(("Sources", [("sources", _source_lines(refs)), ("list", _spread_notes())]))

    md_path, html_path = out / "report.md", out / "report.html"
    md_path.write_text(_markdown(title, lede, sections, makers), encoding="utf-8")
    html_path.write_text(_html(title, lede, sections, makers, images), encoding="utf-8")
    return ReportPaths(out_dir=out, markdown=md_path, html=html_path, plots=paths)


def _markdown(title: str, lede: str, sections, makers) -> str:
    out = [f"# {title}", "", lede, ""]
    for heading, parts in sections:
        out += [f"## {heading}", ""]
        for p in parts:
            if isinstance(p, _Table):
                out += [p.markdown(), ""]
            elif isinstance(p, str):
                out += [p, ""]
            elif p[0] == "plot":
                caption = makers[p[1]][0]
                out += [f"### {caption}", "", f"![{caption}](plots/{p[1]}.png)", ""]
            elif p[0] == "list":
                out += [f"- {x}" for x in p[1]] + [""]
            elif p[0] == "sources":
                out += [f"{k}. {text}" + (f" <{url}>" if url else "") for k, text, url in p[1]] + [""]
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #1b1b1b; line-height: 1.4; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
.lede { color: #555; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.88rem; margin: 0.6rem 0; }
th, td { border: 1px solid #d0d0d0; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
tr.published td { background: #fbf7e9; font-style: italic; }
tr.measured td:first-child { font-weight: 600; }
figure { margin: 1rem 0; } figcaption { font-weight: 600; margin-bottom: 0.3rem; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
"""


def _html(title: str, lede: str, sections, makers, images: Mapping[str, bytes]) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{html.escape(title)}</h1>", f'<p class="lede">{html.escape(lede)}</p>']
    for heading, parts in sections:
        out.append(f"<h2>{html.escape(heading)}</h2>")
        for p in parts:
            if isinstance(p, _Table):
                out.append(f'<div class="scroll">{p.html()}</div>')
            elif isinstance(p, str):
                out.append(f"<p>{html.escape(p)}</p>")
            elif p[0] == "plot":
                caption = makers[p[1]][0]
                data = base64.b64encode(images[p[1]]).decode("ascii")
                out.append(f'<figure id="{p[1]}"><figcaption>{html.escape(caption)}</figcaption>'
                           f'<img alt="{html.escape(caption)}" src="data:image/png;base64,{data}"></figure>')
            elif p[0] == "list":
                out.append("<ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in p[1]) + "</ul>")
            elif p[0] == "sources":
                items = []
                for k, text, url in p[1]:
                    link = f' <a href="{html.escape(url)}">{html.escape(url)}</a>' if url else ""
                    items.append(f'<li value="{k}">{html.escape(text)}{link}</li>')
                out.append("<ol>" + "".join(items) + "</ol>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"

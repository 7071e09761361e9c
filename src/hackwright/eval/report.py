"""The evaluation report: ``report.md`` and a self-contained ``report.html`` with plots.

Plots are drawn with matplotlib's Agg canvas (no display, no pyplot state), saved as PNGs in
``out_dir/plots/`` and embedded in the HTML as base64 so the page stands alone. Published
anchors (:mod:`hackwright.eval.anchors`) sit beside the measured rows, marked as published and
with their sources.
"""

from __future__ import annotations

import io
import math
import statistics
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
from hackwright.eval.pages import Section, html_page, markdown_page
from hackwright.eval.replay_links import ReplayLinks, replay_links
from hackwright.eval.tables import Cell, Link, Table, fallback_cell, format_summary_table, num, pct

__all__ = ["PLOT_NAMES", "ReportPaths", "format_summary_table", "write_report"]

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
def _per_1000(pooled: float, median: float) -> str:
    return f"{num(pooled)} / {num(median)}"


# ---------------------------------------------------------------- tables
def _outcome_table(metrics: Mapping[str, AgentMetrics]) -> Table:
    rows = [[name, str(m.n), m.progression_pct.fmt(2), m.score.fmt(0), num(m.score.median, 0),
             m.depth.fmt(2), num(m.depth.median, 1), m.xp_level.fmt(2), num(m.xp_level.median, 1),
             f"{num(m.turns.mean, 0)} / {num(m.turns.median, 0)}", pct(m.survival_rate),
             pct(m.death_rate), "—" if m.goal_rate is None else pct(m.goal_rate)]
            for name, m in metrics.items()]
    headers = ["Agent", "n", "Progression % (± SE)", "Score (± SE)", "Median score", "Max depth (± SE)",
               "Median depth", "Max XL (± SE)", "Median XL", "Turns mean / median",
               f"Survival (> {SURVIVAL_TURNS:,} turns)", "Died", "Goal reached"]
    if any(m.task_success_rate is not None for m in metrics.values()):  # MiniHack tasks: their own verdict
        headers += ["Task success", "Task reward (± SE)"]
        for row, m in zip(rows, metrics.values()):
            row += [pct(m.task_success_rate), m.task_reward.fmt(2) if m.task_reward else "—"]
    return Table(headers, rows, name="outcomes")


def _behaviour_table(metrics: Mapping[str, AgentMetrics]) -> Table:
    rows = [[name, num(m.skill_reuse_pct, 1), f"{m.reused_skill_runs} / {m.skill_runs}",
             num(m.novel_skills_per_episode, 2),
             _per_1000(m.decisions_per_1000_turns, m.decisions_per_1000_turns_median),
             _per_1000(m.model_calls_per_1000_turns, m.model_calls_per_1000_turns_median),
             fallback_cell(m), f"{m.loop_break_steps:,}", str(m.harness_errors),
             f"{m.input_tokens:,} / {m.output_tokens:,}", num(m.cost_usd, 4), num(m.cost_usd_per_episode, 4),
             num(m.wall_s / 60, 1)]
            for name, m in metrics.items()]
    return Table(["Agent", "Skill reuse %", "Reused / all skill runs", "Novel skills / episode",
                   "Decisions / 1k turns (pooled / median)", "Model calls / 1k turns (pooled / median)",
                   "Fallback decisions (% of decisions)", "Of which loop breaks", "Harness errors", "Tokens in / out",
                   "Cost $ (total)", "Cost $ / episode", "Wall minutes"], rows, name="behaviour")


def _matches(agent: str, counterpart: Optional[str]) -> bool:
    return bool(counterpart) and counterpart.lower() in agent.lower()


def _anchor_table(metrics: Mapping[str, AgentMetrics], refs: dict[str, int]) -> Table:
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
                     m.depth.fmt(2), m.xp_level.fmt(2), num(m.turns.mean, 0), ""])
        classes.append("measured")
        for a in published.ANCHORS:
            if a.key not in placed and _matches(name, a.counterpart):
                add_anchor(a)
    for a in published.ANCHORS:
        if a.key not in placed:
            add_anchor(a)
    return Table(["Agent", "Kind", "n", "Progression %", "Score", "Max depth", "Max XL", "Turns", "Protocol / note"],
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


def _deaths_table(metrics: Mapping[str, AgentMetrics]) -> Table:
    causes: dict[str, int] = {}
    for m in metrics.values():
        for c, k in m.causes_of_death.items():
            causes[c] = causes.get(c, 0) + k
    order = sorted(causes, key=lambda c: (-causes[c], c))
    rows = [[c] + [str(m.causes_of_death.get(c, 0)) for m in metrics.values()] for c in order]
    return Table(["Cause of death"] + list(metrics), rows, name="deaths")


def _end_table(metrics: Mapping[str, AgentMetrics]) -> Table:
    kinds: list[str] = []
    for m in metrics.values():
        kinds += [k for k in m.end_reasons if k not in kinds]
    rows = [[k] + [str(m.end_reasons.get(k, 0)) for m in metrics.values()] for k in kinds]
    return Table(["Episode ended by"] + list(metrics), rows, name="endings")


# BALROG's depth column climbs steeply from here (Dlvl 10 is worth 12.6%); spec §10.3's
# depth target is a median above it.
DEEP_LEVEL = 10


def _role_table(groups: Mapping[str, Sequence[EpisodeRecord]]) -> Table:
    """Per agent and role: the role mix moves a run's figures by several points (an
    Archeologist starts with a pick-axe and digs to Dlvl 20 and more)."""
    def row(agent: str, label: str, eps: Sequence[EpisodeRecord]) -> list[str]:
        depths = [e.max_depth for e in eps]
        return [agent, label, str(len(eps)), f"{100 * sum(e.progression for e in eps) / len(eps):.2f}",
                num(statistics.median(depths), 1), str(max(depths)), str(sum(d >= DEEP_LEVEL for d in depths)),
                str(sum(e.digging_tool_turn is not None for e in eps))]

    rows = []
    for agent, eps in groups.items():
        roles: dict[str, list[EpisodeRecord]] = {}
        for e in eps:
            roles.setdefault(_base_role(e.role), []).append(e)
        rows += [row(agent, role, rs) for role, rs in sorted(roles.items())]
        if eps:
            rows.append(row(agent, "all", eps))
    return Table(["Agent", "Role", "n", "Mean progression %", "Median depth", "Deepest",
                  f"Reached Dlvl {DEEP_LEVEL}+", "Had a digging tool"], rows, name="roles")


def _base_role(role: str) -> str:
    """One name per role: Priestess is a Priest, Cavewoman a Caveman."""
    role = role or "—"
    return {"Priestess": "Priest", "Cavewoman": "Caveman"}.get(role, role)


def _skills_table(stats: Mapping[str, list[SkillStat]]) -> Table:
    rows = []
    for agent, ss in stats.items():
        for s in ss[:_TOP_SKILLS * 2]:
            rate = s.success_rate
            rows.append([agent, s.name, str(s.runs), str(s.episodes), "yes" if s.created else "",
                         "—" if rate is None else f"{100 * rate:.0f}% of {s.db_runs}"])
    return Table(["Agent", "Skill", "Runs", "Episodes using it", "Created by these episodes", "Success (run database)"],
                  rows, name="skills")


def _episode_table(groups: Mapping[str, Sequence[EpisodeRecord]], links: ReplayLinks) -> Table:
    rows: list[list[Cell]] = []
    for agent, eps in groups.items():
        for e in eps:
            href = links.href(agent, e.seed, e.episode_id, e.record_dir)
            rows.append([agent, Link(str(e.episode_id), href) if href else str(e.episode_id),
                         "—" if e.seed is None else str(e.seed), e.role or "—",
                         f"{e.score:,}", str(e.max_depth), str(e.max_xp_level), f"{e.turns:,}",
                         f"{100 * e.progression:.2f}", str(e.decisions), str(len(set(e.skills_created))),
                         "—" if e.digging_tool_turn is None else f"turn {e.digging_tool_turn:,}",
                         e.end_label])
    return Table(["Agent", "Episode", "Seed", "Role", "Score", "Max depth", "Max XL", "Turns", "Progression %",
                   "Decisions", "Skills created", "Digging tool", "End"], rows, name="episodes")


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
    "Fallback decisions: decisions the offline autopilot took in place of the strategist (standing in for a "
    "model that gave no usable decision, or breaking a loop), with their share of all decisions; loop breaks "
    "are counted only where episodes record them.",
    "Episode numbers link to each episode's replay viewer (replay.html in its record folder) when it was recorded.",
]


def write_report(episodes_by_agent: Mapping[str, Sequence[EpisodeRecord]], out_dir: PathLike, *,
                 title: str = "Hackwright evaluation", db_path: DbPaths = None,
                 anchors: bool = True, replays: bool = True) -> ReportPaths:
    """Write ``report.md``, ``report.html`` and ``plots/*.png`` into ``out_dir``.

    ``episodes_by_agent`` maps each agent's display name to its episodes (see
    :func:`hackwright.eval.metrics.group_by_agent`). ``db_path`` is the run database holding
    ``skill_executions`` for per-skill success rates — one path for all agents or a mapping
    agent → path; rows are matched to each agent's episodes by episode id. ``anchors`` adds the
    published results beside the measured rows. With two agents or more, a paired comparison
    over their common seeds follows the outcomes (:mod:`hackwright.eval.compare`). ``replays``
    makes each recorded episode's replay viewer (``replay.html`` in its record folder, found
    from ``record_dir`` or under ``out_dir/episodes``) for the episode rows to link to; without
    it only viewers already made are linked.
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

    links = replay_links(groups, out, bases={a: out for a in groups},
                         dbs={a: _db_for(db_path, a) for a in groups}, render=replays)
    paired: list[Section] = []
    if len(groups) >= 2:
        from hackwright.eval.compare import compare_agents
        from hackwright.eval.paired_report import sections as paired_sections

        paired = paired_sections(compare_agents(groups), links)
    refs = _references() if anchors else {}
    n_eps = sum(len(v) for v in groups.values())
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lede = f"{n_eps} episodes, {len(groups)} agent{'s' if len(groups) != 1 else ''}; generated {stamp}."

    sections: list[Section] = [
        ("Outcomes", [_outcome_table(metrics)]),
        ("Behaviour and cost", [_behaviour_table(metrics)]),
    ] + paired[:1]
    if anchors:
        sections.append(("Published anchors beside the measured rows", [
            "Published rows are copied from their sources and were not re-run here; protocols differ "
            "(role, episode count, limits, model), so read them as orientation, not as a head-to-head result.",
            _anchor_table(metrics, refs),
        ]))
    sections += [
        ("Plots", [("plot", k) for k in makers]),
        ("By role", [_role_table(groups)]),
        ("How episodes ended", [_end_table(metrics)]),
        ("Causes of death", [_deaths_table(metrics) if any(m.causes_of_death for m in metrics.values())
                             else "No episode ended in death."]),
        ("Skills", [_skills_table(stats)]),
        ("Episodes", [_episode_table(groups, links)]),
        *paired[1:],
        ("Definitions", [("list", _DEFINITIONS)]),
    ]
    if links.problems:
        sections.append(("Replays not available", [("list", links.problems)]))
    if anchors:
        sections.append(("Published findings", [("list", [f"{f.text} [{refs[f.source.citation]}]"
                                                          for f in published.FINDINGS])]))
        sections.append(("Sources", [("sources", _source_lines(refs)), ("list", _spread_notes())]))

    md_path, html_path = out / "report.md", out / "report.html"
    md_path.write_text(markdown_page(title, lede, sections, makers), encoding="utf-8")
    html_path.write_text(html_page(title, lede, sections, makers, images), encoding="utf-8")
    return ReportPaths(out_dir=out, markdown=md_path, html=html_path, plots=paths)

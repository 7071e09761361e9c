"""How a paired comparison reads: tables for the terminal, Markdown and HTML, and a page.

The statistics are :mod:`hackwright.eval.compare`'s; this module only lays them out. The
same sections appear in the evaluation report (when its folder holds several agents) and in
the page ``hackwright compare --html`` writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence, Union

from hackwright.eval.compare import METRICS, AgentRun, Comparison, EpisodeOutcome, PairComparison, PairedMetric
from hackwright.eval.pages import Section, html_page, markdown_page
from hackwright.eval.replay_links import ReplayLinks, replay_links
from hackwright.eval.tables import Cell, Link, Table, format_summary_table, num, signed

PathLike = Union[str, Path]


def _pair_name(p: PairComparison) -> str:
    return f"{p.agent_a} − {p.agent_b}"


def _ci(m: PairedMetric, digits: int) -> str:
    if m.n == 0:
        return "—"
    return f"[{signed(m.ci_low, digits)}, {signed(m.ci_high, digits)}]"


def definitions(cmp: Comparison) -> list[str]:
    """What the paired tables mean, one line each."""
    level = f"{100 * cmp.confidence:g}%"
    return [
        "Paired: each seed is the same hero and dungeon for every agent, so agents are compared seed by seed "
        "on the seeds both played; A − B is the first agent's value minus the second's (positive: A did better).",
        f"{level} CI: percentile bootstrap of the mean difference, resampling the common seeds with replacement "
        f"{cmp.resamples:,} times (generator seed {cmp.bootstrap_seed}, so the same episodes give the same interval).",
        "Wins / ties / losses, per seed: the higher BALROG progression wins; at equal progression the higher "
        "score wins; equal progression and score is a tie. Counted from A's side.",
        "Per role: the same over the seeds whose hero had that role; cells are A / B / A − B means.",
        "Fallback decisions: decisions the autopilot made in the agent's place (a model that gave no usable "
        "answer, or a loop to break), and their share of the agent's decisions.",
    ]


def differences_table(cmp: Comparison) -> Table:
    """One row per pair and metric: both means, the mean difference and its interval."""
    level = f"{100 * cmp.confidence:g}% CI"
    rows: list[list[Cell]] = []
    for p in cmp.pairs:
        for m, spec in zip(p.metrics, METRICS):
            d = spec.digits
            rows.append([_pair_name(p), m.label, str(m.n), num(m.mean_a, d), num(m.mean_b, d),
                         signed(m.mean_diff, d), _ci(m, d)])
    return Table(["A − B", "metric", "seeds", "mean A", "mean B", "mean A − B", level], rows, name="paired")


def outcomes_table(cmp: Comparison) -> Table:
    """Seeds won, tied and lost by A, per pair."""
    rows: list[list[Cell]] = [[_pair_name(p), str(len(p.seeds)), str(p.outcomes.wins), str(p.outcomes.ties),
                               str(p.outcomes.losses)] for p in cmp.pairs]
    return Table(["A − B", "seeds", "A wins", "ties", "A loses"], rows, name="wins")


def roles_table(cmp: Comparison) -> Table:
    """Per pair and hero role: A / B / A − B means of each metric, and the seeds won."""
    rows: list[list[Cell]] = []
    for p in cmp.pairs:
        for r in p.roles:
            cells: list[Cell] = [_pair_name(p), r.role or "—", str(r.n)]
            for m, spec in zip(r.metrics, METRICS):
                d = spec.digits
                cells.append(f"{num(m.mean_a, d)} / {num(m.mean_b, d)} / {signed(m.mean_diff, d)}")
            cells.append(f"{r.outcomes.wins} / {r.outcomes.ties} / {r.outcomes.losses}")
            rows.append(cells)
    headers = ["A − B", "role", "seeds"] + [f"{m.label} (A / B / A − B)" for m in METRICS] + ["wins / ties / losses"]
    return Table(headers, rows, name="roles")


def _episode_cell(o: EpisodeOutcome, links: Optional[ReplayLinks]) -> Cell:
    href = links.href(o.agent, o.seed, o.episode_id, o.record_dir) if links is not None else None
    return Link(f"#{o.episode_id} replay", href) if href else f"#{o.episode_id}"


def seeds_table(p: PairComparison, index: int, links: Optional[ReplayLinks] = None) -> Table:
    """Every common seed of one pair: both agents' values, the differences, who did better;
    each agent's episode cell links to its replay viewer when there is one."""
    rows: list[list[Cell]] = []
    for s in p.episodes:
        better = {"win": p.agent_a, "loss": p.agent_b}.get(s.result, "tie")
        rows.append([str(s.seed), s.role or "—", _episode_cell(s.a, links), *_values(s.a),
                     _episode_cell(s.b, links), *_values(s.b),
                     *(signed(d, 0 if m.whole else m.digits) for d, m in zip(s.diffs, METRICS)), better])
    headers = (["seed", "role", "A episode"] + [f"A {m.label}" for m in METRICS] + ["B episode"]
               + [f"B {m.label}" for m in METRICS] + [f"A − B {m.label}" for m in METRICS] + ["better"])
    return Table(headers, rows, name=f"seeds-{index}")


def _values(o: EpisodeOutcome) -> list[str]:
    return [num(o.progression_pct, 2), f"{o.score:,}", str(o.max_depth)]


def sections(cmp: Comparison, links: Optional[ReplayLinks] = None,
             heading: str = "Paired comparison") -> list[Section]:
    """The comparison as page sections: warnings, differences with intervals, wins, per role,
    per seed (with replay links from ``links``) and definitions."""
    parts: list[Any] = []
    if cmp.all_warnings:
        parts.append(("list", [f"Warning: {w}" for w in cmp.all_warnings]))
    parts += [differences_table(cmp), ("heading", "Wins, ties and losses per seed"), outcomes_table(cmp),
              ("heading", "Per hero role"), roles_table(cmp)]
    out: list[Section] = [(heading, parts)]
    for i, p in enumerate(cmp.pairs):
        out.append((f"Seed by seed: {p.agent_a} (A) and {p.agent_b} (B)",
                    [seeds_table(p, i, links)] if p.episodes else ["No seed in common."]))
    out.append(("How to read the comparison", [("list", definitions(cmp))]))
    return out


def comparison_text(cmp: Comparison) -> str:
    """The comparison for the terminal: the agents' summary (with fallback decisions), the
    paired differences, wins, per-role means, warnings."""
    level = f"{100 * cmp.confidence:g}%"
    blocks = [
        "Agents (all their episodes)\n" + format_summary_table({m.agent: m for m in cmp.summaries}),
        f"Paired differences A − B over the seeds both played ({level} bootstrap CI, {cmp.resamples:,} resamples "
        f"of seeds, generator seed {cmp.bootstrap_seed})\n" + differences_table(cmp).text(),
        "Wins / ties / losses of A per seed (higher progression wins, then higher score)\n"
        + outcomes_table(cmp).text(),
        "Per hero role (A / B / A − B means)\n" + roles_table(cmp).text(),
    ]
    if cmp.all_warnings:
        blocks.append("\n".join(f"warning: {w}" for w in cmp.all_warnings))
    return "\n\n".join(blocks)


def _summary_section(cmp: Comparison) -> Section:
    rows: list[list[Cell]] = []
    for m in cmp.summaries:
        rows.append([m.agent, str(m.n), m.progression_pct.fmt(2), m.score.fmt(0), m.depth.fmt(2),
                     num(m.decisions, 0), f"{m.fallback_steps:,}", "—" if m.decisions == 0 else
                     f"{100 * m.fallback_share:.1f}%", f"{m.loop_break_steps:,}", num(m.cost_usd, 2)])
    table = Table(["agent", "n", "progression % (± SE)", "score (± SE)", "max depth (± SE)", "decisions",
                   "fallback decisions", "fallback % of decisions", "of which loop breaks", "cost $"], rows,
                  name="agents")
    return ("Agents", [table])


def write_comparison(cmp: Comparison, runs: Sequence[AgentRun], *, html_path: Optional[PathLike] = None,
                     markdown_path: Optional[PathLike] = None, replays: bool = True,
                     title: str = "Hackwright paired comparison") -> ReplayLinks:
    """Write the comparison as an HTML page and/or a Markdown file. Per-seed rows link to each
    episode's replay viewer (made in its record folder when ``replays``, else linked only when
    already there). Returns the links of the last page written, with the viewers that could
    not be made."""
    lede = (f"{', '.join(cmp.agents)}: {len(cmp.pairs)} pair(s) of agents compared seed by seed; "
            f"{sum(m.n for m in cmp.summaries)} episodes.")
    groups = {r.name: r.episodes for r in runs}
    bases = {r.name: r.folder for r in runs}
    dbs = {r.name: (r.folder / "runs.db" if (r.folder / "runs.db").is_file() else None) for r in runs}
    links = ReplayLinks()
    for target, render in ((html_path, html_page), (markdown_path, markdown_page)):
        if target is None:
            continue
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        links = replay_links(groups, path.parent, bases=bases, dbs=dbs, render=replays)
        secs = [_summary_section(cmp)] + sections(cmp, links)
        if links.problems:
            secs.append(("Replays not available", [("list", links.problems)]))
        path.write_text(render(title, lede, secs), encoding="utf-8")
    return links

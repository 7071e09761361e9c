"""The generated ``<category>/SKILL.md`` page (spec §6.4)."""

from __future__ import annotations

from typing import Mapping, Optional

from ..stats import SkillStats
from .records import Skill, SkillParam
from .vocabulary import CATEGORY_DESCRIPTIONS

def _format_parameters(params: list[SkillParam]) -> str:
    if not params:
        return "none"
    parts = []
    for p in params:
        t = p.type or "any"
        if p.default is None:
            parts.append(f"{p.name} ({t}, required)")
        else:
            parts.append(f"{p.name} ({t}, default {p.default})")
    return ", ".join(parts)


def _format_success(st: Optional[SkillStats]) -> str:
    if st is None or st.executions == 0:
        return "no executions yet"
    n = st.finished  # interrupted runs are neither successes nor failures
    text = f"{round(st.success_rate * 100)}% (based on {n:,} execution{'s' if n != 1 else ''})"
    return text + (f"; {st.interrupted:,} more interrupted" if st.interrupted else "")


def render_skill_md(category: str, skills: list[Skill], stats: Mapping[str, SkillStats]) -> str:
    """The spec's §6.4 SKILL.md page for one category."""
    title = category.replace("_", " ").title()
    out = [f"# {title} Skills", "", CATEGORY_DESCRIPTIONS.get(category, f"Skills of the {category} category."), ""]
    out += ["## Available Skills", ""]
    active = sorted((s for s in skills if not s.retired), key=lambda s: s.name)
    retired = sorted((s for s in skills if s.retired), key=lambda s: s.name)
    if not active:
        out += ["No skills yet.", ""]

    def block(s: Skill) -> list[str]:
        st = stats.get(s.name)
        lines = [f"### {s.name}" + (" (Retired)" if s.retired else "")]
        if s.description:
            lines.append(f"- **Description**: {s.description}")
        lines.append(f"- **Triggers**: {', '.join(s.triggers) if s.triggers else 'none'}")
        lines.append(f"- **Parameters**: {_format_parameters(s.parameters)}")
        lines.append(f"- **Success Rate**: {_format_success(st)}")
        if st is not None and st.executions:
            lines.append(f"- **Value**: {st.mean_value:+.1f} per run (total {st.total_value:+.1f})")
        lines.append(f"- **Source**: {'built-in' if s.is_builtin else 'model-written'}, version {s.version}")
        if s.retired:
            lines.append(f"- **Retired**: {s.retired_reason or 'yes'}")
        return lines + [""]

    for s in active:
        out += block(s)
    if retired:
        out += ["## Retired Skills", ""]
        for s in retired:
            out += block(s)
    return "\n".join(out).rstrip() + "\n"

"""Published results set beside the measured rows of an evaluation report.

Every figure below is copied by hand from the cited publication, with the table or figure it
comes from. They are *anchors*, not like-for-like baselines: each comes with its own protocol
(role, episode count, turn or step limits, model), noted in ``protocol``. Figures that could not
be checked against a source are left out rather than estimated: the NeurIPS 2021 NetHack
Challenge's own score table (Hambro et al. 2022) is one, so AutoAscend appears through the
NetPlay authors' 100 runs and the challenge through a stated finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Source:
    """Where a published figure comes from."""

    citation: str  # authors, year, title, venue
    url: str
    location: str  # table or figure inside the publication
    secondary: bool = False  # quoted by another publication rather than read at its origin


@dataclass(frozen=True)
class PublishedValue:
    """A published mean with its spread (``spread_kind`` says what the ± means); ``printed`` keeps
    the source's own digits for display."""

    mean: float
    spread: Optional[float] = None
    spread_kind: str = ""
    printed: str = ""

    def fmt(self, digits: int = 1) -> str:
        """The figure as the source printed it, else rounded to ``digits``."""
        if self.printed:
            return self.printed
        if self.spread is None:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.spread:.{digits}f}"


@dataclass(frozen=True)
class Anchor:
    """One published agent's results on full NetHack (NLE)."""

    key: str
    agent: str
    kind: str  # "LLM agent", "handcrafted bot", "symbolic bot"
    source: Source
    protocol: str
    n_episodes: Optional[int] = None
    progression_pct: Optional[PublishedValue] = None  # BALROG progression, percent
    score: Optional[PublishedValue] = None
    depth: Optional[PublishedValue] = None  # deepest dungeon level
    xp_level: Optional[PublishedValue] = None
    turns: Optional[PublishedValue] = None  # in-game time
    counterpart: Optional[str] = None  # the measured baseline it stands beside: "netplay", "autopilot", …
    note: str = ""


@dataclass(frozen=True)
class Finding:
    """A published statement without numbers we could reproduce as a table row."""

    text: str
    source: Source


NETPLAY = Source(
    citation=("Jeurissen, Perez-Liebana, Gow, Çakmak & Kwan (2024). Playing NetHack with LLMs: "
              "Potential & Limitations as Zero-Shot Agents. IEEE Conference on Games (CoG)."),
    url="https://arxiv.org/abs/2403.00690",
    location="Table II (full runs)",
)

# The ± in NetPlay's Table II: the caption calls it the standard error, yet e.g. autoascend's
# score (11,341.94 ± 11,625.39 over 100 runs) only makes sense as a standard deviation.
_NETPLAY_PM = "± as printed in Table II (captioned standard error; the sizes read like standard deviations)"


def _np(mean: str, spread: str) -> PublishedValue:
    return PublishedValue(float(mean), float(spread), _NETPLAY_PM, printed=f"{mean} ± {spread}")


_NETPLAY_PROTOCOL = ("NLE, Valkyrie only; GPT-4-Turbo (gpt-4-1106-preview), temperature 0; a run ends "
                     "after 10 model calls without the game clock advancing")

WIKI_BALROG = Source(
    citation=("wiki-BALROG: Enhancing Language Model Agents Through Retrieval-Augmented Game Knowledge "
              "(Team 3, student report citing Paglieri et al. 2024)."),
    url="",  # the report gives no public address
    location="§5, Figure 3",
)

BALROG = Source(
    citation=("Paglieri et al. (2024). BALROG: Benchmarking Agentic LLM and VLM Reasoning On Games. "
              "ICLR 2025 (leaderboard at balrogai.com)."),
    url="https://arxiv.org/abs/2411.13543",
    location="NetHack leaderboard entry, as quoted in wiki-BALROG §5",
    secondary=True,
)

HAMBRO = Source(
    citation=("Hambro et al. (2022). Insights From the NeurIPS 2021 NetHack Challenge. "
              "PMLR 176 (NeurIPS 2021 Competitions and Demonstrations Track)."),
    url="https://proceedings.mlr.press/v176/hambro22a.html",
    location="challenge results, as summarised in wiki-BALROG §2",
    secondary=True,
)

BALROG_BEST = Source(
    citation=("Paglieri et al. (2024). BALROG: Benchmarking Agentic LLM and VLM Reasoning On Games. "
              "ICLR 2025 (leaderboard at balrogai.com)."),
    url="https://balrogai.com",
    location="NetHack leaderboard, best language-model entry, as stated in this project's game-strength issue",
    secondary=True,
)

ANCHORS: tuple[Anchor, ...] = (
    Anchor(
        key="netplay-unguided",
        agent="NetPlay (unguided)",
        kind="LLM agent",
        source=NETPLAY,
        protocol=_NETPLAY_PROTOCOL + "; task: win the game",
        n_episodes=20,
        score=_np("284.85", "222.10"),
        depth=_np("2.60", "1.39"),
        xp_level=_np("2.40", "1.23"),
        turns=_np("1292.10", "942.74"),
        counterpart="netplay",
        note="Mostly ended by timeouts; deaths from rotten corpses, low-HP fights, being swarmed.",
    ),
    Anchor(
        key="netplay-guided",
        agent="NetPlay (guided)",
        kind="LLM agent",
        source=NETPLAY,
        protocol=_NETPLAY_PROTOCOL + "; given a strategy guide drawn from autoascend",
        n_episodes=10,
        score=_np("405.00", "216.38"),
        depth=_np("2.00", "1.05"),
        xp_level=_np("3.30", "0.95"),
        turns=_np("2627.40", "1545.12"),
        counterpart="netplay",
        note="Stays on the first two levels until XL 8 by instruction, hence the lower depth.",
    ),
    Anchor(
        key="netplay-handcrafted",
        agent="NetPlay's handcrafted agent",
        kind="handcrafted bot",
        source=NETPLAY,
        protocol="NLE, Valkyrie only; NetPlay's skills driven by fixed rules instead of a model",
        n_episodes=100,
        score=_np("250.24", "159.17"),
        depth=_np("2.35", "0.93"),
        xp_level=_np("2.39", "1.05"),
        turns=_np("1306", "924.17"),
        counterpart="netplay",
    ),
    Anchor(
        key="autoascend-netplay",
        agent="AutoAscend (run by the NetPlay authors)",
        kind="symbolic bot",
        source=NETPLAY,
        protocol="NLE, Valkyrie only; the NeurIPS 2021 NetHack Challenge winner, unmodified",
        n_episodes=100,
        score=_np("11341.94", "11625.39"),
        depth=_np("4.01", "3.04"),
        xp_level=_np("3.34", "7.69"),
        turns=_np("21169.81", "9155.59"),
        counterpart="autopilot",
        note="Printed XL 3.34 ± 7.69 is as in the source.",
    ),
    Anchor(
        key="balrog-claude-3.5-haiku",
        agent="BALROG naive agent, Claude-3.5-Haiku-2024-10-22",
        kind="LLM agent",
        source=BALROG,
        protocol="BALROG NetHack protocol (one action per model call); figure quoted by wiki-BALROG",
        progression_pct=PublishedValue(1.2, 0.4, "± as quoted", printed="1.2 ± 0.4"),
        counterpart="autopilot",
        note="The BALROG leaderboard figure wiki-BALROG compares against.",
    ),
    Anchor(
        key="balrog-best-llm",
        agent="Best language-model agent on BALROG's NetHack leaderboard",
        kind="LLM agent",
        source=BALROG_BEST,
        protocol="BALROG NetHack protocol (one action per model call)",
        progression_pct=PublishedValue(1.76, printed="1.76"),
        counterpart="autopilot",
        note="The figure the game-strength target (mean progression ≥ 3.0%) is set against.",
    ),
    Anchor(
        key="wiki-balrog-rag",
        agent="wiki-BALROG, Robust* CoT + improved prompts + RAG (Gemini-2.0-Flash)",
        kind="LLM agent",
        source=WIKI_BALROG,
        protocol=("fixed game seed; best average over 5 parallel episodes across 3 runs "
                  "(not BALROG's protocol, so not directly comparable)"),
        progression_pct=PublishedValue(1.57, 0.35, "± standard deviation (Figure 3)", printed="1.57 ± 0.35"),
        counterpart="autopilot",
        note="Best dungeon level reached: 7.",
    ),
    Anchor(
        key="wiki-balrog-cot",
        agent="BALROG Robust CoT baseline (Gemini-2.0-Flash), measured by wiki-BALROG",
        kind="LLM agent",
        source=WIKI_BALROG,
        protocol="as the row above; the other BALROG baseline agents scored 0.00",
        progression_pct=PublishedValue(0.37, printed="0.37"),
        counterpart="autopilot",
    ),
)

FINDINGS: tuple[Finding, ...] = (
    Finding("Most BALROG agents do not get past the early levels; progression above about 2% is rare.",
            Source(WIKI_BALROG.citation, WIKI_BALROG.url, "§1")),
    Finding("In the NeurIPS 2021 NetHack Challenge, symbolic bots beat neural agents by a wide margin: the best "
            "symbolic bot (AutoAscend) reached nearly three times the median in-game score of the neural "
            "agents, and no agent came close to winning.", HAMBRO),
    Finding("autoascend stays on the first dungeon level until experience level 8, then descends quickly; it "
            "occasionally reaches depth 10 and experience level 10.", Source(NETPLAY.citation, NETPLAY.url, "§II-C")),
)


def anchors_for(counterpart: Optional[str] = None) -> list[Anchor]:
    """All anchors, or those set beside the measured baseline named ``counterpart``."""
    return [a for a in ANCHORS if counterpart is None or a.counterpart == counterpart]

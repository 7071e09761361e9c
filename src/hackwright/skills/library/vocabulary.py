"""The library's words: skill categories, trigger events and their aliases, valid names,
and where the built-in skills live."""

from __future__ import annotations

import re
from pathlib import Path

CATEGORIES: tuple[str, ...] = ("exploration", "navigation", "combat", "resource", "inventory", "escape")

CATEGORY_DESCRIPTIONS: dict[str, str] = {
    "exploration": "Skills for navigating and exploring dungeon levels.",
    "navigation": "Skills for getting to a known place: stairs, stashes, a position.",
    "combat": "Skills for fighting monsters.",
    "resource": "Skills for keeping the hero alive and fed: eating, healing, resting, praying.",
    "inventory": "Skills for picking up, using and organising items.",
    "escape": "Skills for getting out of danger.",
}

TRIGGER_EVENTS: tuple[str, ...] = (
    "monster", "low_hp", "very_low_hp", "deadly", "hunger", "level_change", "teleport", "items", "engulfed", "message",
)
# Words models (and the spec's examples) use for the same events.
TRIGGER_ALIASES: dict[str, str] = {
    "monsters": "monster", "monster_spotted": "monster", "hostile": "monster", "hostile_visible": "monster",
    "hungry": "hunger", "weak": "hunger", "hp": "low_hp", "critical_hp": "very_low_hp", "danger": "low_hp",
    "item": "items", "items_seen": "items", "level": "level_change", "new_level": "level_change",
    "teleported": "teleport", "engulf": "engulfed", "messages": "message",
}

SOURCES = ("builtin", "model")
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
_CATEGORY_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MIN_RUNS_TO_JUDGE = 3  # should_save keeps an existing skill until it has this many judged runs


def builtin_dir() -> Path:
    """The package's built-in skills: ``hackwright/skills/builtin/<category>/<name>.py``."""
    return Path(__file__).resolve().parent.parent / "builtin"

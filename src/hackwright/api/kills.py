"""The monsters the hero saw die this game, and so how old the corpses they left are.

NetHack dates a corpse by the turn its monster died, and whether eating it is safe
depends on that age; the corpse itself never shows it. So the API notes every death
the messages of an action report, whoever acted (a skill, a key typed by the model, a
pet): "You kill the newt!", "You destroy the zombie!" (the hero), "The newt is
killed!" (a pet, a trap, another monster). The message names the species; the square
comes from the map just before and just after the action: a corpse of that species
newly drawn on a square, else the square where a monster of that species stood before
and stands no more (the one nearest the hero).

A death is dated by the clock when its action began: in an action of many turns
(travel, searching) that may be earlier than the death, so an age counted from it is
never too young.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

import numpy as np
from nle import nethack as nh

from . import glyphs as G
from .models import Kill, Position

# "You kill the newt!", "You destroy the Woodland-elf!", "You kill poor Fido!".
_BY_HERO = re.compile(r"\bYou (?:kill|destroy|dissolve) (?:the |an? )?(?:poor )?(?P<name>[A-Za-z][\w' -]*?)!")
# "The newt is killed!", "The zombie is destroyed!": seen dying by someone else's hand.
_SEEN = re.compile(r"\b(?:The |the )?(?P<name>[A-Za-z][\w' -]*?) is (?:killed|destroyed)\b")

_MONSTER_KINDS = (G.GlyphKind.MONSTER, G.GlyphKind.PET, G.GlyphKind.DETECTED, G.GlyphKind.RIDDEN)
_SPECIES: dict[str, int] = {}
MAX_KILLS = 500  # kept per game; older ones are forgotten


def species_index(name: str) -> Optional[int]:
    """NetHack's monster index of a species name, or None (a pet's own name, "it")."""
    if not _SPECIES:
        for i in range(nh.NUMMONS):
            _SPECIES.setdefault(nh.permonst(i).mname, i)
    name = name.strip()
    return _SPECIES.get(name, _SPECIES.get(name.lower()))


def deaths_in(messages: list[str]) -> list[tuple[int, bool]]:
    """(monster index, by the hero) for every death of a known species the messages report, in order."""
    out = []
    for text in messages:
        found = [(m.start(), m.group("name"), True) for m in _BY_HERO.finditer(text)]
        found += [(m.start(), m.group("name"), False) for m in _SEEN.finditer(text)]
        for _, name, by_hero in sorted(found):
            idx = species_index(name)
            if idx is not None:
                out.append((idx, by_hero))
    return out


@dataclass
class Sight:
    """The map and clock at one moment: what a death is located and dated against."""

    glyphs: np.ndarray  # the display's glyphs (21 x 79)
    hero: Position
    turn: int
    level: tuple[int, int]  # (dungeon number, level number): NetHack's own level key
    depth: int
    branch: str


def _locate(idx: int, before: Sight, after: Sight, taken: set[Position]) -> tuple[Optional[Position], Optional[bool]]:
    """Where a monster of species ``idx`` died between two sights, and whether its corpse
    shows there: (square or None, True / False / None for unknown)."""
    if before.level != after.level:
        return None, None
    kind_b, kind_a = G.KIND[before.glyphs], G.KIND[after.glyphs]
    mon_b, mon_a = G.MONSTER_INDEX[before.glyphs], G.MONSTER_INDEX[after.glyphs]
    hero = before.hero

    def nearest(mask: np.ndarray) -> Optional[Position]:
        spots = [Position(int(x), int(y)) for y, x in zip(*np.nonzero(mask))]
        spots = [p for p in spots if p not in taken]
        return min(spots, key=lambda p: (p.steps_to(hero), p.distance_to(hero))) if spots else None

    body_a = (kind_a == G.GlyphKind.CORPSE) & (mon_a == idx)
    body_b = (kind_b == G.GlyphKind.CORPSE) & (mon_b == idx)
    spot = nearest(body_a & ~body_b)
    if spot is not None:
        return spot, True
    stood = np.isin(kind_b, _MONSTER_KINDS) & (mon_b == idx) & (after.glyphs != before.glyphs)
    spot = nearest(stood)
    if spot is None:
        return None, None
    if kind_a[spot.y, spot.x] in _MONSTER_KINDS or spot == after.hero:
        return spot, None  # something stands on it now: the square's objects are hidden
    # A corpse lands on top of what lay there, so it would be drawn if the hero saw the square.
    return spot, bool(body_a[spot.y, spot.x])


class KillMemory:
    """Every death the hero saw this game, located and dated (see the module docstring)."""

    def __init__(self) -> None:
        # With NetHack's level key, and whether a corpse of its kind lay on its square before.
        self._kills: list[tuple[Kill, tuple[int, int], bool]] = []
        self.last_sight: Optional[Sight] = None  # the map as the last action left it
        # Per level, each square's glyph as last seen with no monster (or hero) on it: what
        # lies under a monster that dies there. A corpse drawn on a square where one of its
        # kind already lay may be the old one (half of all deaths leave none): a giant ant
        # killed on an old giant ant corpse made it look fresh, and a Caveman ate it tainted.
        self._uncovered: dict[tuple[int, int], np.ndarray] = {}

    def _note_uncovered(self, sight: Sight) -> None:
        covered = np.isin(G.KIND[sight.glyphs], _MONSTER_KINDS)
        covered[sight.hero.y, sight.hero.x] = True
        old = self._uncovered.get(sight.level)
        self._uncovered[sight.level] = sight.glyphs.copy() if old is None else np.where(covered, old, sight.glyphs)

    def _old_corpse_at(self, idx: int, pos: Position, level: tuple[int, int]) -> bool:
        seen = self._uncovered.get(level)
        if seen is None:
            return False
        glyph = seen[pos.y, pos.x]
        return bool(G.KIND[glyph] == G.GlyphKind.CORPSE and G.MONSTER_INDEX[glyph] == idx)

    def note(self, messages: list[str], now: Sight) -> None:
        """Record the deaths one action's messages report; ``now`` is the sight after it."""
        before = self.last_sight or now
        self.last_sight = now
        if before.level not in self._uncovered:
            self._note_uncovered(before)
        taken: set[Position] = set()
        for idx, by_hero in deaths_in(messages):
            pos, corpse = _locate(idx, before, now, taken)
            if pos is not None:
                taken.add(pos)
            old_corpse = pos is not None and before.level == now.level and self._old_corpse_at(idx, pos, before.level)
            if old_corpse and corpse:
                corpse = None  # the corpse drawn there may be the old one
            # (Dated and placed on the level the action began on: a kill comes before any
            # fall or climb in the same action.)
            kill = Kill(nh.permonst(idx).mname, min(before.turn, now.turn), pos, before.depth, before.branch,
                        by_hero, corpse)
            self._kills.append((kill, before.level, old_corpse))
        del self._kills[:-MAX_KILLS]
        self._note_uncovered(now)

    def recent(self, n: int) -> list[Kill]:
        """The last ``n`` kills, oldest first."""
        return [k for k, _, _ in self._kills[-n:]] if n > 0 else []

    def corpse_age(self, pos: Position, species: Optional[str], level: tuple[int, int], now: int) -> Optional[int]:
        """Turns since the death whose corpse lies at ``pos`` of ``level``, or None when no
        death there was seen. With several deaths on the square and no corpse seen after
        the latest, the oldest counts (the corpse there may be any of theirs); when a
        corpse of its kind lay there before the latest death and no death of that one was
        seen, None (its age is unknown)."""
        found = [(k, old) for k, lv, old in self._kills if lv == level and k.position == pos
                 and (species is None or k.species == species) and k.corpse_seen is not False]
        if not found:
            return None
        latest, on_old_corpse = max(found, key=lambda f: f[0].turn)
        deaths = [k for k, _ in found]
        if latest.corpse_seen:
            return max(0, now - latest.turn)
        if on_old_corpse and not any(k.turn < latest.turn for k in deaths):
            return None
        return max(0, now - min(k.turn for k in deaths))

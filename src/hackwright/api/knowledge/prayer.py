"""When praying is likely to work, by NetHack 3.6's pray.c.

``PrayerClock`` estimates the prayer timeout the hero could know;
``major_trouble`` and ``prayer_trouble`` say how much trouble the hero is in,
which sets how low the timeout must be.
"""

from __future__ import annotations

import functools
from typing import Iterable, Optional, Union

from ..models import HungerState, critically_low_hp

_TROUBLE_LIMITS = {"major": 200, "minor": 100, "none": 0}


@functools.lru_cache(maxsize=4)
def _rnz_distribution(i: int) -> tuple[tuple[int, float], ...]:
    """Exact distribution of NetHack's rnz(i) for a hero below level 15.

    rnz: t = (1000 + rn2(1000)) * rne(4); then i*t/1000 or i*1000/t, each
    half the time. rne(4) is k with probability (1/4)^(k-1)*3/4, capped at 5.
    """
    rne = [(k, (0.25 ** (k - 1)) * (0.75 if k < 5 else 1.0)) for k in range(1, 6)]
    dist: dict[int, float] = {}
    for r in range(1000):
        for k, pk in rne:
            t = (1000 + r) * k
            p = pk / 1000 / 2
            for x in (i * t // 1000, i * 1000 // t):
                dist[x] = dist.get(x, 0.0) + p
    return tuple(sorted(dist.items()))


class PrayerClock:
    """An estimate of the prayer timeout that the hero could know, not the game's hidden value.

    NetHack starts the timeout at 300 on turn 1 and lowers it by one each turn.
    Prayer works when it is at most 200 with major trouble, at most 100 with
    minor trouble, and 0 with none (and only with Luck >= 0, a god who is not
    angry and a non-negative alignment record, which this clock cannot see).

    A successful prayer resets the timeout to rnz(350): median 350, but 10% of
    draws exceed ~900 and 5% exceed ~1,230. This clock assumes the
    conservative ``assumed_reset`` (1000 by default: about 91% of draws are at
    or below it) rather than the median, because praying too soon angers the
    god. ``chance_ok`` gives the actual probability instead.

    A failed prayer (god displeased, smiting, "You feel that Mitra is
    displeased.") angers the god and sets the timeout to rnz(300); prayer stays
    hopeless until the anger is appeased, so ``can_pray`` answers False and
    ``estimate`` returns ``UNKNOWN`` until ``record_appeased`` is called.
    Crowning and killing the Wizard add rnz(1000) more per event, not modelled.
    """

    START_TIMEOUT = 300
    MEDIAN_RESET = 350
    UNKNOWN = 10_000  # "do not count on prayer"

    def __init__(self, assumed_reset: int = 1000):
        self.assumed_reset = assumed_reset
        self.last_prayer_turn: Optional[int] = None
        self.last_prayer_succeeded: Optional[bool] = None
        self.god_angry = False

    def record_prayer(self, turn: int, succeeded: bool) -> None:
        """Note a prayer made on game turn ``turn`` and whether the god was pleased."""
        self.last_prayer_turn = turn
        self.last_prayer_succeeded = succeeded
        self.god_angry = not succeeded

    def record_appeased(self, turn: int) -> None:
        """The god's anger is gone (e.g. "You have a hopeful feeling" after a sacrifice);
        the timeout is then taken to be a fresh rnz(300) from ``turn``, counted as ``assumed_reset``."""
        self.god_angry = False
        self.last_prayer_turn = turn
        self.last_prayer_succeeded = True

    def estimate(self, turn: int) -> int:
        """Turns until prayer is likely safe even without trouble (0 = now).

        Before any prayer this is exact: 300 - (turn - 1). After a successful
        prayer it counts down from ``assumed_reset``; after a failed one it is
        ``UNKNOWN``.
        """
        if self.god_angry:
            return self.UNKNOWN
        if self.last_prayer_turn is None:
            return max(0, self.START_TIMEOUT - (turn - 1))
        return max(0, self.assumed_reset - (turn - self.last_prayer_turn))

    def can_pray(self, turn: int, trouble: str = "none") -> bool:
        """Whether praying on ``turn`` is likely to work, given the hero's trouble:
        "major" (timeout may be up to 200), "minor" (up to 100) or "none" (must be 0)."""
        if trouble not in _TROUBLE_LIMITS:
            raise ValueError(f"trouble must be 'none', 'minor' or 'major', not {trouble!r}")
        if self.god_angry:
            return False
        return self.estimate(turn) <= _TROUBLE_LIMITS[trouble]

    def chance_ok(self, turn: int, trouble: str = "none") -> float:
        """Probability that the real timeout is low enough for ``trouble`` on ``turn``
        (0 or 1 before the first prayer; from rnz(350)'s distribution after one)."""
        if trouble not in _TROUBLE_LIMITS:
            raise ValueError(f"trouble must be 'none', 'minor' or 'major', not {trouble!r}")
        if self.god_angry:
            return 0.0
        limit = _TROUBLE_LIMITS[trouble]
        if self.last_prayer_turn is None:
            return 1.0 if self.START_TIMEOUT - (turn - 1) <= limit else 0.0
        elapsed = turn - self.last_prayer_turn
        return sum(p for x, p in _rnz_distribution(self.MEDIAN_RESET) if x - elapsed <= limit)

    def too_soon(self, turn: int, trouble: str = "none") -> Optional[str]:
        """Why praying on ``turn`` would anger the god by this clock, in one line
        (None when ``can_pray`` says it is likely to work)."""
        if self.can_pray(turn, trouble):
            return None
        if self.god_angry:
            return (f"your god has been angry since the prayer on turn {self.last_prayer_turn}, "
                    "and every prayer before the anger is appeased makes it worse")
        limit = _TROUBLE_LIMITS[trouble]
        need = {"none": "0 without trouble", "minor": "at most 100 with minor trouble",
                "major": "at most 200 with major trouble"}[trouble]
        since = ("" if self.last_prayer_turn is None
                 else f" (counted from the prayer on turn {self.last_prayer_turn})")
        return (f"the prayer timeout is about {self.estimate(turn)}{since} and must be {need}, "
                f"so praying is likely safe in {self.estimate(turn) - limit} turns")


_MAJOR_CONDITIONS = {
    "stone",
    "stoned",
    "petrifying",
    "slime",
    "slimed",
    "strangled",
    "strangling",
    "food poisoning",
    "food poisoned",
    "foodpois",
    "ill",
    "termill",
    "sick",
    "lycanthropy",
    "lava",
}


def major_trouble(
    hp: int,
    max_hp: int,
    hunger_state_name: Union[str, HungerState, None] = None,
    xp_level: Optional[int] = None,
    conditions: Iterable[str] = (),
) -> bool:
    """Whether the hero is in *major* trouble by pray.c's rules (prayer then works
    with a timeout up to 200).

    Low HP: HP <= 5 or HP <= max/7. With ``xp_level`` given, NetHack 3.6's exact
    rule is used instead: the divisor is 5 at levels 1-5, 6 at 6-13, 7 at
    14-21, 8 at 22-29, 9 at 30, and max HP counts at most 15 per level.
    Hunger: Weak or worse. ``conditions``: status words such as "stone",
    "slime", "strangled", "food poisoning", "ill", "lycanthropy" also count.
    """
    if hunger_state_name is not None:
        hunger = hunger_state_name.value if isinstance(hunger_state_name, HungerState) else str(hunger_state_name)
        if hunger.strip().lower() in ("weak", "fainting", "fainted", "starved"):
            return True
    if any(str(c).strip().lower() in _MAJOR_CONDITIONS for c in conditions):
        return True
    if hp <= 5:
        return True
    if xp_level is None:
        return hp * 7 <= max_hp
    return critically_low_hp(hp, max_hp, xp_level)


# Minor troubles the status line shows (pray.c also counts being punished, fumbling,
# cursed items and wounded legs, which it does not show).
_MINOR_CONDITIONS = {"blind", "stunned", "stun", "confused", "conf", "hallucinating", "hallu"}


def prayer_trouble(
    hp: int,
    max_hp: int,
    hunger_state_name: Union[str, HungerState, None] = None,
    xp_level: Optional[int] = None,
    conditions: Iterable[str] = (),
) -> str:
    """The hero's trouble as prayer sees it: "major" (see ``major_trouble``),
    "minor" (Hungry, Blind, Stunned, Confused or Hallucinating) or "none"."""
    conditions = list(conditions)
    if major_trouble(hp, max_hp, hunger_state_name, xp_level, conditions):
        return "major"
    hunger = hunger_state_name.value if isinstance(hunger_state_name, HungerState) else str(hunger_state_name or "")
    if hunger.strip().lower() == "hungry" or any(str(c).strip().lower() in _MINOR_CONDITIONS for c in conditions):
        return "minor"
    return "none"

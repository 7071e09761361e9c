"""Whether a hero just arrived on a level waits on its up stairs for a monster coming.

Fought on the up stairs, a fight that goes badly ends with one step up: most monsters do
not follow. explore_and_fight holds the stairs so (hold_the_stairs); any skill may, with
``StairsHold``, injected as ``CarefulWalk`` is. The sandbox worker imports this module,
so it stays free of NLE and numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .careful_walk import NEVER_BUMP

if TYPE_CHECKING:
    from .models import Monster, Position


class StairsHold:
    """Judges, once per species, whether a hostile coming is worth waiting for on the up
    stairs: its fight would likely cost over a third of the hero's HP (nh.fight_odds), it
    moves (speed above 3), it does not follow up stairs, and it has no breath, spit or gaze
    attack that reaches a hero standing still."""

    def __init__(self, nh: Any) -> None:
        self.nh = nh
        self._worth: dict[str, bool] = {}  # species -> judged worth waiting for

    async def worth_waiting(self, hero: "Position", hostile: list["Monster"], hp: int) -> bool:
        """Whether the hero, standing at ``hero`` with ``hp``, should wait there for one of
        ``hostile`` within 7 squares (not beside it yet): False unless ``hero`` is the up
        stairs of the level (the map is read only when such a monster is near)."""
        nh = self.nh
        coming = [m for m in hostile if m.name not in NEVER_BUMP and not m.position.is_adjacent(hero)
                  and m.position.steps_to(hero) <= 7]
        if not coming or (await nh.get_current_level()).stairs_up != hero:
            return False
        for m in coming:
            if m.name not in self._worth:
                try:
                    info = await nh.lookup_monster(m.name)
                    odds = await nh.fight_odds([m])
                except Exception:
                    self._worth[m.name] = False
                    continue
                self._worth[m.name] = info.speed > 3 and "follows you" not in info.flags and not any(
                    a.split()[0] in ("breath", "spit", "gaze") for a in info.attacks) and \
                    odds.expected_damage > hp / 3
            if self._worth[m.name]:
                return True
        return False


__all__ = ["StairsHold"]

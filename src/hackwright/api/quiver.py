"""A skill's missiles between shots: what to shoot next and where the shot ones lie.

A skill that shoots while it does something else (explore_and_fight with archery)
keeps one ``Quiver``: ``ready()`` names the inventory letter to throw or fire, wielding
a carried launcher first; ``note_shot`` remembers the squares along each line shot,
where the arrows and daggers came down; ``is_own_ammunition`` tells the missiles of the
kinds being shot from others in a pile. Skills get it without importing it, as they get
``CarefulWalk``. The sandbox worker imports this module, so it stays free of NLE and numpy.
"""

from __future__ import annotations

from typing import Any, Optional


class Quiver:
    """What a skill shoots with, kept from one shot to the next.

    ``enabled`` turns False for good once there is nothing left to shoot (melee from
    then on); ``skills`` are the weapon skills of what is being shot (any arrow is
    "bow"); ``shot_squares`` are (x, y, depth) along every line shot."""

    def __init__(self, nh: Any) -> None:
        self.nh = nh
        self.enabled = True
        self.skills: set = set()
        self.shot_squares: set = set()
        self._kinds: dict = {}

    async def ready(self) -> tuple[Optional[str], int]:
        """(letter, actions): the inventory letter of what to shoot now (nh.get_missiles:
        ammunition for the launcher in hand, a carried launcher wielded first; else
        daggers, darts and the like thrown by hand) and the game actions that took (1
        when a launcher was wielded). The letter is None when there is nothing to shoot:
        out of ammunition (the best melee weapon in the pack is wielded in place of the
        launcher, one action), the hero fights in melee rather than throw the one melee
        weapon left in the pack."""
        actions = 0
        m = await self.nh.get_missiles()
        if m.launcher is None and m.ready_launcher is not None:
            res = await self.nh.wield(m.ready_launcher.slot)
            actions += 1
            if not res.success or res.game_over:
                self.enabled = False
                return None, actions
            m = await self.nh.get_missiles()
        if m.launcher is not None and not m.ammunition and m.melee is not None:
            # Out of ammunition: a launcher swung in melee hits for 1d2. Take up the
            # best weapon in the pack (a Ranger's dagger); picked-up arrows wield the
            # launcher again above.
            await self.nh.wield(m.melee.slot)
            actions += 1
            self.enabled = False
            return None, actions
        if m.best is None or m.launcher is not None and not m.ammunition:
            self.enabled = False
            return None, actions
        self.skills = {await self.kind_of(i) for i in m.ammunition or m.thrown} - {None}
        return m.best.slot, actions

    async def kind_of(self, item: Any) -> Optional[tuple]:
        """(weapon skill, "ammunition"/"missile"/None) as NetHack files the item: any arrow
        is ("bow", "ammunition") and the bow itself ("bow", None); an orcish dagger is a
        dagger too. None when unknown."""
        if item.name not in self._kinds:
            try:
                info = await self.nh.lookup_item(item.text or item.name)
                self._kinds[item.name] = (info.skill, info.extra.get("ammo_or_missile"))
            except Exception:
                self._kinds[item.name] = None
        return self._kinds[item.name]

    async def is_own_ammunition(self, item: Any) -> bool:
        """Whether ``item`` (on the floor) is a weapon of a kind being shot: worth picking
        up again."""
        return bool(self.skills) and item.object_class == "weapon" and await self.kind_of(item) in self.skills

    def note_shot(self, frm: Any, direction: str, depth: int) -> None:
        """Remember the ten squares along a shot from ``frm`` in ``direction`` on ``depth``."""
        p = frm
        for _ in range(10):
            p = p.offset(direction)
            if not p.on_map():
                break
            self.shot_squares.add((p.x, p.y, depth))

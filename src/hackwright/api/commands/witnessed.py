"""What NetHackAPI remembers of what the hero witnessed, whoever acted: the monsters
seen dying (``recent_kills``, ``corpse_age``; see ``api/kills.py``) and the floor
piles the hero was shown (``pile_seen_turn``; see ``api/piles.py``). Both are read
from the messages of every action, a skill's or a key typed by the model alike.
"""

from __future__ import annotations

from typing import Any, Optional

from nle import nethack as nh_bl

from ..kills import KillMemory, Sight
from ..models import Kill, Position
from ..piles import PileMemory
from ..shed_gear import ShedGearMemory
from .core import ApiCore, _as_position


class WitnessedEvents(ApiCore):
    """Kills and piles, remembered for the whole game."""

    def __init__(self, game: Any):
        super().__init__(game)
        self._kill_memory = KillMemory()
        self._pile_memory = PileMemory()
        self._shed_gear = ShedGearMemory()

    def reset(self) -> list[str]:
        self._kill_memory = KillMemory()
        self._pile_memory = PileMemory()
        self._shed_gear = ShedGearMemory()
        messages = super().reset()
        self._kill_memory.last_sight = self._sight()
        return messages

    def _sight(self) -> Optional[Sight]:
        if self._game.done:
            return None
        bl = self._obs()["blstats"]
        if int(bl[nh_bl.NLE_BL_HPMAX]) <= 0:
            return None
        s = self._stats_now()
        return Sight(self._obs()["glyphs"].copy(), self._hero(), s.turn, (int(bl[23]), int(bl[24])),
                     s.dungeon_level, s.branch)

    def _note_messages(self, messages: list[str]) -> None:
        super()._note_messages(messages)
        now = self._sight()
        if now is None:
            # The hero died in this action: a kill in it is of no use any more.
            return
        hallucinating = bool(int(self._obs()["blstats"][nh_bl.NLE_BL_CONDITION]) & nh_bl.BL_MASK_HALLU)
        self._kill_memory.note([] if hallucinating else messages, now)
        self._pile_memory.note(messages, now.level, now.hero, now.turn)
        self._shed_gear.note(messages, now.level, now.hero)

    def _level_now(self) -> tuple[int, int]:
        bl = self._obs()["blstats"]
        return int(bl[23]), int(bl[24])

    async def recent_kills(self, n: int = 10) -> list[Kill]:
        """The last ``n`` monsters the hero saw die this game, oldest first, as Kill(species,
        turn, position, dungeon_level, branch, by_hero, corpse_seen): whoever killed them (your
        blow, a spell, a pet, a trap) and whoever acted (any skill or key). ``position`` is the
        square it died on, None when that could not be told (it died out of sight, or the
        level changed in the same action); ``corpse_seen`` says whether its corpse was then
        drawn there (False: it left none on top; None: hidden). Deaths the game reports without
        a species ("You kill it!") and those seen while hallucinating are not listed."""
        return self._kill_memory.recent(n) if isinstance(n, int) else []

    async def recent_zappers(self, turns: int = 30) -> list[str]:
        """Species seen zapping a wand in the last ``turns`` turns, latest first (no game
        time). Elbereth does not stop a wand: kill the zapper or leave its line."""
        return self._seen_within(self._zappers, turns)

    async def recent_shooters(self, turns: int = 30) -> list[str]:
        """Species seen attacking from a distance in the last ``turns`` turns, latest first
        (no game time): shooting or throwing missiles ("The gnome lord shoots 2 crossbow
        bolts!", "The hill orc throws an orcish dagger!"), spitting venom or breathing
        (frost, fire...). Wands are in recent_zappers. Elbereth stops none of these, and
        resting on it in the line of fire is how heroes die to crossbow bolts: close in
        and kill the shooter, or get out of its line."""
        return self._seen_within(self._shooters, turns)

    def _seen_within(self, last_seen: dict, turns: int) -> list[str]:
        """The species of ``last_seen`` (species -> turn) seen in the last ``turns`` turns, latest first."""
        if not isinstance(turns, int) or isinstance(turns, bool):
            raise ValueError(f"turns must be a whole number of game turns, not {turns!r}")
        now = self._stats_now().turn
        recent = sorted(((t, name) for name, t in last_seen.items() if now - t <= turns), reverse=True)
        return [name for _, name in recent]

    async def corpse_age(self, position: Position, species: Optional[str] = None) -> Optional[int]:
        """How many turns ago the monster whose corpse lies at ``position`` on the current
        level died, when the hero saw it die there (see recent_kills); with ``species``
        ("newt"), only a death of that species counts. None when no death on that square
        was seen: the corpse's age is unknown, so treat it as old. Pass the age to
        is_safe_to_eat(species, age): a corpse older than 39 turns is unsafe for most heroes
        (lichen and lizard corpses never rot). With several deaths on the square and no
        corpse seen after the latest, the oldest counts. A monster that died where a
        corpse of its kind already lay tells nothing of the corpse there (it may have left
        none): the oldest death seen there counts, or None if it is the only one."""
        pos = _as_position(position)
        if pos is None:
            return None
        return self._kill_memory.corpse_age(pos, species, self._level_now(), self._stats_now().turn)

    async def pile_seen_turn(self, position: Position) -> Optional[int]:
        """The game turn on which the hero was first shown the objects on ``position`` of the
        current level by stepping there ("You see here …", "Things that are here:", "There are
        several objects here."), whoever moved it; None if never. An object new to the square
        since (dropped, or left by a dying monster) starts the count again; objects taken
        away do not. Tells a pile already seen, e.g. reported by an earlier call of a skill,
        from a new one."""
        pos = _as_position(position)
        if pos is None:
            return None
        return self._pile_memory.seen_turn(self._level_now(), pos)

    async def shed_gear_spot(self) -> Optional[Position]:
        """The square of the current level where a change of form made the hero drop its
        worn armour or wielded weapon (a lycanthrope turning into its animal: "Your armor
        falls around you!", "You find you must drop your sword!"), once the hero is back
        in its own form ("You return to human form!") and until it has stood there and
        left; None otherwise. Walk there, pick the things up (pickup_useful) and wear and
        wield them again: without them the hero fights at AC 10."""
        return self._shed_gear.spot(self._level_now())

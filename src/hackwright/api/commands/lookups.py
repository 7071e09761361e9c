"""Knowledge queries of NetHackAPI: monster and object tables, the knowledge base,
corpse safety and the prayer timeout.
"""

from __future__ import annotations

from typing import Optional

from .. import knowledge
from .. import fight_odds as odds
from ..models import FightOdds, HungerState, ItemInfo, Monster, MonsterInfo
from .core import ApiCore


class Lookups(ApiCore):
    """What NetHack's tables and the knowledge base say; none of these takes game time."""

    async def lookup_monster(self, name: str) -> MonsterInfo:
        """Look up a species in NetHack's own monster table, by name in any case
        ("newt", "Floating Eye").
        Returns a MonsterInfo: level, speed, ac, mr, alignment, difficulty, attacks
        ("bite 1d3 physical", "passive 0d70 paralysis"), resistances, conveys (what
        eating the corpse may give), corpse_weight, corpse_nutrition, size, flags
        ("poisonous", "petrifies" …), leaves_corpse and max_damage_per_turn
        (readable as a dict too).
        Raises ValueError listing the closest names for an unknown name."""
        return knowledge.lookup_monster(name)

    async def lookup_item(self, name: str) -> ItemInfo:
        """Look up an object type in NetHack's object table.
        name: a real name, with or without its class word ("long sword", "potion of
        healing", "healing"), an inventory line ("2 uncursed +1 daggers (in
        quiver)"), or an unidentified appearance ("balsa wand", "scroll labeled
        FOO"): then extra["possible_identities"] lists what it can be this game, and
        base_price is 0 when their prices differ (extra["possible_prices"]).
        Returns an ItemInfo: object_class, weight, base_price, material,
        damage_small, damage_large and skill (weapons), armor_class and armor_slot
        (armour), nutrition (food).
        Raises ValueError listing the closest names for an unknown name."""
        return knowledge.lookup_item(name)

    async def fight_odds(self, monsters) -> FightOdds:
        """How a melee fight would likely go, before it starts.
        monsters: a Monster from get_visible_monsters(), a species name ("rothe"), or a
        list of them (a pack fought one after another, all striking until each dies).
        Returns a FightOdds: hit_chance and damage_per_hit of your blows, the
        monsters' likely hit points, turns_to_kill, the damage_per_turn they deal
        against your AC, expected_damage (HP you likely lose before the last dies) and
        hero_hp. ``odds.favourable`` is True when that is under half your HP now.
        Uses your experience level, Str, Dex, AC and wielded weapon, and the level
        NetHack gives such a monster at this depth. Takes no game time.
        Monsters shown as a remembered unseen 'I' are left out.
        Raises ValueError listing the closest names for an unknown species name."""
        items = monsters if isinstance(monsters, (list, tuple)) else [monsters]
        foes = []
        for m in items:
            if not isinstance(m, Monster):
                foes.append(knowledge.lookup_monster(str(m)))
                continue
            # A remembered unseen monster ('I') or a name the table lacks (hallucination)
            # is no species to reckon with.
            if not m.is_invisible_marker:
                try:
                    foes.append(knowledge.lookup_monster(m.name))
                except ValueError:
                    pass
        weapon, weapon_text = odds.weapon_in_hand(await self.get_inventory())
        return odds.estimate(foes, self._stats_now(), self.hero_role or "", weapon, weapon_text)

    # The knowledge base nh.lookup reads (None: $HACKWRIGHT_KB or ~/.cache/hackwright/kb.sqlite).
    kb_path: Optional[str] = None

    async def lookup(self, query: str, k: int = 3) -> str:
        """
        Search the NetHack knowledge base (NetHack's encyclopedia, rumors, Oracle,
        help, and pages on every monster and object with its real numbers, plus
        any imported wiki) for a question such as "what happens if I hit a
        floating eye". Returns the ``k`` (1-10) best passages as short text,
        each headed "## Title › Section [source]". Built on first use (about a
        second); hybrid BM25 + dense search when the dense index is built.
        """
        from ...kb.search import shared

        if not isinstance(query, str) or not query.strip():
            raise ValueError("lookup needs a non-empty question")
        return shared(self.kb_path).lookup_text(query, k=max(1, min(int(k), 10)))

    def _eater(self) -> "knowledge.Eater":
        return knowledge.eater_for(self.hero_race or "human", self.hero_role or "", self._stats_now().xp_level)

    async def is_safe_to_eat(self, corpse_name: str, turns_old: int, starving: bool = False) -> bool:
        """Check if a corpse is safe to eat for this hero (race, role, known
        resistances), ``turns_old`` turns after the monster died: True or False.
        corpse_name is the species ("newt"; "a newt corpse" works too). Unsafe: older
        than 39 turns unless it never rots (lichen, lizard) or you resist sickness;
        petrifying, poisonous or acidic without the resistance; were-creatures,
        shapeshifters; your own race, dogs and cats (unless you are a Caveman or an
        orc), and more. With ``starving`` (only heeded when the hero is Weak or
        worse from hunger) lesser harms are accepted: a dog or cat (aggravate
        monster), a poisonous corpse while HP is above 15 (Strength and up to 15
        HP), a kill up to 55 turns old. Rot, stoning, lycanthropy and the like never
        are. Raises ValueError for an unknown species or a negative turns_old."""
        stats = self._stats_now()
        hp = stats.hp if starving and stats.hunger.severity >= HungerState.WEAK.severity else None
        return knowledge.is_safe_to_eat(corpse_name, turns_old, self._eater(), starving_hp=hp)

    async def get_prayer_timeout(self) -> int:
        """Get turns until prayer is available again.

        An estimate the hero could know: NetHack starts the timeout at 300 and
        lowers it by one a turn; a successful prayer resets it to a random value
        (median about 350, but often far more), so after a prayer this assumes
        1000. 0 means praying is likely safe even without trouble; with major
        trouble (Stats.hp_critical: HP ≤ 5 or ≤ 1/5 of max at XL 1-5, 1/6 at XL
        6-13; Weak from hunger) ≤ 200 is enough,
        with minor trouble (Hungry, Blind, Stunned, Confused) ≤ 100. pray()
        refuses to pray when this says it is too soon, unless force=True.
        """
        return self._prayer.estimate(self._stats_now().turn)

"""Event interrupts (NetPlay's idea): what changed after each game action.

An :class:`EventMonitor` is hung on ``NetHackAPI.after_action`` while a skill
runs. After every action it compares the game with what it saw last and emits
:class:`GameEvent` s:

=============  ===============================================================
monster        a hostile monster came into view (one not in view before)
low_hp         HP fell below the threshold (default half of max)
very_low_hp    HP fell to where a prayer heals it (Stats.hp_critical: ≤ 5, or
               ≤ 1/5 of max at XL 1-5); the agent loop stops every skill on
               it, so the strategist can pray
deadly         a condition that kills within turns began (food poisoning,
               illness, stoning, sliming, strangling), lycanthropy (a
               were-creature's bite: "You feel feverish"), or a vault's guard
               came to the hero in a vault; stops every skill too
hunger         the hunger state got worse (Hungry, Weak, Fainting …)
level_change   the hero is on another level
teleport       the hero jumped across the level without taking stairs
items          objects came into view where none were shown before
engulfed       something swallowed the hero
message        a message matched one of the watched patterns
=============  ===============================================================

A skill declares the events that stop it (``TRIGGERS = ("monster", "low_hp")``
in its file, the "Triggers" of its SKILL.md entry); the runner stops it at the
next action boundary with ``stopped_reason="interrupted:<event>"``. Every event
is also queued for ``nh.get_events()``, so a skill that handles an event itself
can react to it.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

import numpy as np
from nle import nethack as nh

from ..api import glyphs as G
from ..api import observe
from ..api.models import GameEvent, Position, critically_low_hp

EVENT_KINDS = ("monster", "low_hp", "very_low_hp", "deadly", "hunger", "level_change", "teleport", "items", "engulfed", "message")
_DEADLY_NAMES = ((nh.BL_MASK_FOODPOIS, "Food poisoned"), (nh.BL_MASK_TERMILL, "Ill"), (nh.BL_MASK_STONE, "Stoned"),
                 (nh.BL_MASK_SLIME, "Slimed"), (nh.BL_MASK_STRNGL, "Strangled"))
_DEADLY_MASK = sum(bit for bit, _ in _DEADLY_NAMES)
_ENGULF = re.compile(r"engulfs you|swallows you|You are engulfed|totally engulfed", re.I)


@dataclass
class TriggerConfig:
    hp_threshold: float = 0.5  # low_hp fires when HP drops below this fraction of max
    watch_messages: tuple[str, ...] = ()  # regular expressions for "message" events
    turn_cap: Optional[int] = None  # the episode's turn cap: a "turn_cap" event stops any skill there
    always_stop: tuple[str, ...] = ()  # events that stop any skill, declared or not (unless it handles them)
    # The user asked the episode to stop (Ctrl-C): a "user_stop" event stops any skill at
    # its next game action, whatever it handles.
    stop_requested: Optional[Callable[[], bool]] = None


def declared_triggers(code: str) -> tuple[str, ...]:
    """The ``TRIGGERS = (...)`` a skill file declares (empty when none or unreadable)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TRIGGERS" for t in node.targets):
            if isinstance(node.value, (ast.Tuple, ast.List)):
                return tuple(e.value for e in node.value.elts
                             if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return ()


def unknown_triggers(triggers: Iterable[str]) -> list[str]:
    return [t for t in triggers if t not in EVENT_KINDS]


@dataclass
class _Seen:
    hostiles: Counter = field(default_factory=Counter)
    hp_low: bool = False
    hp_critical: bool = False
    deadly: int = 0  # the deadly-condition bits of the status mask
    hunger: int = 0
    level: tuple = ()
    position: Optional[Position] = None
    items: frozenset = frozenset()
    engulfed: bool = False
    messages_shown: int = 0  # the game's message count when looked at (api.messages_shown)


class EventMonitor:
    """Turns consecutive game states into events (install on ``api.after_action``)."""

    def __init__(self, api, config: Optional[TriggerConfig] = None):
        self.config = config or TriggerConfig()
        self._patterns = [re.compile(p, re.I) for p in self.config.watch_messages]
        self.pending: list[GameEvent] = []  # for the runner: events since it last looked
        self.seen = self._look(api)
        self._capped = False
        self._stopped = False

    def _look(self, api) -> _Seen:
        obs = api.game.obs
        bl = obs["blstats"]
        hero = Position(int(bl[nh.NLE_BL_X]), int(bl[nh.NLE_BL_Y]))
        # Shares the API's per-observation cache with get_visible_monsters and the prefetch.
        monsters = api.monsters_now()
        hostiles = Counter(m.name for m in monsters if not m.is_peaceful and not m.is_tame)
        glyphs = obs["glyphs"]
        item_mask = G.IS_ITEM[glyphs]
        ys, xs = np.nonzero(item_mask)
        items = frozenset(zip(xs.tolist(), ys.tolist()))
        near = glyphs[max(hero.y - 1, 0):hero.y + 2, max(hero.x - 1, 0):hero.x + 2]
        engulfed = bool(((near >= nh.GLYPH_SWALLOW_OFF) & (near < nh.GLYPH_WARNING_OFF)).any())
        hp, hpmax = int(bl[nh.NLE_BL_HP]), int(bl[nh.NLE_BL_HPMAX])
        return _Seen(
            hostiles=hostiles,
            hp_low=hpmax > 0 and hp < hpmax * self.config.hp_threshold,
            # NetHack's "major trouble" for prayer (Stats.hp_critical)
            hp_critical=critically_low_hp(hp, hpmax, int(bl[nh.NLE_BL_XP])),
            deadly=int(bl[nh.NLE_BL_CONDITION]) & _DEADLY_MASK,
            hunger=int(bl[nh.NLE_BL_HUNGER]),
            level=(int(bl[nh.NLE_BL_DNUM]), int(bl[nh.NLE_BL_DLEVEL])),
            position=hero,
            items=items,
            engulfed=engulfed,
            messages_shown=api.messages_shown,
        )

    def __call__(self, api) -> None:
        if api.game_over:
            return
        now = self._look(api)
        before = self.seen
        turn = int(api.game.obs["blstats"][nh.NLE_BL_TIME])
        events: list[GameEvent] = []
        new = now.hostiles - before.hostiles
        if new:
            names = sorted(new)
            events.append(GameEvent("monster", turn, f"{', '.join(names)} came into view", {"monsters": names}))
        if now.hp_low and not before.hp_low:
            bl = api.game.obs["blstats"]
            events.append(GameEvent("low_hp", turn, "HP is low",
                                    {"hp": int(bl[nh.NLE_BL_HP]), "max_hp": int(bl[nh.NLE_BL_HPMAX])}))
        if now.hp_critical and not before.hp_critical:
            bl = api.game.obs["blstats"]
            events.append(GameEvent("very_low_hp", turn, "HP is very low: a prayer would heal it if the timeout allows",
                                    {"hp": int(bl[nh.NLE_BL_HP]), "max_hp": int(bl[nh.NLE_BL_HPMAX])}))
        if now.deadly & ~before.deadly:
            names = [n for bit, n in _DEADLY_NAMES if now.deadly & ~before.deadly & bit]
            events.append(GameEvent("deadly", turn, f"{', '.join(names)}: this kills within turns unless cured "
                                    "(prayer, a unicorn horn, a potion)", {"conditions": names}))
        recent = [text for text, _ in api.messages_after(before.messages_shown)[1]]
        # Lycanthropy shows on no status line: the bite's message tells. The hero turns into
        # the beast within turns, so a prayer or wolfsbane is due before the skill goes on.
        if any("You feel feverish" in m for m in recent):
            events.append(GameEvent("deadly", turn, "Lycanthropy: a were-creature's bite; the hero will turn "
                                    "into one unless cured (prayer, wolfsbane, holy water)",
                                    {"conditions": ["Lycanthropy"]}))
        # A vault's guard attacks within about six turns a hero who keeps its gold or does not
        # follow him (follow_vault_guard): no skill may go on searching in the vault meanwhile.
        if any(observe.VAULT_GUARD_CAME.search(m) for m in recent):
            events.append(GameEvent("deadly", turn, "a vault's guard came: drop your gold and follow him out "
                                    "(follow_vault_guard), or he attacks", {"conditions": ["Vault guard"]}))
        # hunger numbers: 0 Satiated, 1 Not Hungry, 2 Hungry, 3 Weak, 4 Fainting …
        if now.hunger > before.hunger and now.hunger >= 2:
            state = observe.HUNGER_STATES[min(now.hunger, len(observe.HUNGER_STATES) - 1)].value
            events.append(GameEvent("hunger", turn, f"you are {state}", {"hunger": state}))
        if now.level != before.level:
            events.append(GameEvent("level_change", turn, "you are on another level",
                                    {"from": list(before.level), "to": list(now.level)}))
        elif before.position is not None and now.position is not None and \
                now.position.steps_to(before.position) > 2:
            events.append(GameEvent("teleport", turn, "you were moved across the level",
                                    {"from": before.position, "to": now.position}))
        if now.level == before.level:
            fresh = now.items - before.items
            if fresh and now.position is not None:
                spots = sorted(fresh)[:10]
                events.append(GameEvent("items", turn, f"{len(fresh)} new object(s) in view",
                                        {"positions": [Position(x, y) for x, y in spots]}))
        if now.engulfed and not before.engulfed or any(_ENGULF.search(m) for m in recent):
            if not before.engulfed:
                events.append(GameEvent("engulfed", turn, "you were engulfed", {}))
        for m in recent:
            if any(p.search(m) for p in self._patterns):
                events.append(GameEvent("message", turn, m, {"text": m}))
        wants_stop = self.config.stop_requested
        if wants_stop is not None and wants_stop() and not self._stopped:
            self._stopped = True
            events.append(GameEvent("user_stop", turn, "the user asked the episode to stop", {}))
        cap = self.config.turn_cap
        if cap is not None and turn >= cap and not self._capped:
            self._capped = True
            events.append(GameEvent("turn_cap", turn, f"the episode's turn cap ({cap}) is reached", {"cap": cap}))
        self.seen = now
        if events:
            self.pending.extend(events)
            api.events.extend(events)
            del api.events[:-200]  # a bounded queue: an unread flood must not grow forever

    def take_stopping(self, stop_on: set[str]) -> Optional[GameEvent]:
        """The first pending event that should stop the skill (and forget the rest)."""
        hit = next((e for e in self.pending if e.kind in stop_on), None)
        self.pending.clear()
        return hit

"""The NetHack API layer (spec §4): what skills see of the game.

``NetHackAPI`` is the async facade; ``models`` holds the dataclasses of the
contract; ``keyboard`` owns every keystroke; ``observe`` decodes observations;
``maps`` remembers levels and finds paths; ``knowledge`` reads NetHack's tables.
"""

from .models import (
    ActionResult,
    Alignment,
    DungeonLevel,
    GameEvent,
    HungerState,
    Item,
    ItemInfo,
    Monster,
    MonsterInfo,
    Position,
    Stats,
    Tile,
)
from .models import DungeonOverview, HereLook, LookResult, Missiles, OverviewLevel
from .models import ContainerResult, EnhanceResult
from .models import FightOdds, Hero, HiddenFeature, Kill, ShopExit, Spell


def __getattr__(name: str):
    # NetHackAPI pulls in NLE and numpy; load it only when asked for, so the
    # sandbox's pre-loaded worker parent can use the dataclasses alone.
    if name == "NetHackAPI":
        from .nethack_api import NetHackAPI

        return NetHackAPI
    raise AttributeError(name)


__all__ = [
    "ActionResult",
    "Alignment",
    "DungeonLevel",
    "GameEvent",
    "HungerState",
    "Item",
    "ItemInfo",
    "Monster",
    "MonsterInfo",
    "NetHackAPI",
    "Position",
    "Stats",
    "Tile",
    "LookResult",
    "HereLook",
    "Missiles",
    "OverviewLevel",
    "DungeonOverview",
    "ContainerResult",
    "EnhanceResult",
    "Kill",
    "ShopExit",
    "FightOdds",
    "HiddenFeature",
    "Hero",
    "Spell",
]

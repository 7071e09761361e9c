"""NetHackAPI: the high-level, async interface skills call (spec §4.2).

Every action method returns an :class:`ActionResult` with the game back at the
ordinary command prompt; bad input (an unknown inventory letter, an invalid
direction, a position off the map) gives ``success=False`` and an ``error`` that
says what would be valid — never an exception and never a prompt left open.
State queries are cached until the next key reaches the game.

This module only joins the command families of ``api/commands/``; the order of
the bases is the order in which the methods are listed to skills.
"""

from __future__ import annotations

from .commands.core import (  # noqa: F401  (re-exported: imported from here by other modules)
    ATTRIBUTES,
    DIRECTION_KEYS,
    EQUIPMENT_SLOTS,
    KICK,
    LOOK_HERE,
    PRAY,
    VERTICAL_KEYS,
    _FAILURES,
    _SHOP_SOUNDS,
    ApiCore,
    _as_position,
)
from .commands.accessories import AccessoryCommands
from .commands.containers import ContainerCommands
from .commands.doors_stairs import DoorAndStairCommands, _closed_for_inventory, _worn_from  # noqa: F401
from .commands.information import InformationCommands
from .commands.items import ItemCommands
from .commands.lookups import Lookups
from .commands.movement import MovementCommands
from .commands.pathfinding import Pathfinding
from .commands.queries import GameQueries, _item_from_text  # noqa: F401
from .commands.special import SpecialCommands
from .commands.tools import ToolCommands
from .commands.travel import TravelCommands
from .commands.witnessed import WitnessedEvents


class NetHackAPI(
    GameQueries,
    WitnessedEvents,
    MovementCommands,
    ItemCommands,
    DoorAndStairCommands,
    SpecialCommands,
    TravelCommands,
    InformationCommands,
    ToolCommands,
    ContainerCommands,
    AccessoryCommands,
    Pathfinding,
    Lookups,
    ApiCore,
):
    """
    High-level API for interacting with NetHack.
    Exposed to agent-generated skill code.

    Directions are compass names: 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'
    ('north', 'south-west' … are accepted too); zap, cast and kick also take
    'up', 'down' and 'self'. Positions are ``Position(x, y)`` with x the column
    (0..78) and y the map row (0..20).
    """

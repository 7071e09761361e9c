"""Which NetHackAPI methods a sandboxed skill may call, and how.

Kept as plain lists (no import of NetHackAPI) so the pre-loaded worker parent
stays free of NLE and numpy; a test checks the lists against the real class.
"""

# Read the game; answers are cached in the worker until the game changes.
QUERIES = (
    "get_stats",
    "get_position",
    "get_screen",
    "get_messages",
    "get_current_level",
    "get_visible_monsters",
    "get_adjacent_monsters",
    "get_items_at",
    "get_items_here",
    "get_inventory",
    "get_equipment",
    "get_status_effects",
    "get_role",
    "get_hero",
    "get_missiles",
    "get_comprehensive_state",
    "find_path",
    "find_unexplored",
    "find_nearest_of",
    "lookup_monster",
    "lookup_item",
    "lookup",
    "is_safe_to_eat",
    "get_prayer_timeout",
    "get_events",
    "look_at",
    "get_dungeon_overview",
    "get_spells",
    "reveal_terrain",
    "recent_kills",
    "recent_zappers",
    "recent_shooters",
    "corpse_age",
    "pile_seen_turn",
    "shed_gear_spot",
    "shop_exit",
    "fight_odds",
)
# Change the game; each counts against the invocation's game-action limit.
ACTIONS = (
    "move",
    "move_to",
    "attack",
    "wait",
    "search",
    "pickup",
    "drop",
    "eat",
    "quaff",
    "read",
    "zap",
    "wear",
    "wield",
    "take_off",
    "open_door",
    "kick",
    "go_up",
    "go_down",
    "pray",
    "pay",
    "cast_spell",
    "engrave",
    "throw",
    "fire",
    "send_keys",
    "look_here",  # a blind hero feels the floor: that takes a move
    "apply",
    "dig",
    "force_lock",
    "untrap",
    "travel",
    "chat",
    "close_door",
    "loot",
    "put_in",
    "take_out",
    "put_on",
    "remove",
    "dip",
    "enhance",
    "offer",
)
# Evaluated inside the worker: it takes a Python callable, which cannot travel.
LOCAL = ("find_nearest",)
# Not NetHackAPI's: nh.run_skill runs another library skill (sandbox/composition.py).
SKILL_CALLS = ("run_skill",)

# Answers sent along with every action's reply (the worker caches them for that state).
PREFETCH = ("get_stats", "get_position", "get_visible_monsters")
# Queries the host may answer ahead of time, because the skill asked them (with the
# same arguments) after its previous action; get_items_here, get_spells and reveal_terrain are absent: they type keys,
# and lookup: its answer never changes with the game, so asking again would be waste.
PREFETCHABLE = frozenset(QUERIES) - {"get_items_here", "get_comprehensive_state", "get_events", "lookup",
                                     "look_at", "get_dungeon_overview", "get_spells",
                                     "reveal_terrain"}
MAX_ADAPTIVE_PREFETCH = 6

CALLABLE = frozenset(QUERIES + ACTIONS)

# Exceptions an API call can raise in the skill: the host sends the nearest of
# these built-in types (e.g. UnknownNameError arrives as ValueError).
EXCEPTIONS = ("ValueError", "TypeError", "KeyError", "IndexError", "LookupError", "AttributeError",
              "ZeroDivisionError", "ArithmeticError", "NotImplementedError", "RuntimeError")

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
    "get_comprehensive_state",
    "find_path",
    "find_unexplored",
    "find_nearest_of",
    "lookup_monster",
    "lookup_item",
    "is_safe_to_eat",
    "get_prayer_timeout",
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
    "cast_spell",
    "send_keys",
)
# Evaluated inside the worker: it takes a Python callable, which cannot travel.
LOCAL = ("find_nearest",)

CALLABLE = frozenset(QUERIES + ACTIONS)

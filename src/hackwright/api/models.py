"""The data types of the NetHack API (spec §4.2).

These are the contract that skills written by any model rely on: the names,
fields and their order follow the specification. Fields the spec does not name
are appended after the spec's own, always with a default, so code written from
the spec alone keeps working.

Coordinates: ``x`` is the map column (0..78), ``y`` the map row (0..20), the
same as NetHack's own map and NLE's ``glyphs`` array (``glyphs[y][x]``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import Any, Iterator, Optional

MAP_ROWS = 21
MAP_COLS = 79


class HungerState(Enum):
    SATIATED = "Satiated"
    NOT_HUNGRY = "Not Hungry"
    HUNGRY = "Hungry"
    WEAK = "Weak"
    FAINTING = "Fainting"
    FAINTED = "Fainted"
    STARVED = "Starved"

    @property
    def severity(self) -> int:
        """0 for Satiated/Not Hungry, rising as the hero gets hungrier."""
        return _HUNGER_SEVERITY[self]


_HUNGER_SEVERITY = {
    HungerState.SATIATED: 0,
    HungerState.NOT_HUNGRY: 0,
    HungerState.HUNGRY: 1,
    HungerState.WEAK: 2,
    HungerState.FAINTING: 3,
    HungerState.FAINTED: 4,
    HungerState.STARVED: 5,
}


class Alignment(Enum):
    LAWFUL = "Lawful"
    NEUTRAL = "Neutral"
    CHAOTIC = "Chaotic"
    UNALIGNED = "Unaligned"  # only monsters such as Moloch's priests


# Compass directions as (dx, dy). North is up the screen (y decreases).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, -1),
    "s": (0, 1),
    "e": (1, 0),
    "w": (-1, 0),
    "ne": (1, -1),
    "nw": (-1, -1),
    "se": (1, 1),
    "sw": (-1, 1),
}
# Spoken aliases accepted wherever a direction is asked for.
DIRECTION_ALIASES: dict[str, str] = {
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
}
# Directions that are not on the map plane (zap, cast, apply, kick at self …).
VERTICAL_DIRECTIONS = ("up", "down", "self")


def normalize_direction(direction: str, allow_vertical: bool = False) -> Optional[str]:
    """Return the canonical compass name ('n', 'se', …) or None if invalid."""
    if not isinstance(direction, str):
        return None
    d = direction.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    d = DIRECTION_ALIASES.get(d, d)
    if d in DIRECTIONS:
        return d
    if allow_vertical:
        d = {"<": "up", ">": "down", ".": "self", "u": "up", "d": "down"}.get(d, d)
        if d in VERTICAL_DIRECTIONS:
            return d
    return None


@dataclass(frozen=True)
class Position:
    """A square of the map. Hashable, so it can key dicts and fill sets."""

    x: int  # map column, 0..78 (west to east)
    y: int  # map row, 0..20 (north to south)

    def distance_to(self, other: "Position") -> int:
        """Manhattan distance."""
        return abs(self.x - other.x) + abs(self.y - other.y)

    def steps_to(self, other: "Position") -> int:
        """Moves needed on an open floor (8 directions): the Chebyshev distance."""
        return max(abs(self.x - other.x), abs(self.y - other.y))

    def is_adjacent(self, other: "Position") -> bool:
        """True if ``other`` is one of the 8 squares around this one."""
        return self != other and self.steps_to(other) == 1

    def direction_to(self, other: "Position") -> str:
        """The compass direction (n, s, e, w, ne, nw, se, sw) toward ``other``.

        Off a straight line, that of the first diagonal step toward it; '' for the same square.
        """
        dx = (other.x > self.x) - (other.x < self.x)
        dy = (other.y > self.y) - (other.y < self.y)
        for name, delta in DIRECTIONS.items():
            if delta == (dx, dy):
                return name
        return ""

    def ray_through(self, other: "Position", length: int = 13) -> list["Position"]:
        """The ``length`` squares of the straight line from this square toward ``other``
        (direction_to's direction), nearest first, walls not counted: where a bolt cast
        at ``other`` may go on to (a force bolt or a wand of striking continues past the
        monster it hits). [] for the same square."""
        d = self.direction_to(other)
        if not d:
            return []
        dx, dy = DIRECTIONS[d]
        return [Position(self.x + dx * i, self.y + dy * i) for i in range(1, length + 1)]

    def offset(self, direction: str) -> "Position":
        """The neighbouring square in ``direction`` ('n', 'sw', …)."""
        d = normalize_direction(direction)
        if d is None:
            raise ValueError(f"invalid direction {direction!r}; use one of {', '.join(DIRECTIONS)}")
        dx, dy = DIRECTIONS[d]
        return Position(self.x + dx, self.y + dy)

    def neighbors(self) -> list["Position"]:
        """The 8 surrounding squares that lie on the map."""
        out = []
        for dx, dy in DIRECTIONS.values():
            x, y = self.x + dx, self.y + dy
            if 0 <= x < MAP_COLS and 0 <= y < MAP_ROWS:
                out.append(Position(x, y))
        return out

    def on_map(self) -> bool:
        """True if the square lies on the 79x21 map."""
        return 0 <= self.x < MAP_COLS and 0 <= self.y < MAP_ROWS

    def __iter__(self) -> Iterator[int]:  # allows ``x, y = pos``
        yield self.x
        yield self.y


@dataclass
class Stats:
    """The bottom lines of the screen, decoded (``blstats``)."""

    hp: int  # hit points now
    max_hp: int  # maximum hit points
    pw: int  # Power (mana)
    max_pw: int  # maximum power
    ac: int  # Armor class (lower is better)
    xp_level: int  # experience level (XL)
    xp_points: int  # experience points
    gold: int  # gold carried ($ on the status line)
    strength: int  # 3..25 as NetHack counts it (18/01..18/100 give 19..21); see strength_display
    dexterity: int  # 3..25, like the four attributes below
    constitution: int  # 3..25
    intelligence: int  # 3..25
    wisdom: int  # 3..25
    charisma: int  # 3..25
    hunger: HungerState  # HungerState.NOT_HUNGRY normally; see HungerState
    encumbrance: str  # "Unencumbered", "Burdened", "Stressed", etc.
    alignment: Alignment  # the hero's alignment (Lawful, Neutral or Chaotic)
    dungeon_level: int  # absolute depth (Dlvl on the status line)
    turn: int  # the game turn counter (T: on the status line)
    # --- beyond the spec ---
    score: int = 0  # the score the status line shows
    branch: str = "Dungeons of Doom"  # the branch the hero is in: "Gnomish Mines", "Sokoban", …
    level_in_branch: int = 1  # level number within that branch (1 = its first level)
    strength_display: str = ""  # "18/50" style, as the status line shows it
    position: Optional[Position] = None  # the hero's square (always set by get_stats)

    @property
    def hp_fraction(self) -> float:
        """hp / max_hp (0.0 when max_hp is 0)."""
        return self.hp / self.max_hp if self.max_hp > 0 else 0.0

    @property
    def hp_critical(self) -> bool:
        """Whether HP is low enough that a prayer counts it as major trouble (and heals it
        when the prayer timeout is at most 200): HP at most 5, or at most 1/5 of max HP at
        XL 1-5, 1/6 at XL 6-13, 1/7 at XL 14-21 (max HP counted up to 15 per XL)."""
        return critically_low_hp(self.hp, self.max_hp, self.xp_level)


def critically_low_hp(hp: int, max_hp: int, xp_level: int) -> bool:
    """NetHack 3.6's critically_low_hp (pray.c): HP <= 5, or HP * divisor <= max HP, with
    max HP capped at 15 per experience level and the divisor growing with the hero's rank
    (5 at XL 1-5, 6 at 6-13, 7 at 14-21, 8 at 22-29, 9 at 30)."""
    if max_hp <= 0:
        return False
    xl = max(1, xp_level)
    cap = min(max_hp, 15 * xl)
    divisor = 5 if xl <= 5 else 6 if xl <= 13 else 7 if xl <= 21 else 8 if xl <= 29 else 9
    return hp <= 5 or hp * divisor <= cap


class _DictAccess:
    """Lets a dataclass also be read like the dict the spec promises."""

    def __getitem__(self, key: str) -> Any:
        if key in self.keys():
            return getattr(self, key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self.keys() else default

    def keys(self) -> list[str]:
        return [f.name for f in fields(self)]  # type: ignore[arg-type]

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]


# Monsters NetHack's onscary() never lets Elbereth frighten, besides every @.
_IGNORE_ELBERETH = frozenset((
    "minotaur", "shopkeeper", "watchman", "watch captain", "guard", "aligned priest", "high priest",
    "Death", "Pestilence", "Famine"))
# NetHack's domestic animals (M2DOMESTIC_ANIMALS): food thrown at one tames or calms it.
DOMESTIC_ANIMALS = frozenset(("kitten", "housecat", "large cat", "little dog", "dog", "large dog",
                       "pony", "horse", "warhorse"))


@dataclass
class Monster:
    """A monster shown on the map."""

    glyph: int  # NLE glyph number shown on the square
    char: str  # the map symbol: 'd', '@', 'F' …
    name: str  # the species as NetHack names it: "jackal", "floating eye"
    position: Position  # the square it stands on
    color: int  # NetHack's colour number (0..15) of its symbol
    is_peaceful: bool  # will not attack unprovoked; attacking it angers it (and often your god)
    is_tame: bool  # your pet: moving into it swaps places
    threat_level: int  # NetHack's difficulty rating of the species (0 = harmless)
    # --- beyond the spec ---
    is_invisible_marker: bool = False  # 'I': something unseen was remembered here

    @property
    def ignores_elbereth(self) -> bool:
        """Whether an Elbereth you stand on leaves this monster unafraid: every
        human or elf shown as @, minotaurs, shopkeepers, guards, the watch,
        priests and the Riders, and the were-creatures (who may turn @ any turn).
        Other monsters will not melee you there (ranged attacks and spells still
        reach you)."""
        return self.char == "@" or self.name in _IGNORE_ELBERETH or self.name.startswith("were")

    @property
    def ignores_elbereth_now(self) -> bool:
        """As ignores_elbereth, but a were-creature in animal form respects it until it turns @."""
        return self.ignores_elbereth and not (self.name.startswith("were") and self.char != "@")

    @property
    def is_domestic(self) -> bool:
        """Whether this is a kitten, dog or horse of any size: food thrown at it tames
        it when it eats that food, else calms it (the tame_with_food skill)."""
        return self.name in DOMESTIC_ANIMALS


@dataclass
class Item:
    """An object in the inventory (``slot`` set) or on the floor (``position``)."""

    glyph: int  # glyph of the object type (for floor piles guessed from the name; -1 unknown)
    name: str  # as listed, without count and "(…)" notes: "uncursed +1 long sword"
    position: Optional[Position]  # For items on ground
    slot: Optional[str]  # For inventory items (a-zA-Z)
    quantity: int  # how many in the stack
    blessed_cursed_unknown: str  # "blessed", "cursed", "uncursed", "unknown"
    identified: bool  # NetHack shows its real name (weapons and armour: and their enchantment)
    object_class: str  # "weapon", "armor", "food", "potion", etc.
    # --- beyond the spec ---
    text: str = ""  # the full line NetHack shows, e.g. "a +0 katana (weapon in hand)"
    equipped: Optional[str] = None  # slot it is worn/wielded in, see get_equipment()
    corpse_of: Optional[str] = None  # monster name for corpses (and tins/eggs when known)


@dataclass
class Tile:
    """One square of the remembered level map."""

    char: str  # the symbol remembered there: '.', '#', '+', '>', ' ' (never seen) …
    glyph: int  # NLE glyph number remembered there
    position: Position  # where it is: tiles[y][x].position == Position(x, y)
    description: str  # what is remembered there: "doorway", "dark part of a room", an object ("large box", even under the hero or a monster; creatures are in get_visible_monsters), "unexplored"
    is_walkable: bool  # a plain move can enter it (not a closed door or a boulder; known traps count as walkable)
    is_explored: bool  # the hero has seen this square
    has_trap: bool  # a known trap lies here (also under an item)
    trap_type: Optional[str]  # the trap's name: "bear trap", "squeaky board", …; None without a trap
    feature: Optional[str]  # "doorway", "open door", "closed door", "stairs down", "altar", "trap", …; None: floor, wall
    # --- beyond the spec ---
    search_count: int = 0  # times the hero searched next to this square


@dataclass
class DungeonLevel:
    """The current level as the hero remembers it."""

    level_number: int  # absolute depth
    branch: str  # "Dungeons of Doom", "Gnomish Mines", "Sokoban", etc.
    tiles: list[list[Tile]]  # tiles[y][x]
    explored_percentage: float  # share of known floor whose surroundings were seen (100 = nothing left)
    # --- beyond the spec ---
    stairs_up: Optional[Position] = None  # a known up staircase or ladder, None until seen
    stairs_down: Optional[Position] = None  # a known down staircase or ladder (this branch's first), None until seen
    level_in_branch: int = 1  # level number within the branch
    # The branch ``stairs_down`` leads into when it leaves this level's branch and that is
    # known (e.g. "Gnomish Mines" once taken); None for the branch's own way down.
    stairs_down_branch: Optional[str] = None
    # Known down stairs the hero has never crossed, so where they lead is unknown: on the
    # level where a branch begins (the Gnomish Mines, on Dlvl 2-4), one of two is the branch's.
    untried_stairs_down: list[Position] = field(default_factory=list)
    # The town watch was seen on this level (Minetown): its watchmen are peaceful, and
    # angering one (a blind hero bumping it unseen, a fountain dipped in) turns them all.
    town_watch: bool = False
    digging_heard_turn: Optional[int] = None  # turn of the last "You hear crashing rock" (a dwarf digs)

    def tile_at(self, pos: Position) -> Tile:
        """The tile at ``pos``: ``tiles[pos.y][pos.x]``."""
        return self.tiles[pos.y][pos.x]

    def line_of_fire(self, frm: Position, to: Position, occupied: Any = (), max_range: int = 6) -> str:
        """The direction ('n', 'se', …) of a clear straight shot from frm to to for a thrown or fired missile, a wand or a spell: on one of the 8 lines, 1..max_range squares away, nothing walls it off, no square of occupied (monster positions) stands between, and no door square is crossed on a slant. '' when there is none."""
        from .tactics import line_of_fire

        return line_of_fire(self, frm, to, occupied, max_range)

    def exposure(self, pos: Position) -> int:
        """How many squares a monster could attack pos from: its walkable neighbours, less the diagonal ones into or out of an open door (a corridor square: 2; open floor: 8)."""
        from .tactics import exposure

        return exposure(self, pos)

    def walk_distances(self, start: Position, max_steps: int, blocked: Any = (),
                       no_diagonal: tuple = ("doorway", "open door", "closed door"), may_step: Any = None) -> dict:
        """Position -> steps from start of every square a walk reaches in at most max_steps, nearest first (start itself: 0): over known walkable squares, never onto a known trap or a square of blocked (e.g. monster positions), and never on a slant into or out of a square whose feature is in no_diagonal (NetHack forbids it through a door; ("open door",) lets doorless doorways through); may_step(frm, to), a callable, may refuse a step the map allows."""
        from .tactics import walk_distances

        return walk_distances(self, start, max_steps, blocked, no_diagonal, may_step)

    def nearest_chokepoint(self, hero: Position, monsters: Any = (), max_steps: int = 3) -> Optional[Position]:
        """The nearest square at most max_steps away where no more than two monsters can reach the hero (a corridor, a door), reachable without crossing a known trap or one of monsters (a list of Monster); None when the hero already stands in one or none is near. Fighting a crowd from there, one or two come at a time."""
        from .tactics import nearest_chokepoint

        return nearest_chokepoint(self, hero, monsters, max_steps)


@dataclass
class ActionResult:
    """What one API action did."""

    success: bool  # the action did what was asked (also the result's truth value)
    messages: list[str]  # every message the action produced, --More-- parts included, in order
    turn_elapsed: bool  # the game turn counter moved
    state_changed: bool  # something on the map, the status lines or the inventory changed
    error: Optional[str]  # why it failed and what would be valid; None on success
    # --- beyond the spec ---
    prompt: Optional[str] = None  # a question send_keys left open, if any
    game_over: bool = False  # the hero died (no more actions possible)

    def __bool__(self) -> bool:
        return self.success


@dataclass
class MonsterInfo(_DictAccess):
    """A species from NetHack's monster table (``lookup_monster``).

    Reads as a dataclass (``info.speed``) and as the spec's dict (``info["speed"]``).
    """

    name: str  # the species' name
    symbol: str  # its map symbol
    level: int  # base level (hit dice)
    speed: int  # 12 is a normal human's speed
    ac: int  # base armour class (lower is harder to hit)
    mr: int  # magic resistance, percent
    alignment: int  # <0 chaotic, 0 neutral, >0 lawful
    difficulty: int  # NetHack's overall danger rating (Monster.threat_level)
    attacks: list[str]  # e.g. "bite 1d3 physical", "passive 0d70 paralysis"
    resistances: list[str]  # "fire", "cold", "sleep", "disintegration", "shock", "poison", "acid", "stone"
    conveys: list[str]  # intrinsics eating the corpse may give
    corpse_weight: int  # weight units (a human corpse weighs 1450)
    corpse_nutrition: int  # nutrition eating the corpse gives
    size: str  # "tiny", "small", "medium", "large", "huge", "gigantic"
    flags: list[str]  # "poisonous", "acidic", "petrifies", "hides", "regenerates", …
    leaves_corpse: bool = True  # False: killing it never leaves a corpse

    @property
    def max_damage_per_turn(self) -> int:
        """The damage this species can deal in one of your turns (at speed 12): the dice
        maxima of its active attacks (a weapon attack counted as at least a d8), times the
        moves its speed can give it in a turn (a pony, 16, sometimes gets two); passive
        attacks left out. A bad turn, not the worst: an armed monster adds its weapon's
        damage to its dice (a dwarf with a mattock hits for up to 20). At or below it,
        the next turn can kill you."""
        total = 0
        for attack in self.attacks:
            kind, _, rest = attack.partition(" ")
            if kind == "passive":
                continue
            n, _, m = rest.split(" ")[0].partition("d")
            dice = int(n) * int(m) if n.isdigit() and m.isdigit() else 0
            total += max(dice, 8) if kind == "weapon" else dice
        return total * max(1, -(-self.speed // 12))


@dataclass
class ItemInfo(_DictAccess):
    """An object type from NetHack's object table (``lookup_item``)."""

    name: str  # the real name (the appearance, when looked up by an unidentified one)
    object_class: str  # "weapon", "armor", "potion", …
    weight: int  # weight units (a long sword weighs 40)
    base_price: int  # in zorkmids; 0 when it could be several (see extra["possible_prices"])
    material: str  # "iron", "wood", "cloth", …; "varies" when unknown
    description: Optional[str] = None  # unidentified appearance, e.g. "balsa wand"
    damage_small: Optional[str] = None  # weapons: "d6"
    damage_large: Optional[str] = None  # weapons: against large monsters, "d12"
    armor_class: Optional[int] = None  # armour: AC bonus
    armor_slot: Optional[str] = None  # armour: "body armor", "helmet", "cloak", …
    nutrition: Optional[int] = None  # food
    skill: Optional[str] = None  # weapons: dagger, long sword, …
    magical: bool = False  # NetHack counts the type as magical
    extra: dict[str, Any] = field(default_factory=dict)  # the rest: "possible_identities", "two_handed", …


@dataclass
class GameEvent:
    """Something that happened after a game action (see ``NetHackAPI.get_events``).

    kind: "monster" (a hostile came into view), "low_hp", "hunger" (hunger got
    worse), "level_change", "teleport", "items" (new items came into view),
    "engulfed", "message" (a message matched a watched pattern).
    """

    kind: str  # one of the kinds above
    turn: int  # the game turn it happened on
    message: str  # what happened, in words: "jackal came into view"
    data: dict = field(default_factory=dict)  # details, e.g. {"monsters": [...]} or {"hp": 3, "max_hp": 20}


@dataclass
class Kill:
    """A monster the hero saw die this game (``NetHackAPI.recent_kills``), whoever killed it."""

    species: str  # the monster as NetHack names it: "newt", "jackal"
    turn: int  # the game turn it died on (in a many-turn action, its first turn: an age from it is never too young)
    position: Optional[Position]  # the square it died on (its corpse lies there if it left one); None when unsure
    dungeon_level: int  # the depth of the level it died on (Stats.dungeon_level)
    branch: str = "Dungeons of Doom"  # the branch of that level (Stats.branch)
    by_hero: bool = True  # the hero killed it ("You kill the newt!"); False: a pet, a trap, another monster
    corpse_seen: Optional[bool] = None  # True: its corpse was seen on that square just after; False: none there


@dataclass
class FightOdds:
    """How a melee fight against one or more monsters is likely to go
    (``NetHackAPI.fight_odds``), from NetHack's combat formulas and the species' table
    entries. Means, not promises: luck, rings, skills above Basic and special damage
    (poison, level drain, paralysis) are left out."""

    monsters: list[str]  # the species fought, in the order killed (quickest first)
    hit_chance: float  # the hero's chance to hit the first of them with a blow (0..1)
    damage_per_hit: float  # mean damage of the hero's hit on the first of them
    monster_hp: float  # the hit points they likely have, together
    turns_to_kill: float  # mean turns to kill them all, one after another
    damage_per_turn: float  # mean damage they deal together in one turn, against the hero's AC
    expected_damage: float  # mean HP the hero loses before the last one dies
    hero_hp: int  # the hero's HP now

    @property
    def favourable(self) -> bool:
        """The fight likely costs less than half the hero's HP now: fight it. Otherwise
        walk away from slow monsters, take stairs, write Elbereth or use an item."""
        return self.expected_damage < 0.5 * self.hero_hp


@dataclass
class ShopExit:
    """The way out of the shop the hero stands in (``NetHackAPI.shop_exit``)."""

    door: Position  # the shop's door (or doorless doorway) nearest the hero
    outside: Position  # the square just beyond the door, away from the shop: step there from the door
    direction: str  # the compass step from the door to outside ("n", "s", "e" or "w": never diagonal)
    shopkeeper: Optional[Position] = None  # where the shopkeeper stands (he keeps the square inside the door)


@dataclass
class Missiles:
    """What you can shoot or throw now (``NetHackAPI.get_missiles``): the pack read with
    NetHack's object table. Known-cursed weapons are never listed, nor what is in your hands."""

    launcher: Optional[Item]  # the bow, crossbow, yumi or sling you wield; None when you wield none
    ammunition: list[Item]  # arrows, bolts, ya or sling ammunition for that launcher, quivered first
    thrown: list[Item]  # weapons for throwing by hand, best first: quivered, then daggers and knives, then darts, shuriken and boomerangs, then spears and javelins
    ready_launcher: Optional[Item]  # a launcher in your pack (surely not cursed) with ammunition for it: wield it to shoot
    best: Optional[Item]  # what to fire or throw now: what is quivered, else ammunition for the launcher in hand, else thrown[0]; None when nothing
    junk: list[Item] = field(default_factory=list)  # the rest that can be thrown for a point or two a hit: rocks, gems and glass (never gray stones), spare weapons (never a mattock); for a floating eye or gas spore in the way when nothing better is at hand
    melee: Optional[Item] = None  # best hand-to-hand weapon, surely not cursed


@dataclass
class ContainerResult(ActionResult):
    """What ``loot``, ``put_in`` or ``take_out`` did, and what the container holds.

    ``container`` names it as the game does ("large box", "bag"); ``contents``
    lists the items inside after the action (their ``slot`` is None: they are not
    in your pack; empty when the container is empty or could not be opened).
    """

    container: str = ""  # the container as the game names it
    contents: list[Item] = field(default_factory=list)  # what it holds after the action


@dataclass
class EnhanceResult(ActionResult):
    """What ``enhance`` did: ``advanced`` names each skill raised one level, in order,
    e.g. ["long sword", "attack spells"]; empty when no skill could be advanced."""

    advanced: list[str] = field(default_factory=list)  # the skills raised, in order


from .hero import Hero, Spell  # noqa: E402  (its own module: models.py is the spec's types)
from .looks import DungeonOverview, HereLook, HiddenFeature, LookResult, OverviewLevel  # noqa: E402

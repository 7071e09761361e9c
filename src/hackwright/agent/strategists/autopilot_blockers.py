"""The autopilot's rules for what stands in the way and cannot simply be fought.

Monsters that must not be touched (floating eyes, molds, acid blobs, gas spores),
a shopkeeper at his door, peacefuls all round the hero, a meek peaceful in the only
corridor: each is shot, hit when its touch only stings, waited out from a distance,
or at long last fought. These rules act only when the way on is blocked (the last
skill stopped "stuck", "blocked" or "search_exhausted") or decisions stall.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...api.models import HungerState, Position
from ...api.nethack_api import NetHackAPI
from .autopilot_context import NEVER_MELEE, SURVIVE, VI_KEYS, Situation, has_missiles, invoke, press

if TYPE_CHECKING:
    from ..decisions import AgentDecision
    from .autopilot import Autopilot

DOORS = ("doorway", "open door", "closed door")


def _blocked(sit: Situation) -> bool:
    last = sit.last
    return last is not None and last.stopped_reason in ("stuck", "blocked", "search_exhausted")


def _boxed_in(sit: Situation) -> bool:
    """Monsters and walls on every side of the hero: no step can be taken."""
    occupied = {m.position for m in sit.monsters}
    return not any(sit.level.tile_at(p).is_walkable and p not in occupied
                   for p in (sit.hero.offset(d) for d in VI_KEYS) if p.on_map())


def _untouchable(sit: Situation) -> list:
    """Hostile monsters within 7 steps that must never be touched."""
    return [m for m in sit.monsters if m.name in NEVER_MELEE and not m.is_tame and not m.is_peaceful
            and m.position.steps_to(sit.hero) <= 7]


async def shoot_or_sting(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """An untouchable monster in the way: shoot it, or hit it when its touch only stings."""
    s, stats, hero, inventory, ok = sit.memory, sit.stats, sit.hero, sit.inventory, sit.ok
    # A monster that must not be touched (a mold in a doorway, a floating eye in a
    # corridor) stands in the only way on: shoot it if there is anything to throw.
    blocked = _blocked(sit)
    untouchable = _untouchable(sit)
    # (Not again at once when the last volley found it next to the hero with no room to
    # back off, a gas spore at a corridor's bend: make_room walks away first, or the hero
    # stood there shooting nothing for 10,000 turns.)
    last = sit.last
    cornered = last is not None and last.stopped_reason == "target_adjacent" and \
        any(m.position.is_adjacent(hero) for m in untouchable)
    if (blocked or s.recent_stall) and untouchable and not cornered and ok("ranged_attack"):
        if has_missiles(inventory):
            return invoke("ranged_attack",
                          {"target": untouchable[0].name, "max_throws": 10, "wield_launcher": True},
                          f"the {untouchable[0].name} blocks the way and must not be touched: shoot it")
        # Nothing proper to throw, and one no blow may touch (a floating eye, a gas spore,
        # not a mold): a force bolt, or junk. A Wizard and two Healers with neither arrows
        # nor daggers hit a floating eye in the only way again and again, frozen each time,
        # until they starved.
        untouched = next((m for m in untouchable if m.name not in pilot.STING_HP), None)
        spell = pilot.attack_spell_letter()
        if untouched is not None and (spell or (await sit.api.get_missiles()).junk):
            params = {"target": untouched.name, "max_throws": 10, "throw_junk": True}
            if spell:
                params["spell"] = spell
            return invoke("ranged_attack", params,
                          f"the {untouched.name} blocks the way and nothing proper is at hand to throw: "
                          "a force bolt or junk")
    # One whose touch only stings (an acid blob's acid, a mold's cold or fire, at most
    # the HP below per blow) is killed when the hero has HP to spare: an acid blob sat
    # in a doorway for 1,000 turns while a Priestess waited outside and starved.
    # (At full health a little under the mark will do: a Knight with 29 HP of 29 waited
    # 4,500 turns on Dlvl 2 for a green mold, which needs 30, to move.)
    # (When the way is shut, one further off too: a red mold four squares away inside the
    # only doorway of the room with the down stairs kept a Priestess searching for 1,500 turns.)
    stingers = [m for m in untouchable if m.position.steps_to(hero) <= (7 if blocked or s.recent_stall else 3)
                and stats.hp >= min(pilot.STING_HP.get(m.name, 10_000), stats.max_hp)
                and stats.max_hp >= 0.6 * pilot.STING_HP.get(m.name, 10_000)]
    stingers.sort(key=lambda m: m.position.steps_to(hero))
    if (blocked or s.recent_stall or any(m.position.is_adjacent(hero) for m in stingers)) and stingers \
            and ok("melee_fight"):
        reach = max(5, stingers[0].position.steps_to(hero))
        return invoke("melee_fight", {"target": stingers[0].name, "hp_threshold": 0.5, "approach_radius": reach},
                      f"the {stingers[0].name} blocks the way; its touch only stings: kill it")
    return None


async def shopkeeper_in_the_door(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """A shopkeeper keeps the way out: pay him, or step back in line with him so he moves aside."""
    s, stats, hero, level, level_key, monsters = sit.memory, sit.stats, sit.hero, sit.level, sit.level_key, sit.monsters
    have, ok = sit.have, sit.ok
    blocked = _blocked(sit)
    # A shopkeeper at his post inside the door (the one square by which the door is
    # entered: no one steps through a door on a slant) stays there while the hero stands
    # next to him, but steps aside within a turn or two once the hero stands two or three
    # squares off in a line with him (row, column or diagonal), owing nothing. (Heroes
    # starved inside shops, 10,000 turns beside a shopkeeper who never moved: a Tourist
    # searched 40 turns at a time next to him for 15,000 turns.)
    # (A few tries a level: one who still will not move is owed money or keeps out a
    # pick-axe, and waiting on him for ever only burns decisions.)
    keeper = [m for m in monsters if m.name == "shopkeeper" and m.position.steps_to(hero) <= 5]
    tries = s.shop_tries.get(level_key, 0)
    if (blocked or s.recent_stall) and keeper and ok("go_to") and tries < 16:
        shk = keeper[0].position
        if not any(level.tile_at(shk.offset(d)).feature in DOORS for d in ("n", "s", "e", "w")):
            return None  # he has stepped off the way in and out
        if await sit.api.shop_exit() is None:
            return None  # outside, kept out (a pick-axe): his door is no way on
        s.shop_tries[level_key] = tries + 1
        # One who is owed never moves: pay first (a corpse eaten on his floor kept a
        # Ranger and a Healer at a shop door for thousands of turns). Costs no turn
        # when nothing is owed.
        if tries in (0, 8) and stats.gold > 0 and "pay_shopkeeper" in have:
            return invoke("pay_shopkeeper", {}, "the shopkeeper keeps the door: pay what I owe")
        if 2 <= hero.steps_to(shk) <= 3 and _in_line(hero, shk):
            return press("s", "the shopkeeper keeps the way out: wait a turn, in line with him, for him to step aside")
        occupied = {m.position for m in monsters}
        back = []
        for d in ("n", "s", "e", "w", "ne", "nw", "se", "sw"):
            p = shk
            for _ in range(3):
                p = p.offset(d)
                if not p.on_map() or not level.tile_at(p).is_walkable or level.tile_at(p).feature is not None:
                    break
                if p.steps_to(shk) >= 2 and p not in occupied:
                    back.append(p)
        if back:
            spot = min(back, key=lambda p: (p.steps_to(hero), p.steps_to(shk)))
            return invoke("go_to", {"x": spot.x, "y": spot.y, "max_steps": 20},
                          "the shopkeeper stands in the way out: step back in line with him so he moves aside")
    return None


def _in_line(a: Position, b: Position) -> bool:
    """Whether b lies on a row, column or diagonal through a."""
    dx, dy = b.x - a.x, b.y - a.y
    return dx == 0 or dy == 0 or abs(dx) == abs(dy)


async def make_room(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Nothing to shoot an untouchable blocker with: walk well away and let it drift off."""
    s, stats, hero, level, monsters = sit.memory, sit.stats, sit.hero, sit.level, sit.monsters
    near, ok = sit.near, sit.ok
    blocked, untouchable = _blocked(sit), _untouchable(sit)
    # Nothing to shoot it with: walk well away and wait, so it can drift off. A floating
    # eye moves once in twelve turns, and never while boxed in between the hero and a
    # wall or a pet: three heroes waited beside one for 6,000+ turns and starved.
    if s.make_room_until > stats.turn and not near:
        return invoke("rest_until_healed", {"hp_fraction": 1.01, "max_turns": 40, "batch": 5},
                      "waiting away from the untouchable monster in the way, so it can move off")
    # (also when one sits right next to the hero: a gas spore there makes every rest
    # and search stop at once, and one hero spent 7,000 turns so)
    # (Not from a mold: molds never move.)
    movers = [m for m in untouchable if not m.name.endswith(" mold")]
    touching = any(m.position.is_adjacent(hero) for m in movers)
    if (blocked or s.recent_stall or touching) and movers and ok("go_to"):
        eye = min(movers, key=lambda m: m.position.steps_to(hero))
        spot = _room_to_wait(level, hero, eye.position, {m.position for m in monsters})
        if eye.position.steps_to(hero) <= (3 if touching or not blocked else 8) and spot is not None:
            s.make_room_until = stats.turn + 120
            return invoke("go_to", {"x": spot.x, "y": spot.y, "max_steps": 60},
                          f"the {eye.name} blocks the way and I cannot shoot it: step well away "
                          "and give it room to move")
    return None


async def floating_eye_in_the_way(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Boxed in by peacefuls: wait. A floating eye that has shut the only way for long:
    zap it, or hit it at full health with no other monster about."""
    s, stats, hero, level_key = sit.memory, sit.stats, sit.hero, sit.level_key
    hostile, hp_frac, hunger, ok, kit = sit.hostile, sit.hp_frac, sit.hunger, sit.ok, sit.kit
    blocked, untouchable = _blocked(sit), _untouchable(sit)
    # A floating eye that has kept the only way shut for hundreds of turns (in a dead
    # end, between two doors, beside a boulder), with nothing left to shoot or zap:
    # four heroes starved so. Hit it after all, at full health and with no other
    # monster about: a hit that does not kill it freezes the hero for up to ~200
    # turns, which alone on a quiet level is mostly survived; starving is not.
    eyes = [m for m in untouchable if m.name == "floating eye" and m.position.is_adjacent(hero)]
    # Boxed in (monsters and walls on every side): nothing a skill tries can work.
    boxed = _boxed_in(sit)
    if boxed and not eyes and not any(m.position.is_adjacent(hero) for m in hostile):
        # Peacefuls all round (three peaceful floating eyes held a Knight in a corner):
        # they drift off in time; wait cheaply rather than plan walks that cannot start.
        return press("20s", "boxed in by peaceful monsters: wait for one to move off")
    if (blocked or s.recent_stall or boxed) and eyes:
        s.eye_stall_since.setdefault(level_key, stats.turn)
        # (nobody else can reach a hero boxed in: the eyes fill every way in)
        # (Nor one that never moves: a brown mold five squares off kept a Priestess waiting
        # beside the eye for 11,000 turns, until she starved.)
        others = [] if boxed else [m for m in hostile if m.name != "floating eye" and
                                  m.position.steps_to(hero) <= 10 and not await _immobile(sit.api, m.name)]
        # Boxed in by eyes: nothing will change, no waiting.
        patience = 0 if boxed else pilot.EYE_PATIENCE
        # (Weak from hunger with nothing to eat, starving is certain: the freeze is not.)
        foodless = not any(i.object_class == "food" for i in sit.inventory)
        if stats.turn - s.eye_stall_since[level_key] >= patience and not others and \
                hp_frac >= 0.9 and (hunger.severity < HungerState.WEAK.severity or foodless):
            # (Not sleep or slow monster: a Healer put the eye in a shop's door to sleep 10
            # times over and stayed shut in; a sleeping eye still blocks, its gaze still freezes.)
            if kit.kill_wand and ok(SURVIVE):
                return invoke(SURVIVE, {"kill_only": True},
                              "a floating eye has blocked the way for long: zap a wand at it")
            return press("F" + VI_KEYS[hero.direction_to(eyes[0].position)],
                         "a floating eye has blocked the only way for hundreds of turns "
                         "and nothing else works: hit it, alone and at full health")
    return None


async def _immobile(api, name: str) -> bool:
    """Whether the species never moves (molds: speed 0)."""
    try:
        return (await api.lookup_monster(name)).speed == 0
    except Exception:
        return False


async def gas_spore_in_the_way(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """A gas spore has kept the only way shut for long beside the hero (nothing to shoot
    it with, or no room to back off for a shot): hit it at full health."""
    s, stats, hero, level_key, hp_frac = sit.memory, sit.stats, sit.hero, sit.level_key, sit.hp_frac
    # Its 4d6 explosion kills a hero of 16 HP one time in three and one of 25 never; waiting
    # kills every time: a gas spore drifts after the hero, so stepping away brings it
    # along, and four heroes of 320 starved on Dlvl 2-3 so, one after 36,000 turns
    # between a boulder and a spore. (Shooting it comes first, from a square away, when
    # there is anything to shoot and room to back off: shoot_or_sting, make_room.)
    spores = [m for m in _untouchable(sit) if m.name == "gas spore" and m.position.is_adjacent(hero)]
    if not spores or not (_blocked(sit) or s.recent_stall):
        return None
    since = s.eye_stall_since.setdefault(level_key, stats.turn)  # the same clock as a floating eye's
    boxed = _boxed_in(sit)
    # (Other monsters about are no reason to wait, unlike beside a floating eye: no one is
    # frozen here, and a Barbarian starved behind a spore in a doorway while a grid bug and
    # a zombie stood in the room beyond.)
    patience = 0 if boxed else pilot.EYE_PATIENCE  # boxed in: nothing will change
    if stats.turn - since >= patience and hp_frac >= 0.9:
        return press("F" + VI_KEYS[hero.direction_to(spores[0].position)],
                     "a gas spore has shut the only way for long and nothing else works: "
                     "hit it at full health and take its explosion")
    return None


async def meek_peaceful_in_the_way(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """A weak peaceful stands in the only way on of an explored level: fight it."""
    s, stats, hero, level_key, monsters, ok = sit.memory, sit.stats, sit.hero, sit.level_key, sit.monsters, sit.ok
    blocked = _blocked(sit)
    # Not where the town watch keeps the peace: Minetown lies on the Mines' third or
    # fourth level (dungeon.def), and its watch kills the hero who kills a peaceful
    # gnome there (a Valkyrie so, seed 7490). Peacefuls in a town move on.
    town = sit.level.town_watch or stats.branch == "Gnomish Mines" and stats.level_in_branch in (3, 4)
    # A weak peaceful (a lichen, a newt) standing in the only way on for good: anger
    # it and fight (alignment -1) rather than wait thousands of turns.
    if blocked and not town and level_key in s.explored_levels and ok("melee_fight"):
        meek = [m for m in monsters if m.is_peaceful and not m.is_tame and m.position.steps_to(hero) <= 3
                and m.char not in "@&A" and m.name not in NEVER_MELEE
                and not any(w in m.name for w in NetHackAPI.NEVER_ANGER)
                and m.threat_level <= stats.xp_level + 1]
        if meek:
            return invoke("melee_fight", {"target": meek[0].name, "peaceful_ok": True},
                          f"the peaceful {meek[0].name} blocks the only way on: fight it")
    return None


def _room_to_wait(level, hero: Position, blocker: Position, occupied: set) -> Optional[Position]:
    """A known floor square within 25 steps of the hero, reachable without passing the
    blocker (a first step may stay beside it), and as far from it as possible (at least 6
    squares); None when there is none."""
    # (Never by it, but for a first step away: at a corridor's bend, the way back from a
    # monster beside the hero runs past it diagonally.)
    dist = level.walk_distances(hero, 25, set(occupied) | {blocker}, DOORS,
                                may_step=lambda p, q: p == hero or q.steps_to(blocker) > 1)
    best = max(dist, key=lambda p: (p.steps_to(blocker), -dist[p]))
    return best if best.steps_to(blocker) >= 6 else None

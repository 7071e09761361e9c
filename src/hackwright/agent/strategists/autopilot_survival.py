"""The autopilot's first rules: keep the hero alive.

Deadly conditions and lycanthropy are cured, a crushing load is dropped, and a
dying hero prays, drinks, zaps, engraves Elbereth or walks away, in that order of
preference as the prayer clock, the pack and the monsters beside it allow; a hurt
hero shot at from afar closes in on the shooter or steps out of its line. Stairs
under the hero or a step away are the surest way out: only NetHack's stalkers follow
across levels, and the level left behind stands still until the hero comes back. A
hero merely in danger beside one monster a blow or two kills strikes it instead. Each
phase returns a decision, or None to let the next one decide (see autopilot.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...api import knowledge, observe
from ...api.knowledge import PrayerClock
from ...api.models import Alignment, HungerState
from .autopilot_context import SURVIVE, VI_KEYS, Situation, invoke, press, slant_through_door
from .diving import is_wand

if TYPE_CHECKING:
    from ..decisions import AgentDecision
    from .autopilot import Autopilot


async def cure_or_unburden(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Deadly conditions, a vault's guard, lycanthropy, a load too heavy to move under,
    blindness among peacefuls that kill."""
    api, s, stats, inventory, have, ok = sit.api, sit.memory, sit.stats, sit.inventory, sit.have, sit.ok
    adjacent, hunger, timeout, level_key, load_key = sit.adjacent, sit.hunger, sit.timeout, sit.level_key, sit.load_key
    # 0. deadly conditions only a prayer cures here (food poisoning, illness, stoning,
    # sliming, strangling): the hero dies within turns otherwise, so pray whatever the clock.
    effects = sit.effects = await api.get_status_effects()
    deadly = [e for e in effects if e in pilot.DEADLY_EFFECTS]
    if deadly and ok("pray_when_safe"):
        return invoke("pray_when_safe", {"max_timeout": 5000}, f"{deadly[0]}: pray, or die")
    # A vault's guard (the hero fell into a closed vault through a trap): he attacks a hero
    # who keeps its gold or does not follow him, and kills a low-level one in a few blows.
    if ok("follow_vault_guard") and await vault_guard_waiting(api, sit.monsters):
        return invoke("follow_vault_guard", {}, "a vault's guard came: drop the gold and follow him out")
    # A were-creature's bite: the hero will turn into one, drop its armour and collapse
    # under its load in the next fight (seeds 15, 17 and 24 died so). It is major
    # trouble, so a prayer cures it whenever the timeout allows one.
    # (A sprig of wolfsbane or holy water cures it too, and keeps the prayer: Priests
    # start with both.)
    # (Holy water burns a chaotic hero for up to 12 HP: a Priestess at 4 HP died of it.)
    burns = stats.alignment == Alignment.CHAOTIC and stats.hp <= 12
    if "Lycanthropy" in effects and ok("cure_lycanthropy") and any(
            "wolfsbane" in i.text or "holy water" in i.text and "unholy" not in i.text and not burns
            for i in inventory):
        return invoke("cure_lycanthropy", {}, "lycanthropy: eat the wolfsbane or drink the holy water")
    # (Not in the middle of a fight: the prayer is worth more for HP there. A Ranger
    # prayed the fever away beside a werejackal and died three turns later.)
    # (Nor when Hungry with no food: within ~100 turns the hero is Weak, and a prayer
    # then fixes the hunger first and often the lycanthropy with it; prayed before,
    # it leaves the clock closed when hunger comes. A Healer so fainted to death.)
    hungry_foodless = hunger.severity >= HungerState.HUNGRY.severity and not any(
        i.object_class == "food" for i in inventory)
    if "Lycanthropy" in effects and timeout <= 200 and not adjacent and not hungry_foodless and \
            ok("pray_when_safe"):
        return invoke("pray_when_safe", {}, "lycanthropy from a were-creature's bite: pray it away")

    # Overtaxed or Overloaded (a lycanthrope in rat form under a Cavewoman's flint
    # stones), the hero cannot move, fight or eat: dropping comes before all else.
    # (Not in a lycanthrope's animal form: the load is the hero's own again once it changes back.)
    were_form = sit.facts is not None and sit.facts.in_animal_form
    if stats.encumbrance in ("Overtaxed", "Overloaded") and load_key != s.load_seen and "lighten_load" in have \
            and not were_form:
        s.load_seen = load_key
        return invoke("lighten_load", {}, f"{stats.encumbrance}: I cannot even move; drop things")
    # Blind where peacefuls that kill live (Minetown's watch, a shopkeeper, a priest):
    # every step may bump one unseen, which angers it ("Wait! There's something
    # there you can't see! It gets angry!" — the watch killed a Cavewoman so). Wait
    # for sight to come back.
    greeted = sit.facts.greeted_by_keeper_turn if sit.facts is not None else None
    if "Blind" in effects and not adjacent and hunger.severity < HungerState.WEAK.severity and (
            sit.level.town_watch or greeted is not None and stats.turn - greeted <= KEEPERS_NEAR_TURNS):
        return press("20s", "blind where the watch or a shopkeeper may stand unseen: "
                            "wait for sight before walking into one")
    return None


_GUARD_LEFT = ("guard disappears", "corridor disappears", "Well, begone")


async def vault_guard_waiting(api, monsters) -> bool:
    """A peaceful vault guard is in view, or the last messages tell of one come and not gone
    (in a dark vault he is seen only from a square next to him)."""
    guards = [m for m in monsters if m.name == "guard"]
    if guards:
        return any(m.is_peaceful for m in guards)
    said = await api.get_messages(8)
    came = [i for i, t in enumerate(said) if observe.VAULT_GUARD_CAME.search(t)]
    return bool(came) and not any(g in t for t in said[came[-1]:] for g in _GUARD_LEFT)


# A shop or temple entered this recently: a blind hero's unseen neighbour may be its keeper.
KEEPERS_NEAR_TURNS = 400


def fainting_prayer(sit: Situation) -> Optional["AgentDecision"]:
    """Fainting from hunger: a prayer whatever the clock says, or None. Only once: a god
    angered by a prayer too soon leaves the clock "unknown". Even right after a prayer
    about one in five rnz(350) draws is low enough, and more the longer since; 16 of 80
    heroes died fainting, most of them with the prayer "too soon" by the cautious clock."""
    if sit.hunger.severity >= HungerState.FAINTING.severity and sit.timeout < PrayerClock.UNKNOWN and \
            sit.ok("pray_when_safe"):
        return invoke("pray_when_safe", {"max_timeout": PrayerClock.UNKNOWN - 1},
                      "Fainting with no food: pray even if it may be too soon (starving is certain)")
    return None


async def save_a_dying_hero(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Weak from hunger or HP critical: prayer, potions, wands, Elbereth; a monster
    zapping wands at the hero is closed in on."""
    api, s, stats, inventory, ok, kit = sit.api, sit.memory, sit.stats, sit.inventory, sit.ok, sit.kit
    adjacent, hostile, hero, hunger = sit.adjacent, sit.hostile, sit.hero, sit.hunger
    timeout, gamble, effects = sit.timeout, sit.gamble, sit.effects
    # 1. emergency: Weak from hunger in a fight, or with nothing to eat. A prayer fixes
    # the worst trouble first, and hunger outranks HP: pray now, while HP is fine, or a
    # later prayer for HP may only fill the stomach (seed 7 died so). Monsters cannot
    # touch a hero whose prayer is being answered.
    if hunger.severity >= HungerState.WEAK.severity and timeout <= 200 and ok("pray_when_safe") and (
            adjacent or not any(i.object_class == "food" for i in inventory)):
        return invoke("pray_when_safe", {}, f"{hunger.value} with a fight at hand or no food: pray")
    # Fainting with nothing to eat: each faint is turns of helplessness within reach of
    # whatever is about, so the prayer comes before a fight too (a Valkyrie at 55 of 70 HP
    # fought a bugbear while Fainting, went down a level still fainting, and died asleep
    # beside a straw golem and a mumak).
    starving = None if any(i.object_class == "food" for i in inventory) else fainting_prayer(sit)
    if starving is not None:
        return starving
    major = stats.hp_critical  # (NetHack's own rule: 1/5 of max HP at XL 1-5, 1/6 from XL 6)
    if major and timeout <= 200 and ok("pray_when_safe"):
        return invoke("pray_when_safe", {}, "HP is critical and prayer should be safe")
    # A wand of digging zapped down: a hole in one turn, and the hero falls away from all
    # but the monsters that follow across levels (a diver's way out, and a level deeper).
    wand = pilot.dive.digging_tool(inventory)
    if major and adjacent and is_wand(wand) and stats.branch != "Sokoban" and ok("dig_down"):
        return invoke("dig_down", {"levels": 1, "min_hp": 0.0, "stop_on_hunger": False},
                      f"HP is critical with a {adjacent[0].name} next to me: zap the wand of digging down")
    # A monster beside a dying hero and the last prayer long ago: pray before a potion,
    # Elbereth or a wand. A prayer answered makes the hero untouchable while it lasts and
    # fills HP; rnz(350) is at most 200 + the turns since with odds that grow with them.
    # (Not before the first prayer: the clock is exact then, and above 200 it fails.)
    if major and adjacent and 200 < timeout <= min(pilot.GAMBLE_FIRST, gamble) and ok("pray_when_safe"):
        return invoke("pray_when_safe", {"max_timeout": pilot.GAMBLE_FIRST},
                      f"HP is critical beside a {adjacent[0].name}, my last prayer long ago: pray first")
    # Put to sleep by a wand: kill it while it cannot fight back (a Healer zapped her wand
    # of sleep at a sleeping fox seven times running, never hit it, and died when it woke).
    # (The fight stops at the first blow the hero takes, which shows the monster awake:
    # a were that changed form, or one that resisted the ray; see Autopilot.observe.)
    asleep = [m for m in adjacent if s.held_asleep(m, stats.turn)]
    if asleep and len(asleep) == len(adjacent) and ok("melee_fight"):
        return invoke("melee_fight", {"target": asleep[0].name,
                                      "hp_threshold": (stats.hp - 0.5) / max(1, stats.max_hp)},
                      f"the {asleep[0].name} is asleep: kill it while it cannot fight back")
    # Potions and wands: 20 of 40 heroes died carrying healing potions (Healers with
    # eight), attack wands or both, unused.
    if major and kit.heal and ok(SURVIVE):
        return invoke(SURVIVE, {"heal_below": 0.5}, "HP is critical and prayer is not safe: "
                      "drink a healing potion")
    # Swallowed (a dust vortex, a fog cloud, a lurker above): every attack hits the
    # engulfer, whatever the direction; searching and eating inside one only let it
    # go on (a blinded Monk searched inside a dust vortex until it killed him).
    if "Engulfed" in effects:
        if major and 200 < timeout <= gamble and ok("pray_when_safe"):
            return invoke("pray_when_safe", {"max_timeout": gamble},
                          "engulfed with HP critical: pray even if it may be too soon")
        return press("Fh", "engulfed: attack the engulfer from inside (any direction hits it)")
    if major and adjacent and on_the_way_down(pilot, sit):
        return away(sit, ">", "HP is critical on the down stairs, where Elbereth cannot be written: "
                          "go down (what is not next to me stays behind)")
    if major and adjacent and on_the_way_up(pilot, sit):
        return away(sit, "<", f"HP is critical on the up stairs: go up; the {adjacent[0].name} "
                          "does not follow across levels")
    # (Not when none beside the hero respects it, an elf or a were-creature: the turn
    # spent writing is a turn of their blows for nothing.)
    if major and adjacent and ok("engrave_elbereth") and not s.elbereth_failed_here(stats) and \
            any(not m.ignores_elbereth for m in adjacent):
        return invoke("engrave_elbereth", {}, "HP is critical with a monster next to me: Elbereth")
    if major and adjacent and kit.wand and ok(SURVIVE):
        return invoke(SURVIVE, {"heal_below": 0.5}, "HP is critical with a monster next to me: "
                      "zap an attack wand at it")
    if major and adjacent and 200 < timeout <= gamble and ok("pray_when_safe"):
        # Elbereth did not hold and the next blow kills: a prayer that may come too
        # soon (Luck -3, an angry god) is better than certain death.
        return invoke("pray_when_safe", {"max_timeout": gamble},
                      "HP is critical, the monster is still next to me: pray even if it may be too soon")
    if major and adjacent and kit.mystery and ok(SURVIVE):
        return invoke(SURVIVE, {"heal_below": 0.5, "unknown": True},
                      "HP is critical, no prayer, nothing known to help: try an unknown potion or wand")
    # A monster zapping a wand at me (striking, magic missile, cold): Elbereth and rest do
    # not stop a wand, and five heroes of thirteen strong ones lost died so, one resting on
    # Elbereth while a gnome lord zapped it to death. Close in and kill it.
    zappers = await api.recent_zappers(30)
    wand_users = [m for m in hostile if m.name in zappers and m.position.steps_to(hero) <= 6]
    if wand_users and not major and ok("melee_fight"):
        return invoke("melee_fight", {"target": wand_users[0].name, "hp_threshold": 0.2, "approach_radius": 6},
                      f"the {wand_users[0].name} zaps a wand at me, which Elbereth does not stop: "
                      "close in and kill it")
    # With HP critical too, when the zapper is weak (a gnome lord, difficulty 4; a kobold): it dies to a
    # blow or two, and waiting only gives the wand more turns.
    weak_zappers = [m for m in wand_users if m.threat_level <= max(4, stats.xp_level)]
    if weak_zappers and major and ok("melee_fight"):
        return invoke("melee_fight", {"target": weak_zappers[0].name, "hp_threshold": 0.0,
                                      "approach_radius": 6},
                      f"HP is critical and the {weak_zappers[0].name} zaps a wand at me: "
                      "it is weak, kill it before the next zap")
    return None


async def out_of_the_line_of_fire(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Hurt, with nothing beside the hero, and shot at from afar in the last few turns
    (arrows, crossbow bolts, daggers, spat venom, a breath: nh.recent_shooters): Elbereth
    and rest stop none of it, and a gnome lord that backed off from an Elbereth shot a
    resting Priestess dead. A shooter whose whole fight is cheap is closed in on (not at
    critical HP, when one more bolt on the way kills); else the hero steps to a
    neighbouring square that no shooter has a clear line to (at critical HP too: a
    Valkyrie at 1 HP wrote Elbereth again in a gnome's line and took the next bolt)."""
    api, stats, hero, level, ok = sit.api, sit.stats, sit.hero, sit.level, sit.ok
    if sit.adjacent or sit.hp_frac >= 0.5:
        return None
    shot = await api.recent_shooters(5)
    shooters = [m for m in sit.hostile if m.name in shot and 1 < m.position.steps_to(hero) <= 8]
    if not shooters:
        return None
    for m in ([] if stats.hp_critical else shooters):
        odds = await api.fight_odds(m)
        if odds.favourable and ok("melee_fight"):
            return invoke("melee_fight", {"target": m.name, "hp_threshold": 0.2, "approach_radius": 8},
                          f"the {m.name} shoots at me, which neither Elbereth nor rest stops, and its "
                          f"fight likely costs me {odds.expected_damage:.0f} HP: close in and kill it")
    taken = [m.position for m in sit.monsters]
    for direction, key in VI_KEYS.items():
        to = hero.offset(direction)
        if not to.on_map():
            continue
        tile = level.tile_at(to)
        if not tile.is_walkable or tile.has_trap or to in taken or slant_through_door(level, hero, to) or \
                any(to.is_adjacent(m.position) for m in sit.hostile):
            continue
        if not any(level.line_of_fire(m.position, to, taken, 8) for m in shooters):
            return press(key, f"the {shooters[0].name} shoots at me, which neither Elbereth nor rest stops: "
                              "step out of its line")
    return None


async def finish_it(sit: Situation, threat: float) -> Optional["AgentDecision"]:
    """One monster alone beside the hero, whose worst turn (``threat``) the hero outlives and
    whose fight is short or cheap (nh.fight_odds: a blow or two likely kills it, or the
    whole fight likely costs under FIGHT_ON_SHARE of the HP the hero has): strike it.
    Writing Elbereth is a turn of its blows anyway, and leaves it waiting close by for
    when the hero steps off."""
    adjacent, stats = sit.adjacent, sit.stats
    if len(adjacent) != 1 or len(sit.near) != 1 or stats.hp <= threat or adjacent[0].is_invisible_marker:
        return None
    odds = await sit.api.fight_odds(adjacent[0])
    quick = odds.turns_to_kill <= 1.5
    if not quick and odds.expected_damage >= FIGHT_ON_SHARE * stats.hp:
        return None
    why = "likely dies to a blow or two" if quick else \
        f"likely costs me {odds.expected_damage:.0f} HP in all"
    return press("F" + VI_KEYS[sit.hero.direction_to(adjacent[0].position)],
                 f"the {adjacent[0].name} {why} and cannot kill me this turn: strike rather than write Elbereth")


# A lone monster's whole fight likely costing less than this share of the HP the hero has
# is fought on (finish_it) rather than waited out on Elbereth.
FIGHT_ON_SHARE = 0.4


async def escape_danger(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """HP low against what the monsters beside the hero can do in a turn: walk away from
    slow ones, strike a lone one whose fight is short or cheap (finish_it), Elbereth, potions and
    wands, the up stairs; a cockatrice is never let bite."""
    api, s, stats, inventory, ok, kit = sit.api, sit.memory, sit.stats, sit.inventory, sit.ok, sit.kit
    adjacent, hostile, hero, level, hp_frac = sit.adjacent, sit.hostile, sit.hero, sit.level, sit.hp_frac
    # Low HP in a fight: most monsters will not melee a hero standing on Elbereth, and
    # running from a faster one (bats, dogs, ants) only gets the hero hit in the back.
    respecting = [m for m in adjacent if not m.ignores_elbereth]
    # "Low" is what the monsters next to me can take in a turn, not a fixed share:
    # a soldier ant can take 30 HP, a jackal 2.
    threat = sit.threat = sum([await pilot._hit_potential(api, m.name) for m in adjacent])
    in_danger = hp_frac < 0.4 or (adjacent and stats.hp <= pilot.DANGER_FACTOR * threat and hp_frac < 0.8)
    if in_danger and adjacent and on_the_way_down(pilot, sit):
        return away(sit, ">", f"in danger next to a {adjacent[0].name} on the down stairs, where "
                          "Elbereth cannot be written: go down")
    if in_danger and adjacent and on_the_way_up(pilot, sit):
        return away(sit, "<", f"in danger next to a {adjacent[0].name} on the up stairs: go up, "
                          "where it cannot follow, and heal there")
    if in_danger and adjacent and next_to_the_way_up(pilot, sit) and ok("retreat_upstairs"):
        return step_up_away(sit, f"in danger next to a {adjacent[0].name}, a step from the up stairs: "
                                 "go up, where it cannot follow")
    steps = close_to_the_way_up(pilot, sit)
    if in_danger and adjacent and steps >= 2 and ok("retreat_upstairs"):
        return step_up_away(sit, f"in danger next to a {adjacent[0].name}, {steps} steps from the up stairs, "
                                 "none of them nearer to the stairs: go up, where they cannot follow", 6)
    step_down = next_to_the_way_down(pilot, sit)
    if in_danger and adjacent and step_down:
        return press(step_down, f"in danger next to a {adjacent[0].name}, a step from the down stairs: "
                                "step onto them, and go down")
    # Slower than the hero (a rothe, a zombie): walking away beats Elbereth, which takes
    # a turn and comes out smudged one time in four. Rothes, three bites a turn, killed
    # seven heroes who stood and engraved.
    # (Every hostile close by counts, not only those beside the hero: a soldier ant two
    # squares off caught a Ranger walking away from a rope golem.)
    chasers = [m for m in hostile if m.position.steps_to(hero) <= 6]
    outrun = bool(adjacent) and stats.encumbrance == "Unencumbered" and all(
        [await pilot._outrun(api, m.name) for m in chasers])
    # (Not when the stairs lie past them: a walk by them is a walk under their blows.)
    if in_danger and outrun and level.stairs_up is not None and stats.dungeon_level > 1 and \
            level.stairs_up.steps_to(hero) <= 40 and ok("retreat_upstairs") and _clear_way_up(sit, chasers):
        return invoke("retreat_upstairs", {"hp_threshold": 0.95},
                      f"in danger next to a {adjacent[0].name} slower than me: walk away upstairs")
    if in_danger:
        strike = await finish_it(sit, threat)
        if strike is not None:
            return strike
    # One beside me that Elbereth does not stop (a werejackal and the jackals it summoned):
    # a potion or a wand first, Elbereth only for the others' blows.
    unafraid = [m for m in adjacent if m.ignores_elbereth and not m.is_peaceful]
    if in_danger and unafraid and respecting and (kit.heal and hp_frac < 0.5 or kit.wand) and ok(SURVIVE):
        return invoke(SURVIVE, {"heal_below": 0.5},
                      f"in danger next to a {unafraid[0].name}, which Elbereth does not stop: "
                      "a healing potion or an attack wand")
    if in_danger and respecting and ok("engrave_elbereth") and not s.elbereth_failed_here(stats):
        # (Rest on it nearly to full: the monster it scared waits close by, and heroes
        # who went back to it at 70% of their HP often needed Elbereth again at once.)
        return invoke("engrave_elbereth", {"rest_to": 0.9, "max_turns": 300},
                      f"HP low with a {respecting[0].name} next to me: Elbereth, and rest on it")
    if in_danger and adjacent and (kit.heal and hp_frac < 0.5 or kit.wand) and ok(SURVIVE):
        return invoke(SURVIVE, {"heal_below": 0.5},
                      f"in danger next to a {adjacent[0].name} that Elbereth does not stop: "
                      "a healing potion or an attack wand")
    # Running for the stairs only pays when they are close or the monsters slow: a fox
    # or a dog bites the back of a fleeing hero all the way there (seeds 14, 19).
    stairs_close = sit.stairs_close = bool(level.stairs_up) and stats.dungeon_level > 1 and (
        level.stairs_up.steps_to(hero) <= 3 or all([await pilot._outrun(api, m.name) for m in chasers]))
    if hp_frac < 0.35 and adjacent and stairs_close and ok("retreat_upstairs"):
        return invoke("retreat_upstairs", {}, "HP low with a monster next to me: leave by the up stairs")
    # A cockatrice biting me: its touch and hissing turn me to stone. It is never in
    # `adjacent` (never meleed bare-handed), so deal with it here: Elbereth scares it;
    # failing that, a hero with a weapon in hand kills it (melee_fight checks that).
    petrifiers = [m for m in hostile if m.position.is_adjacent(hero) and m.name in ("cockatrice", "chickatrice")]
    if petrifiers:
        if ok("engrave_elbereth") and not s.elbereth_failed_here(stats):
            return invoke("engrave_elbereth", {}, f"a {petrifiers[0].name} is biting me: Elbereth")
        armed = any((i.equipped or "").startswith("weapon") for i in inventory)
        if armed and pilot._role.lower() != "monk" and ok("melee_fight"):
            return invoke("melee_fight", {"target": petrifiers[0].name},
                          f"the {petrifiers[0].name} ignores Elbereth: kill it with the weapon in hand")
    return None


# Turns during which stairs taken away from a monster are not taken back into its reach:
# the level left behind stands still, and the monster waits by the stairs.
BACK_INTO_DANGER = 500


def away(sit: Situation, key: str, why: str) -> "AgentDecision":
    """Take the stairs under the hero away from danger, remembering it (see _back_into_danger)."""
    sit.memory.left_in_danger = (sit.level_key, key, sit.stats.turn)
    return press(key, why)


def step_up_away(sit: Situation, why: str, max_steps: int = 3) -> "AgentDecision":
    """Walk onto the up stairs close by (a step away; up to three with ``max_steps`` 6)
    and climb them, away from danger (remembered as ``away`` does)."""
    sit.memory.left_in_danger = (sit.level_key, "<", sit.stats.turn)
    return invoke("retreat_upstairs", {"force": True, "max_steps": max_steps}, why)


def _clear_way_up(sit: Situation, chasers) -> bool:
    """Whether the walk to the up stairs goes round every monster and starts with a step
    out of every chaser's reach: a square beside the hero one step nearer the stairs
    (walking, not as the crow flies) that is next to none of them. A slower monster
    strikes a hero who steps to a square still beside it, and one standing in the
    doorway the walk must pass is no monster left behind (a Tourist walked past a
    kobold lord in the room's only door and died of the blow)."""
    level, hero, up = sit.level, sit.hero, sit.level.stairs_up
    taken = {m.position for m in sit.monsters} - {hero}
    dist = level.walk_distances(up, 80, blocked=taken)
    here = dist.get(hero)
    if here is None:
        return False
    for direction in VI_KEYS:
        to = hero.offset(direction)
        if dist.get(to) == here - 1 and not slant_through_door(level, hero, to) and \
                all(m.position.steps_to(to) > 1 for m in chasers):
            return True
    return False


def _back_into_danger(sit: Situation, key: str) -> bool:
    """Stairs taken the ``key`` way would lead back to the level the hero just left by
    the other way, away from danger: the monster it fled waits there by the stairs
    (a Valkyrie fled a soldier ant down, a jaguar back up, and met the ant again)."""
    left, s = sit.memory.left_in_danger, sit.memory
    return bool(left) and left[0] == s.came_from and left[1] != key and \
        sit.stats.turn - left[2] < BACK_INTO_DANGER


def _none_follow(sit: Situation) -> bool:
    """None of the monsters beside the hero follows it across levels (NetHack's
    ``levl_follower``: only stalkers do, such as soldiers, trolls, vampires, demons)."""
    for m in sit.adjacent:
        try:
            if "follows you" in knowledge.lookup_monster(m.name).flags:
                return False
        except Exception:
            return False
    return True


def _may_go_up(pilot: "Autopilot", sit: Situation) -> bool:
    # No wait after arriving (unlike going down): only a stalker would dance the stairs
    # with the hero, and _none_follow rules those out; and the first decision on a level
    # often comes just as a monster hurts a hero that explore_and_fight brought down.
    stats = sit.stats
    return stats.dungeon_level > 1 and stats.branch != "Sokoban" and \
        _none_follow(sit) and not _back_into_danger(sit, "<")


def on_the_way_up(pilot: "Autopilot", sit: Situation) -> bool:
    """The hero stands on up stairs (not on Dlvl 1, not in Sokoban) and nothing beside it
    follows across levels: one move puts a level between them, and the monster waits,
    frozen, by the stairs while the hero heals above (a stair dance)."""
    level = sit.level
    return level.stairs_up is not None and level.stairs_up == sit.hero and _may_go_up(pilot, sit)


def next_to_the_way_up(pilot: "Autopilot", sit: Situation) -> bool:
    """The up stairs are one step away, free, and the hero may take them (on_the_way_up)."""
    return close_to_the_way_up(pilot, sit, most=1) == 1


def close_to_the_way_up(pilot: "Autopilot", sit: Situation, most: int = 3) -> int:
    """Steps (1..``most``) to free up stairs the hero may take (on_the_way_up), when no
    monster beside the hero is nearer to them than the hero is (it would stand in the
    way, or bite all the way); 0 otherwise."""
    up, hero = sit.level.stairs_up, sit.hero
    if up is None or not 1 <= up.steps_to(hero) <= most or any(m.position == up for m in sit.monsters) or \
            not _may_go_up(pilot, sit):
        return 0
    far = up.steps_to(hero)
    return far if all(m.position.steps_to(up) >= far for m in sit.adjacent) else 0


def next_to_the_way_down(pilot: "Autopilot", sit: Situation) -> str:
    """The key that steps onto down stairs one step away, free, that the hero may take
    (as on_the_way_down), or ""."""
    down, hero = sit.level.stairs_down, sit.hero
    if down is None or not down.is_adjacent(hero) or down == hero or \
            any(m.position == down for m in sit.monsters) or not _may_go_down(pilot, sit):
        return ""
    # (NetHack refuses the step on a slant through a door: a hero stood pressing it beside
    # a kitten until it died.)
    if slant_through_door(sit.level, hero, down):
        return ""
    return VI_KEYS[hero.direction_to(down)]


def on_the_way_down(pilot: "Autopilot", sit: Situation) -> bool:
    """The hero stands on down stairs it may take: no engraving can be made there, and
    one move leaves behind every monster but the stalkers beside it (those follow, to a
    level deeper, which is where a diver is going anyway)."""
    level = sit.level
    return level.stairs_down is not None and level.stairs_down == sit.hero and _may_go_down(pilot, sit)


def _may_go_down(pilot: "Autopilot", sit: Situation) -> bool:
    """Down stairs here may be taken away from danger: not in Sokoban, not just after
    arriving (a monster that followed the hero up would dance the stairs with it), not
    into a branch this hero avoids, not back to a monster just fled."""
    level, stats = sit.level, sit.stats
    if stats.branch == "Sokoban" or stats.turn - sit.memory.arrived_turn <= 3:
        return False
    avoid = pilot._avoid_branches(sit.api, sit.memory, sit.level_key, stats)
    return not (level.stairs_down_branch and level.stairs_down_branch in avoid) and not _back_into_danger(sit, ">")

"""Explore the level and fight the weak monsters that get in the way, until the level is done.

One call covers a whole level — or, with ``descend=True``, level after level:
the hero walks to frontiers, opens doors, kicks locked ones (unless a shop is
mentioned), crosses a known harmless trap (squeaky board, rust trap, anti-magic
field) when no way round it is known, melees hostile monsters that come next to
it, picks up small valuables it walks over, eats carried food when Hungry, and
rests when hurt with nothing in view. The strategist is asked again only when something needs a
decision: low HP in a fight, a monster too strong or too dangerous to touch,
hunger with no food, gear to judge, or nothing left to do.

Parameters:
    hp_threshold: stop when HP falls below this fraction of max (default 0.4); a call
        made with HP already below it and nothing hostile in view rests first
    budget: the most game actions to spend (default 800)
    danger_margin: a monster whose difficulty exceeds the hero's level by more
        than this stops the skill instead of being fought (default 4)
    known_piles: [x, y] squares whose objects were already dealt with (seldom needed:
        piles the hero was shown before the call are never stopped for again)
    pick_up: take gold, wands, rings, amulets, potions, scrolls, gems and safe
        food walked over; walk to gold seen, and to safe food with under 5 carried
        (default True)
    stop_for_gear: stop with "items_here" on armour, weapons and tools so the
        strategist can judge them: once per pile, the first time the hero is shown it
        (nh.pile_seen_turn), so calling again goes on past it, down the stairs too with
        descend (default True)
    eat: eat carried food when Hungry, and the fresh corpse of a monster just killed
        when it is safe and the hero is not Satiated (food found is food not
        carried; starting to eat when not Satiated never chokes): at once when it
        died next to the hero with no other monster at hand, else once the fight is
        over, if it is still fresh (30 turns) and within 8 steps (default True)
    rest_below: with no hostile in view, rest (search) when HP is below this
        fraction until 90% (default 0.6; 0 turns resting off)
    descend: when the level is done, walk to the down stairs and go down, and
        go on exploring there (default False)
    max_depth: with descend, never go below this dungeon level (default 50)
    descend_min_hp: with descend, rest until HP is at least this fraction before
        going down (default 0.7)
    keep_going_hungry: when Hungry (or worse) with no food carried, go on instead of
        stopping at once — new levels and kills bring food; a kill while hungry
        still hands back ("hungry", data.fresh_kill) so the corpse can be eaten,
        and so does growing Weak (a prayer fixes that) (default False). Hunger the
        hero already had when called never stops it again: only worse hunger does
    avoid_branches: with descend, never go down into these branches: stairs that
        turn out to lead there are climbed straight back (default ["Gnomish Mines"],
        whose gnome lords and dwarves kill most low-level heroes who are not gnomes
        or dwarves themselves)
    linger_turns: when the level is done and the hero is not to go down (no
        descend, or max_depth reached), wait (search) up to this many turns for
        monsters to come, fighting them, before returning (default 0)
    attack_spell: letter of a known attack spell (a Wizard's force bolt is "a") to cast
        at an adjacent monster instead of hitting it while Pw lasts; never with a
        peaceful monster or a pet on the line beyond it, since a force bolt goes on
        past what it kills, nor with a shopkeeper in view, since it breaks the
        potions on his floor (default "": melee)
    heal_spell: letter of a known healing spell (a Healer's healing is "a") to cast on
        the hero when HP is below rest_below while Pw lasts (default "")
    archery: wield the carried launcher (a bow, a yumi, a crossbow, a sling) and shoot
        its ammunition, or throw what nh.get_missiles() lists for throwing by hand
        (daggers, knives, darts, shuriken, spears), at hostiles in a clear straight
        line up to 6 squares away, and at the one next to the hero, instead of
        meleeing (a Ranger's +2 arrows fly two or three at a time, a Tourist's darts
        and a Rogue's daggers too); melee again when they run out. What was shot is
        picked up again from the lines it flew along (default False)
    dive: with descend, go down as soon as the down stairs are known instead of
        exploring the rest of the level first (default False)
    stop_on_branch_change: with descend, hand back ("branch_changed", data.branch) when
        the stairs taken lead into another branch (the Gnomish Mines from the main
        dungeon), so the caller can decide what to do there (default False)
    stop_when_outmatched: before fighting, hand back ("outmatched",
        data.expected_damage) when the fight with the monsters next to the hero would
        likely cost more than half its HP (nh.fight_odds), so the caller can choose
        Elbereth, the stairs or an item first; once per group of monsters per call
        (default False)
    watch_for: species names (["dwarf"]): hand back ("sighted", data.monster, data.at)
        when a hostile one comes within 7 squares that was not that near when the
        call began, so the caller can go for what it carries (a dwarf's pick-axe)
        before it comes to blows on its own terms (default ())
    watch_peaceful: with watch_for, peaceful ones count too (a dwarf is peaceful to a
        dwarvish or gnomish hero) (default False)
    seek_branch_on: with descend, dungeon levels on which to look for a branch's down
        stairs ([2, 3, 4]: the Gnomish Mines begin on one of them): the level is explored
        whole even with dive, stairs never crossed are taken before the known way on,
        and stairs that turn out to lead on in the same branch are climbed straight
        back while the level left has other untried ones (default ())
    stop_on_new_level: with descend, hand back ("level_changed") on arriving at a new
        level instead of exploring it (default False)
    hold_the_stairs: just arrived on a level (on its up stairs, within 30 turns), wait
        there (up to 10 turns) for a hostile coming whose fight would likely cost over a
        third of the HP (nh.fight_odds), so that one step up can end the fight: most
        monsters do not follow up stairs. Never for the stalkers, which do, nor for
        monsters with a breath, spit or gaze attack (default False)

Stopped reasons: "level_done" (success; no frontier left; data.stairs_down),
"max_depth" (success; descend reached max_depth and the level is done),
"low_hp" (below hp_threshold, or the monsters next to the hero could take all its HP in one
turn at worst: data.danger), "hungry" (no food carried; with keep_going_hungry only after a kill), "dangerous_monster" (a much stronger
monster is next to the hero; passive-dangerous ones such as floating eyes and
molds are walked around, never hit), "items_here" (gear to judge), "stuck",
"level_changed" (without descend), "branch_changed" (with stop_on_branch_change),
"outmatched" (with stop_when_outmatched), "sighted" (with watch_for), "budget",
"game_over".
"""

CATEGORY = "exploration"
TRIGGERS = ("low_hp", "engulfed")

# Known traps a walk may cross when no way round them is known: a squeaky board, a rust
# trap or an anti-magic field. Without it, one squeaky board across the only way out of
# a Mines dead end left the rest of the level "done", unexplored, and the hunt for a
# dwarf's pick there over before it began. (Only then: a board crossed wakes monsters.)
CROSSING = "harmless"


async def explore_and_fight(nh, hp_threshold: float = 0.4, budget: int = 800, danger_margin: int = 4,
                            known_piles: list = (), pick_up: bool = True, stop_for_gear: bool = True,
                            eat: bool = True, rest_below: float = 0.6, descend: bool = False,
                            max_depth: int = 50, descend_min_hp: float = 0.7, keep_going_hungry: bool = False,
                            avoid_branches: list = ("Gnomish Mines",), linger_turns: int = 0,
                            attack_spell: str = "", heal_spell: str = "", archery: bool = False,
                            dive: bool = False, stop_on_branch_change: bool = False,
                            stop_when_outmatched: bool = False, watch_for: list = (),
                            watch_peaceful: bool = False, seek_branch_on: list = (),
                            stop_on_new_level: bool = False, hold_the_stairs: bool = False):
    """Explore (and with descend=True, dive) fighting weak monsters, looting, eating and resting on the way.

    known_piles: [x, y] squares on the current level whose objects were already dealt with.
    Gear stops it once per pile: a pile the hero was shown before this call is passed by.
    """
    start = await nh.get_stats()
    turn0 = start.turn
    hunger0 = start.hunger.severity
    depth0 = start.dungeon_level
    level_key = (start.branch, start.level_in_branch)
    actions = 0
    stuck = 0
    kicks = 0
    levels = 0
    lingered = 0
    odds_judged = ()  # the monsters next to the hero whose fight odds were last judged
    seen_piles = set()  # (x, y, depth) of piles looked at (or passed by) in this call
    for p in known_piles or ():
        if len(p) == 2:
            seen_piles.add((p[0], p[1], start.dungeon_level))
    if await nh.pile_seen_turn(start.position) is not None:
        seen_piles.add((start.position.x, start.position.y, start.dungeon_level))
    started_low = start.hp < start.max_hp * hp_threshold
    last_pos = None
    taken = []
    trail = []  # the hero's squares at the last exploring steps, to notice walking to and fro
    frontiers_hopeless = False  # exploring here goes nowhere: treat the level as done
    unreachable = set()  # frontiers of this level every walk to failed: look elsewhere
    watched = {str(n) for n in (watch_for or ())}
    seek_levels = {int(n) for n in (seek_branch_on or ())}
    refused = set()  # stairs that would not take the hero down in this call
    # (Those already near at the start were the caller's to act on: only newcomers hand back.)
    already_near = {m.position for m in await nh.get_visible_monsters()
                    if m.name in watched and m.position.steps_to(start.position) <= 7} if watched else set()

    arrived = turn0  # when the hero came onto this level (the call's start, or a descent)
    held = 0  # turns waited on the up stairs on this level (hold_the_stairs)
    holding = StairsHold(nh)  # whether a hostile coming is worth waiting for (judged once a call)

    async def done(reason, success, **data):
        now = await nh.get_stats()
        data["levels_descended"] = levels
        if taken:
            data["picked_up"] = taken[-20:]
        return SkillResult(reason, data, actions, now.turn - turn0, success)

    async def hostiles_in_view():
        return [m for m in await nh.get_visible_monsters()
                if not m.is_peaceful and not m.is_tame and m.name not in NEVER_BUMP]

    hits = {}

    async def hit_potential(name):
        """The most damage this species can do in one of the hero's turns (0: unknown)."""
        if name not in hits:
            try:
                total = (await nh.lookup_monster(name)).max_damage_per_turn
            except Exception:
                total = 0
            hits[name] = total
        return hits[name]

    async def eat_fresh_corpse(victim, age=0):
        """eat_fresh_kill (injected), its actions counted here: True eaten, None not now, False not."""
        nonlocal actions
        meal = await eat_fresh_kill(nh, victim, age)
        actions += meal.actions
        return meal.eaten

    quiver = Quiver(nh)
    # Gold, shot missiles and safe food in view, fetched between fights (a Healer who
    # stepped to and fro 3,000 turns between gold and the stairs is why it gives up).
    loot = LootInView(nh, quiver)

    async def ammo_slot():
        """The letter of what to shoot (Quiver.ready), or None: melee from then on."""
        nonlocal actions, archery
        slot, spent = await quiver.ready()
        actions += spent
        archery = archery and quiver.enabled
        return slot

    async def rest_to(fraction):
        """Search in short bursts until HP reaches fraction of max or something shows up."""
        nonlocal actions
        spent = 0
        while spent < 400 and actions < budget:
            s = await nh.get_stats()
            if s.hp >= s.max_hp * fraction or s.hunger.severity >= HungerState.HUNGRY.severity:
                return True
            if await hostiles_in_view():
                return False
            res = await nh.search(20)
            actions += 1
            if res.game_over:
                return False
            spent += max(1, (await nh.get_stats()).turn - s.turn)
        return False

    rounds = 0
    volleys = 0
    choke_moves = 0  # steps taken towards a corridor or door to fight a pack from
    corpses_due = []  # (monster, turn killed): fresh kills to eat once no monster is at hand
    look_here = False  # look at the objects underfoot next round (after a meal on a pile)
    while actions < budget:
        # A round that acts not at all would spin for ever: a bound on rounds as well.
        rounds += 1
        if rounds > 3 * budget:
            return await done("stuck", False, error="no progress: too many rounds without an action")
        stats = await nh.get_stats()
        if stats.hp <= 0:
            return await done("game_over", False)
        if (stats.branch, stats.level_in_branch) != level_key:
            if not descend or stats.dungeon_level < depth0:
                return await done("level_changed", True, depth=stats.dungeon_level)
            levels += 1
            if stop_on_new_level:
                return await done("level_changed", True, depth=stats.dungeon_level)
            # A new level (stairs, a trap door or a hole): start over there.
            level_key = (stats.branch, stats.level_in_branch)
            arrived, held = stats.turn, 0
            depth0 = stats.dungeon_level
            seen_piles.clear()
            loot.new_level()
            trail.clear()
            frontiers_hopeless = False
            unreachable.clear()
            kicks = stuck = 0
            last_pos = None
        if stats.hp < stats.max_hp * hp_threshold:
            if started_low and rest_below and stats.hunger.severity < HungerState.HUNGRY.severity and \
                    not await hostiles_in_view():
                # Called as low as this with nothing about: handing "low_hp" straight back
                # would answer every such call the same. Heal once, then go on or hand back.
                started_low = False
                await rest_to(min(0.9, max(rest_below, hp_threshold + 0.2)))
                if (await nh.get_stats()).hp >= stats.max_hp * hp_threshold:
                    continue
            return await done("low_hp", False, hp=stats.hp, max_hp=stats.max_hp)
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame]
        if watched:
            sighted = [m for m in (monsters if watch_peaceful else hostile) if m.name in watched
                       and not m.is_tame and m.position.steps_to(hero) <= 7
                       and not any(m.position.steps_to(p) <= 2 for p in already_near)]
            if sighted:
                m = min(sighted, key=lambda m: m.position.steps_to(hero))
                return await done("sighted", True, monster=m.name, at=(m.position.x, m.position.y))
        adjacent = [m for m in hostile if m.position.is_adjacent(hero) and m.name not in NEVER_BUMP]
        risky = [m for m in adjacent if m.threat_level > stats.xp_level + danger_margin]
        if risky:
            m = risky[0]
            return await done("dangerous_monster", False, monster=m.name, at=m.position)
        if adjacent and stop_when_outmatched:
            key = tuple(sorted(m.name for m in adjacent))
            if key != odds_judged:
                odds_judged = key
                odds = await nh.fight_odds(adjacent)
                if not odds.favourable:
                    return await done("outmatched", False, monster=adjacent[0].name,
                                      expected_damage=odds.expected_damage, hp=stats.hp)
        if adjacent:
            # What they can do to me in one turn at worst: when that is all my HP, the
            # strategist should choose (Elbereth, prayer, the stairs), not one more swing.
            threat = sum([await hit_potential(m.name) for m in adjacent])
            # 1.5 turns' worth: the strategist's answer (Elbereth) itself takes a turn.
            if stats.hp <= 1.5 * threat and stats.hp < 0.8 * stats.max_hp:
                return await done("low_hp", False, hp=stats.hp, max_hp=stats.max_hp, danger=round(threat, 1),
                                  monsters=[m.name for m in adjacent])
            # Outnumbered in the open: back into a corridor or an open door, where at most
            # two can strike at once (packs of jackals, coyotes and hill orcs kill so).
            pack = [m for m in hostile if m.position.steps_to(hero) <= 4 and m.name not in NEVER_BUMP]
            if len(pack) >= 3 and len(adjacent) >= 2 and choke_moves < 4:
                level = await nh.get_current_level()
                choke = level.nearest_chokepoint(hero, monsters)
                if choke is not None:
                    res = await nh.move_to(choke)
                    actions += 1
                    choke_moves += 1
                    if res.game_over:
                        return await done("game_over", False)
                    if res.success and (await nh.get_position()) != hero:
                        continue
            # The weakest first, but a were-creature before all: it summons its rats or
            # jackals again and again while it lives (NetHack's were_summon).
            target = min(adjacent, key=lambda m: (not m.name.startswith("were"), m.threat_level))
            # An old corpse of its kind already under it could not be told from its own:
            # it is not eaten then. Other objects under it are no reason to leave it: a new
            # corpse lands on top of the pile.
            clean_floor = not any(i.corpse_of == target.name for i in await nh.get_items_at(target.position))
            result = None
            # No bolt or missile along a line with a peaceful or a pet beyond the target,
            # and no bolt with a shopkeeper in view (bolt_endangers).
            if attack_spell and stats.pw >= 5 and not bolt_endangers(hero, target.position, monsters):
                result = await nh.cast_spell(attack_spell, hero.direction_to(target.position))
                if not result.success and not result.game_over:
                    attack_spell = ""  # no such spell (or it failed to cast): melee from now on
                    result = None
            if result is None and archery and not bolt_endangers(hero, target.position, monsters, shop=False):
                slot = await ammo_slot()
                if slot is not None:
                    quiver.note_shot(hero, hero.direction_to(target.position), stats.dungeon_level)
                    result = await nh.throw(slot, hero.direction_to(target.position))  # fired from the launcher
                    if not result.success and not result.game_over:
                        result = None
            if result is None:
                result = await nh.attack(hero.direction_to(target.position))
            actions += 1
            if result.game_over:
                return await done("game_over", False)
            killed = any("You kill" in m or "You destroy" in m for m in result.messages)
            if killed and eat and clean_floor and stats.hunger != HungerState.SATIATED:
                ate = await eat_fresh_corpse(target)
                if ate:
                    look_here = True
                    continue
                if ate is None:
                    corpses_due.append((target, stats.turn))  # once the fight is over
            if killed and stats.hunger.severity >= HungerState.HUNGRY.severity:
                # A fresh corpse for a hungry hero: hand back so it can be eaten (eat_when_hungry).
                return await done("hungry", False, hunger=stats.hunger.value, fresh_kill=target.name,
                                  at=target.position)
            if not result.success:
                await nh.search()  # e.g. diagonal out of a doorway: let it come to us
                actions += 1
            continue
        if not hostile:
            choke_moves = 0
        # (A monster far off, or one that is never fought, such as a floating eye across
        # the room, is no reason to let a corpse rot.)
        if not [m for m in hostile if m.position.steps_to(hero) <= 5 and m.name not in NEVER_BUMP]:
            # A corpse left for later (shot at range, or killed with another monster at
            # hand): eat it now if still fresh. Heroes who ate only when Hungry ran out
            # of food: a third of the deaths came while fainting or starving.
            if corpses_due and eat and stats.hunger != HungerState.SATIATED:
                victim, killed_turn = corpses_due.pop()
                age = stats.turn - killed_turn
                if age <= 30 and victim.position.steps_to(hero) <= 8:
                    look_here = await eat_fresh_corpse(victim, age) is not False
                    if (await nh.get_stats()).hp <= 0:
                        return await done("game_over", False)
                continue
            corpses_due.clear()  # Satiated: they will be too old by the time it wears off
        if archery and hostile and volleys < 15:
            level = await nh.get_current_level()
            occupied = {m.position for m in monsters}
            # (never a gas spore next to the hero: its explosion would take the hero along)
            shots = [(m, level.line_of_fire(hero, m.position, occupied)) for m in
                     sorted(hostile, key=lambda m: m.position.steps_to(hero)) if not m.is_invisible_marker
                     and not (m.name == "gas spore" and m.position.is_adjacent(hero))]
            shots = [(m, d) for m, d in shots if d]
            slot = await ammo_slot() if shots else None
            if slot is not None:
                quiver.note_shot(hero, shots[0][1], stats.dungeon_level)
                clean_floor = not await nh.get_items_at(shots[0][0].position)
                res = await nh.throw(slot, shots[0][1])
                actions += 1
                volleys += 1  # shots at range since the last kill: a target out of reach wastes them
                if res.game_over:
                    return await done("game_over", False)
                if any("You kill" in m or "You destroy" in m for m in res.messages):
                    volleys = 0
                    if clean_floor:
                        corpses_due.append((shots[0][0], stats.turn))
                if res.success:
                    continue
        if stats.hunger.severity >= HungerState.HUNGRY.severity:
            food = [i for i in await nh.get_inventory() if i.object_class == "food" and is_safe_food(i)]
            if eat and food:
                res = await nh.eat(food[0].slot)
                actions += 1
                if res.game_over:
                    return await done("game_over", False)
                if not res.success:
                    return await done("hungry", False, hunger=stats.hunger.value, error=res.error)
                continue
            # (Hunger already there when called is the caller's to know: stopping for it
            # again at once would answer every call the same, and nothing would move.)
            worse = stats.hunger.severity > hunger0
            if worse and (not keep_going_hungry or stats.hunger.severity >= HungerState.WEAK.severity):
                return await done("hungry", False, hunger=stats.hunger.value, food_carried=bool(food))
        elif heal_spell and stats.pw >= 5 and stats.hp < stats.max_hp * max(rest_below, 0.5):
            res = await nh.cast_spell(heal_spell, "self")
            actions += 1
            if res.game_over:
                return await done("game_over", False)
            if not res.success:
                heal_spell = ""
            continue
        elif rest_below and stats.hp < stats.max_hp * rest_below and not any(
                m.name not in NEVER_BUMP for m in hostile):
            await rest_to(0.9)
            continue
        if hold_the_stairs and held < 10 and stats.turn - arrived <= 30 and hostile and \
                await holding.worth_waiting(hero, hostile, stats.hp):
            held += 1
            await nh.search()  # let it come to the stairs
            actions += 1
            continue
        # Objects walked onto: small valuables are taken at once; gear waits for the
        # strategist (corpses and rocks alone are not worth a decision).
        here = (hero.x, hero.y, stats.dungeon_level)
        if (look_here or last_pos is not None and last_pos != hero) and here not in seen_piles:
            shown = await nh.pile_seen_turn(hero)
            # A pile shown before this call was the caller's to judge (often reported by an
            # earlier call): stopping for it again, a descend would never reach the stairs.
            # (After a meal on a pile: look at what else lies there.)
            if look_here or shown is not None and shown >= turn0:
                seen_piles.add(here)
                pile = await take_from_pile(nh, await nh.get_items_here(), quiver, stats.encumbrance, pick_up)
                actions += pile.actions
                taken.extend(pile.taken)
                if pile.game_over:
                    return await done("game_over", False)
                if pile.burdened:
                    return await done("items_here", True, at=hero, items=[pile.burdened], burdened=True)
                if pile.gear and stop_for_gear:
                    return await done("items_here", True, at=hero, items=pile.gear)
        last_pos = hero
        look_here = False
        fetch = await loot.step(hero, stats.dungeon_level, active=pick_up and not hostile)
        if fetch.result is not None:
            actions += 1
            if fetch.result.game_over:
                return await done("game_over", False)
        if fetch.busy:
            continue
        if descend:
            await nh.reveal_terrain()  # down stairs under an object (NetHack is asked only when new objects show)
        target = frontier = None if frontiers_hopeless else (
            await nh.find_unexplored(avoid=unreachable) or await nh.find_unexplored(avoid=unreachable, traps=CROSSING))
        seeking = descend and stats.dungeon_level in seek_levels
        if dive and descend and target is not None and stats.dungeon_level < max_depth and not seeking:
            # Diving: the way down is known, so the rest of the level can wait.
            level = await nh.get_current_level()
            # (Only when a path leads there: stairs seen across a chasm are explored to.)
            if level.stairs_down is not None and not (
                    level.stairs_down_branch and level.stairs_down_branch in avoid_branches) and (
                    level.stairs_down == hero or await nh.find_path(level.stairs_down, traps=CROSSING)):
                target = None
        if target is not None and target == hero:
            # The nearest frontier is where the hero stands and stays one (a blind hero sees
            # nothing around it): walking there takes no time, so the loop would spin.
            stuck += 1
            if stuck > 6:
                frontiers_hopeless = True
            res = await nh.search()
            actions += 1
            if res.game_over:
                return await done("game_over", False)
            continue
        if target is not None:
            # Forty steps over a handful of squares (a shopkeeper or a monster that keeps
            # changing the path, a frontier that cannot be reached): stop exploring here.
            trail = (trail + [hero])[-40:]
            if len(trail) == 40 and len(set(trail)) <= 6:
                frontiers_hopeless = True
                target = None
        if target is None:
            level = await nh.get_current_level()
            avoided = bool(level.stairs_down_branch and level.stairs_down_branch in avoid_branches)
            if not descend or level.stairs_down is None or avoided or stats.dungeon_level >= max_depth:
                if lingered < linger_turns and (not descend or stats.dungeon_level >= max_depth):
                    # Nothing left here and no going on yet: wait for monsters to come to
                    # us (experience) while HP comes back; fights and hunger are handled above.
                    res = await nh.search(10)
                    actions += 1
                    if res.game_over:
                        return await done("game_over", False)
                    lingered += max(1, (await nh.get_stats()).turn - stats.turn)
                    continue
                reason = "max_depth" if descend and stats.dungeon_level >= max_depth else "level_done"
                return await done(reason, True, stairs_down=level.stairs_down, lingered=lingered,
                                  stairs_down_branch=level.stairs_down_branch,
                                  explored_percentage=round(level.explored_percentage, 1))
            target = level.stairs_down
            if seeking:
                # Looking for a branch: stairs never crossed first (one of two is the branch's).
                for p in level.untried_stairs_down:
                    if p not in refused and (p == hero or await nh.find_path(p, traps=CROSSING)):
                        target = p
                        break
            if hero == target:
                if stats.hp < stats.max_hp * descend_min_hp and stats.hunger.severity < HungerState.HUNGRY.severity:
                    # Arriving hurt is how heroes die: heal on the stairs first. (Not when
                    # hungry: resting then costs food, and new levels bring some.)
                    if await hostiles_in_view():
                        await nh.search()  # let it come; it is fought once adjacent
                        actions += 1
                        continue
                    await rest_to(descend_min_hp + 0.1)
                    s = await nh.get_stats()
                    if s.hp < s.max_hp * descend_min_hp and s.hunger.severity < HungerState.HUNGRY.severity:
                        return await done("low_hp", False, hp=s.hp, max_hp=s.max_hp, on_stairs=True)
                    continue
                res = await nh.go_down()
                actions += 1
                if res.game_over:
                    return await done("game_over", False)
                if not res.success:
                    refused.add(target)
                    stuck += 1
                    if stuck > 3:
                        return await done("stuck", False, target=target, error=res.error)
                    continue
                after = await nh.get_stats()
                if seeking and after.branch == stats.branch and any(
                        p != target and p not in refused for p in level.untried_stairs_down):
                    # The same branch's way on: back up, for the level's other untried stairs.
                    back = await nh.go_up()
                    actions += 1
                    if back.game_over:
                        return await done("game_over", False)
                    continue
                if stop_on_branch_change and after.branch != stats.branch and after.branch not in avoid_branches:
                    return await done("branch_changed", True, branch=after.branch)
                if after.branch in avoid_branches and stats.branch not in avoid_branches:
                    # Into a branch to avoid: straight back up; the API now knows where
                    # these stairs lead, and the level's stairs_down is the other way.
                    back = await nh.go_up()
                    actions += 1
                    if back.game_over:
                        return await done("game_over", False)
                continue
        result = await nh.move_to(target)
        if not result.success and "no known path" in (result.error or "").lower():
            result = await nh.move_to(target, traps=CROSSING)
        actions += 1
        if result.game_over:
            return await done("game_over", False)
        if result.success and (result.turn_elapsed or (await nh.get_position()) != hero):
            stuck = 0
            continue
        error = (result.error or "").lower()
        text = " ".join(result.messages).lower()
        if "locked" in error and kicks < 8 and "shop" not in text and "closed for inventory" not in text:
            path = await nh.find_path(target, traps=CROSSING)
            if path:
                await nh.kick(path[0])
                actions += 1
                kicks += 1
                continue
        stuck += 1
        if stuck >= 2 and target == frontier and len(unreachable) < 20 and (
                "no known path" in error or "solid stone" in error):
            # A frontier no walk reaches (past a gap too narrow for the load, behind rock
            # the map took for floor): the next one, not the same one six times over.
            unreachable.add(target)
            stuck = 0
        if stuck >= 3 and "no known path" in error:
            # Perhaps a monster that must not be touched sits in the only way on. The slow
            # or sessile ones with a mild passive are worth a fight when HP is plentiful.
            blocker = worth_hitting_through(await nh.get_visible_monsters(), stats)
            if blocker is not None:
                if blocker.position.is_adjacent(hero):
                    res = await nh.attack(hero.direction_to(blocker.position))
                else:
                    way = await nh.find_path(blocker.position)
                    res = await nh.move(way[0]) if len(way) > 1 else None
                if res is not None:
                    actions += 1
                    if res.game_over:
                        return await done("game_over", False)
                    stuck = 2
                    continue
        if stuck > 6:
            return await done("stuck", False, target=target, error=result.error)
        await nh.search()
        actions += 1
    return await done("budget", False)



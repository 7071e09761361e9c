import re

CATEGORY = "resource"
TRIGGERS = ("engulfed", "level_change")

PICK = re.compile(r"\b(pick-axe|dwarvish mattock|broad pick)\b")  # "broad pick": a mattock not yet identified
CHARGES = re.compile(r"\((\d+):(-?\d+)\)")
DWARVES = ("dwarf", "dwarf lord", "dwarf king")  # they dig through rock: most carry a pick-axe or a mattock
KILLED = re.compile(r"You kill (?:the|it)|(?:dwarf|dwarf lord|dwarf king|It) (?:is killed|dies)")
CANNOT_ENGRAVE = re.compile(r"can't write|cannot write|can't reach|don't have free hands|can't engrave")
# What an engrave-test says about a wand that NetHack does not identify by it.
HINTS = (
    (r"bugs on the .* stop moving", "sleep or death"), (r"bugs on the .* slow down", "slow monster"),
    (r"bugs on the .* speed up", "speed monster"), (r"riddled by bullet holes", "magic missile"),
    (r"engraving now reads", "polymorph"), (r"vanishes", "cancellation, teleportation or make invisible"),
    (r"frost|ice cubes", "cold"), (r"fights your attempt to write", "striking"),
    (r"gravel flies up|You hear drilling", "digging"),
)
STEPS = ("n", "e", "s", "w", "ne", "se", "sw", "nw")
DWARF_WAITS = 20  # turns in all to wait for dwarves who cannot be reached yet (tunnelling through rock)


def _pick(items):
    return next((i for i in items if PICK.search(i.text or i.name)), None)


def _known_digging_wand(items, spent=""):
    for i in items:
        m = CHARGES.search(i.text)
        if i.object_class == "wand" and "wand of digging" in i.text and not (m and int(m.group(2)) <= 0) \
                and i.slot not in spent:
            return i
    return None


async def get_digging_tool(nh, max_turns: int = 2000, fight: bool = True, skip_wands: str = "",
                           peaceful_ok: bool = False, spent_wands: str = "") -> SkillResult:
    """Get something to dig down with: a carried pick, an engrave-tested wand of digging, a dwarf's pick-axe.

    In this order: a pick-axe or dwarvish mattock already carried; an identified wand
    of digging; unknown wands engrave-tested (writing "x" in the dust with each: a
    wand of digging says "gravel flies up" and is identified; fire and lightning
    identify themselves too, and data.wands keeps what each test said); a hostile
    dwarf in view fought with attack() when the hero is strong enough (HP >= 60% of max,
    and nh.fight_odds puts the fight at no more than half the HP left), then its pick
    picked up where it died (a hostile dwarf seen where no path leads, or gone out of
    sight into the rock he tunnels through, is waited for, up to 20 turns in all: he
    digs his way to the hero); a pick-axe or mattock lying on the remembered map (not
    near a shopkeeper) fetched. A dwarvish or gnomish hero's dwarves are peaceful:
    attacked only with peaceful_ok, and never waited for. Then dig_down.

    Parameters:
        max_turns (int, 2000): budget of game turns.
        fight (bool, True): fight a hostile dwarf for its pick (False: only report it).
        skip_wands (str, ""): letters of wands not to engrave-test (tested before).
        peaceful_ok (bool, False): fight a peaceful dwarf too (it turns hostile; killing it
            costs alignment). In the Gnomish Mines every dwarf is peaceful to a dwarvish
            or gnomish hero, who lands the first blows.
        spent_wands (str, ""): letters of wands of digging found empty (a zap down said
            "Nothing happens" though their charges are not shown): not counted as a tool.

    Stopped reasons: "have_tool" (success: data.slot), "wand_of_digging" (success: data.slot),
    "picked_up" (success: data.slot, data.tool), "no_dwarf" (nothing to take a pick from on
    this level: the Gnomish Mines are full of dwarves), "too_strong" (a dwarf too strong for
    the hero: data.monster, data.threat), "not_fighting" (a hostile dwarf is in view but
    fight=False), "low_hp" (stopped fighting), "hostile_adjacent" (another monster in the way),
    "failed" (data.error), "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = waited = 0
    wands = {}

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        if wands:
            data["wands"] = wands
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def over_budget():
        return (await nh.get_stats()).turn - turn0 >= max_turns or actions >= max_turns

    async def step_off():
        """Engraving needs plain floor (not stairs, an altar, a fountain)."""
        nonlocal actions
        hero = await nh.get_position()
        level = await nh.get_current_level()
        if level.tile_at(hero).feature in (None, "doorway"):
            return
        taken = {m.position for m in await nh.get_visible_monsters()}
        for d in STEPS:
            p = hero.offset(d)
            if 0 <= p.x < 79 and 0 <= p.y < 21 and p not in taken:
                t = level.tile_at(p)
                if t.is_walkable and t.feature is None and not t.has_trap:
                    actions += 1
                    if (await nh.move(d)).success and await nh.get_position() != hero:
                        return

    async def walk_to(goal, steps):
        """move_to until there: None, or the stop reason."""
        nonlocal actions
        for _ in range(steps):
            hero = await nh.get_position()
            if hero == goal:
                return None
            near = [m for m in await nh.get_visible_monsters() if not m.is_peaceful and not m.is_tame
                    and not m.is_invisible_marker and m.position.is_adjacent(hero) and m.name not in DWARVES]
            if near:
                return "hostile_adjacent"
            res = await nh.move_to(goal)
            actions += 1
            if res.game_over:
                return "game_over"
            if not res.success and await nh.get_position() == hero:
                return "failed"
        return None if await nh.get_position() == goal else "budget"

    async def strong_enough(stats, monster):
        """Fight a dwarf (or his lord or king) only when the fight likely costs at most half
        the HP left (nh.fight_odds: his mattock hits for d8 + d12), and HP is above 60%."""
        if stats.hp < stats.max_hp * 0.6:
            return False
        return (await nh.fight_odds(monster)).expected_damage <= 0.5 * stats.hp

    async def take_pick_here():
        """Pick a pick-axe or mattock up from the hero's square: the item, or None."""
        nonlocal actions
        item = _pick(await nh.get_items_here())
        if item is None:
            return None
        res = await nh.pickup(PICK.search(item.text or item.name).group(1))
        actions += 1
        return _pick(await nh.get_inventory()) if res.success else None

    inv = await nh.get_inventory()
    have = _pick(inv)
    if have is not None:
        return await finish("have_tool", True, slot=have.slot, tool=have.text)
    wand = _known_digging_wand(inv, spent_wands)
    if wand is not None:
        return await finish("wand_of_digging", True, slot=wand.slot, tool=wand.text)

    for w in [i for i in inv if i.object_class == "wand" and not re.search(r"\bwand of ", i.text)
              and i.slot not in skip_wands]:
        await step_off()
        res = await nh.engrave("x", w.slot)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        said = " ".join(res.messages)
        if CANNOT_ENGRAVE.search(said + " " + (res.error or "")):
            wands[w.slot] = {"was": w.text, "error": res.error or said[-120:]}
            break  # levitating, or on a square that takes no engraving: no wand can be tested here
        now = next((i for i in await nh.get_inventory() if i.slot == w.slot), None)
        hints = [name for pattern, name in HINTS if re.search(pattern, said, re.IGNORECASE)]
        wands[w.slot] = {"was": w.text, "now": now.text if now else None, "hints": hints,
                         "messages": [m for m in res.messages if not m.startswith(("What do you", "Do you want"))][-4:]}
        if now is not None and "wand of digging" in now.text:
            return await finish("wand_of_digging", True, slot=now.slot, tool=now.text)

    while not await over_budget():
        stats = await nh.get_stats()
        monsters = await nh.get_visible_monsters()
        dwarves = [m for m in monsters if m.name in DWARVES and (peaceful_ok or not m.is_peaceful)
                   and not m.is_tame]
        if dwarves:
            dwarf = min(dwarves, key=lambda m: m.position.steps_to(stats.position))
            if not fight:
                return await finish("not_fighting", False, monster=dwarf.name, at=(dwarf.position.x, dwarf.position.y))
            if not await strong_enough(stats, dwarf):
                return await finish("too_strong", False, monster=dwarf.name, threat=dwarf.threat_level,
                                    hp=stats.hp, max_hp=stats.max_hp, xp_level=stats.xp_level)
            last, name, died = dwarf.position, dwarf.name, False
            while not died and not await over_budget():
                s = await nh.get_stats()
                if s.hp < s.max_hp * 0.4:
                    return await finish("low_hp", False, monster=name, hp=s.hp, max_hp=s.max_hp)
                seen = [m for m in await nh.get_visible_monsters() if m.name == name and not m.is_tame
                        and (peaceful_ok or not m.is_peaceful)]
                if not seen:
                    break  # out of sight (dug away, or died unseen): look where it was last
                last = min(seen, key=lambda m: m.position.steps_to(last)).position
                if last.is_adjacent(s.position):
                    res = await nh.attack(s.position.direction_to(last), peaceful_ok=peaceful_ok)
                    died = bool(KILLED.search(" ".join(res.messages)))
                    stuck = not res.success and not res.turn_elapsed
                else:
                    res = await nh.move_to(last)
                    if not res.success and peaceful_ok:
                        # (paths keep off a peaceful's square: step its way instead)
                        res = await nh.move(s.position.direction_to(last))
                    stuck = not res.success and await nh.get_position() == s.position
                if stuck:
                    # A dwarf seen inside rock or a wall he is tunnelling through cannot be
                    # walked to or struck there, but a hostile one digs his way to the hero:
                    # wait for him a few turns.
                    if waited >= DWARF_WAITS or peaceful_ok:
                        return await finish("failed", False, error=res.error, monster=name)
                    waited += 1
                    res = await nh.wait(1)
                actions += 1
                if res.game_over:
                    return await finish("game_over", False)
            stop = await walk_to(last, 40)
            if stop == "failed" and not died and not peaceful_ok and waited < DWARF_WAITS:
                # He dug on out of sight, where no known path leads: he comes back for the hero.
                before = (await nh.get_stats()).turn
                res = await nh.wait(min(10, DWARF_WAITS - waited))
                actions += 1
                waited += max(1, (await nh.get_stats()).turn - before)
                if res.game_over:
                    return await finish("game_over", False)
                continue
            if stop is not None:
                return await finish(stop, False, error="could not reach where the dwarf was")
            got = await take_pick_here()
            if got is not None:
                return await finish("picked_up", True, slot=got.slot, tool=got.text, source=name)
            continue  # it carried none: another dwarf, or a pick on the map
        keepers = [m.position for m in monsters if m.name == "shopkeeper"]
        level = await nh.get_current_level()
        spots = [t.position for row in level.tiles for t in row if t.char == "(" and PICK.search(t.description or "")
                 and not any(k.steps_to(t.position) <= 10 for k in keepers)]
        goal = await nh.find_nearest_of(spots) if spots else None
        if goal is None:
            peaceful = [m.name for m in monsters if m.name in DWARVES and m.is_peaceful]
            return await finish("no_dwarf", False, peaceful_dwarves=peaceful,
                                hint="the Gnomish Mines have many dwarves with picks")
        stop = await walk_to(goal, 200)
        if stop is not None:
            return await finish(stop, False, goal=(goal.x, goal.y))
        got = await take_pick_here()
        if got is None:
            return await finish("failed", False, error="no pick could be picked up at the square", at=(goal.x, goal.y))
        return await finish("picked_up", True, slot=got.slot, tool=got.text, source="floor")
    return await finish("budget", False)

import re

CATEGORY = "navigation"
TRIGGERS = ("engulfed",)

PICK = re.compile(r"\b(pick-axe|dwarvish mattock|broad pick)\b")  # "broad pick": a mattock not yet identified
CHARGES = re.compile(r"\((\d+):(-?\d+)\)")
STEPS = ("n", "e", "s", "w", "ne", "se", "sw", "nw")
# Where dig() refuses to dig down: stairs, ladders, altars, thrones, fountains, sinks, graves.
STEP_OFF = re.compile(r"\bstep off\b")
WET = re.compile(r"into the (?:water|lava|moat)|You (?:sink|fall) into|You try to crawl out of the (?:water|lava)")
CLOSE = 3  # steps within which a hostile gets an Elbereth before the digging starts
NO_WEAPON = ("bullwhip",)  # not worth a turn to wield again (an Archeologist fights better with the pick)


def _digger(inventory):
    """(item, "pick" | "wand") to dig with, or (None, None)."""
    pick = next((i for i in inventory if PICK.search(i.text)), None)
    if pick is not None:
        return pick, "pick"
    for i in inventory:
        m = CHARGES.search(i.text)
        if i.object_class == "wand" and "wand of digging" in i.text and not (m and int(m.group(2)) <= 0):
            return i, "wand"
    return None, None


def _hostiles(monsters):
    return [m for m in monsters if not m.is_peaceful and not m.is_tame and not m.is_invisible_marker]


async def dig_down(nh, levels: int = 50, min_hp: float = 0.5, stop_on_hunger: bool = True, max_depth: int = 50,
                   rewield: bool = True, elbereth: bool = True) -> SkillResult:
    """Dig down through the floor, level after level, with a carried pick-axe or mattock (or a wand of digging).

    Uses a pick-axe or dwarvish mattock from the pack, or else an identified wand of
    digging with charges left (one charge a level). Before each level it checks that
    it is safe to go on: HP at least `min_hp` of max, not Weak from hunger, no hostile
    monster next to the hero (a pick only: a wand's hole opens in one turn and the
    hero falls away from it, so zapping down is also a way out of a losing fight).
    Stairs, altars, fountains, thrones, sinks and graves cannot be dug: it steps to
    an adjacent plain floor square first. Fallen into a shop, it walks out through
    the door (nh.shop_exit) and digs outside; when its keeper bars the door (he does
    while a pick-axe is carried), it digs through the shop's floor from a bare square
    if nothing is owed (nh.dig with in_shop=True). After each fall
    it looks around: landing in water or lava, or near (6 squares) a hostile much
    stronger than the hero (threat_level > xp_level + 4; with `elbereth` only one
    that ignores it), stops it. Applying a pick wields it; with `rewield` the
    weapon held before is wielded again at the end (a Monk who fought bare-handed
    empties his hands again, for his martial arts).

    With `elbereth`, each level is dug in two parts: down to the pit (which erases
    any engraving on the square), then Elbereth is engraved in the dust in the pit
    (read back and engraved again until it is right) and the hole is finished
    while it holds most monsters off; a monster that respects Elbereth and is
    already within 3 steps of the hero gets an Elbereth before the digging starts. Humans (@),
    minotaurs and the like ignore it (ignores_elbereth_now): next to one the skill stops.

    Parameters:
        levels (int, 50): most levels to dig through.
        min_hp (float, 0.5): stop when HP is below this fraction of max (rest, then go on).
        stop_on_hunger (bool, True): stop when Weak or worse from hunger (eat or pray first).
        max_depth (int, 50): never dig below this dungeon level.
        rewield (bool, True): wield the weapon held before again when it stops (not a bullwhip).
        elbereth (bool, True): engrave Elbereth in each pit before finishing the hole (picks only).

    Stopped reasons: "dug" (success: `levels` levels dug), "max_depth" (success: at
    max_depth), "no_tool" (no pick, mattock or charged wand of digging: no turn spent),
    "low_hp", "hungry", "monster" (a hostile is adjacent or keeps interrupting: data.monster;
    fight it first; with `elbereth` only one that ignores Elbereth, or when engraving
    fails), "danger" (landed in water or lava, or near a much stronger monster that
    Elbereth would not hold off: data.why), "undiggable" (NetHack says the floor is
    too hard to dig: take the stairs; data.error), "sokoban" (never dig in Sokoban), "shop" (in a shop,
    whose keeper would grab the pack, and its way out stayed barred: pay what is owed), "levitating", "blocked" (on stairs or an altar with no plain
    floor next to it), "failed" (data.error), "game_over". data always has levels,
    from_depth and to_depth.
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    dug = 0
    engravings = 0
    inv = await nh.get_inventory()
    tool, kind = _digger(inv)
    weapon0 = next((i for i in inv if i.equipped == "weapon"), None)
    # A Monk holding the pick (left in hand by an earlier dig) counts as bare-handed: his
    # bare hands are his weapon (martial arts); with a pick he fights unskilled, for a d6.
    martial = kind == "pick" and (weapon0 is None or weapon0.slot == tool.slot) and \
        await nh.get_role() == "Monk"

    async def finish(reason, success, **data):
        nonlocal actions
        s = await nh.get_stats()
        if rewield and kind == "pick" and actions and weapon0 is not None and weapon0.slot != tool.slot \
                and not any(w in weapon0.text for w in NO_WEAPON) and reason != "game_over":
            held = next((i for i in await nh.get_inventory() if i.equipped == "weapon"), None)
            if held is None or held.slot != weapon0.slot:
                res = await nh.wield(weapon0.slot)  # applying the pick wielded it in the weapon's place
                actions += 1
                data["wielded_again"] = weapon0.text if res.success else None
            s = await nh.get_stats()
        elif rewield and kind == "pick" and actions and martial and reason != "game_over":
            held = next((i for i in await nh.get_inventory() if i.equipped == "weapon"), None)
            if held is not None and held.slot == tool.slot:
                res = await nh.wield("-")
                actions += 1
                data["wielded_again"] = "bare hands" if res.success else None
            s = await nh.get_stats()
        data.update(levels=dug, from_depth=start.dungeon_level, to_depth=s.dungeon_level, engravings=engravings)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def step_to_plain_floor():
        """Step onto an adjacent square of plain floor (no stairs, fountain, trap, monster):
        (moved, moves tried)."""
        hero = await nh.get_position()
        level = await nh.get_current_level()
        taken = {m.position for m in await nh.get_visible_monsters()}
        squares = []
        for d in STEPS:
            p = hero.offset(d)
            if not (0 <= p.x < 79 and 0 <= p.y < 21) or p in taken:
                continue
            t = level.tile_at(p)
            if t.is_walkable and t.feature is None and not t.has_trap:
                squares.append((t.char not in ".#", d))  # bare floor before squares with objects on them
        tried = 0
        for _, d in sorted(squares):
            res = await nh.move(d)
            tried += 1
            if res.game_over:
                return False, tried
            if await nh.get_position() != hero:
                return True, tried
        return False, tried

    async def standing_on_elbereth() -> bool:
        return ((await nh.look_here()).engraving or "").strip().lower() == "elbereth"

    async def engrave_elbereth():
        """Engrave Elbereth here until it reads right: True, False (it never did) or None (game over)."""
        nonlocal actions, engravings
        for _ in range(3):
            res = await nh.engrave("Elbereth")
            actions += 1
            if res.game_over:
                return None
            if not res.success:
                return False
            engravings += 1
            actions += 1  # read it back: a dust engraving is often smudged as it is written
            if await standing_on_elbereth():
                return True
        return False

    async def leave_shop():
        """Walk out of the shop the hero stands in, through its door: True once out,
        False when the way stays barred (a shopkeeper who is owed), None at game over."""
        nonlocal actions
        waited = steps = 0
        while waited < 40 and steps < 120:
            steps += 1
            way = await nh.shop_exit()
            if way is None:
                return True
            hero = await nh.get_position()
            if hero == way.door:
                res = await nh.move(way.direction)
            else:
                res = await nh.move_to(way.door)
            actions += 1
            if res.game_over:
                return None
            if res.success and await nh.get_position() != hero:
                continue
            # The shopkeeper keeps the square inside his door. Next to him (in line
            # with him) he steps aside, unless he is owed: wait there a turn at a time.
            keeper = way.shopkeeper
            if keeper is not None and not keeper.is_adjacent(hero):
                level = await nh.get_current_level()
                taken = {m.position for m in await nh.get_visible_monsters()}
                beside = [p for p in keeper.neighbors() if p.on_map() and p not in taken
                          and level.tile_at(p).is_walkable]
                if beside:
                    res = await nh.move_to(min(beside, key=lambda p: p.steps_to(hero)))
                    actions += 1
                    if res.game_over:
                        return None
                    if res.success and await nh.get_position() != hero:
                        continue
            res = await nh.search(1)
            actions += 1
            waited += 1
            if res.game_over:
                return None
        return await nh.shop_exit() is None

    async def bare_shop_floor():
        """Stand on a bare square of the shop (goods on the hole's square would fall with
        the hero and count as stolen): True when there, False when none could be reached.
        A stocked shop keeps bare only the squares by its door, where its keeper paces."""
        nonlocal actions
        for _ in range(4):
            hero = await nh.get_position()
            level = await nh.get_current_level()
            if level.tile_at(hero).feature is None and not await nh.get_items_here():
                return True  # (never the doorway: a hole there ruins the keeper's door)
            taken = {m.position for m in await nh.get_visible_monsters()}
            spots = sorted((t.position for row in level.tiles for t in row
                            if t.char == "." and t.feature is None and t.is_walkable and t.position not in taken
                            and 0 < t.position.steps_to(hero) <= 8), key=lambda p: p.steps_to(hero))
            for spot in spots[:3]:
                for _ in range(3):  # each square of goods on the way ends a walk ("You see here ...")
                    if await nh.get_position() == spot:
                        break
                    res = await nh.move_to(spot)
                    actions += 1
                    if res.game_over:
                        return False
                if await nh.get_position() == spot and not await nh.get_items_here():
                    return True
            res = await nh.search(2)  # the keeper paces by his door: give him time to step off
            actions += 1
            if res.game_over:
                return False
        return False

    if tool is None:
        return await finish("no_tool", False, hint="get a pick-axe (get_digging_tool) or take the stairs")
    guarded = elbereth and kind == "pick"
    moves_off = 0
    tries = 0
    shop_exits = 0
    in_shop = False  # owing nothing, on bare floor: dig through the shop's floor (nh.dig in_shop)
    while dug < levels:
        stats = await nh.get_stats()
        if stats.dungeon_level >= max_depth:
            return await finish("max_depth", True)
        if stats.hp < stats.max_hp * min_hp:
            return await finish("low_hp", False, hp=stats.hp, max_hp=stats.max_hp)
        if stop_on_hunger and stats.hunger.severity >= HungerState.WEAK.severity:
            return await finish("hungry", False, hunger=stats.hunger.value)
        # (A wand's hole opens in the one turn of the zap, and the hero falls away from
        # whatever stands beside it: no reason to stop for a monster then.)
        hostiles = [] if kind == "wand" else _hostiles(await nh.get_visible_monsters())
        near = [m for m in hostiles if m.position.is_adjacent(stats.position)]
        if near and (not guarded or any(m.ignores_elbereth_now for m in near)):
            return await finish("monster", False, monster=near[0].name, at=(near[0].position.x, near[0].position.y))
        # (One a step or two off is next to the hero by the time the pit is half dug, and
        # its coming in view would stop the digging: Elbereth holds it off from the start.)
        close = [m for m in hostiles if m.position.steps_to(stats.position) <= CLOSE]
        if guarded and close and not await standing_on_elbereth():
            ok = await engrave_elbereth()
            if ok is None:
                return await finish("game_over", False)
            if not ok and near:
                return await finish("monster", False, monster=near[0].name, error="Elbereth would not come out right")
        depth = stats.dungeon_level
        res = await nh.dig("down", tool.slot, stop_at_pit=guarded, in_shop=in_shop)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if guarded and res.success and (await nh.get_stats()).dungeon_level == depth:
            # In the fresh pit, which erased any engraving: Elbereth, then finish the hole.
            if await engrave_elbereth() is None:
                return await finish("game_over", False)
            res = await nh.dig("down", tool.slot, in_shop=in_shop)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
        error = res.error or ""
        if res.success and (await nh.get_stats()).dungeon_level != depth:
            dug += 1
            tries = 0
            after = await nh.get_stats()
            here = (await nh.get_current_level()).tile_at(after.position)
            said = " ".join(res.messages)
            if here.feature in ("water", "lava") or WET.search(said):
                return await finish("danger", False, why="landed in water or lava", message=said[-160:])
            strong = [m for m in _hostiles(await nh.get_visible_monsters())
                      if m.threat_level > after.xp_level + 4 and m.position.steps_to(after.position) <= 6
                      and (not guarded or m.ignores_elbereth_now)]
            if strong:
                m = strong[0]
                return await finish("danger", False, why=f"a {m.name} (threat {m.threat_level}) is near",
                                    monster=m.name, at=(m.position.x, m.position.y))
            if kind == "wand":
                tool, kind = _digger(await nh.get_inventory())  # charges used up: look again
                if tool is None:
                    return await finish("no_tool", False, error="the wand of digging is empty")
            continue
        low = error.lower()
        if "sokoban" in low:
            return await finish("sokoban", False, error=error)
        if "shop" in low and shop_exits < 2:
            shop_exits += 1
            out = await leave_shop()
            if out is None:
                return await finish("game_over", False)
            if out:
                continue
            # The keeper bars the door (he does while a pick-axe is carried): owing him
            # nothing, a hole in his floor costs nothing but the goods that fall with it.
            if not in_shop and await bare_shop_floor():
                in_shop = True
                continue
        if "shop" in low:
            return await finish("shop", False, error=error)
        if "levitating" in low:
            return await finish("levitating", False, error=error)
        if STEP_OFF.search(error) and moves_off < 4:
            moves_off += 1
            moved, tried = await step_to_plain_floor()
            actions += tried
            if not moved:
                return await finish("blocked", False, error=error)
            continue
        if "too hard" in low or "undiggable" in low or "cannot be dug" in low or "nothing can be dug" in low:
            return await finish("undiggable", False, error=error, depth=depth)
        if "interrupted" in low and tries < 6:
            tries += 1  # a monster in view stopped the digging; the work done so far is kept
            continue
        if "interrupted" in low:
            return await finish("monster", False, error=error)
        if kind == "wand" and ("Nothing happens" in error or "out of charges" in error):
            return await finish("no_tool", False, error="the wand of digging is empty")
        if "call dig() again" in error and tries < 6:
            tries += 1
            continue
        return await finish("failed", False, error=error or "the hero did not fall through", messages=res.messages[-3:])
    return await finish("dug", True)

import re

CATEGORY = "exploration"
TRIGGERS = ()

# Known items that may show or open the way on, best first. Digging zapped down makes a
# hole to the next level; secret door detection shows the hidden doors and corridors
# near by; teleportation moves the hero to a random square of the level (often past the
# wall that shuts it in); magic mapping shows the whole level.
WAY_ON_WANDS = ("digging", "secret door detection")
WAY_ON_SCROLLS = ("teleportation", "magic mapping", "gold detection")
# Non-directional wands: zapped without a direction.
UNDIRECTED = ("light", "secret door detection", "create monster", "enlightenment", "wishing")


def _kind(item, word):
    """'teleportation' for "a scroll of teleportation", None for "a scroll labeled FOO"."""
    m = re.search(word + r"s? of ([a-z ]+?)(?: called| named|\s*\(|$)", (item.name or item.text or "").lower())
    return m.group(1).strip() if m else None


def _usable(item):
    text = item.text or ""
    return ("for sale" not in text and "unpaid" not in text and "(0:0)" not in text and "(0:-1)" not in text
            and "cursed" not in text.replace("uncursed", ""))


async def read_or_zap_to_find_way(nh, unknown: bool = True, tried: list = ()) -> SkillResult:
    """Use one item that may show or open the way on: a pick-axe or wand of digging, a scroll of teleportation, else an unidentified wand (zapped down) or scroll.

    For a level whose way down stays hidden however long it is searched (a corridor
    that was never dug through, a secret door with nowhere near it to search from).
    In order: a pick-axe or dwarvish mattock (applied down: dug through in a few
    turns); a known wand of digging (zapped down: a hole to the next level) or of
    secret door detection; a known scroll of teleportation, magic mapping or gold
    detection; with `unknown`, an unidentified wand zapped down (digging makes a
    hole, secret door detection shows what is hidden; most others do nothing to the
    floor), then an unidentified scroll (about one in six is teleportation or magic
    mapping; fire, amnesia or punishment hurt a little). Never: items for sale,
    known-cursed ones, empty wands, and the slots in `tried`. One item per run.

    Parameters:
        unknown (bool, True): try unidentified wands and scrolls when no known useful one is carried.
        tried (list, ()): inventory letters already used this way (not tried again).

    Stopped reasons: "used" (success; data.item, data.slot, data.messages, data.moved —
    the hero stands elsewhere now, data.level_changed), "nothing_to_use", "failed"
    (data.error), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    items = [i for i in await nh.get_inventory() if _usable(i) and i.slot not in (tried or ())]
    wands = [i for i in items if i.object_class == "wand"]
    scrolls = [i for i in items if i.object_class == "scroll"]
    choices = sorted((w for w in wands if _kind(w, "wand") in WAY_ON_WANDS),
                     key=lambda w: WAY_ON_WANDS.index(_kind(w, "wand")))
    choices += sorted((s for s in scrolls if _kind(s, "scroll") in WAY_ON_SCROLLS),
                      key=lambda s: WAY_ON_SCROLLS.index(_kind(s, "scroll")))
    if unknown:
        choices += [w for w in wands if _kind(w, "wand") is None]
        choices += [s for s in scrolls if _kind(s, "scroll") is None]
    diggers = [i for i in items if re.search(r"\b(pick-axe|dwarvish mattock)\b", i.text or "")]
    if diggers:
        # An Archeologist's (or a dwarf's) pick digs through the floor in a few turns.
        choices = diggers + choices
    if not choices:
        return await finish("nothing_to_use", False, carried=[i.text for i in items])
    keepers = [m.position for m in await nh.get_visible_monsters() if m.name == "shopkeeper"]
    if keepers:
        # A hole dug in a shop costs the whole pack; a teleport out of one is theft. Walk
        # well away first: an Archeologist stood at a shop's door (the shopkeeper would not
        # let the pick-axe in) and gave up digging there 60 times over 2,000 turns.
        far = await nh.find_nearest(lambda t: t.is_walkable and t.feature is None and not t.has_trap
                                    and t.char in ".#" and min(t.position.steps_to(k) for k in keepers) >= 8)
        for _ in range(60):
            if far is None or await nh.get_position() == far:
                break
            step = await nh.move_to(far)
            actions += 1
            if step.game_over:
                return await finish("game_over", False)
            if not step.success:
                break
        me = await nh.get_position()
        if any(m.name == "shopkeeper" and m.position.steps_to(me) < 8 for m in await nh.get_visible_monsters()):
            return await finish("nothing_to_use", False, why="a shopkeeper is near: not here")
        start = await nh.get_stats()
    pick = choices[0]
    down = pick in diggers or (pick.object_class == "wand" and _kind(pick, "wand") not in UNDIRECTED)
    level = await nh.get_current_level()
    if down and level.tile_at(start.position).feature is not None:
        # A beam zapped down bounces off stairs, an altar or a fountain, and a pick
        # cannot dig there: step off first.
        busy = {m.position for m in await nh.get_visible_monsters()}
        for d in ("e", "w", "n", "s", "ne", "nw", "se", "sw"):
            p = start.position.offset(d)
            t = level.tile_at(p) if p.on_map() else None
            if t is not None and t.is_walkable and t.feature is None and not t.has_trap and p not in busy:
                step = await nh.move(d)
                actions += 1
                if step.game_over:
                    return await finish("game_over", False)
                break
    if pick in diggers:
        res = await nh.dig("down", pick.slot)  # a pit first, then on until the hole is through
    elif pick.object_class == "wand":
        res = await nh.zap(pick.slot, "down" if down else "self")
    else:
        res = await nh.read(pick.slot)
    actions += 1
    if res.game_over:
        return await finish("game_over", False)
    if not res.success and pick not in diggers:
        return await finish("failed", False, item=pick.text, slot=pick.slot, error=res.error)
    now = await nh.get_stats()
    return await finish("used", True, item=pick.text, slot=pick.slot, messages=res.messages[-4:],
                        moved=now.position != start.position,
                        level_changed=(now.branch, now.level_in_branch) != (start.branch, start.level_in_branch))

import re

CATEGORY = "exploration"
TRIGGERS = ()

# Known scrolls that may show or open the way on: teleportation moves the hero to a random
# square of the level (often past the wall that shuts it in), magic mapping shows the
# whole level, gold detection at least where the unseen rooms are.
WAY_ON = ("teleportation", "magic mapping", "gold detection")
# Known scrolls never read to find a way (they hurt, or change nothing here).
NEVER = ("amnesia", "fire", "punishment", "create monster", "destroy armor", "curse items", "aggravate monster",
         "stinking cloud", "genocide", "charging", "scare monster", "blank paper", "mail")


def _kind(item):
    """'teleportation' for "a scroll of teleportation", None for "a scroll labeled FOO"."""
    m = re.search(r"scrolls? of ([a-z ]+?)(?: called| named|\s*\(|$)", (item.name or item.text or "").lower())
    return m.group(1).strip() if m else None


async def read_unknown_scroll(nh, unknown: bool = True) -> SkillResult:
    """Read one scroll that may show or open the way on: teleportation or magic mapping if known, else an unidentified one.

    For a level whose way down stays hidden however long it is searched (a corridor
    that was never dug through, a secret door with nowhere near it to search from).
    About one unidentified scroll in six is teleportation or magic mapping; most of
    the rest do nothing much here (identify, light, enchant armour, remove curse).
    A few hurt a little: fire, punishment (a ball and chain), amnesia (the map is
    forgotten, which costs only walking). Scrolls for sale and scrolls known to do
    nothing useful here (amnesia, fire, scare monster, …) are never read. One
    scroll per run.

    Parameters:
        unknown (bool, True): read an unidentified scroll when no known useful one is carried.

    Stopped reasons: "read" (success; data.scroll, data.messages, data.moved — the
    hero stands elsewhere now), "nothing_to_read", "failed" (data.error), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    scrolls = [i for i in await nh.get_inventory() if i.object_class == "scroll"
               and "for sale" not in i.text and "unpaid" not in i.text]
    known = [i for i in scrolls if _kind(i) in WAY_ON]
    known.sort(key=lambda i: WAY_ON.index(_kind(i)))
    mystery = [i for i in scrolls if _kind(i) is None and "cursed" not in i.text.replace("uncursed", "")]
    pick = known[0] if known else (mystery[0] if unknown and mystery else None)
    if pick is None:
        return await finish("nothing_to_read", False, carried=[i.text for i in scrolls])
    res = await nh.read(pick.slot)
    actions += 1
    if res.game_over:
        return await finish("game_over", False)
    if not res.success:
        return await finish("failed", False, scroll=pick.text, error=res.error)
    here = await nh.get_position()
    return await finish("read", True, scroll=pick.text, messages=res.messages[-4:], moved=here != start.position)

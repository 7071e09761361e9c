import re

CATEGORY = "escape"
TRIGGERS = ("level_change",)

HEALING = ("full healing", "extra healing", "healing")
# Wands worth zapping at a monster about to kill the hero, best first: sleep stops it,
# the rays and striking hurt it, teleportation sends it elsewhere, slow monster halves it.
ATTACK_WANDS = ("sleep", "cold", "fire", "lightning", "magic missile", "striking", "teleportation",
                "slow monster")
# Rays bounce off walls and come back through the zapper (a Healer put himself to sleep
# beside a rock mole so). NetHack's buzz() gives a ray 7-13 range, one per square, one
# for the bounce and two per monster it hits: with 6 open squares before the wall, it
# cannot return. Only a ray along a row or column bounces straight back; a diagonal one
# glances off sideways (reversed 1 time in 75 off a room's wall, 1 in 10 off rock).
# Striking, teleportation and slow monster stop at the first monster.
RAYS = ("sleep", "cold", "fire", "lightning", "magic missile")
RAY_ROOM = 6
# Known wands that never help in a fight (or make it worse).
USELESS_WANDS = ("create monster", "speed monster", "make invisible", "polymorph", "light", "nothing",
                 "opening", "locking", "probing", "undead turning", "enlightenment", "secret door detection",
                 "wishing", "digging", "cancellation")


# An expensive camera's flash blinds a monster beside the hero, which then usually runs
# (NetHack 3.6 flash_hits_mon: 3 times in 4 it flees, and one blinded from next to the
# hero stays blind until cured). Eyeless monsters and lights are not blinded.
CAMERA = "expensive camera"


def _kind(item, word):
    """'healing' for "a potion of healing", None for an unidentified "bubbly potion"."""
    m = re.search(word + r"s? of ([a-z ]+?)(?: called| named|\s*\(|$)", (item.name or item.text or "").lower())
    return m.group(1).strip() if m else None


def _ray_room(level, hero, direction):
    """Open squares in `direction` before the first wall, closed door or unknown square,
    counted up to RAY_ROOM."""
    p = hero
    for n in range(RAY_ROOM):
        p = p.offset(direction)
        if not (0 <= p.x < 79 and 0 <= p.y < 21) or not level.tiles[p.y][p.x].is_walkable:
            return n
    return RAY_ROOM


def _empty(item):
    return "(0:0)" in (item.text or "") or "(0:-1)" in (item.text or "")


async def quaff_or_zap_to_survive(nh, heal_below: float = 0.5, zap: bool = True, unknown: bool = False,
                                  kill_only: bool = False, flash: bool = False, spare: list = ()) -> SkillResult:
    """Use one carried item to live through the next turns: drink a healing potion, zap a wand at the worst monster next to you, or (flash=True) blind it with a camera.

    For when prayer is not safe and Elbereth does not help (or as well as it). In
    order:
    1. HP below `heal_below` of max: drink a known potion of healing, extra healing
       or full healing (the smallest that brings HP near full; full healing last).
    2. `zap` and a hostile monster adjacent: zap a known attack wand at the most
       dangerous one (sleep, cold, fire, lightning, magic missile, striking,
       teleportation, slow monster; never an empty one). A ray (sleep to magic
       missile) along a row or column only where it runs 6 open squares before a
       wall: closer, it can bounce straight back and hit you.
    3. `flash` and a hostile monster with eyes adjacent: flash an expensive camera
       (with charges) at the most dangerous such monster. It is blinded, and most
       often turns to flee; flashing one already blind does nothing.
    4. `unknown`: with HP below `heal_below`, drink an unidentified potion that is
       not known to be cursed (about one in nine heals; sleep or blindness may
       follow); else, with a monster adjacent, zap an unidentified wand at it.
    One item is used per run: run it again next turn if still needed.

    Parameters:
        heal_below (float, 0.5): drink only below this fraction of max HP.
        zap (bool, True): zap wands at an adjacent hostile.
        unknown (bool, False): try unidentified potions and wands too (a last resort).
        kill_only (bool, False): zap only wands that hurt or remove the monster, never
            sleep or slow monster (a sleeping floating eye still shuts a doorway, and
            its gaze still paralyzes whoever hits it).
        flash (bool, False): flash a carried expensive camera at an adjacent hostile
            when no potion or wand was used (Tourists start with one, 20-99 charges).
        spare (list, ()): names of adjacent monsters not to zap or flash at, e.g. ones
            a sleep ray already holds: the most dangerous of the others is the target
            (with none left, nothing is zapped).

    Stopped reasons: "quaffed" (success; data.item), "zapped" (success; data.item,
    data.target), "flashed" (success; data.item, data.target), "nothing_to_use"
    (data.why), "failed" (data.error), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["hp"] = s.hp
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    inventory = await nh.get_inventory()
    potions = [i for i in inventory if i.object_class == "potion"]
    wands = [i for i in inventory if i.object_class == "wand" and not _empty(i)]
    hurt = start.max_hp > 0 and start.hp < start.max_hp * heal_below

    async def drink(item):
        nonlocal actions
        res = await nh.quaff(item.slot)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.success:
            return await finish("failed", False, item=item.text, error=res.error)
        return await finish("quaffed", True, item=item.text, messages=res.messages[-3:])

    if hurt:
        healing = [(HEALING.index(_kind(p, "potion")), p) for p in potions if _kind(p, "potion") in HEALING]
        if healing:
            missing = start.max_hp - start.hp
            # healing restores about 6d4, extra healing 6d8, full healing everything:
            # the smallest that does the job, so the big ones last.
            order = {"healing": 0 if missing <= 20 else 1, "extra healing": 0 if missing > 20 else 1,
                     "full healing": 2}
            healing.sort(key=lambda t: (order[HEALING[t[0]]], t[1].blessed_cursed_unknown == "cursed"))
            return await drink(healing[0][1])

    hero = start.position
    adjacent = [m for m in await nh.get_visible_monsters()
                if not m.is_peaceful and not m.is_tame and m.position.is_adjacent(hero) and m.name not in spare]
    target = max(adjacent, key=lambda m: m.threat_level) if adjacent else None

    async def used_on(res, reason, item, monster):
        """How zapping or flashing ``item`` at ``monster`` ended."""
        nonlocal actions
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.success:
            return await finish("failed", False, item=item.text, error=res.error)
        return await finish(reason, True, item=item.text, target=monster.name, messages=res.messages[-3:])

    async def zap_at(item):
        return await used_on(await nh.zap(item.slot, hero.direction_to(target.position)), "zapped", item, target)

    bounce = False
    if zap and target is not None:
        usable = [k for k in ATTACK_WANDS if not (kill_only and k in ("sleep", "slow monster"))]
        known = sorted(((usable.index(_kind(w, "wand")), w) for w in wands if _kind(w, "wand") in usable),
                       key=lambda t: t[0])
        line = hero.direction_to(target.position)
        if any(usable[i] in RAYS for i, _ in known) and line in ("n", "s", "e", "w") \
                and _ray_room(await nh.get_current_level(), hero, line) < RAY_ROOM:
            bounce = True
            known = [(i, w) for i, w in known if usable[i] not in RAYS]
        if known:
            return await zap_at(known[0][1])

    camera = next((i for i in inventory if i.object_class == "tool" and CAMERA in (i.text or "").lower()
                   and not _empty(i)), None)
    if flash and camera is not None and adjacent:
        seeing = []
        for m in adjacent:
            try:
                info = await nh.lookup_monster(m.name)
            except ValueError:
                continue  # a name the table lacks (hallucination)
            if "eyeless" not in info.flags:
                seeing.append(m)
        if seeing:
            worst = max(seeing, key=lambda m: m.threat_level)
            return await used_on(await nh.apply(camera.slot, hero.direction_to(worst.position)), "flashed",
                                 camera, worst)

    if unknown:
        if hurt:
            mystery = [p for p in potions if _kind(p, "potion") is None and p.blessed_cursed_unknown != "cursed"
                       and "water" not in (p.name or "") and "clear" not in (p.name or "")]  # clear: water
            if mystery:
                return await drink(mystery[0])
        if zap and target is not None:
            mystery = [w for w in wands if _kind(w, "wand") is None]
            if mystery:
                return await zap_at(mystery[0])

    why = "no healing potion" if hurt else "HP is not low"
    if flash and camera is not None and adjacent:
        why += "; no monster beside you has eyes for the camera's flash"
    if zap:
        why += "; " + ("no hostile monster adjacent" if target is None
                       else "only ray wands, and a wall close behind the monster would bounce the ray back at you"
                       if bounce else "no attack wand")
    return await finish("nothing_to_use", False, why=why)

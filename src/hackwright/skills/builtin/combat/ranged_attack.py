import re

CATEGORY = "combat"
TRIGGERS = ("engulfed", "level_change")

KILLED = re.compile(r"\b(You kill|You destroy|is killed|is destroyed|kills the|destroys the)\b", re.I)


def _is_hostile(m):
    return not m.is_peaceful and not m.is_tame and not m.is_invisible_marker


def _firing_spot(level, hero, targets, occupied, max_range, max_steps):
    """(square, target) nearest to walk to (at most max_steps) from which a target is in a
    clear line 2..max_range squares away, not next to any of them; or (None, None)."""
    order = level.walk_distances(hero, max_steps, occupied)
    for p in order:  # nearest first
        if any(m.position.steps_to(p) <= 1 for m in targets):
            continue
        for m in targets:
            if level.line_of_fire(p, m.position, occupied, max_range):
                return p, m
    return None, None


SPELL_PW = 5  # force bolt, sleep and the other level-1 attack spells cost 5 Pw

async def ranged_attack(
    nh,
    target: str = "",
    max_throws: int = 8,
    max_range: int = 7,
    stop_when_adjacent: bool = False,
    reposition_steps: int = 4,
    wield_launcher: bool = False,
    spell: str = "",
    throw_junk: bool = False,
) -> SkillResult:
    """Throw daggers, darts or spears, or fire the quiver, at a hostile monster in a straight line.

    Picks a hostile monster in one of the 8 directions within `max_range` with
    nothing in between (walls, doors taken diagonally, other monsters — never
    through a pet or a peaceful), and throws at it until it dies, leaves the
    line, or the missiles run out. With none in line it first walks a few steps
    to a square from which one is. Ammunition is used only with its launcher
    wielded (arrows with a bow, bolts with a crossbow); daggers, knives, spears,
    javelins, darts and shuriken are thrown by hand; the wielded weapon and
    known-cursed items never. What is in the quiver is fired first. This is the
    safe way to kill a floating eye, and a gas spore or a cockatrice (never from next to
    them: a spore explodes and a cockatrice's touch stones, so the hero first steps
    straight back from an adjacent one, or with a wall behind walks round a spore to
    a square two or more away in line). The missiles land on the floor along the
    line: walk there and pick them up (pickup_useful) afterwards.

    Parameters:
        target (str, ""): name (or part of it) of the monster to shoot; "" = nearest.
        max_throws (int, 8): budget of throws.
        max_range (int, 7): farthest target, in squares.
        stop_when_adjacent (bool, False): stop with "target_adjacent" once it is
            next to the hero (to switch to melee_fight).
        reposition_steps (int, 4): with no target in line, walk up to this many
            steps to a square from which one is (not next to any hostile).
        wield_launcher (bool, False): with nothing to throw but ammunition whose
            launcher is carried (a Ranger's bow, a Samurai's yumi, a Caveman's sling
            and flint), wield the launcher (one turn; never one that may be cursed),
            and wield the weapon in hand before again when done.
        spell (str, ""): the letter of an attack spell that takes a direction (a
            Wizard's force bolt is "a"): cast it along the line instead of throwing
            while Pw lasts (5 Pw for force bolt), then throw. With a spell the hero
            needs nothing to throw. Never cast with a peaceful monster or a pet on
            the line beyond the target, nor with a shopkeeper in view: a force bolt
            goes on past what it hits and breaks potions on the floor (it throws then).
        throw_junk (bool, False): with no proper missile left, throw junk too
            (get_missiles().junk: rocks, gems and glass, spare weapons), a point or
            two a hit: enough for a floating eye or a gas spore that shuts the way.

    Stopped reasons: "target_dead" (success; data.target, data.killed_turn),
    "nothing_to_throw", "no_target" (no hostile in a clear straight line),
    "out_of_ammo", "target_lost" (it left the line or view), "target_adjacent"
    (with stop_when_adjacent, or a gas spore or cockatrice next to the hero and no square to back off to),
    "attacked" (another hostile next to the hero is hurting it: data.monster, data.at;
    fight it first),
    "failed" (the throw did not happen), "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    throws = 0
    directions = []
    tracked = None
    stepped_back = 0
    walked_round = False  # walked round an exploding monster once already
    walked = 0
    want = str(target or "").strip().lower()
    last_hp = start.hp

    swapped_from = []  # the weapon wielded before the launcher, when wield_launcher swapped

    async def finish(reason, success, **data):
        nonlocal actions
        if swapped_from and reason != "game_over":
            res = await nh.wield(swapped_from[0])
            actions += 1
            data["rewielded"] = res.success
        s = await nh.get_stats()
        data["throws"] = throws
        if directions:
            data["thrown_toward"] = directions
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def attacks_of(name):
        try:
            return (await nh.lookup_monster(name)).attacks
        except Exception:
            return ()

    async def bursts(name):
        """It explodes when killed (a gas spore): nothing it does hurts a hero walking by."""
        return any(a.startswith("explodes") for a in await attacks_of(name))

    async def explodes(name):
        """It explodes when killed, or its touch turns to stone: not to be fought from next to it."""
        return await bursts(name) or any(a.startswith("touch") and "petrification" in a
                                         for a in await attacks_of(name))

    def pick(missiles):
        """What to throw next: a proper missile, else (when allowed) junk."""
        if missiles.best is not None or not throw_junk:
            return missiles.best
        return missiles.junk[0] if missiles.junk else None

    missiles = await nh.get_missiles()
    item = pick(missiles)
    if item is None and wield_launcher:
        launcher = missiles.ready_launcher
        if launcher is not None:
            before = (await nh.get_equipment()).get("weapon")
            res = await nh.wield(launcher.slot)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            if res.success:
                swapped_from.append(before.slot if before is not None and before.slot else "-")
                item = pick(await nh.get_missiles())
    spell = str(spell or "").strip()[:1]
    if item is None and not (spell and start.pw >= SPELL_PW):
        return await finish("nothing_to_throw", False)

    while throws < max_throws:
        stats = await nh.get_stats()
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        occupied = {m.position for m in monsters}
        level = await nh.get_current_level()

        if tracked is None:
            choices = []
            for m in monsters:
                if not _is_hostile(m) or (want and want not in m.name.lower()):
                    continue
                if level.line_of_fire(hero, m.position, occupied, max_range):
                    choices.append(m)
            if not choices:
                targets = [m for m in monsters if _is_hostile(m) and (not want or want in m.name.lower())
                           and m.position.steps_to(hero) <= max_range + reposition_steps]
                spot, _ = (None, None)
                if targets and walked < reposition_steps:
                    spot, _ = _firing_spot(level, hero, targets, occupied, max_range, reposition_steps - walked)
                if spot is None:
                    return await finish("no_target", False)
                res = await nh.move_to(spot)
                actions += 1
                walked += 1
                if res.game_over:
                    return await finish("game_over", False)
                if not res.success:
                    return await finish("no_target", False, error=res.error)
                continue
            current = min(choices, key=lambda m: m.position.steps_to(hero))
        else:
            same = [m for m in monsters if _is_hostile(m) and m.name == tracked[0]
                    and m.position.steps_to(tracked[1]) <= 2]
            if not same:
                recent = " ".join(await nh.get_messages(4))
                if KILLED.search(recent):
                    return await finish("target_dead", True, target=tracked[0], killed_turn=stats.turn)
                return await finish("target_lost", False, target=tracked[0])
            current = min(same, key=lambda m: m.position.steps_to(tracked[1]))
        tracked = (current.name, current.position)
        # Another hostile has closed in and hurts the hero: throwing on at the target leaves
        # its blows unanswered (a Healer threw darts at a green mold while a kitten bit her to death).
        biters = [m for m in monsters if _is_hostile(m) and m.position.is_adjacent(hero)
                  and m.position != current.position]
        hurt, last_hp = stats.hp < last_hp, stats.hp
        if biters and hurt:
            return await finish("attacked", False, target=current.name, monster=biters[0].name,
                                at=(biters[0].position.x, biters[0].position.y))
        d = level.line_of_fire(hero, current.position, occupied, max_range)
        if not d:
            return await finish("target_lost", False, target=current.name)
        if stop_when_adjacent and current.position.is_adjacent(hero):
            return await finish("target_adjacent", False, target=current.name)
        if current.position.is_adjacent(hero) and await explodes(current.name):
            # Killing it next to us would blow us up (a gas spore), or its touch and hissing
            # stone us while we throw (a cockatrice): step straight back, keeping the line;
            # against a wall, walk round a gas spore to a square two or more away in line
            # with it (it drifts a square in four turns; a cockatrice would hiss at the
            # hero walking by).
            back = hero.offset(current.position.direction_to(hero))
            t = level.tile_at(back) if back.on_map() else None
            if t is None or not t.is_walkable or t.has_trap or back in occupied or stepped_back >= 2:
                spot, _ = (None, None) if walked_round or not await bursts(current.name) else \
                    _firing_spot(level, hero, [current], occupied, max_range, 4)
                if spot is None:
                    return await finish("target_adjacent", False, target=current.name,
                                        why="it explodes when killed and there is no room to step back")
                walked_round = True
                for _ in range(4):
                    res = await nh.move_to(spot)
                    actions += 1
                    if res.game_over:
                        return await finish("game_over", False)
                    if not res.success:
                        return await finish("target_adjacent", False, target=current.name, error=res.error)
                    if await nh.get_position() == spot:
                        break
                continue
            res = await nh.move(current.position.direction_to(hero))
            actions += 1
            stepped_back += 1
            if res.game_over:
                return await finish("game_over", False)
            if not res.success:
                return await finish("target_adjacent", False, target=current.name, error=res.error)
            continue

        res = None
        if spell and stats.pw >= SPELL_PW and not bolt_endangers(hero, current.position, monsters):
            res = await nh.cast_spell(spell, d)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            if not res.success:
                spell, res = "", None  # no such spell, or it cannot be cast: throw from now on
        if res is None:
            item = pick(await nh.get_missiles())
            if item is None:
                return await finish("out_of_ammo", False, target=current.name)
            res = await nh.fire(d) if item.equipped == "quiver" else await nh.throw(item.slot, d)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            if not res.success:
                return await finish("failed", False, target=current.name, error=res.error)
        throws += 1
        directions.append(d)
        if KILLED.search(" ".join(res.messages)):
            s = await nh.get_stats()
            return await finish("target_dead", True, target=current.name, killed_turn=s.turn,
                                at=(current.position.x, current.position.y))
    return await finish("budget", False, target=tracked[0] if tracked else None)

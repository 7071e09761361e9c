CATEGORY = "resource"
TRIGGERS = ("hunger", "engulfed", "level_change")  # it watches monsters itself (not far floating eyes)

IGNORED = ("floating eye",)


async def rest_until_healed(
    nh,
    hp_fraction: float = 0.9,
    max_turns: int = 400,
    batch: int = 10,
    monster_radius: int = 7,
) -> SkillResult:
    """Rest (search in batches) until HP is back to a fraction of max; stop when a monster comes.

    Searches `batch` turns at a time (NetHack itself breaks a counted search off
    when a monster appears) and re-checks after each batch. A hostile monster that
    is adjacent, or that comes closer while within `monster_radius` squares with a
    known way to the hero, stops it; while one is in sight it rests two turns at a
    time to watch it. Floating eyes, monsters that never move, monsters that keep
    their distance (or have no known way round a wall) and monsters with no attack but
    a passive one (molds, acid blobs, gas spores — even next to the hero) do not stop it. Growing Weak or worse from hunger stops it too (a hero already Weak rests on until Fainting).
    Resting also finds hidden doors next to the hero.

    Parameters:
        hp_fraction (float, 0.9): rest until HP >= this fraction of max.
        max_turns (int, 400): budget of game turns.
        batch (int, 10): turns per search command.
        monster_radius (int, 7): how near a hostile may come.

    Losing HP while resting (something unseen is hitting the hero, or poison) stops it
    at once.

    Stopped reasons: "healed" (success), "monster" (data.monsters), "hurt"
    (data.hp_lost), "hungry", "budget", "failed", "game_over".
    """
    start = await nh.get_stats()
    hunger0 = start.hunger.severity
    turn0 = start.turn
    actions = 0
    speeds = {}
    harmless = {}
    before = {}  # hostile name -> walking distance at the last look
    batch = max(1, min(int(batch), 200))
    last_hp = start.hp

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["hp"] = s.hp
        data["max_hp"] = s.max_hp
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def can_move(name):
        if name not in speeds:
            try:
                speeds[name] = (await nh.lookup_monster(name)).speed > 0
            except Exception:
                speeds[name] = True
        return speeds[name]

    async def can_hit(name):
        """Whether it attacks at all (molds, acid blobs and gas spores only hurt whoever touches them)."""
        if name not in harmless:
            try:
                harmless[name] = all(a.startswith(("passive", "explodes"))
                                     for a in (await nh.lookup_monster(name)).attacks)
            except Exception:
                harmless[name] = False
        return not harmless[name]

    while True:
        stats = await nh.get_stats()
        if stats.hp >= stats.max_hp * hp_fraction:
            return await finish("healed", True)
        # Weak or worse stops it, unless it already was when called: then nothing better is
        # left (no food, no prayer) and HP is what counts; it stops if hunger grows worse.
        if stats.hunger.severity >= HungerState.FAINTING.severity or (
                stats.hunger.severity >= HungerState.WEAK.severity and stats.hunger.severity > hunger0):
            return await finish("hungry", False, hunger=stats.hunger.value)
        if stats.hp < last_hp:
            return await finish("hurt", False, hp_lost=last_hp - stats.hp)
        last_hp = stats.hp
        hero = stats.position
        threats = []
        watch = False
        now = {}
        for m in await nh.get_visible_monsters():
            if m.is_peaceful or m.is_tame or m.name in IGNORED:
                continue
            d = m.position.steps_to(hero)
            if d <= 1:
                if await can_hit(m.name):
                    threats.append(m)
            elif d <= monster_radius and await can_move(m.name):
                path = await nh.find_path(m.position)
                if path and len(path) <= 2 * monster_radius:  # one behind a wall can wait
                    walk = len(path)
                    now[m.name] = min(walk, now.get(m.name, walk))
                    if m.name in before and walk < before[m.name]:
                        threats.append(m)  # it is coming
                    watch = True
        before = now
        if threats:
            return await finish("monster", False, monsters=[
                {"name": m.name, "at": (m.position.x, m.position.y)} for m in threats])
        spent = stats.turn - turn0
        if spent >= max_turns:
            return await finish("budget", False)
        # With a monster in sight, rest in short spells and watch whether it comes.
        res = await nh.search(max(1, min(2 if watch else batch, max_turns - spent)))
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.turn_elapsed:
            return await finish("failed", False, error=res.error or "searching took no time")

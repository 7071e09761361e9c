import re

CATEGORY = "combat"
TRIGGERS = ("engulfed", "level_change")

KILLED = re.compile(r"\b(You kill|You destroy|is killed|is destroyed|You dissolve|kills the|destroys the)\b", re.I)
DOORS = ("doorway", "open door", "closed door")
SPELL_PW = 5  # force bolt and the other level-1 attack spells cost 5 Pw


def _is_hostile(m):
    return not m.is_peaceful and not m.is_tame  # an adjacent 'I' (unseen monster) is fought too


def _why_not_touch(info, armed):
    """A reason never to hit this species in melee, or ''."""
    for a in info.attacks:
        if a.startswith("explodes when killed"):
            return "it explodes when killed, hurting everything next to it: kill it from afar (ranged_attack)"
        if a.startswith("passive") and "paralysis" in a:
            return "passive paralysis: hitting it can freeze you for a long time"
        if a.startswith("passive") and "petrification" in a and not armed:
            return "touching it bare-handed turns you to stone (wield a weapon or wear gloves)"
    return ""


def _only_passive(info):
    """Whether every attack of the species is passive (molds, jellies, acid blobs): it hurts
    only whoever hits it, so it is never the first to fight while something else bites."""
    return bool(info.attacks) and all(a.startswith("passive") for a in info.attacks)


def _retreat_square(level, hero, hostiles, occupied):
    """The free neighbouring square farthest from the hostiles (None if none is better)."""
    def danger(p):
        return min((p.steps_to(m.position) for m in hostiles), default=99)

    best, best_key = None, (danger(hero), 0)
    here_door = level.tile_at(hero).feature in DOORS
    for d in ("n", "s", "e", "w", "ne", "nw", "se", "sw"):
        p = hero.offset(d)
        if not (0 <= p.x <= 78 and 0 <= p.y <= 20) or p in occupied:
            continue
        t = level.tile_at(p)
        if not t.is_walkable or t.has_trap:
            continue
        if len(d) == 2 and (here_door or t.feature in DOORS):
            continue
        key = (danger(p), -sum(1 for m in hostiles if m.position.steps_to(p) <= 1))
        if key > best_key:
            best, best_key = d, key
    return best


async def melee_fight(
    nh,
    target: str = "",
    hp_threshold: float = 0.35,
    max_actions: int = 40,
    approach_radius: int = 5,
    wait_turns: int = 3,
    chase_steps: int = 6,
    peaceful_ok: bool = False,
    spell: str = "",
) -> SkillResult:
    """Fight the nearest adjacent or approaching hostile monster in melee until it dies, flees, or HP runs low.

    Picks a target (the given name, else the most dangerous adjacent hostile, else
    the nearest within `approach_radius`; a mold, jelly or acid blob last), waits
    for a fast one to come adjacent or steps toward a slow one, and attacks it with
    F+direction until it is killed. Never attacks peaceful or tame monsters, and
    never touches monsters whose passive attack is dangerous: floating eyes
    (paralysis — the classic death), gelatinous cubes, gas spores (they explode
    when killed), and cockatrices/chickatrices when the hero has neither a wielded
    weapon nor gloves. Those are reported in data.avoided (throw things at
    them with ranged_attack, or walk away). When HP falls below `hp_threshold` of
    max it steps away from the hostiles (if a square further from them is free)
    and returns "low_hp". Next to a gas spore and nothing else to fight, it steps
    away from it ("no_target", data.stepped_away).

    Parameters:
        target (str, ""): name (or part of it) of the monster to fight; "" = choose.
        hp_threshold (float, 0.35): stop and step back below this fraction of max HP.
        max_actions (int, 40): budget of game actions.
        approach_radius (int, 5): hostiles this close (steps) may be engaged.
        wait_turns (int, 3): turns to wait for an approaching fast monster.
        chase_steps (int, 6): steps to walk toward a slow or lingering one.
        peaceful_ok (bool, False): with a `target` name, attack that monster even if it
            is peaceful (it turns hostile; alignment -1) — for a weak peaceful blocking
            the only way on. The API still refuses shopkeepers, priests, the watch,
            unicorns and any @.
        spell (str, ""): letter of a known attack spell (a Wizard's force bolt is "a",
            nh.get_spells) to cast at the adjacent target instead of a blow while Pw
            allows (5 Pw a cast); never along a line with a peaceful or a pet beyond the
            target, nor with a shopkeeper in view. A cast that fails (no such spell, too
            little Pw) turns the fight back to blows. Force bolt does 2d12 where a
            Wizard's quarterstaff does d6.

    Stopped reasons: "target_dead" (success; data.target, data.killed_turn — pass
    it on to eat_when_hungry's kills), "target_fled", "low_hp", "no_target"
    (data.avoided lists dangerous ones left alone), "failed", "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    attacks = 0
    waited = 0
    chased = 0
    failures = 0
    casts = 0
    tracked = None  # (name, last position)
    avoided = {}
    infos = {}
    passive = {}  # species -> whether it only strikes back (see _only_passive)
    eq = await nh.get_equipment()
    armed = eq.get("weapon") is not None or eq.get("gloves") is not None
    want = str(target or "").strip().lower()

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["attacks"] = attacks
        if casts:
            data["casts"] = casts
        if avoided:
            data["avoided"] = dict(avoided)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def unsafe(name):
        if name not in infos:
            try:
                info = await nh.lookup_monster(name)
                infos[name], passive[name] = _why_not_touch(info, armed), _only_passive(info)
            except Exception:
                infos[name], passive[name] = "", False
        return infos[name]

    async def speed(name):
        try:
            return (await nh.lookup_monster(name)).speed
        except Exception:
            return 12

    while actions < max_actions:
        stats = await nh.get_stats()
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        fightable = []
        for m in monsters:
            if not _is_hostile(m) and not (peaceful_ok and want and m.is_peaceful and not m.is_tame
                                           and want in m.name.lower()):
                continue
            why = await unsafe(m.name)
            if why:
                avoided[m.name] = why
            else:
                fightable.append(m)

        if stats.hp < stats.max_hp * hp_threshold:
            hostiles = [m for m in monsters if _is_hostile(m)]
            d = None
            if hostiles:
                level = await nh.get_current_level()
                d = _retreat_square(level, hero, hostiles, {m.position for m in monsters})
            moved = False
            if d:
                res = await nh.move(d)
                actions += 1
                if res.game_over:
                    return await finish("game_over", False)
                moved = res.success
            return await finish("low_hp", False, hp=stats.hp, max_hp=stats.max_hp, stepped_back=moved,
                                target=tracked[0] if tracked else None)

        if tracked is None:
            pool = [m for m in fightable if not want or want in m.name.lower()]
            adjacent = [m for m in pool if m.position.is_adjacent(hero)]
            near = [m for m in pool if m.position.steps_to(hero) <= approach_radius]
            # (A mold beside the hero is the last choice: a Tourist at 12 HP fought the
            # yellow mold beside her, not the newt biting her, and died stunned.)
            if adjacent:
                pick = max(adjacent, key=lambda m: (not passive.get(m.name, False), m.threat_level))
            elif near:
                pick = min(near, key=lambda m: (passive.get(m.name, False), m.position.steps_to(hero)))
            else:
                # An exploding monster (gas spore) next to us: back off a square, so that nothing
                # kills it beside us and it can be shot from a distance.
                boom = [m for m in monsters if _is_hostile(m) and m.position.is_adjacent(hero)
                        and infos.get(m.name, "").startswith("it explodes")]
                stepped = False
                if boom:
                    level = await nh.get_current_level()
                    d = _retreat_square(level, hero, boom, {m.position for m in monsters})
                    if d:
                        res = await nh.move(d)
                        actions += 1
                        if res.game_over:
                            return await finish("game_over", False)
                        stepped = res.success
                return await finish("no_target", False, stepped_away=stepped,
                                    hostiles_in_view=sorted({m.name for m in monsters if _is_hostile(m)}))
            tracked = (pick.name, pick.position)
            current = pick
        else:
            same = [m for m in fightable if m.name == tracked[0] and m.position.steps_to(tracked[1]) <= 2]
            if not same:
                recent = " ".join(await nh.get_messages(4))
                if KILLED.search(recent) and tracked[0].split()[-1] in recent:
                    return await finish("target_dead", True, target=tracked[0], killed_turn=stats.turn,
                                        at=(tracked[1].x, tracked[1].y))
                return await finish("target_fled", False, target=tracked[0], last_seen=(tracked[1].x, tracked[1].y))
            current = min(same, key=lambda m: m.position.steps_to(tracked[1]))
            tracked = (current.name, current.position)

        if current.position.is_adjacent(hero):
            res = None
            if spell and stats.pw >= SPELL_PW and not current.is_peaceful and \
                    not bolt_endangers(hero, current.position, monsters):
                res = await nh.cast_spell(spell, hero.direction_to(current.position))
                if not res.success and not res.game_over:
                    spell, res = "", None  # no such spell, or it cannot be cast: blows from now on
                else:
                    casts += 1
            if res is None:
                res = await nh.attack(hero.direction_to(current.position), peaceful_ok=peaceful_ok)
            actions += 1
            attacks += 1
            if res.game_over:
                return await finish("game_over", False, target=current.name)
            text = " ".join(res.messages)
            if KILLED.search(text):
                s = await nh.get_stats()
                left = [m.name for m in await nh.get_visible_monsters() if _is_hostile(m)]
                return await finish("target_dead", True, target=current.name, killed_turn=s.turn,
                                    at=(current.position.x, current.position.y), hostiles_left=left)
            if not res.success:
                failures += 1
                if failures >= 3:
                    return await finish("failed", False, target=current.name, error=res.error)
            continue

        dist = current.position.steps_to(hero)
        if dist > approach_radius + 2:
            return await finish("target_fled", False, target=current.name,
                                last_seen=(current.position.x, current.position.y))
        if waited < wait_turns and dist <= 3 and await speed(current.name) >= 6:
            res = await nh.search()  # let it come: the first blow is ours
            actions += 1
            waited += 1
        elif chased < chase_steps:
            path = await nh.find_path(current.position)
            # No known way (dark ground, unexplored squares): try the straight step.
            d = path[0] if path else hero.direction_to(current.position)
            step = hero.offset(d)
            if any(m.position == step and (not _is_hostile(m) or m.name in avoided) for m in monsters):
                res = await nh.search()  # something we must not bump is in the way: let it move
            else:
                res = await nh.move(d)
            actions += 1
            chased += 1
            if not path and not res.success:
                return await finish("target_fled", False, target=current.name, error="no way to it")
        else:
            return await finish("target_fled", False, target=current.name,
                                last_seen=(current.position.x, current.position.y))
        if res.game_over:
            return await finish("game_over", False)
    return await finish("budget", False, target=tracked[0] if tracked else None)

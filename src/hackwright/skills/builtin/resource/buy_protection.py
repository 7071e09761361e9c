CATEGORY = "resource"
TRIGGERS = ("low_hp", "engulfed")

REWARDED = "rewarded for thy devotion"
PRICE_PER_LEVEL = 400  # NetHack's priest.c: 400 to 599 gold per experience level buys protection


def _priest(monsters):
    return [m for m in monsters if "priest" in m.name and m.is_peaceful and not m.is_tame]


def _hostile(m):
    return not m.is_peaceful and not m.is_tame and not m.is_invisible_marker


async def buy_protection(nh, max_steps: int = 40, max_donations: int = 8) -> SkillResult:
    """Buy divine protection (a better AC) from the temple priest in view with gold.

    Walks next to the peaceful priest (the Gnomish Mines' Minetown has a temple) and
    offers him 400 times the experience level in gold (nh.chat with offer), again and
    again while he rewards it and the gold lasts. The first gift makes the hero's AC
    2-4 points better, each later one a point more; the price grows with the level,
    so it is cheapest at experience level 1-2 (a Healer's starting 1,000-2,000 gold
    buys several). A hostile next to the hero stops it (chatting takes turns).

    Parameters:
        max_steps (int, 40): most steps to walk toward the priest (he wanders his temple).
        max_donations (int, 8): most gifts.

    Stopped reasons: "protected" (success; data.donations, data.ac_before, data.ac),
    "no_priest", "too_poor" (data.gold, data.price), "no_more" (the priest gave no
    protection for the gift: data.answer), "blocked" (could not get next to him),
    "hostile_adjacent", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    donations = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data.update(donations=donations, ac_before=start.ac, ac=s.ac)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    steps = 0
    missed = 0
    while donations < max_donations:
        stats = await nh.get_stats()
        if stats.hp <= 0:
            return await finish("game_over", False)
        price = PRICE_PER_LEVEL * stats.xp_level
        if stats.gold < price:
            if donations:
                return await finish("protected", True)
            return await finish("too_poor", False, gold=stats.gold, price=price)
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        if any(_hostile(m) and m.position.is_adjacent(hero) for m in monsters):
            return await finish("hostile_adjacent", donations > 0)
        priests = _priest(monsters)
        if not priests:
            return await finish("no_priest" if not donations else "protected", donations > 0)
        priest = min(priests, key=lambda m: m.position.steps_to(hero))
        if priest.position.is_adjacent(hero):
            res = await nh.chat(hero.direction_to(priest.position), offer=price)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            said = " ".join(res.messages)
            if not res.success:
                missed += 1
                if "nobody to talk to" in (res.error or "") and missed < 3:
                    continue  # he stepped away as the hero spoke: after him again
                return await finish("no_more", donations > 0, answer=res.error)
            if REWARDED not in said:
                return await finish("no_more", donations > 0, answer=said)
            donations += 1
            continue
        if steps >= max_steps:
            return await finish("blocked", donations > 0, priest=(priest.position.x, priest.position.y))
        level = await nh.get_current_level()
        occupied = {m.position for m in monsters}
        beside = [p for p in priest.position.neighbors()
                  if level.tile_at(p).is_walkable and p not in occupied and not level.tile_at(p).has_trap]
        if not beside:
            res = await nh.search()  # he is boxed in by the altar's crowd: let him move
        else:
            res = await nh.move_to(min(beside, key=hero.steps_to))
        actions += 1
        steps += 1
        if res.game_over:
            return await finish("game_over", False)
    return await finish("protected", True)

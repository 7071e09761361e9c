import re

CATEGORY = "resource"
TRIGGERS = ("monster", "engulfed")

# The potions that raise maximum HP when drunk at full HP (NetHack's healup() in potion.c:
# healing +1, extra healing +2 or +5 blessed, full healing +4 or +8 blessed, cursed ones
# nothing), kept for emergencies in this order: the one that heals most first.
BEST_FIRST = ("full healing", "extra healing", "healing")


def _kind(item):
    """'extra healing' for "2 uncursed potions of extra healing", None for other items."""
    if item.object_class != "potion":
        return None
    m = re.search(r"potions? of ([a-z ]+?)(?: called| named|\s*\(|$)", (item.name or item.text or "").lower())
    kind = m.group(1).strip() if m else None
    return kind if kind in BEST_FIRST else None


def _cursed(item):
    return "cursed" in (item.text or "").lower().replace("uncursed", "")


async def drink_for_max_hp(nh, keep: int = 2, max_potions: int = 12) -> SkillResult:
    """Drink spare healing potions at full HP: each one drunk so raises maximum HP for good.

    A potion of healing drunk when it heals past the maximum raises the maximum by 1,
    extra healing by 2 (5 if blessed), full healing by 4 (8 if blessed); a cursed one
    by nothing. A Healer starts with four of healing and four of extra healing: drunk
    at once, all but two, they add about 8 HP to the 12 or so she starts with, and
    every rest fills them again. The `keep` best potions (full healing first, then
    extra healing) stay in the pack for an emergency (see quaff_or_zap_to_survive).
    Only identified potions are drunk, never cursed ones or goods for sale; HP must be
    within 5 of the maximum (a smaller heal would not reach past it), and a hostile
    monster in view stops it.

    Parameters:
        keep (int, 2): how many healing potions to leave in the pack.
        max_potions (int, 12): the most to drink in this run.

    Stopped reasons: "drank" (success; data.potions, data.max_hp_before, data.max_hp),
    "nothing_spare" (no more than `keep` known healing potions), "not_full" (HP too
    low for the potion to reach past the maximum), "monster" (a hostile in view),
    "failed" (data.error), "game_over".
    """
    start = await nh.get_stats()
    actions = 0
    drunk = []

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data.update(potions=drunk, max_hp_before=start.max_hp, max_hp=s.max_hp)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - start.turn, success=success)

    while len(drunk) < max_potions:
        stats = await nh.get_stats()
        if stats.hp < stats.max_hp - 5:
            return await finish("drank" if drunk else "not_full", bool(drunk))
        if any(not m.is_peaceful and not m.is_tame for m in await nh.get_visible_monsters()):
            return await finish("drank" if drunk else "monster", bool(drunk))
        potions = []
        for i in await nh.get_inventory():
            kind = _kind(i)
            if kind is None or _cursed(i) or "for sale" in (i.text or "") or "unpaid" in (i.text or ""):
                continue
            potions += [(BEST_FIRST.index(kind), i)] * max(1, i.quantity or 1)
        if len(potions) <= keep:
            return await finish("drank" if drunk else "nothing_spare", bool(drunk))
        potions.sort(key=lambda p: p[0])
        weakest = potions[-1][1]
        res = await nh.quaff(weakest.slot)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.success:
            return await finish("failed", bool(drunk), error=res.error)
        drunk.append(_kind(weakest))
    return await finish("drank", True)

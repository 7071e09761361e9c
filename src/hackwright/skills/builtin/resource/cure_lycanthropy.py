CATEGORY = "resource"
TRIGGERS = ()

HOLY_WATER_BURN = 12  # the most holy water burns a chaotic hero for (potion.c: 2d6)


async def cure_lycanthropy(nh) -> SkillResult:
    """Cure lycanthropy (a were-creature's bite) with a carried sprig of wolfsbane or potion of holy water.

    A hero bitten by a werejackal, wererat or werewolf turns into one now and
    then: the armour falls off, the pack is too heavy, and the next fight is lost.
    Eating a sprig of wolfsbane or drinking holy water cures it (Priests start
    with both), which keeps the prayer for another day. The wolfsbane goes first:
    the holy water is worth more. Holy water burns a chaotic hero for 2d6 HP
    while it cures: a chaotic hero drinks it only with more than 12 HP.

    Stopped reasons: "cured" (success; data.item), "not_infected" (no fever
    to cure: nothing done), "nothing_to_use", "too_hurt" (chaotic, only holy
    water, 12 HP or fewer: heal first; data.hp), "failed" (data.error), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    if "Lycanthropy" not in await nh.get_status_effects():
        return await finish("not_infected", False)
    inventory = await nh.get_inventory()
    wolfsbane = [i for i in inventory if i.object_class == "food" and "wolfsbane" in i.text]
    holy = [i for i in inventory if i.object_class == "potion" and "holy water" in i.text
            and "unholy" not in i.text]
    if wolfsbane:
        item, res = wolfsbane[0], await nh.eat(wolfsbane[0].slot)
    elif holy and start.alignment == Alignment.CHAOTIC and start.hp <= HOLY_WATER_BURN:
        return await finish("too_hurt", False, hp=start.hp)
    elif holy:
        item, res = holy[0], await nh.quaff(holy[0].slot)
    else:
        return await finish("nothing_to_use", False)
    actions += 1
    if res.game_over:
        return await finish("game_over", False)
    if not res.success or "Lycanthropy" in await nh.get_status_effects():
        return await finish("failed", False, item=item.text, error=res.error or "the fever stays")
    return await finish("cured", True, item=item.text, messages=res.messages[-3:])

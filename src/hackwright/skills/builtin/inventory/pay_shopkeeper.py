CATEGORY = "inventory"
TRIGGERS = ()


async def pay_shopkeeper(nh) -> SkillResult:
    """Pay the shopkeeper what is owed, so that he lets the hero out of his shop.

    A shopkeeper who is owed money (an unpaid item in the pack, or something used
    up or eaten in the shop: "You bite that, you pay for it!") stands in the
    shop's door and never steps aside: heroes who ate a corpse on a shop floor
    waited at the door for thousands of turns. Stand in the shop, near him.

    Stopped reasons: "paid" (success; data.gold_spent), "nothing_owed",
    "no_gold" (owed, but too little gold: drop the unpaid items instead),
    "failed" (data.error), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn

    async def finish(reason, success, actions=0, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    res = await nh.pay()
    if res.game_over:
        return await finish("game_over", False, 1)
    if res.success:
        spent = start.gold - (await nh.get_stats()).gold
        return await finish("paid", True, 1, gold_spent=spent, messages=res.messages[-3:])
    error = res.error or "nothing happened"
    if "owe nothing" in error:
        return await finish("nothing_owed", False, 1)
    if start.gold <= 0 or "enough" in " ".join(res.messages) or "no money" in " ".join(res.messages):
        return await finish("no_gold", False, 1, error=error)
    return await finish("failed", False, 1, error=error)

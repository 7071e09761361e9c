CATEGORY = "combat"
TRIGGERS = ()


async def enhance_skills(nh) -> SkillResult:
    """Advance every weapon, fighting and spell skill that can be advanced now (#enhance).

    Call it when NetHack says "You feel more confident in your weapon skills" (or
    now and then, e.g. after an experience level): a skill raised hits more often
    and harder. It takes no game time; with nothing to advance it does nothing.

    Parameters:
        (none)

    Stopped reasons: "advanced" (success: data.skills names each skill raised, in
    order), "nothing_to_advance" (success: no skill can be advanced now), "failed"
    (data.error), "game_over".
    """
    turn0 = (await nh.get_stats()).turn

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=1,
                           turns_elapsed=s.turn - turn0, success=success)

    res = await nh.enhance()
    if res.game_over:
        return await finish("game_over", False)
    if not res.success:
        return await finish("failed", False, error=res.error, skills=list(res.advanced))
    if res.advanced:
        return await finish("advanced", True, skills=list(res.advanced))
    return await finish("nothing_to_advance", True, skills=[])

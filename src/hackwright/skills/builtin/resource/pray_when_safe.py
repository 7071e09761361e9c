CATEGORY = "resource"
TRIGGERS = ()

MAJOR_EFFECTS = ("Stoned", "Slimed", "Strangled", "Food poisoned", "Ill", "Lycanthropy")
MINOR_EFFECTS = ("Blind", "Stunned", "Confused", "Hallucinating")


def _trouble(stats, effects):
    """('major' | 'minor' | 'none', reasons)."""
    major, minor = [], []
    if stats.hp_critical:
        major.append(f"low HP {stats.hp}/{stats.max_hp}")
    if stats.hunger.severity >= HungerState.WEAK.severity:
        major.append(stats.hunger.value)
    major += [e for e in effects if e in MAJOR_EFFECTS]
    if stats.hunger == HungerState.HUNGRY:
        minor.append("Hungry")
    minor += [e for e in effects if e in MINOR_EFFECTS]
    if major:
        return "major", major
    if minor:
        return "minor", minor
    return "none", []


async def pray_when_safe(nh, allow_minor: bool = False, max_timeout: int = 200) -> SkillResult:
    """Pray, but only when in trouble and the prayer timeout allows it.

    Major trouble: HP critical (stats.hp_critical: at most 5, or at most 1/5 of max
    HP at XL 1-5, 1/6 at XL 6-13, 1/7 at XL 14-21), Weak or Fainting from hunger,
    turning to stone, slimed, strangled, food poisoned, ill or lycanthropic — prayed for when
    nh.get_prayer_timeout() is at most 200. Minor trouble (Hungry, Blind, Stunned,
    Confused, Hallucinating) only with `allow_minor` and a timeout of at most 100.
    Without trouble it never prays: that wastes the prayer and can anger the god.
    A successful prayer usually fixes the trouble (HP restored, hunger reset).

    Parameters:
        allow_minor (bool, False): also pray for minor trouble.
        max_timeout (int, 200): for major trouble, pray when the estimated timeout is at
            most this. Above 200 it is a gamble (the estimate assumes a long reset after
            each prayer; too soon costs Luck and angers the god): worth it only when the
            hero dies otherwise, e.g. Fainting with no food.

    Stopped reasons: "prayed" (success; data.trouble, data.fixed), "no_trouble",
    "too_soon" (data.timeout), "prayer_failed", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    effects = await nh.get_status_effects()
    level, reasons = _trouble(start, effects)
    timeout = await nh.get_prayer_timeout()
    if level == "none" or (level == "minor" and not allow_minor):
        return await finish("no_trouble", False, timeout=timeout, minor_trouble=reasons)
    limit = max(200, int(max_timeout)) if level == "major" else 100
    if timeout > limit:
        return await finish("too_soon", False, trouble=reasons, timeout=timeout, needed=f"<= {limit}")
    res = await nh.pray(force=True)  # this skill has applied its own rule (max_timeout may gamble)
    actions += 1
    if res.game_over:
        return await finish("game_over", False, trouble=reasons)
    after = await nh.get_stats()
    left, _ = _trouble(after, await nh.get_status_effects())
    if not res.success:
        return await finish("prayer_failed", False, trouble=reasons, error=res.error, messages=res.messages[-4:])
    return await finish("prayed", True, trouble=reasons, fixed=left == "none" or (level == "major" and left != "major"),
                        hp=after.hp, max_hp=after.max_hp, hunger=after.hunger.value)

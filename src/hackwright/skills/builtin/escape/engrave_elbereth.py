import re

CATEGORY = "escape"
TRIGGERS = ("engulfed", "level_change")

ZAPPED = re.compile(r"\bzaps (?:a|an|the|his|her|its) ")
# Hurt from a distance: an arrow, bolt, dagger or dart ("You are hit by the 2nd crossbow
# bolt"), venom spat or a breath ("The winter wolf cub breathes frost!").
SHOT = re.compile(r"\b(?:shoots|throws|spits|breathes) |\bYou are hit by ")


async def engrave_elbereth(nh, max_turns: int = 40, rest_to: float = 0.0, max_attempts: int = 5) -> SkillResult:
    """Engrave Elbereth in the dust here and stand on it, searching, while hostile monsters are adjacent.

    Most monsters will not attack in melee a hero standing on "Elbereth" and flee
    instead; humans (@), minotaurs, shopkeepers, guards and priests ignore it. A
    dust engraving is often smudged as it is written ("Elbcreth" protects nobody),
    so the skill reads it back (':') and engraves again until it is right; one
    already written right underfoot is kept, not written again (a
    blind hero cannot feel dust: it writes once, and again after each blow). It
    also wears away while it frightens a monster beside the hero, so the skill
    reads it back every turn a hostile stands beside him (every eighth turn
    otherwise) and writes it again once it no longer reads Elbereth. It never
    attacks from the square (fighting erases the engraving). With `rest_to` it
    also stays until HP is back to that fraction.

    Parameters:
        max_turns (int, 40): most turns to stand there.
        rest_to (float, 0.0): also rest until HP >= this fraction of max (0 = no).
        max_attempts (int, 5): engravings tried before giving up.

    Stopped reasons: "safe" (success: no hostile adjacent any more), "healed"
    (success, with rest_to), "useless" (every adjacent hostile ignores Elbereth),
    "ignored" (the hero keeps being hit on the square), "zapped" (a monster's wand
    hit the hero: Elbereth does not stop wands, so close in or get out of line), "shot"
    (an arrow, bolt, dagger or dart, spat venom or a breath hurt the hero: Elbereth
    stops no attack from a distance either; nh.recent_shooters() names who; data.message
    has what was said), "hungry" (grown Weak from
    hunger while resting with rest_to: eat or pray first), "cannot_engrave"
    (levitating, engulfed, or the text never came out right), "budget", "game_over".
    """
    start = await nh.get_stats()
    hunger0 = start.hunger.severity
    turn0 = start.turn
    actions = 0
    attempts = 0
    hits = 0
    read = ""

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["engraving"] = read
        data["attempts"] = attempts
        data["hp"] = s.hp
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def adjacent_hostiles():
        hero = await nh.get_position()
        return [m for m in await nh.get_visible_monsters()
                if not m.is_peaceful and not m.is_tame and m.position.is_adjacent(hero)]

    async def read_back():
        nonlocal actions
        look = await nh.look_here()  # takes no game time
        actions += 1
        return look.engraving or ""

    async def blind():
        # Dust cannot be felt: a blind hero's look only feels the floor, a move wasted.
        return "Blind" in await nh.get_status_effects()

    near = await adjacent_hostiles()
    if near and all(m.ignores_elbereth for m in near):
        return await finish("useless", False, monsters=[m.name for m in near])

    async def engrave():
        """Engrave until the text reads Elbereth: "ok", "failed" or "dead"."""
        nonlocal attempts, actions, read
        while attempts < max_attempts:
            attempts += 1
            res = await nh.engrave("Elbereth")
            actions += 1
            if res.game_over:
                return "dead"
            if not res.success:
                read = ""
                return "failed"
            if await blind():
                read = ""
                return "ok"  # trusted until a blow on the square says otherwise
            read = await read_back()
            if read.strip().lower() == "elbereth":
                return "ok"
        return "failed"

    # Already written right underfoot (the square rested on before): stand on it. A new
    # dust engraving wipes it out and comes out smudged about one time in four, and
    # the monster beside the hero strikes while the word is wrong.
    if not await blind():
        read = await read_back()
    if read.strip().lower() == "elbereth":
        outcome = "ok"
    else:
        outcome = await engrave()
    if outcome == "dead":
        return await finish("game_over", False)
    if outcome != "ok":
        return await finish("cannot_engrave", False)

    waited = 0
    last_hp = (await nh.get_stats()).hp
    while waited < max_turns:
        stats = await nh.get_stats()
        near = await adjacent_hostiles()
        struck = stats.hp < last_hp and bool(near)
        if struck:
            hits += 1
        last_hp = stats.hp
        if near and all(m.ignores_elbereth for m in near):
            return await finish("useless", False, monsters=[m.name for m in near])
        if rest_to and (stats.hunger.severity >= HungerState.FAINTING.severity or (
                stats.hunger.severity >= HungerState.WEAK.severity and stats.hunger.severity > hunger0)):
            # Resting on into Fainting leaves the hero helpless beside the monster. (Already
            # Weak when called: no food and no prayer left, and HP matters most.)
            return await finish("hungry", False, hunger=stats.hunger.value)
        if hits >= 3:
            return await finish("ignored", False, monsters=[m.name for m in near])
        if not near:
            if rest_to and stats.hp < stats.max_hp * rest_to:
                pass  # keep resting on the square
            elif rest_to:
                return await finish("healed", True)
            else:
                return await finish("safe", True)
        # A dust Elbereth wears away as it frightens a monster beside the hero, and the
        # monster bites once it no longer reads right: with one beside him, read it each
        # turn (reading takes no game time). Blind, only a blow tells it is gone.
        if await blind():
            worn = struck
        elif waited % 8 == 7 or hits or near:
            read = await read_back()
            worn = read.strip().lower() != "elbereth"
        else:
            worn = False
        if worn:
            outcome = await engrave()
            if outcome != "ok":
                return await finish("game_over" if outcome == "dead" else "cannot_engrave", False)
        res = await nh.search()
        actions += 1
        waited += 1
        if res.game_over:
            return await finish("game_over", False)
        said = " ".join(res.messages)
        if ZAPPED.search(said) and (await nh.get_stats()).hp < stats.hp:
            # (A gnome lord zapped a resting Barbarian from 50 HP to 8, then to death three
            # turns later, while he stood on a perfect Elbereth.)
            return await finish("zapped", False, message=said[:120])
        if SHOT.search(said) and (await nh.get_stats()).hp < stats.hp:
            # (A gnome lord backed off from the word and shot a resting Priestess dead
            # with his crossbow: resting on in his line of fire is no rest.)
            return await finish("shot", False, message=said[:120])
    return await finish("budget", False)

import re

CATEGORY = "combat"
TRIGGERS = ("engulfed", "level_change")

# Food thrown at a domestic animal (Monster.is_domestic) is never a missile. If it is
# food the animal eats, the animal becomes the hero's pet; any other food at least makes
# it peaceful (dog.c tamedog: "worst case, at least it'll be peaceful").
HORSES = ("pony", "horse", "warhorse")

# What each eats (dog.c dogfood, below MANFOOD), the food the hero misses least first.
# Cats and dogs eat meat and the made foods; horses fruit and vegetables.
# (Not a huge chunk of meat: at 400 weight units it flies a square or two.)
MEAT_FIRST = ("tripe ration", "meatball", "meat stick", "fortune cookie",
              "candy bar", "pancake", "lump of royal jelly", "K-ration", "C-ration", "cram ration",
              "lembas wafer", "food ration")
GREENS_FIRST = ("kelp frond", "eucalyptus leaf", "clove of garlic", "sprig of wolfsbane", "slime mold",
                "banana", "orange", "pear", "melon", "carrot", "apple")
# The food a hero lives on (400-800 nutrition each): thrown only with ``staples``.
STAPLES = ("food ration", "cram ration", "lembas wafer", "K-ration", "C-ration")
# Never thrown: an egg or a cream pie hits the face instead of feeding (and an egg may
# be a cockatrice's); a corpse may be one too; a tin is the hero's to open.
NEVER = re.compile(r"\b(eggs?|cream pies?|corpses?|tins?)\b", re.I)


def _named(item, food):
    """Whether the item is ``food`` (one or several: "apples", "tripe rations")."""
    return re.search(r"\b" + re.escape(food) + r"(e?s)?\b", item.name, re.I) is not None


def _food_for(name, inventory, staples=True):
    """The food to throw at a domestic animal called ``name``: the least needed food it eats
    (it tames), else any other food safe to throw (it calms); None when there is none."""
    food = [i for i in inventory if i.object_class == "food" and i.slot and not NEVER.search(i.name)
            and "unpaid" not in (i.text or "") and (staples or not any(_named(i, f) for f in STAPLES))]
    for eaten in (GREENS_FIRST if name in HORSES else MEAT_FIRST):
        for item in food:
            if _named(item, eaten):
                return item
    return food[0] if food else None


def _wild(m, want):
    return m.is_domestic and not m.is_tame and not m.is_peaceful and not m.is_invisible_marker \
        and (not want or want in m.name)


async def tame_with_food(nh, target: str = "", max_range: int = 6, max_turns: int = 8,
                         max_throws: int = 3, staples: bool = True) -> SkillResult:
    """Tame a hostile kitten, dog or horse by throwing it food it eats (or calm it with other food).

    A domestic animal (kitten, housecat, large cat, little dog, dog, large dog,
    pony, horse, warhorse) catches food thrown at it instead of being hit. Food it
    eats makes it the hero's pet, which then fights for the hero: cats and dogs eat
    meat and made food (tripe, meatballs, fortune cookies, cram, food rations …),
    horses fruit and vegetables (apples, carrots, garlic, …). Any other food still
    makes it peaceful. The least needed food that tames is thrown first (tripe
    before a food ration); eggs, cream pies, corpses and tins never. The animal must
    stand in a clear straight line within ``max_range`` and within the hero's throw
    (half its Strength in squares: 4 for Strength 8); while it does not, the hero
    waits (they are fast and come straight at the hero), at most ``max_turns`` turns.
    A kitten is a real threat to a hero of experience level 1-4 and a nuisance
    later: keep the food rations (``staples=False``) when it is only a nuisance.

    Parameters:
        target (str, ""): the species (or part of it) to tame; "" = the nearest
            hostile domestic animal in view.
        max_range (int, 6): farthest throw, in squares.
        max_turns (int, 8): turns to wait for one to come into line.
        max_throws (int, 3): budget of throws.
        staples (bool, True): food rations, cram rations, lembas wafers and K- and
            C-rations may be thrown (False: only lesser food; with none, "no_food").

    Stopped reasons: "tamed" (success: data.target is now a pet; data.food what it
    ate), "pacified" (success: it is peaceful, not tame: the food was not to its
    taste), "no_food" (nothing fit to throw), "no_target" (no hostile domestic
    animal in view), "not_in_line" (it never came into a clear line in time),
    "not_tamed" (the throws did not change it: it was eating, or trapped),
    "failed" (the throw did not happen: data.error), "game_over".
    """
    turn0 = (await nh.get_stats()).turn
    actions = 0
    throws = 0
    thrown = []
    want = str(target or "").strip().lower()

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["throws"] = throws
        if thrown:
            data["food"] = thrown
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    waited = 0
    while True:
        stats = await nh.get_stats()
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        wild = sorted((m for m in monsters if _wild(m, want)), key=lambda m: m.position.steps_to(hero))
        if not wild:
            if throws:
                calmed = [m for m in monsters if m.is_domestic and (m.is_tame or m.is_peaceful)
                          and (not want or want in m.name)]
                if calmed:
                    nearest = min(calmed, key=lambda m: m.position.steps_to(hero))
                    return await finish("tamed" if nearest.is_tame else "pacified", True, target=nearest.name)
                return await finish("not_tamed", False)
            return await finish("no_target", False)
        if throws >= max_throws:
            return await finish("not_tamed", False, target=wild[0].name)
        inventory = await nh.get_inventory()
        if _food_for(wild[0].name, inventory, staples) is None:
            return await finish("no_food", False, target=wild[0].name)
        level = await nh.get_current_level()
        occupied = {m.position for m in monsters}
        reach = max(1, min(max_range, stats.strength // 2))  # dothrow.c: food flies Str/2 squares
        lines = ((m, level.line_of_fire(hero, m.position, occupied, reach)) for m in wild)
        shot = next(((m, d) for m, d in lines if d), None)
        if shot is None:
            if waited >= max_turns:
                return await finish("not_in_line", False, target=wild[0].name)
            res = await nh.search()
            actions += 1
            waited += 1
            if res.game_over:
                return await finish("game_over", False)
            continue
        animal, direction = shot
        item = _food_for(animal.name, inventory, staples)
        if item is None:
            return await finish("no_food", False, target=animal.name)
        res = await nh.throw(item.slot, direction)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.success:
            return await finish("failed", False, target=animal.name, error=res.error)
        throws += 1
        thrown.append(item.name)

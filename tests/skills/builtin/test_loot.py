"""Scenarios for the loot helpers every skill gets (api/loot.py): what a pile underfoot
gives up to take_from_pile, and LootInView's walk to gold in view."""

from __future__ import annotations

from hackwright.api.loot import LootInView, take_from_pile

from tests.skills.builtin.conftest import spot


async def test_a_valkyrie_on_a_mixed_pile_takes_the_small_valuables_and_safe_food_and_lists_the_gear(play):
    api = play("item_pile")
    items = await api.get_items_here()
    stats = await api.get_stats()
    pile = await take_from_pile(api, items, encumbrance=stats.encumbrance)
    taken = " | ".join(pile.taken)
    for kind in ("wand", "potion", "scroll", "ring", "gold", "food ration", "lichen corpse"):
        assert kind in taken, (kind, pile)
    # Not a newt corpse (it rots), nor a loadstone (it cannot be dropped again).
    assert "newt" not in taken and "stone" not in taken and not pile.game_over and pile.burdened is None, pile
    assert pile.actions == len(pile.taken)
    gear = " | ".join(pile.gear)
    for kind in ("dagger", "large box", "plate mail", "gloves"):
        assert kind in gear, (kind, pile)


async def test_with_pick_up_off_a_pile_only_lists_its_gear(play):
    api = play("item_pile")
    pile = await take_from_pile(api, await api.get_items_here(), pick_up=False)
    assert pile.taken == [] and pile.actions == 0 and any("plate mail" in g for g in pile.gear), pile


async def test_a_valkyrie_with_one_ration_is_walked_to_the_food_ration_in_view_and_a_tourist_is_not(play):
    """LootInView walks to safe food in view while fewer than FOOD_ENOUGH safe items are
    carried (a Valkyrie starts with one ration, a Tourist with a pack full of food)."""
    for hero, fetches in (("valkyrie", True), ("tourist", False)):
        api = play("food_ration_across_the_room", hero=hero)
        loot = LootInView(api)
        for _ in range(8 * 40):  # (a look every 8th round)
            stats = await api.get_stats()
            if stats.position == spot(api, 12, 3):
                break
            await loot.step(stats.position, stats.dungeon_level)
        assert ((await api.get_stats()).position == spot(api, 12, 3)) == fetches, hero
        assert bool(loot.tried) == fetches, (hero, loot.tried)

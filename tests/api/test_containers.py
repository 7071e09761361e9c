"""Containers on real games: looting a box, putting items in and taking them out,
a locked chest, a carried sack, and the refusals."""

from __future__ import annotations

from hackwright.api import ContainerResult, NetHackAPI
from hackwright.api.keyboard import PromptKind
from hackwright.sandbox import protocol
from tests.conftest import room_des

ROOM = ["-------", "|.....|", "|.....|", "|.....|", "-------"]

# A broken lid is never locked (a box made by a level file is locked at random otherwise).
BOX_WITH_APPLE_AND_DAGGER = (
    "CONTAINER:('(',\"large box\"),(1,1),broken {\n"
    "OBJECT:('%',\"apple\")\n"
    "OBJECT:(')',\"dagger\")\n"
    "}"
)
LOCKED_CHEST = "CONTAINER:('(',\"chest\"),(1,1),locked {\nOBJECT:('%',\"apple\")\n}"
EMPTY_SACK = "CONTAINER:('(',\"sack\"),(1,1) {\n}"


def at_command_prompt(api: NetHackAPI) -> bool:
    return api.game_over or api._kb.prompt().kind is PromptKind.NONE


def names(result: ContainerResult) -> list[str]:
    return sorted(i.name for i in result.contents)


async def slots(api: NetHackAPI) -> dict[str, str]:
    return {i.slot: i.text for i in await api.get_inventory()}


async def test_a_large_box_on_the_heros_square_is_looted_and_lists_its_contents(make_api):
    api = make_api(room_des(ROOM, BOX_WITH_APPLE_AND_DAGGER), role="valkyrie")
    before = await slots(api)
    turn = (await api.get_stats()).turn
    res = await api.loot()
    assert res.success, res
    assert isinstance(res, ContainerResult) and res.container == "large box"
    assert names(res) == ["apple", "dagger"]
    assert all(i.slot is None for i in res.contents)
    assert await slots(api) == before  # looking takes nothing out
    assert (await api.get_stats()).turn == turn
    assert at_command_prompt(api)


async def test_an_item_put_in_leaves_the_pack_is_listed_by_loot_and_comes_back_when_taken_out(make_api):
    api = make_api(room_des(ROOM, BOX_WITH_APPLE_AND_DAGGER), role="valkyrie")
    assert "food ration" in (await slots(api))["d"]

    put = await api.put_in("large box", "d")
    assert put.success, put
    assert "d" not in await slots(api)
    assert "food ration" in " ".join(names(put))
    looked = await api.loot()
    assert any("food ration" in n for n in names(looked)) and len(looked.contents) == 3

    out = await api.take_out("", "food ration")
    assert out.success, out
    assert any("food ration" in t for t in (await slots(api)).values())
    assert names(out) == ["apple", "dagger"]
    assert names(await api.loot()) == ["apple", "dagger"]
    assert at_command_prompt(api)


async def test_take_out_all_empties_the_box_into_the_pack(make_api):
    api = make_api(room_des(ROOM, BOX_WITH_APPLE_AND_DAGGER), role="valkyrie")
    res = await api.take_out("", "all")
    assert res.success, res
    assert res.contents == []
    texts = list((await slots(api)).values())
    assert any(t.endswith("an apple") or t == "an apple" for t in texts)
    assert sum("dagger" in t for t in texts) == 2  # the Valkyrie's own and the one from the box
    empty = await api.loot()
    assert empty.success and empty.contents == []


async def test_a_locked_chest_fails_with_what_would_open_it(make_api):
    api = make_api(room_des(ROOM, LOCKED_CHEST), role="valkyrie")
    res = await api.loot()
    assert not res.success
    assert "locked" in res.error and "force_lock()" in res.error and "key" in res.error
    assert res.contents == []
    put = await api.put_in("chest", "d")
    assert not put.success and "locked" in put.error
    assert "d" in await slots(api)
    assert at_command_prompt(api)


async def test_a_carried_sack_takes_items_in_and_gives_them_back(make_api):
    api = make_api(room_des(ROOM, EMPTY_SACK), role="valkyrie")
    assert (await api.pickup()).success
    sack = next(i.slot for i in await api.get_inventory() if i.name == "bag")

    empty = await api.loot(sack)
    assert empty.success and empty.contents == [] and empty.container == "bag"

    put = await api.put_in(sack, ["b", "d"])  # the spare dagger and the food ration
    assert put.success, put
    pack = await slots(api)
    assert "b" not in pack and "d" not in pack
    assert len(put.contents) == 2 and any("dagger" in n for n in names(put))

    out = await api.take_out(sack, "dagger")
    assert out.success, out
    assert any("dagger" in t and "weapon in hand" not in t for t in (await slots(api)).values())
    assert [i.name for i in out.contents] == ["uncursed food ration"]
    assert at_command_prompt(api)


async def test_bad_letters_and_names_fail_naming_what_is_valid(make_api):
    api = make_api(room_des(ROOM, BOX_WITH_APPLE_AND_DAGGER), role="valkyrie")
    res = await api.put_in("", "z")
    assert not res.success and "'z'" in res.error and "d (an uncursed food ration)" in res.error

    res = await api.put_in("", "c")  # the worn shield
    assert not res.success and "worn" in res.error

    res = await api.take_out("", "unicorn horn")
    assert not res.success
    assert "unicorn horn" in res.error and "an apple" in res.error and "a dagger" in res.error

    res = await api.take_out("", "a")  # a name part, not a letter: it would match nearly anything
    assert not res.success and "at least 2" in res.error

    res = await api.put_in("a", "d")  # the long sword is no container
    assert not res.success and "not a container" in res.error

    res = await api.loot("chest")
    assert not res.success and "large box" in res.error
    assert "d" in await slots(api) and names(await api.loot()) == ["apple", "dagger"]


async def test_an_unidentified_bag_is_not_put_into_another_that_may_be_a_bag_of_holding(make_api):
    api = make_api(room_des(ROOM, EMPTY_SACK + "\n" + EMPTY_SACK), role="valkyrie")
    assert (await api.pickup()).success
    bags = [i.slot for i in await api.get_inventory() if i.name == "bag"]
    assert len(bags) == 2
    res = await api.put_in(bags[0], bags[1])
    assert not res.success and "bag of holding" in res.error and "explode" in res.error
    assert bags[1] in await slots(api)


async def test_a_container_result_crosses_the_sandbox_wire_whole(make_api):
    api = make_api(room_des(ROOM, BOX_WITH_APPLE_AND_DAGGER), role="valkyrie")
    res = await api.loot()
    frame = protocol.encode(res)
    back = protocol.decode(frame[4:])
    assert type(back) is ContainerResult and back == res and names(back) == ["apple", "dagger"]

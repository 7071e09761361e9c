"""The wire: frames, dataclass round trips, refusal of what is not ours."""

import asyncio
import socket

import msgpack
import pytest

from hackwright.api import NetHackAPI
from hackwright.api.models import ActionResult, Alignment, HungerState, Item, Position, Stats
from hackwright.env import GameConfig
from hackwright.sandbox.protocol import MAX_FRAME, Channel, ChannelClosed, ProtocolError, decode, encode
from hackwright.skills.result import SkillResult


def test_every_api_dataclass_and_enum_round_trips():
    stats = Stats(10, 12, 1, 2, 7, 1, 0, 0, 16, 10, 10, 10, 10, 10, HungerState.HUNGRY, "Unencumbered",
                  Alignment.LAWFUL, 3, 400, position=Position(3, 4))
    values = [
        stats,
        ActionResult(True, ["You see here a dagger."], True, True, None),
        Item(1923, "dagger", Position(1, 2), None, 1, "unknown", False, "weapon", text="a dagger"),
        SkillResult("done", {"where": Position(1, 1), "pair": [1, 2]}, 3, 4, True),
        {"nested": [Position(0, 0), {"h": HungerState.WEAK}]},
    ]
    for v in values:
        assert decode(encode(v)[4:]) == v


def test_a_whole_level_round_trips_in_compact_form():
    api = NetHackAPI.new_game(GameConfig(seed=3))
    level = asyncio.run(api.get_current_level())
    wire = encode(level)
    assert len(wire) < 40_000
    assert decode(wire[4:]) == level
    api.close()


def test_unknown_types_are_refused_both_ways():
    with pytest.raises(ProtocolError):
        encode(object())
    body = msgpack.packb({"\x00d": "Popen", "v": ["sh"]})
    with pytest.raises(ProtocolError):
        decode(body)
    with pytest.raises(ProtocolError):
        decode(b"\xc1\xc1garbage")


def test_frames_over_the_limit_are_refused_before_reading_them():
    a, b = socket.socketpair()
    a.sendall((MAX_FRAME + 1).to_bytes(4, "big"))
    with pytest.raises(ProtocolError):
        Channel(b).recv(timeout=1)
    a.close()
    b.close()


def test_a_closed_channel_and_a_silent_one_are_told_apart():
    a, b = socket.socketpair()
    with pytest.raises(TimeoutError):
        Channel(b).recv(timeout=0.05)
    a.close()
    with pytest.raises(ChannelClosed):
        Channel(b).recv(timeout=1)
    b.close()

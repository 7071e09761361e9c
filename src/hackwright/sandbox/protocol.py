"""The wire between the host and a sandboxed skill: length-prefixed msgpack frames.

A frame is a 4-byte big-endian length followed by one msgpack value. The
API's dataclasses and enums travel as tagged arrays (``{"\\x00d": name, "v":
[field values in order]}``) and come back as the same classes; only the types
registered here can be decoded, so a worker cannot make the host build anything
else. Frames larger than ``MAX_FRAME`` are refused by both sides.
"""

from __future__ import annotations

import dataclasses
import select
import socket
import struct
import time
from enum import Enum
from typing import Any, Optional

import msgpack

from ..api import models
from ..skills.result import SkillResult

MAX_FRAME = 8 * 1024 * 1024
_HEADER = struct.Struct(">I")
_DC = "\x00d"
_EN = "\x00e"

_DATACLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        models.Position,
        models.Stats,
        models.Monster,
        models.Item,
        models.Tile,
        models.DungeonLevel,
        models.ActionResult,
        models.MonsterInfo,
        models.ItemInfo,
        SkillResult,
    )
}
_ENUMS: dict[str, type[Enum]] = {cls.__name__: cls for cls in (models.HungerState, models.Alignment)}
_FIELDS = {name: tuple(f.name for f in dataclasses.fields(cls)) for name, cls in _DATACLASSES.items()}


class ProtocolError(Exception):
    """A frame that breaks the protocol (too large, not msgpack, unknown type)."""


class ChannelClosed(ConnectionError):
    """The other side closed the connection (or died)."""


def _default(obj: Any) -> Any:
    name = type(obj).__name__
    if name in _FIELDS and type(obj) is _DATACLASSES[name]:
        return {_DC: name, "v": [getattr(obj, f) for f in _FIELDS[name]]}
    if isinstance(obj, Enum) and type(obj).__name__ in _ENUMS:
        return {_EN: type(obj).__name__, "v": obj.value}
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    if type(obj).__module__ == "numpy" and hasattr(obj, "item"):
        return obj.item()  # numpy scalars from the game's arrays travel as plain numbers
    raise TypeError(f"cannot send a {type(obj).__name__} between the skill and the game")


def _hook(d: dict) -> Any:
    if _DC in d:
        cls = _DATACLASSES.get(d[_DC])
        if cls is None:
            raise ProtocolError(f"unknown type {d[_DC]!r}")
        return cls(*d["v"])
    if _EN in d:
        cls = _ENUMS.get(d[_EN])
        if cls is None:
            raise ProtocolError(f"unknown enum {d[_EN]!r}")
        return cls(d["v"])
    return d


def encode(value: Any) -> bytes:
    try:
        body = msgpack.packb(value, default=_default, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        raise ProtocolError(str(e)) from None
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"message of {len(body):,} bytes is larger than the {MAX_FRAME:,}-byte limit")
    return _HEADER.pack(len(body)) + body


def decode(body: bytes) -> Any:
    try:
        return msgpack.unpackb(body, object_hook=_hook, raw=False, strict_map_key=False)
    except ProtocolError:
        raise
    except Exception as e:  # garbage from a misbehaving worker
        raise ProtocolError(f"undecodable frame: {e}") from None


class Channel:
    """Frames over a connected stream socket (one end of a socketpair)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.sock.setblocking(True)

    def send(self, value: Any) -> None:
        self.sock.sendall(encode(value))

    def _recv_exact(self, n: int, deadline: Optional[float]) -> bytes:
        chunks, got = [], 0
        while got < n:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                    raise TimeoutError
            chunk = self.sock.recv(min(n - got, 1 << 20))
            if not chunk:
                raise ChannelClosed("the other side closed the channel")
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def recv(self, timeout: Optional[float] = None) -> Any:
        """The next value; TimeoutError after ``timeout`` seconds with nothing."""
        deadline = None if timeout is None else time.monotonic() + timeout
        (n,) = _HEADER.unpack(self._recv_exact(_HEADER.size, deadline))
        if n > MAX_FRAME:
            raise ProtocolError(f"a frame of {n:,} bytes is larger than the {MAX_FRAME:,}-byte limit")
        return decode(self._recv_exact(n, deadline))

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

"""The worker side: runs one skill inside the isolated child process.

The skill sees ``nh`` as a :class:`RemoteNetHackAPI`, whose methods send a call
frame to the host and wait for the answer. Nothing here can reach the game but
through that channel, and the host answers only the methods in ``surface``.
Skill code gets the API's dataclasses without importing them, restricted
builtins, an import that only knows the allow-listed pure modules, and a
captured ``print``.

No asyncio event loop is used: one would open a socketpair, which the sandbox
forbids. The skill's coroutine is driven by hand; every awaited API call
completes synchronously over the channel.
"""

from __future__ import annotations

import builtins
import linecache
import os
import sys
import time
import types
from typing import Any, Optional

from ..api import careful_walk, loot, meals, models, quiver, stairs_hold, tactics
from ..skills.result import SkillResult
from . import surface
from .call_budget import LOCAL_KEY
from .composition import CalledSkill, SkillCaller, SkillCalls, own_traceback
from .protocol import MAX_FRAME, Channel, ProtocolError

SKILL_FILENAME = "<skill>"
ALLOWED_MODULES = (
    "math", "random", "itertools", "collections", "heapq", "re", "functools",
    "dataclasses", "enum", "typing", "statistics", "string", "operator", "bisect", "copy",
)
# Imports of the harness's own names are satisfied with the injected names.
API_MODULE_PREFIXES = ("hackwright", "nethack_api", "nle_api", "api", "skills", "models")

_REMOVED_BUILTINS = (
    "open", "eval", "exec", "compile", "input", "breakpoint", "help", "exit", "quit",
    "globals", "locals", "vars", "memoryview",
)

# Exceptions the host may send back, rebuilt as the same built-in types.
_EXCEPTIONS = {name: getattr(builtins, name) for name in surface.EXCEPTIONS}


class OutputBuffer:
    """Captured print() output, capped (the rest is counted, not kept)."""

    def __init__(self, cap: int):
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0
        self.sent = 0

    def write(self, text: str) -> None:
        room = self.cap - self.size
        if room <= 0:
            self.dropped += len(text)
            return
        piece = text[:room]
        self.parts.append(piece)
        self.size += len(piece)
        self.dropped += len(text) - len(piece)

    def take(self) -> str:
        """Output not yet sent to the host."""
        text = "".join(self.parts)
        new, self.sent = text[self.sent:], len(text)
        return new


class RemoteNetHackAPI(SkillCaller):
    """The NetHack API as a skill sees it inside the sandbox."""

    def __init__(self, chan: Channel, out: OutputBuffer, max_calls: Optional[int] = None):
        self._chan = chan
        self._out = out
        # Every call counts against the run's API-call budget, those answered from the cache
        # too: they are reported to the host by method (call_budget.py).
        self._max_calls = max_calls
        self._calls = 0
        self._local: dict[str, int] = {}
        self._step = -1
        self._cache: dict[tuple, Any] = {}
        self._waited = 0.0  # seconds blocked waiting for the host (benchmarks)
        self._prefetched: set[tuple] = set()  # keys the host answered ahead of time
        self._used: list[tuple] = []  # of those, the ones the skill asked for (told to the host)

    def _take_local(self, msg: dict) -> dict:
        if self._local:
            msg[LOCAL_KEY], self._local = self._local, {}
        return msg

    def _call(self, name: str, args: tuple, kwargs: dict) -> Any:
        self._calls += 1
        query = name in surface.QUERIES
        key = None
        if query:
            try:
                key = (name, repr(args), repr(sorted(kwargs.items())))
            except Exception:
                key = None
            # Over the budget the host is asked, and it stops the run.
            within = self._max_calls is None or self._calls <= self._max_calls
            if key is not None and key in self._cache and within:
                if key in self._prefetched:
                    self._prefetched.discard(key)
                    self._used.append(key)
                self._local[name] = self._local.get(name, 0) + 1
                return self._cache[key]
        msg: dict[str, Any] = self._take_local({"op": "call", "m": name, "a": list(args), "k": kwargs})
        if key is not None:
            msg["key"] = [key[1], key[2]]  # the host files prefetched answers under the same key
        if self._used:
            msg["used"] = [list(k) for k in self._used]
            self._used.clear()
        pending = self._out.take()
        if pending:
            msg["out"] = pending
        try:
            self._chan.send(msg)
        except ProtocolError as e:
            raise TypeError(f"nh.{name}() got an argument that cannot be sent to the game: {e}") from None
        t0 = time.perf_counter()
        reply = self._chan.recv()
        self._waited += time.perf_counter() - t0
        if reply.get("s") != self._step:
            self._cache.clear()
            self._prefetched.clear()
            self._step = reply.get("s")
        if reply["op"] == "ret":
            if key is not None:
                self._cache[key] = reply["v"]
            for q, akey, kkey, v in reply.get("pre") or ():
                self._cache[(q, akey, kkey)] = v
                self._prefetched.add((q, akey, kkey))
            return reply["v"]
        if reply["op"] == "exc":
            raise _EXCEPTIONS.get(reply["type"], RuntimeError)(reply["msg"])
        raise RuntimeError(f"unexpected reply {reply.get('op')!r} from the game")

    def _ask_skill(self, chain: tuple, name: str, params: tuple) -> Any:
        """The host's answer to a call of another skill: its code, or a refusal (SkillResult)."""
        self._calls += 1
        msg: dict[str, Any] = self._take_local({"op": "skill", "name": name, "params": list(params),
                                                "chain": list(chain)})
        pending = self._out.take()
        if pending:
            msg["out"] = pending
        self._chan.send(msg)
        reply = self._chan.recv()
        if reply.get("op") == "skill":
            return CalledSkill(reply["name"], reply["code"], reply["entry"], reply.get("source", "builtin"))
        if reply.get("op") == "ret":
            return SkillResult.coerce(reply["v"])
        raise RuntimeError(f"unexpected reply {reply.get('op')!r} from the game")

    async def find_nearest(self, predicate, **options) -> Optional[models.Position]:
        """Find nearest tile matching predicate (by walking distance; your own square counts).
        Takes find_path's routing options (avoid, traps, avoid_monsters, through_doors)."""
        level = self._call("get_current_level", (), {})
        matches = [t.position for row in level.tiles for t in row if predicate(t)]
        if not matches:
            return None
        return self._call("find_nearest_of", (matches,), options)


def _remote(name: str):
    async def method(self, *args, **kwargs):
        return self._call(name, args, kwargs)

    method.__name__ = method.__qualname__ = name
    return method


for _name in surface.QUERIES + surface.ACTIONS:
    setattr(RemoteNetHackAPI, _name, _remote(_name))


def injected_names() -> dict[str, Any]:
    """What every skill gets without importing it."""
    names: dict[str, Any] = {
        "SkillResult": SkillResult,
        "NetHackAPI": RemoteNetHackAPI,
        "DIRECTIONS": tuple(models.DIRECTIONS),
    }
    for n in ("Position", "Stats", "Monster", "Item", "Tile", "DungeonLevel", "ActionResult", "MonsterInfo",
              "ItemInfo", "HungerState", "Alignment", "GameEvent", "LookResult", "HereLook", "Missiles", "OverviewLevel",
              "DungeonOverview", "ContainerResult", "EnhanceResult", "Kill", "ShopExit", "FightOdds", "Hero"):
        names[n] = getattr(models, n)
    names["WalkAroundMemory"] = tactics.WalkAroundMemory
    names["bolt_endangers"] = tactics.bolt_endangers
    names["CarefulWalk"] = careful_walk.CarefulWalk
    names["WalkStep"] = careful_walk.WalkStep
    names["NEVER_BUMP"] = careful_walk.NEVER_BUMP
    names["worth_hitting_through"] = careful_walk.worth_hitting_through
    names["Quiver"] = quiver.Quiver
    names["is_safe_food"] = meals.is_safe_food
    names["eat_fresh_kill"] = meals.eat_fresh_kill
    names["KillMeal"] = meals.KillMeal
    names["LootInView"] = loot.LootInView
    names["take_from_pile"] = loot.take_from_pile
    names["StairsHold"] = stairs_hold.StairsHold
    return names


def _skill_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
    root = name.split(".")[0]
    if level == 0 and (root in ALLOWED_MODULES or name == "__future__"):
        return __import__(name, globals, locals, fromlist, level)
    if level > 0 or root in API_MODULE_PREFIXES:
        mod = types.ModuleType(name)
        for k, v in injected_names().items():
            setattr(mod, k, v)
        return mod
    raise ImportError(
        f"module {name!r} is not available to skills; import only: {', '.join(ALLOWED_MODULES)}"
    )


def _safe_getattr(obj, name, *default):
    if isinstance(name, str) and name.startswith("_"):
        raise AttributeError(f"attributes starting with '_' are not available to skills ({name!r})")
    return getattr(obj, name, *default)


def skill_namespace(out: OutputBuffer, module_name: str = "skill", restricted: bool = True) -> dict[str, Any]:
    """Globals for skill code: a real module registered in sys.modules (dataclasses
    defined by a skill look their module up there), with the injected names.

    ``restricted=False`` (the escape tests' "builtins" layer switched off) keeps
    Python's own builtins, import and getattr."""
    if restricted:
        safe = {k: v for k, v in vars(builtins).items() if k not in _REMOVED_BUILTINS}
        safe["__import__"] = _skill_import
        safe["getattr"] = _safe_getattr
    else:
        safe = dict(vars(builtins))
    safe["print"] = lambda *a, sep=" ", end="\n", **_: out.write(sep.join(str(x) for x in a) + end)
    mod = types.ModuleType(module_name)
    ns = mod.__dict__
    ns["__builtins__"] = safe
    ns.update(injected_names())
    sys.modules[module_name] = mod
    return ns


def drive(coro) -> Any:
    """Run a coroutine to its end without an event loop."""
    try:
        while True:
            coro.send(None)  # something awaited a bare yield; keep going (the time limit still applies)
    except StopIteration as stop:
        return stop.value


def trimmed_traceback(exc: BaseException) -> str:
    """The traceback, keeping only the frames of the skill's own code."""
    return own_traceback(exc, lambda f: f.filename == SKILL_FILENAME, "Traceback (the skill's own lines):")


def run_skill(chan: Channel, request: dict, restricted: bool = True) -> dict:
    """Run the requested skill; returns the final frame to send."""
    out = OutputBuffer(int(request.get("max_output", 65536)))
    code = request["code"]
    linecache.cache[SKILL_FILENAME] = (len(code), None, code.splitlines(True), SKILL_FILENAME)
    ns = skill_namespace(out, restricted=restricted)
    max_calls = request.get("max_calls")
    nh = RemoteNetHackAPI(chan, out, max_calls if type(max_calls) is int else None)
    try:
        exec(compile(code, SKILL_FILENAME, "exec"), ns)
        fn = ns.get(request["entry"])
        if fn is None:
            raise NameError(f"the skill defines no function named {request['entry']!r}")
        nh._skill_calls = SkillCalls(request["entry"], nh._ask_skill,
                                     lambda module: skill_namespace(out, module, restricted))
        t0 = time.perf_counter()
        value = drive(fn(nh, **(request.get("params") or {})))
        result = SkillResult.coerce(value)
        return nh._take_local({"op": "done", "result": result, "out": out.take(), "dropped": out.dropped,
                               "timing": [time.perf_counter() - t0, nh._waited]})
    except BaseException as e:  # noqa: BLE001 - everything goes back to the host as data
        return nh._take_local({
            "op": "error",
            "type": type(e).__name__,
            "msg": str(e)[:2000],
            "tb": trimmed_traceback(e)[:8000],
            "out": out.take(),
            "dropped": out.dropped,
        })


def serve(chan: Channel, restricted: bool = True) -> None:
    """Answer pings until the run request comes, run it, answer, exit.

    The host pings a waiting worker before giving it a skill, to tell a live
    worker from one that died while it waited. ``restricted``: see ``skill_namespace``.
    """
    request = chan.recv()
    while isinstance(request, dict) and request.get("op") == "ping":
        chan.send({"op": "pong"})
        request = chan.recv()
    final = run_skill(chan, request, restricted)
    try:
        # An enormous result is refused before encoding it: encoding needs as much memory
        # again, and under the worker's memory limit that fails as a bare MemoryError.
        least = _least_size(final)
        if least > MAX_FRAME:
            raise ProtocolError(f"message of at least {least:,} bytes is larger than the {MAX_FRAME:,}-byte limit")
        chan.send(final)
    except Exception as e:  # e.g. an enormous result
        why = e.args[0] if e.args and isinstance(e.args[0], str) else type(e).__name__
        chan.send({"op": "error", "type": "SkillLimitError", "msg": f"the skill's result could not be sent: {why}",
                   "tb": "", "out": "", "dropped": 0})
    os._exit(0)


def _least_size(value: Any, depth: int = 0) -> int:
    """A lower bound of ``value``'s encoded size: the bytes of its strings and byte strings,
    counted without copying them (deep or exotic parts count as nothing)."""
    if isinstance(value, str):
        return len(value) if value.isascii() else len(value.encode("utf-8", "replace"))
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    if depth > 20:
        return 0
    if isinstance(value, dict):
        return sum(_least_size(k, depth + 1) + _least_size(v, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sum(_least_size(v, depth + 1) for v in value)
    fields = getattr(value, "__dataclass_fields__", None)
    if fields:
        return sum(_least_size(getattr(value, f, None), depth + 1) for f in fields)
    return 0

"""The fault catalogue of ``test_fault_injection.py``: what a model server, a model or a
model-written skill can do wrong, and what the harness must make of it.

Each :class:`Fault` is a scripted episode: the steps the fake model server plays (per wire
format), the limits the episode runs under, and what must come out — how the episode ends,
what its ``model_error`` says, and what the model is told in a later request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Optional

from hackwright.sandbox.runner import SandboxLimits

from .fake_model_server import Delay, Disconnect, HTTPError, Raw, Reply, Step

APIS = ("anthropic", "openai")
NEVER_S = 3600.0  # a reply the server withholds until it stops: only the client's timeout ends it
SLOW_TIMEOUT_S = 2.0  # the client's timeout in the slow-reply cases (a fast reply on 127.0.0.1 takes ms)

SEARCH = {"action": "direct", "key": "s", "reasoning": "search a turn"}
GOOD = Reply(tool_input=SEARCH)


def direct(key: str) -> Reply:
    return Reply(tool_input={"action": "direct", "key": key, "reasoning": "scripted"})


def decide(tool_input: object, api: str = "anthropic") -> Step:
    """A ``decide`` call with any input: an object, or (as a broken model sends it) an array
    or a string — OpenAI's arguments string is then that string or that JSON, Anthropic's
    tool_use input that value."""
    if isinstance(tool_input, dict):
        return Reply(tool_input=tool_input)
    if api == "openai":
        args = tool_input if isinstance(tool_input, str) else json.dumps(tool_input)
        return Reply(tool_input={}, tool_arguments=args)
    block = {"type": "tool_use", "id": "toolu_fault", "name": "decide", "input": tool_input}
    return Raw(200, anthropic_body([block], stop_reason="tool_use"))


def create(code: str, name: str = "hostile") -> Reply:
    decision = {"action": "create", "name": name, "description": "scripted", "params": {}}
    return Reply(text=f"{json.dumps(decision)}\n```python\n{code}\n```\n")


# ------------------------------------------------------------------ bodies in each wire format
def openai_body(message: object = None, *, choices: object = "default", **top) -> dict:
    body = {"id": "chatcmpl-fault", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}] if choices == "default" else choices,
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    body.update(top)
    return body


def anthropic_body(content: object, **top) -> dict:
    body = {"id": "msg_fault", "type": "message", "role": "assistant", "model": "m", "content": content,
            "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}
    body.update(top)
    return body


def valid_body(api: str, text: str) -> dict:
    if api == "openai":
        return openai_body({"role": "assistant", "content": text})
    return anthropic_body([{"type": "text", "text": text}])


def per_api(openai: object, anthropic: object) -> Callable[[str], Step]:
    """A Raw 200 reply whose body differs by wire format."""
    return lambda api: Raw(200, openai if api == "openai" else anthropic)


def nested_bytes(depth: int) -> bytes:
    return b'{"a": ' * depth + b"1" + b"}" * depth


def nested(depth: int) -> dict:
    value: object = 1
    for _ in range(depth):
        value = {"a": value}
    return value  # type: ignore[return-value]


# ------------------------------------------------------------------ the fault
@dataclass(frozen=True)
class Fault:
    """One scripted episode and what must come of it.

    ``script(api)`` is the server's queue. The episode plays ``max_steps`` decisions with
    ``retries`` SDK/unreadable retries and a client ``timeout``; ``fallback`` names a
    stand-in strategist. It must end with ``ends`` (a prefix of ``end_reason``), its
    ``model_error`` holding every ``error_has``; request number ``told_in`` (0-based) must
    say every ``told`` to the model; the server must have received ``requests`` requests
    when given, and ``decisions`` decisions must have been played when given."""

    name: str
    script: Callable[[str], list[Step]]
    apis: tuple[str, ...] = APIS
    ends: str = "step cap"
    error_has: tuple[str, ...] = ()
    told: tuple[str, ...] = ()
    told_in: int = 1
    requests: Optional[int] = None
    decisions: Optional[int] = None
    max_steps: int = 2
    retries: int = 1
    timeout: float = 10.0
    fallback: Optional[str] = None
    limits: SandboxLimits = field(default_factory=lambda: SandboxLimits(wall_seconds=5.0, cpu_seconds=1))


def unreadable(name: str, step: Callable[[str], Step], *error_has: str, apis: tuple[str, ...] = APIS,
               recovers: bool = False) -> list[Fault]:
    """A body that cannot be read: twice fails the call (one retry allowed); with
    ``recovers``, also the case where the retry gets a reply and the episode plays on (the
    same path for every kind of body, so a few kinds show it)."""
    faults = [Fault(f"{name}-twice", lambda api: [step(api), step(api)], apis=apis, ends="model error",
                    error_has=error_has + ("2 attempts",), requests=2, decisions=0)]
    if recovers:
        faults.append(Fault(f"{name}-then-a-reply", lambda api: [step(api), GOOD], apis=apis, max_steps=1,
                            requests=2, decisions=1))
    return faults


def unusable(name: str, step: Callable[[str], Step], *told: str, apis: tuple[str, ...] = APIS) -> Fault:
    """A reply that is read but holds no usable decision: the retry request says why."""
    return Fault(name, lambda api: [step(api), GOOD, GOOD], apis=apis, told=told, requests=3, decisions=2)


HTML = b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>nginx</body></html>"
GARBAGE = bytes((i * 37 + 11) % 256 for i in range(4096))

FAULTS: list[Fault] = [
    # -------------------------------------------------------------- bodies the harness cannot read
    *unreadable("html-page", lambda api: Raw(200, HTML, content_type="text/html"), "an HTML page", "text/html",
                "502 Bad Gateway", recovers=True),
    *unreadable("html-labelled-json", lambda api: Raw(200, HTML), "an HTML page, not JSON", "application/json",
                "502 Bad Gateway"),
    *unreadable("plain-text", lambda api: Raw(200, b"upstream connect error", content_type="text/plain"),
                "not JSON", "text/plain", "upstream connect error"),
    *unreadable("truncated-json", lambda api: Raw(200, json.dumps(valid_body(api, "hello")).encode()[:57]),
                "cut off or broken", recovers=True),
    *unreadable("empty-body", lambda api: Raw(200, b""), "empty reply", recovers=True),
    *unreadable("binary-garbage", lambda api: Raw(200, GARBAGE, content_type="application/octet-stream"),
                "not text", "4,096 bytes", recovers=True),
    *unreadable("json-array", lambda api: Raw(200, [valid_body(api, "hi")]), "an array, not an object"),
    *unreadable("json-null", lambda api: Raw(200, None), "null, not an object"),
    *unreadable("empty-object", lambda api: Raw(200, {}), "without"),
    *unreadable("null-choices-or-content", per_api(openai_body(choices=None), anthropic_body(None)), "without"),
    *unreadable("null-message-or-block", per_api(openai_body(None), anthropic_body([None])), "object"),
    *unreadable("content-of-the-wrong-type", per_api(openai_body({"role": "assistant", "content": 42}),
                                                     anthropic_body([{"type": "text", "text": 42}])), "text"),
    *unreadable("error-object-with-200", per_api({"error": {"message": "upstream overloaded", "type": "server_error"}},
                                                 {"type": "error", "error": {"type": "overloaded_error",
                                                                             "message": "upstream overloaded"}}),
                "upstream overloaded"),
    *unreadable("nesting-5000-deep", lambda api: Raw(200, nested_bytes(5000)), "nests too deeply", recovers=True),
    *unreadable("nesting-300-deep", lambda api: Raw(200, nested(300)), "more than 200 levels"),
    *unreadable("tool-calls-not-a-list", lambda api: Raw(200, openai_body({"role": "assistant", "content": None,
                                                                           "tool_calls": "decide"})),
                "not a list", apis=("openai",)),
    # -------------------------------------------------------------- odd but readable bodies
    Fault("json-labelled-text-plain-is-read",
          lambda api: [Raw(200, valid_body(api, json.dumps(SEARCH)), content_type="text/plain")],
          max_steps=1, requests=1, decisions=1),
    Fault("bare-minimum-body-is-read",
          lambda api: [Raw(200, {"choices": [{"message": {"content": json.dumps(SEARCH)}}]} if api == "openai"
                           else {"content": [{"type": "text", "text": json.dumps(SEARCH)}]})],
          max_steps=1, requests=1, decisions=1),
    Fault("usage-of-the-wrong-types-is-read",
          lambda api: [Raw(200, {**valid_body(api, json.dumps(SEARCH)), "usage": {"prompt_tokens": "many",
                                                                                 "input_tokens": None}})],
          max_steps=1, requests=1, decisions=1),
    # -------------------------------------------------------------- transport
    Fault("connection-dropped-mid-body-then-a-reply", lambda api: [Disconnect(), GOOD], max_steps=1, requests=2,
          decisions=1),
    Fault("connection-dropped-mid-body-twice", lambda api: [Disconnect(), Disconnect()], ends="model error",
          error_has=("could not reach",), requests=2, decisions=0),
    Fault("slow-reply-then-a-reply", lambda api: [Delay(NEVER_S), GOOD], timeout=SLOW_TIMEOUT_S, max_steps=1,
          requests=2, decisions=1),
    Fault("slow-reply-twice", lambda api: [Delay(NEVER_S), Delay(NEVER_S)], timeout=SLOW_TIMEOUT_S,
          ends="model error", error_has=("timed out", f"timeout {SLOW_TIMEOUT_S}s", "2 attempts"), requests=2,
          decisions=0),
    Fault("http-429-then-a-reply", lambda api: [HTTPError(429, "rate limited", retry_after=0.01), GOOD],
          max_steps=1, requests=2, decisions=1),
    Fault("http-500-then-a-reply", lambda api: [HTTPError(500, "internal", retry_after=0.01), GOOD], max_steps=1,
          requests=2, decisions=1),
    Fault("http-503-then-a-reply", lambda api: [HTTPError(503, "overloaded", retry_after=0.01), GOOD], max_steps=1,
          requests=2, decisions=1),
    Fault("http-429-for-good", lambda api: [HTTPError(429, "rate limited", retry_after=0.01)] * 2,
          ends="model error", error_has=("HTTP 429", "rate limited"), requests=2, decisions=0),
    Fault("unreadable-with-the-autopilot-standing-in", lambda api: [Raw(200, HTML, content_type="text/html")] * 2
          + [GOOD], fallback="autopilot", requests=3, decisions=2, told=("model backend failed", "not JSON"),
          told_in=2),
    # -------------------------------------------------------------- decisions that cannot be used
    unusable("tool-arguments-not-json", lambda api: decide("not json at all", api), "could not be used"),
    unusable("tool-arguments-a-json-array", lambda api: decide(["direct", "s"], api), "could not be used"),
    unusable("action-of-the-wrong-type", lambda api: decide({"action": 7}), '"action" must be a string'),
    unusable("skill-name-of-the-wrong-type", lambda api: decide({"action": "invoke", "skill": 42}),
             "the skill name must be a string"),
    unusable("key-of-the-wrong-type", lambda api: decide({"action": "direct", "key": 5}), '"key" must be a string'),
    unusable("params-of-the-wrong-type", lambda api: decide({"action": "invoke", "skill": "search_for_hidden",
                                                             "params": [1, 2]}), '"params" must be a JSON object'),
    unusable("unknown-action", lambda api: decide({"action": "teleport_home"}), 'unknown action "teleport_home"'),
    unusable("missing-skill-name", lambda api: decide({"action": "invoke", "params": {}}),
             'an "invoke" decision needs "skill"'),
    unusable("create-without-code", lambda api: decide({"action": "create", "name": "x"}), "needs its code"),
    unusable("prose-without-json", lambda api: Reply(text="I think I will go east."), "no JSON object found"),
    unusable("empty-reply", lambda api: Reply(text=""), "the reply is empty"),
    unusable("decision-nesting-3000-deep-in-text",
             lambda api: Reply(text='{"action": "invoke", "skill": "x", "params": ' + nested_bytes(3000).decode()
                               + "}"), "nests more than 32 levels"),
    unusable("params-nesting-3000-deep-in-a-json-string",
             lambda api: decide({"action": "invoke", "skill": "x", "params": nested_bytes(3000).decode()}),
             "could not be used"),
    unusable("params-nesting-100-deep-in-the-tool-input",
             lambda api: decide({"action": "invoke", "skill": "x", "params": nested(100)}),
             "nests more than 32 levels"),
    unusable("a-wall-of-150000-braces", lambda api: Reply(text="{" * 150_000), "nests more than 32 levels"),
    unusable("a-3-MB-reply", lambda api: Reply(text="I am thinking. " * 200_000), "characters long",
             "characters cut"),
    unusable("a-3-MB-skill-in-the-tool-input",
             lambda api: decide({"action": "create", "name": "big", "code": "# x\n" * 750_000}),
             "characters of text"),
    Fault("unknown-skill-name", lambda api: [decide({"action": "invoke", "skill": "no_such_skill"}), GOOD],
          told=("there is no skill named 'no_such_skill'",), requests=2, decisions=2),
    # -------------------------------------------------------------- game integrity
    *[Fault(f"direct-key-{label}", lambda api, key=key: [direct(key), GOOD], told=(said,), requests=2, decisions=2)
      for label, key, said in [("S", "S", "saves the game and leaves it"), ("quit", "#quit\r", "#quit ends the game"),
                               ("quit-abbreviated", "#q\ry", "ends the game"),
                               ("suspend", "\x1a", "leaves the game"), ("shell", "!", "leaves the game"),
                               ("options", "O", "changes the game's options"),
                               ("exploremode", "#exploremode\r", "non-scoring explore mode"),
                               ("save-after-moves", "hhS", "saves the game")]],
    Fault("direct-key-ctrl-c-is-only-a-key", lambda api: [direct("\x03"), GOOD], requests=2, decisions=2,
          apis=("anthropic",)),
]

# Hostile skills run in the real sandbox; the wire format plays no part, so one is enough.
HOSTILE: list[tuple[str, str, str]] = [
    ("infinite-loop", "async def hostile(nh):\n    while True:\n        pass", "Timed out"),
    ("busy-loop-of-state-queries", "async def hostile(nh):\n    while True:\n        await nh.get_stats()",
     "more than 2000 API calls"),
    ("huge-output", "async def hostile(nh):\n    print('x' * 50_000_000)\n    return 1", "earlier ones cut"),
    ("os-system", "import os\n\nasync def hostile(nh):\n    os.system('touch /tmp/hackwright-fault')",
     "`import os` is not allowed"),
    ("reading-files", "async def hostile(nh):\n    return open('/etc/passwd').read()", "`open` is not available"),
    ("raising", "async def hostile(nh):\n    raise ValueError('the skill gives up')", "ValueError: the skill gives up"),
    ("returning-a-number", "async def hostile(nh):\n    return 42", "a skill must return SkillResult"),
    ("returning-a-generator", "async def hostile(nh):\n    return (i for i in range(3))", "not generator"),
    ("memory-bomb", "async def hostile(nh):\n    x = 'a' * (10 ** 10)\n    return len(x)", "ran out of memory"),
    ("endless-recursion", "async def hostile(nh):\n    def f(n):\n        return f(n + 1)\n    return f(0)",
     "RecursionError"),
    ("dunder-escape", "async def hostile(nh):\n    return ().__class__.__bases__[0].__subclasses__()",
     "attributes starting with '__' are not available"),
    ("syntax-error", "async def hostile(nh)\n    return 1", "Syntax error"),
]
# (A query loop is stopped by the API-call budget, set low here so that it, not the wall
# clock, ends the run on any machine.)
FAULTS += [Fault(f"hostile-skill-{label}", lambda api, code=code: [create(code), GOOD], apis=("openai",),
                 told=(said,), requests=2, decisions=2,
                 limits=SandboxLimits(wall_seconds=5.0, cpu_seconds=1,
                                      max_api_calls=2000 if "queries" in label else 50_000))
           for label, code, said in HOSTILE]


def cases() -> list[tuple[Fault, str]]:
    """Every (fault, wire format) pair the suite plays."""
    return [(f, api) for f in FAULTS for api in f.apis]

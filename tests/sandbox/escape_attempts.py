"""The escape battery's attempts: skill code that tries to get out, and the layers that stop it.

Every attempt leaves evidence on the host when it works (see ``escape_evidence.py``): a
marker file, the host's secret, a signal, a connection to a listener the test opened, a
value only the host could hand over, or more of a budget than it was given. ``holds`` maps
each layer that must stop the attempt *on its own* to what the skill then gets back: a
:class:`Refused` error, exact in type and message, or a :class:`Returned` result. ``first``
names the layer whose refusal the whole sandbox gives (the one the attempt meets first).

Code that must reach the OS past the worker's restricted builtins uses ``REACH``: classes
found among ``object``'s subclasses and modules found in the globals of the worker's own
frames — the classic ways out of a restricted namespace. The policy rejects all of it,
which is why the runtime layers are tested with validation off.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

from hackwright.sandbox import errors

MiB = 1 << 20

# The budgets the battery runs under: what the limit layers enforce while they are on.
CPU_SECONDS = 2
MEMORY_BYTES = 64 * MiB
OUTPUT_BYTES = 64 * 1024
API_CALLS = 300
#: Only a hang gets anywhere near this: the wall clock is the host's last resort, not a layer tested here.
WALL_SECONDS = 120.0

SIGUSR1 = 10  # the host's SIGUSR1 only counts: an attempt that gets through does no harm

REACH = '''
def subclass(name):
    seen, todo = set(), [().__class__.__base__]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        if c.__name__ == name:
            return c
        todo += type.__subclasses__(c)
    raise LookupError("no class named " + name)

def reach(name):
    try:
        raise ValueError()
    except ValueError as e:
        f = e.__traceback__.tb_frame
    while f is not None:
        if name in f.f_globals:
            return f.f_globals[name]
        f = f.f_back
    raise LookupError("no frame has imported " + name)
'''


_REACH = "# uses REACH\n"


@dataclass(frozen=True)
class Refused:
    """The run raises ``error`` whose ``str()`` is ``message`` (``{mark}``, ``{path}`` … are the
    run's parameters). ``fields``: attributes the error must have (``signal``, ``limit``);
    ``violation``: for a validation error, the text of one of its violations."""

    error: type
    message: str
    fields: dict[str, Any] = field(default_factory=dict)
    violation: str = ""


@dataclass(frozen=True)
class Returned:
    """The skill runs to a result whose data is exactly ``data``; ``log_bytes``: and whose log is
    exactly that long."""

    data: dict[str, Any]
    log_bytes: int | None = None


Expect = Refused | Returned


@dataclass(frozen=True)
class Attempt:
    name: str
    code: str
    holds: dict[str, Expect]
    first: str  # the layer the whole sandbox stops it with
    params: dict[str, Any] = field(default_factory=dict)
    on_bwrap: Expect | None = None  # what the whole sandbox gives under bubblewrap, when that differs
    needs_landlock_abi: int = 1  # what Landlock must offer here to hold on its own

    @property
    def source(self) -> str:
        if self.code.startswith(_REACH):
            return REACH + textwrap.dedent(self.code[len(_REACH):])
        return textwrap.dedent(self.code)


SIGSYS = Refused(errors.SkillCrashedError,
                 "the skill tried something the sandbox forbids (files, sockets, processes or signals) and was "
                 "stopped; skills reach the game only through nh", {"signal": "SIGSYS"})
CPU_OVER = Refused(errors.SkillTimeoutError,
                   f"the skill used more than {CPU_SECONDS} CPU seconds; it is probably looping — add a stopping "
                   "condition", {"limit": "cpu_time"})
MEMORY_OVER = Refused(errors.SkillLimitError,
                      f"the skill ran out of memory (limit {MEMORY_BYTES // MiB} MiB); keep fewer or smaller things "
                      "in memory", {"limit": "memory"})
NO_SHELL = Returned({"status": 127 << 8})  # system(): Landlock let the fork through, not the shell's exec


def raised(text: str) -> Refused:
    """The skill's own code raised ``text`` (``Type: message``) and the worker sent it back."""
    return Refused(errors.SkillRuntimeError, text)


def invalid(violation: str) -> Refused:
    """The policy rejected the source; ``violation`` is one of the problems it lists."""
    return Refused(errors.SkillValidationError, "", violation=violation)


DENIED = raised("PermissionError: [Errno 13] Permission denied")
NOT_PERMITTED = raised("PermissionError: [Errno 1] Operation not permitted")
NO_NETWORK = raised("OSError: [Errno 101] Network is unreachable")
DUNDER = invalid("`().__class__`: attributes starting with '__' are not available to skills")


def denied(path: str) -> Refused:
    return raised(f"PermissionError: [Errno 13] Permission denied: '{path}'")


#: The environment the worker parent is started with (pool.Zygote.start).
ZYGOTE_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}


class Matching(str):
    """A string pattern that compares equal to any string it fully matches (inside expected data)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and re.fullmatch(str(self), other) is not None

    __hash__ = str.__hash__


ATTEMPTS: list[Attempt] = [
    # ---- files
    Attempt("read a host file with open", """
        async def s(nh, path="", **k):
            return SkillResult("x", {"escaped": open(path).read()}, 0, 0, True)
        """, {"policy": invalid("`open` is not available to skills"),
              "builtins": raised("NameError: name 'open' is not defined"),
              "landlock": denied("{path}"), "seccomp": denied("{path}")}, first="builtins"),
    Attempt("read a host file through io.FileIO found among object's subclasses", _REACH + """
        async def s(nh, path="", **k):
            return SkillResult("x", {"escaped": subclass("FileIO")(path).read().decode()}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": denied("{path}"), "seccomp": denied("{path}")}, first="seccomp"),
    Attempt("write a marker file through io.FileIO", _REACH + """
        async def s(nh, mark="", **k):
            f = subclass("FileIO")(mark, "w")
            f.write(b"x")
            f.close()
            return SkillResult("x", {"escaped": True}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": denied("{mark}"), "seccomp": denied("{mark}")}, first="seccomp"),
    Attempt("create a file through the posix module from BuiltinImporter", _REACH + """
        async def s(nh, mark="", **k):
            posix = subclass("BuiltinImporter").load_module("posix")
            fd = posix.open(mark, posix.O_WRONLY | posix.O_CREAT)
            return SkillResult("x", {"escaped": fd}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": denied("{mark}"), "seccomp": denied("{mark}")}, first="seccomp"),
    Attempt("read the host's environment through /proc", _REACH + """
        async def s(nh, host_pid=0, **k):
            data = subclass("FileIO")("/proc/%d/environ" % host_pid).read()
            return SkillResult("x", {"escaped": data.decode("latin-1")}, 0, 0, True)
        """, {"policy": DUNDER, "namespaces": denied("/proc/{host_pid}/environ"),
              "landlock": denied("/proc/{host_pid}/environ"), "seccomp": denied("/proc/{host_pid}/environ")},
            first="seccomp"),
    Attempt("read the worker's own environment", _REACH + """
        async def s(nh, **k):
            return SkillResult("x", {"environment": dict(reach("os").environ)}, 0, 0, True)
        """, {"policy": DUNDER, "environment": Returned({"environment": ZYGOTE_ENV})}, first="environment",
            # bubblewrap clears the environment and announces only the descriptors it passes on;
            # PWD is the sandbox's root and Python itself sets LC_CTYPE (PEP 538): no host value
            on_bwrap=Returned({"environment": {"HACKWRIGHT_KEEP_FDS": Matching(r"\d+(,\d+)*"), "PWD": "/",
                                               "LC_CTYPE": "C.UTF-8"}})),
    # ---- processes
    Attempt("import os and run a shell command", """
        import os
        async def s(nh, mark="", **k):
            return SkillResult("x", {"status": os.system("touch " + mark)}, 0, 0, True)
        """, {"policy": invalid("`import os` is not allowed"),
              "builtins": raised("ImportError: module 'os' is not available to skills; import only: math, random, "
                                 "itertools, collections, heapq, re, functools, dataclasses, enum, typing, statistics, "
                                 "string, operator, bisect, copy"),
              "landlock": NO_SHELL, "seccomp": SIGSYS}, first="builtins"),
    Attempt("os.system through the worker's module globals (frame walk)", _REACH + """
        async def s(nh, mark="", **k):
            return SkillResult("x", {"status": reach("os").system("touch " + mark)}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": NO_SHELL, "seccomp": SIGSYS}, first="seccomp"),
    Attempt("os.fork through a traceback's frames", _REACH + """
        async def s(nh, **k):
            os = reach("os")
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
            return SkillResult("x", {"escaped": pid}, 0, 0, True)
        """, {"policy": DUNDER, "seccomp": SIGSYS}, first="seccomp"),
    Attempt("os.execv a shell through the worker's globals", _REACH + """
        async def s(nh, mark="", **k):
            os = reach("os")
            # the shell keeps the channel open, so the host sees it close only once the shell is done
            os.set_inheritable(nh._chan.sock.fileno(), True)
            os.execv("/bin/sh", ["sh", "-c", "touch " + mark])
        """, {"policy": DUNDER, "landlock": DENIED, "seccomp": SIGSYS}, first="seccomp"),
    Attempt("ctypes: libc.system", _REACH + """
        async def s(nh, mark="", **k):
            libc = subclass("CDLL")(None)
            return SkillResult("x", {"status": libc.system(("touch " + mark).encode())}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": NO_SHELL, "seccomp": SIGSYS}, first="seccomp"),
    Attempt("exec of built code", """
        async def s(nh, mark="", **k):
            found = {}
            exec("import os; status = os.system('touch " + mark + "')", found)
            return SkillResult("x", {"status": found["status"]}, 0, 0, True)
        """, {"policy": invalid("`exec` is not available to skills"),
              "builtins": raised("NameError: name 'exec' is not defined"),
              "landlock": NO_SHELL, "seccomp": SIGSYS}, first="builtins"),
    # ---- signals (the host counts SIGUSR1; the sandbox must not let it arrive)
    Attempt("signal the host with os.kill", _REACH + f"""
        async def s(nh, host_pid=0, **k):
            reach("os").kill(host_pid, {SIGUSR1})
            return SkillResult("x", {{}}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": NOT_PERMITTED, "seccomp": NOT_PERMITTED}, first="seccomp",
            needs_landlock_abi=6),
    Attempt("ctypes: signal the host through libc.kill", _REACH + f"""
        async def s(nh, host_pid=0, **k):
            return SkillResult("x", {{"kill": subclass("CDLL")(None).kill(host_pid, {SIGUSR1})}}, 0, 0, True)
        """, {"policy": DUNDER, "landlock": Returned({"kill": -1}), "seccomp": Returned({"kill": -1})},
            first="seccomp", needs_landlock_abi=6),
    # ---- network (listeners the test opened on the host)
    Attempt("connect to a TCP listener on the host", _REACH + """
        async def s(nh, tcp_port=0, **k):
            sock = reach("socket").socket()
            sock.connect(("127.0.0.1", tcp_port))
            sock.sendall(b"escaped")
            return SkillResult("x", {}, 0, 0, True)
        """, {"policy": DUNDER, "namespaces": NO_NETWORK, "landlock": DENIED, "seccomp": SIGSYS}, first="seccomp",
            needs_landlock_abi=4),
    Attempt("send a UDP datagram to a socket on the host", _REACH + """
        async def s(nh, udp_port=0, **k):
            socket = reach("socket")
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"escaped", ("127.0.0.1", udp_port))
            return SkillResult("x", {}, 0, 0, True)
        """, {"policy": DUNDER, "namespaces": NO_NETWORK, "seccomp": SIGSYS}, first="seccomp"),
    Attempt("connect to the host's abstract unix socket", _REACH + """
        async def s(nh, unix_name="", **k):
            socket = reach("socket")
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(unix_name)
            sock.sendall(b"escaped")
            return SkillResult("x", {}, 0, 0, True)
        """, {"policy": DUNDER, "namespaces": raised("ConnectionRefusedError: [Errno 111] Connection refused"),
              "landlock": NOT_PERMITTED, "seccomp": SIGSYS}, first="seccomp", needs_landlock_abi=6),
    # ---- the game and the host's API object
    Attempt("reach the game through nh's private attributes", """
        async def s(nh, **k):
            return SkillResult("x", {"escaped": type(nh._game).__name__}, 0, 0, True)
        """, {"policy": invalid("`nh._game`: nh's internals are not available to skills"),
              "process": raised("AttributeError: 'RemoteNetHackAPI' object has no attribute '_game'")},
            first="process"),
    Attempt("ask the host for a private method over the channel", """
        async def s(nh, **k):
            return SkillResult("x", {"escaped": nh._call("_item_letter_error", ("#",), {})}, 0, 0, True)
        """, {"policy": invalid("`nh._call`: nh's internals are not available to skills"),
              "surface": raised("AttributeError: nh has no method '_item_letter_error'; see the NetHack API for "
                                "what skills can call")}, first="surface"),
    Attempt("getattr with a built string to reach a private attribute", """
        async def s(nh, **k):
            return SkillResult("x", {"escaped": str(getattr(nh, "_" + "chan"))}, 0, 0, True)
        """, {"policy": invalid("`getattr` is not available to skills"),
              "builtins": raised("AttributeError: attributes starting with '_' are not available to skills "
                                 "('_chan')")}, first="builtins"),
    # ---- budgets (the policy lets a loop through: only the limits end it)
    Attempt("a CPU loop that swallows every exception", _REACH + """
        async def s(nh, cpu=0.0, **k):
            times = reach("os").times
            used = 0.0
            while used < cpu:
                try:
                    t = times()
                    used = t.user + t.system
                except BaseException:
                    pass
            return SkillResult("x", {"cpu_used": used}, 0, 0, True)
        """, {"rlimits": CPU_OVER}, first="rlimits", params={"cpu": CPU_SECONDS + 1}),
    Attempt("an await that never returns", _REACH + """
        class Forever:
            def __init__(self, cpu):
                self.cpu = cpu
            def __await__(self):
                times = reach("os").times
                while sum(times()[:2]) < self.cpu:
                    yield
                return sum(times()[:2])
        async def s(nh, cpu=0.0, **k):
            return SkillResult("x", {"cpu_used": await Forever(cpu)}, 0, 0, True)
        """, {"rlimits": CPU_OVER}, first="rlimits", params={"cpu": CPU_SECONDS + 1}),
    Attempt("a memory bomb", """
        async def s(nh, size=0, **k):
            hog = bytearray(size)
            return SkillResult("x", {"allocated": len(hog)}, 0, 0, True)
        """, {"rlimits": MEMORY_OVER}, first="rlimits", params={"size": 4 * MEMORY_BYTES}),
    Attempt("a growing memory bomb", """
        async def s(nh, size=0, **k):
            hog = []
            while len(hog) * 10_000_000 < size:
                hog.append(" " * 10_000_000)
            return SkillResult("x", {"allocated": len(hog) * 10_000_000}, 0, 0, True)
        """, {"rlimits": MEMORY_OVER}, first="rlimits", params={"size": 4 * MEMORY_BYTES}),
    Attempt("an output flood", """
        async def s(nh, lines=0, **k):
            for _ in range(lines):
                print("x" * 100_000)
            return SkillResult("x", {}, 0, 0, True)
        """, {"output": Returned({}, log_bytes=OUTPUT_BYTES)}, first="output",
            params={"lines": 4 * OUTPUT_BYTES // 100_000 + 1}),
    Attempt("API calls in a tight loop", """
        async def s(nh, calls=0, **k):
            for i in range(calls):
                await nh.get_messages(i + 1)  # a new question each time: no answer comes from the cache
            return SkillResult("x", {"calls": calls}, 0, 0, True)
        """, {"api-calls": Refused(errors.SkillLimitError,
                                   f"the skill made more than {API_CALLS} API calls; it is probably looping without "
                                   "acting — add a stopping condition", {"limit": "api_calls"})},
            first="api-calls", params={"calls": API_CALLS + 1}),
]


@dataclass(frozen=True)
class Contained:
    """Not a way out but a skill writing past the API: the host refuses it with ``refused``. The
    same code with ``fine`` parameters instead of ``params`` is accepted and returns ``returns``,
    which shows that what the skill writes does reach the host, and the check is what stops it."""

    name: str
    code: str
    params: dict[str, Any]
    refused: Refused
    fine: dict[str, Any]
    returns: dict[str, Any]

    @property
    def source(self) -> str:
        return Attempt(self.name, self.code, {}, first="").source


MAX_FRAME = 8 * MiB

CONTAINED: list[Contained] = [
    Contained("a frame header announcing 4 GiB on the channel", _REACH + """
        async def s(nh, length=0, **k):
            body = reach("encode")({"op": "call", "m": "get_stats", "a": [], "k": {}})[4:]
            nh._chan.sock.sendall((length or len(body)).to_bytes(4, "big") + body)
            return SkillResult("x", {"reply": nh._chan.recv()["op"]}, 0, 0, True)
        """, {"length": 2**32 - 1},
        Refused(errors.SkillLimitError, "the skill sent a message the harness refuses: a frame of 4,294,967,295 "
                f"bytes is larger than the {MAX_FRAME:,}-byte limit", {"limit": "message_size"}),
        {"length": 0}, {"reply": "ret"}),
    Contained("a frame naming a type the protocol does not know", """
        async def s(nh, name="", **k):
            nh._chan.send({"op": "call", "m": "get_items_at", "a": [{"\\x00d": name, "v": [1, 2]}], "k": {}})
            return SkillResult("x", {"reply": nh._chan.recv()["op"]}, 0, 0, True)
        """, {"name": "Popen"},
        Refused(errors.SkillLimitError, "the skill sent a message the harness refuses: unknown type 'Popen'",
                {"limit": "message_size"}),
        {"name": "Position"}, {"reply": "ret"}),
    Contained("an enormous return value", """
        async def s(nh, size=0, **k):
            return SkillResult("x", {"big": "x" * size}, 0, 0, True)
        """, {"size": 16 * MiB},
        Refused(errors.SkillLimitError, "the skill's result could not be sent: message of at least 16,777,248 "
                f"bytes is larger than the {MAX_FRAME:,}-byte limit", {"limit": "result_size"}),
        {"size": MiB}, {"big": "x" * MiB}),
    Contained("a recursion bomb", """
        def f(n, depth):
            return 0 if n == depth else f(n + 1, depth) + 1
        async def s(nh, depth=-1, **k):
            return SkillResult("x", {"depth": f(0, depth)}, 0, 0, True)
        """, {"depth": -1}, raised("RecursionError: maximum recursion depth exceeded"), {"depth": 100},
        {"depth": 100}),
]

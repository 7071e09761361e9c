"""The escape battery: every attempt is blocked, the host and the game stay intact.

Each attempt runs twice: through the policy (validate=True, as model-written
skills do) and with validation switched off, so that the OS sandbox alone has to
stop it. An attempt that succeeds leaves evidence — a marker file on the host,
the host's secret in its result or log, ``data["escaped"]``, a dead or signalled
host — and the test looks for all of it. After each attempt the game must be at
the command prompt and an ordinary skill must run normally.
"""

from __future__ import annotations

import os
import signal
import textwrap
from pathlib import Path

import pytest

from hackwright.api import NetHackAPI
from hackwright.api.keyboard import PromptKind
from hackwright.env import GameConfig
from hackwright.sandbox import errors
from hackwright.sandbox.runner import SandboxLimits, SkillRunner

SECRET = "sk-hackwright-test-secret-5f3a9c"
MARK = Path("/tmp/hackwright-escape-marker")
# The host's handlers before any attempt ran (checked again after the battery).
HOST_HANDLERS = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}

# Finding a class by name among object's subclasses: the classic way out of a
# restricted namespace when the policy is switched off.
FIND = '''
def find(name):
    for c in ().__class__.__base__.__subclasses__():
        if c.__name__ == name:
            return c
    for c in ().__class__.__base__.__subclasses__():
        for s in c.__subclasses__():
            if s.__name__ == name:
                return s
    return None
def module_globals():
    try:
        raise ValueError()
    except ValueError as e:
        f = e.__traceback__.tb_frame
        while f.f_back is not None:
            f = f.f_back
        return f.f_globals
'''

ATTEMPTS = {
    "read /etc/passwd with open": '''
async def s(nh, **k):
    return SkillResult("x", {"escaped": open("/etc/passwd").read()}, 0, 0, True)
''',
    "read a file through io.FileIO found by __subclasses__": FIND + '''
async def s(nh, **k):
    return SkillResult("x", {"escaped": find("FileIO")("/etc/passwd").read()}, 0, 0, True)
''',
    "write a file through io.FileIO": FIND + '''
async def s(nh, mark="", **k):
    f = find("FileIO")(mark, "w"); f.write(b"x"); f.close()
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "import os and run a shell command": '''
import os
async def s(nh, mark="", **k):
    os.system("touch " + mark)
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "os.system through the worker's module globals (frame walk)": FIND + '''
async def s(nh, mark="", **k):
    g = module_globals()
    g["os"].system("touch " + mark)
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "os.fork through a traceback's frames": FIND + '''
async def s(nh, **k):
    pid = module_globals()["os"].fork()
    return SkillResult("x", {"escaped": pid}, 0, 0, True)
''',
    "os.execv through the worker's globals": FIND + '''
async def s(nh, **k):
    module_globals()["os"].execv("/bin/sh", ["sh", "-c", "true"])
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "the posix module through BuiltinImporter": FIND + '''
async def s(nh, mark="", **k):
    posix = find("BuiltinImporter").load_module("posix")
    fd = posix.open(mark, posix.O_WRONLY | posix.O_CREAT)
    return SkillResult("x", {"escaped": fd}, 0, 0, True)
''',
    "read the host's environment through /proc": FIND + '''
async def s(nh, host_pid=0, **k):
    data = find("FileIO")("/proc/%d/environ" % host_pid).read()
    return SkillResult("x", {"escaped": data.decode("latin-1")}, 0, 0, True)
''',
    "read the worker's own environment": FIND + '''
async def s(nh, **k):
    env = dict(module_globals()["os"].environ)  # harmless unless it holds the host's secret
    return SkillResult("x", {"environment": str(env)}, 0, 0, True)
''',
    "signal the host with os.kill": FIND + '''
async def s(nh, host_pid=0, **k):
    module_globals()["os"].kill(host_pid, 15)
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "open a TCP socket": FIND + '''
async def s(nh, **k):
    sock = module_globals()["socket"].socket()
    sock.connect(("127.0.0.1", 22))
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "ctypes: libc.system": FIND + '''
async def s(nh, mark="", **k):
    cdll = find("CDLL")
    libc = cdll(None)
    libc.system(("touch " + mark).encode())
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "ctypes: kill the host through libc": FIND + '''
async def s(nh, host_pid=0, **k):
    libc = find("CDLL")(None)
    r = libc.kill(host_pid, 15)
    return SkillResult("x", {"escaped": r == 0}, 0, 0, True)
''',
    "reach the game through nh's private attributes": '''
async def s(nh, **k):
    # In the sandbox nh holds only a channel: there is no game object to reach.
    return SkillResult("x", {"escaped": str(nh._game.env.nethack)}, 0, 0, True)
''',
    "ask the host for a private method over the channel": '''
async def s(nh, **k):
    v = nh._call("_fail", ("x",), {})
    return SkillResult("x", {"escaped": str(v)}, 0, 0, True)
''',
    "getattr with a built string to reach a private attribute": '''
async def s(nh, **k):
    name = "_" + "chan"
    return SkillResult("x", {"escaped": str(getattr(nh, name))}, 0, 0, True)
''',
    "garbage frame on the channel": FIND + '''
async def s(nh, **k):
    nh._chan.sock.sendall(b"\\xff\\xff\\xff\\xff" + b"junk" * 10)
    await nh.get_stats()
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "a frame naming an unknown type": FIND + '''
async def s(nh, **k):
    import msgpack
    body = msgpack.packb({"op": "call", "m": "get_items_at", "a": [{"\\x00d": "Popen", "v": ["sh"]}], "k": {}})
    nh._chan.sock.sendall(len(body).to_bytes(4, "big") + body)
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
    "a CPU loop that swallows every exception": '''
async def s(nh, **k):
    x = 0
    while True:
        try:
            x += 1
        except BaseException:
            pass
''',
    "a memory bomb": '''
async def s(nh, **k):
    hog = bytearray(4 * 1024 * 1024 * 1024)
    return SkillResult("x", {"escaped": len(hog)}, 0, 0, True)
''',
    "a growing memory bomb": '''
async def s(nh, **k):
    hog = []
    while True:
        hog.append(" " * 10_000_000)
''',
    "a recursion bomb": '''
def f(n):
    return f(n + 1) + 1
async def s(nh, **k):
    return SkillResult("x", {"escaped": f(0)}, 0, 0, True)
''',
    "an output flood": '''
async def s(nh, **k):
    while True:
        print("x" * 100000)
''',
    "an await that never returns": '''
class Forever:
    def __await__(self):
        while True:
            yield
async def s(nh, **k):
    await Forever()
''',
    "an enormous return value": '''
async def s(nh, **k):
    return SkillResult("x", {"big": "x" * (64 * 1024 * 1024)}, 0, 0, True)
''',
    "API calls in a tight loop": '''
async def s(nh, **k):
    while True:
        await nh.get_messages(1)
''',
    "exec of built code": '''
async def s(nh, **k):
    exec("import os; os.system('true')")
    return SkillResult("x", {"escaped": True}, 0, 0, True)
''',
}

NORMAL = '''
async def walk(nh, steps=3):
    pos = await nh.get_position()
    for d in ["n", "s", "e", "w"][:steps]:
        await nh.move(d)
    stats = await nh.get_stats()
    return SkillResult("done", {"hp": stats.hp}, steps, 0, True)
'''


def _stacks() -> list:
    from hackwright.sandbox.isolation import Stack, detect

    caps = detect()
    stacks = []
    if caps.bwrap and caps.seccomp:
        stacks.append(Stack.BWRAP)
    if caps.userns and caps.landlock_abi >= 1 and caps.seccomp:
        stacks.append(Stack.USERNS)
    return stacks or [None]


@pytest.fixture(scope="module", params=_stacks(), ids=lambda s: s.name if s else "best")
def game_and_runner(request):
    os.environ["HACKWRIGHT_TEST_SECRET"] = SECRET  # in the host's environment, as an API key would be
    api = NetHackAPI.new_game(GameConfig(seed=9))
    limits = SandboxLimits(wall_seconds=8, cpu_seconds=2, max_api_calls=3000)
    runner = SkillRunner(api, limits=limits, stack=request.param)
    yield api, runner
    runner.close()
    api.close()


def _evidence(outcome, error) -> list[str]:
    found = []
    if MARK.exists():
        found.append("a marker file was written on the host")
    texts = []
    if outcome is not None:
        texts += [repr(outcome.result.data), outcome.log]
        if outcome.result.data.get("escaped"):
            found.append(f"the skill reported success: {str(outcome.result.data['escaped'])[:200]}")
    if error is not None:
        texts += [str(error), repr(getattr(error, "log", ""))]
    if any(SECRET in t for t in texts if t):
        found.append("the host's secret leaked")
    if any("root:x:0:0" in t for t in texts if t):
        found.append("/etc/passwd was read")
    return found


@pytest.mark.parametrize("validate", [True, False], ids=["policy", "os-only"])
@pytest.mark.parametrize("name", list(ATTEMPTS))
async def test_escape_attempt_is_blocked_and_the_game_survives(game_and_runner, name, validate):
    api, runner = game_and_runner
    MARK.unlink(missing_ok=True)
    code = textwrap.dedent(ATTEMPTS[name])
    outcome = error = None
    try:
        outcome = await runner.run(code, {"mark": str(MARK), "host_pid": os.getpid()}, validate=validate)
    except errors.SkillExecutionError as e:
        error = e
    assert not _evidence(outcome, error), (name, outcome, error)
    if outcome is not None:  # ran to a result: fine only if nothing escaped (checked above)
        assert len(outcome.log) <= runner.limits.max_output_bytes
    else:
        assert isinstance(error, errors.SkillExecutionError)
        assert str(error)  # says something a model can act on
    # The host is alive and unsignalled, the game at the command prompt …
    os.kill(os.getpid(), 0)
    assert api._kb.prompt().kind in (PromptKind.NONE, PromptKind.GAME_OVER)
    # … and the next skill runs normally.
    normal = await runner.run(NORMAL, {"steps": 2})
    assert normal.result.success and normal.result.stopped_reason == "done"


def test_the_host_environment_is_not_inherited_by_workers(game_and_runner):
    api, runner = game_and_runner
    assert runner.stack is not None
    assert SECRET == os.environ["HACKWRIGHT_TEST_SECRET"]
    # The zygote was started with an empty environment: read it from the host side.
    z = runner._pool.ensure_zygote()
    environ = Path(f"/proc/{z.proc.pid}/environ").read_bytes()
    assert SECRET.encode() not in environ


def test_after_the_battery_the_hosts_signal_handlers_are_the_ones_it_started_with():
    # pytest would have died on a SIGTERM with the default handler; a replaced handler could hide one.
    assert {s: signal.getsignal(s) for s in HOST_HANDLERS} == HOST_HANDLERS

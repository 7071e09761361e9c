"""Scenarios for the OS isolation layer: a forked child isolates itself, attempts something, and
reports over an inherited pipe; the parent reads with a deadline and kills the child on timeout."""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import random
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from hackwright.sandbox.isolation import (
    Capabilities,
    CgroupJail,
    IsolationError,
    Stack,
    best_stack,
    bwrap_command,
    cgroups,
    describe,
    detect,
    isolate_child,
    landlock,
    namespaces,
    python_ro_paths,
    runsc,
    seccomp,
)

MiB = 1 << 20
CAPS = detect()
_libc = ctypes.CDLL(None, use_errno=True)

needs_userns = pytest.mark.skipif(not CAPS.userns, reason="user namespaces do not work here")
needs_landlock = pytest.mark.skipif(CAPS.landlock_abi < 1, reason="Landlock is not available")
needs_seccomp = pytest.mark.skipif(not CAPS.seccomp, reason="seccomp filters are not available")
needs_bwrap = pytest.mark.skipif(CAPS.bwrap is None, reason="bubblewrap is not installed or unusable")
needs_runsc = pytest.mark.skipif(CAPS.runsc is None, reason="gVisor (runsc) is not installed")


# --- harness ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    lines: list[str] = field(default_factory=list)
    signal: int | None = None
    exit_code: int | None = None
    timed_out: bool = False

    def line(self, prefix: str) -> str | None:
        return next((x[len(prefix):].strip() for x in self.lines if x.startswith(prefix)), None)

    @property
    def result(self) -> str | None:
        return self.line("result")


def _say(fd: int, text: str) -> None:
    os.write(fd, (text.replace("\n", " ") + "\n").encode())


def in_child(body: Callable[[int], None], timeout: float = 30.0) -> Outcome:
    """Run ``body(report_fd)`` in a forked child; collect its report lines and how it ended."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        try:
            os.close(r)
            body(w)
        except BaseException as e:  # noqa: BLE001
            try:
                _say(w, f"crashed {type(e).__name__}: {e}")
            except BaseException:  # noqa: BLE001
                pass
        finally:
            os._exit(0)
    os.close(w)
    out = Outcome()
    buf = b""
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                out.timed_out = True
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 65536)
            if not chunk:
                break
            buf += chunk
    finally:
        os.close(r)
        if out.timed_out:
            os.kill(pid, signal.SIGKILL)
        status = _wait(pid, max(0.0, deadline - time.monotonic()) + 2.0)
    out.lines = buf.decode(errors="replace").splitlines()
    if os.WIFSIGNALED(status):
        out.signal = os.WTERMSIG(status)
    elif os.WIFEXITED(status):
        out.exit_code = os.WEXITSTATUS(status)
    return out


def _wait(pid: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            return os.waitpid(pid, 0)[1]
        time.sleep(0.005)


def _describe_exc(e: BaseException) -> str:
    if isinstance(e, OSError) and e.errno is not None:
        return f"raised {type(e).__name__} {errno.errorcode.get(e.errno, e.errno)}"
    return f"raised {type(e).__name__}"


def isolated(
    attempt: Callable[[], object],
    *,
    stack: Stack = Stack.USERNS,
    keep: tuple[int, ...] = (),
    memory_bytes: int = 256 * MiB,
    cpu_seconds: int = 5,
    timeout: float = 30.0,
) -> Outcome:
    """Fork, isolate the child for ``stack``, run ``attempt()`` there and report ``result ok <repr>``
    or ``result raised <Exception> <errno>``."""

    def body(w: int) -> None:
        layers = isolate_child(stack, keep_fds=[w, *keep], memory_bytes=memory_bytes, cpu_seconds=cpu_seconds)
        _say(w, "layers " + ",".join(layers))
        try:
            _say(w, f"result ok {attempt()!r}")
        except BaseException as e:  # noqa: BLE001
            _say(w, "result " + _describe_exc(e))

    return in_child(body, timeout=timeout)


USERNS_READY = pytest.mark.skipif(
    not (CAPS.userns and CAPS.landlock_abi >= 1 and CAPS.seccomp),
    reason="user namespaces, Landlock and seccomp are not all available here",
)


# --- the isolated child: what it cannot do ----------------------------------------------------


@USERNS_READY
def test_an_isolated_child_applies_every_layer_of_the_userns_stack():
    out = isolated(lambda: "alive")
    assert out.result == "ok 'alive'"
    layers = out.line("layers").split(",")
    assert layers[:3] == ["fds", "no-dump", "pdeathsig"]
    assert {"rlimits", "user-ns", "net-ns", "ipc-ns", "uts-ns", f"landlock-abi{CAPS.landlock_abi}"} <= set(layers)
    assert layers[-1] == "seccomp"


@USERNS_READY
def test_an_isolated_child_cannot_open_etc_passwd():
    out = isolated(lambda: open("/etc/passwd").read(20))
    assert out.result == "raised PermissionError EACCES"


@USERNS_READY
@pytest.mark.parametrize("how", ["open-w", "os.open-creat", "mkdir", "unlink", "rename", "chmod", "symlink", "truncate"])
def test_an_isolated_child_cannot_write_a_file(tmp_path, how):
    victim = tmp_path / "victim.txt"
    victim.write_text("original")
    target = tmp_path / "new.txt"
    attempts = {
        "open-w": lambda: open(target, "w").write("pwned"),
        "os.open-creat": lambda: os.open(target, os.O_CREAT | os.O_WRONLY, 0o644),
        "mkdir": lambda: os.mkdir(tmp_path / "newdir"),
        "unlink": lambda: os.unlink(victim),
        "rename": lambda: os.rename(victim, target),
        "chmod": lambda: os.chmod(victim, 0o777),
        "symlink": lambda: os.symlink("/etc/passwd", target),
        "truncate": lambda: os.truncate(victim, 0),
    }
    out = isolated(attempts[how])
    assert out.result == "raised PermissionError EACCES"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim.txt"]
    assert victim.read_text() == "original"
    assert victim.stat().st_mode & 0o777 != 0o777


@USERNS_READY
@pytest.mark.parametrize(
    "how",
    ["socket.socket", "unix socket", "netlink socket", "socket.socketpair", "ctypes socket()"],
)
def test_an_isolated_child_cannot_create_a_socket_killed_by_sigsys(how):
    attempts = {
        "socket.socket": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM),
        "unix socket": lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM),
        "netlink socket": lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW),
        "socket.socketpair": socket.socketpair,
        "ctypes socket()": lambda: _libc.socket(socket.AF_UNIX, socket.SOCK_STREAM, 0),
    }
    out = isolated(attempts[how])
    assert out.signal == signal.SIGSYS, out
    assert out.result is None


@USERNS_READY
@pytest.mark.parametrize(
    "how",
    ["os.fork", "subprocess.run", "os.posix_spawn", "os.execv", "ctypes fork()"],
)
def test_an_isolated_child_cannot_fork_or_exec(how):
    attempts = {
        "os.fork": os.fork,
        "subprocess.run": lambda: subprocess.run(["/bin/true"]),
        "os.posix_spawn": lambda: os.posix_spawn("/bin/true", ["true"], {}),
        "os.execv": lambda: os.execv("/bin/true", ["true"]),
        "ctypes fork()": _libc.fork,
    }
    out = isolated(attempts[how])
    assert out.signal == signal.SIGSYS, out
    assert out.result is None


@USERNS_READY
@pytest.mark.parametrize("target", ["parent", "everyone (-1)", "init (1)", "parent via pidfd"])
def test_an_isolated_child_cannot_signal_its_parent(target):
    parent = os.getpid()
    attempts = {
        "parent": lambda: os.kill(parent, signal.SIGTERM),
        "everyone (-1)": lambda: os.kill(-1, 0),
        "init (1)": lambda: os.kill(1, 0),
        "parent via pidfd": lambda: os.pidfd_open(parent),
    }
    out = isolated(attempts[target])
    assert out.result == "raised PermissionError EPERM"


@USERNS_READY
def test_an_isolated_child_can_still_signal_itself():
    out = isolated(lambda: os.kill(os.getpid(), 0))
    assert out.result == "ok None"


@USERNS_READY
@pytest.mark.parametrize("what", ["environ", "mem", "cmdline"])
def test_an_isolated_child_cannot_read_its_parents_environment_through_proc(what):
    parent = os.getpid()
    out = isolated(lambda: open(f"/proc/{parent}/{what}", "rb").read(64))
    assert out.result == "raised PermissionError EACCES"


@USERNS_READY
def test_an_isolated_child_still_talks_over_its_inherited_socketpair():
    host, worker = socket.socketpair()

    def body(w: int) -> None:
        host.close()
        isolate_child(Stack.USERNS, keep_fds=[w, worker.fileno()], memory_bytes=256 * MiB, cpu_seconds=5)
        for _ in range(3):
            request = worker.recv(4096)
            worker.sendall(json.dumps({"echo": request.decode().upper()}).encode())
        # sendmsg/recvmsg style calls too
        data, _, _, _ = worker.recvmsg(4096)
        worker.sendmsg([b"msg:", data])
        _say(w, "result done")

    replies = []

    def talk() -> None:
        for word in ("ping", "north", "search"):
            host.sendall(word.encode())
            replies.append(json.loads(host.recv(4096)))
        host.sendall(b"x")
        replies.append(host.recv(4096))

    talker = threading.Thread(target=talk)
    talker.start()
    out = in_child(body)
    worker.close()
    talker.join(timeout=30)
    host.close()
    assert out.result == "done", out
    assert replies == [{"echo": "PING"}, {"echo": "NORTH"}, {"echo": "SEARCH"}, b"msg:x"]


@USERNS_READY
def test_an_isolated_child_keeps_a_working_python():
    def work() -> object:
        box: list[int] = []
        t = threading.Thread(target=lambda: box.append(sum(range(1000))))
        t.start()
        t.join()
        time.sleep(0.01)
        return (
            box[0],
            hashlib.sha256(b"nethack").hexdigest()[:8],
            len(os.urandom(16)),
            random.Random(7).randint(1, 6),
            json.loads(json.dumps({"hp": [1, 2]})),
            time.monotonic() > 0,
            resource.getrlimit(resource.RLIMIT_NOFILE),
            os.sysconf("SC_OPEN_MAX"),
        )

    out = isolated(work)
    assert out.result == f"ok (499500, '{hashlib.sha256(b'nethack').hexdigest()[:8]}', 16, {random.Random(7).randint(1, 6)}, {{'hp': [1, 2]}}, True, (64, 64), 64)"


@USERNS_READY
def test_an_isolated_child_closes_every_descriptor_it_was_not_asked_to_keep():
    leaked_r, leaked_w = os.pipe()
    try:
        out = isolated(lambda: os.write(leaked_w, b"leak"))
        assert out.result == "raised OSError EBADF"
        stdout = isolated(lambda: os.write(1, b"to /dev/null"))
        assert stdout.result == "ok 12"
    finally:
        os.close(leaked_r)
        os.close(leaked_w)


@USERNS_READY
def test_an_isolated_child_has_no_network_but_a_down_loopback():
    out = isolated(lambda: socket.if_nameindex(), stack=Stack.USERNS)
    # if_nameindex needs a socket: the filter kills it; the namespace is checked unfiltered below
    assert out.signal == signal.SIGSYS

    def body(w: int) -> None:
        namespaces.enter_private_namespaces()
        _say(w, f"result {sorted(name for _, name in socket.if_nameindex())}")
        try:
            socket.create_connection(("127.0.0.1", 9), timeout=1)
            _say(w, "connect ok")
        except OSError as e:
            _say(w, f"connect {errno.errorcode[e.errno]}")

    out = in_child(body)
    assert out.result == "['lo']"
    assert out.line("connect") == "ENETUNREACH"


@USERNS_READY
def test_an_isolated_child_dies_with_its_parent():
    def middle(w: int) -> None:
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                isolate_child(Stack.USERNS, keep_fds=[w, ready_w], memory_bytes=64 * MiB, cpu_seconds=5)
                os.write(ready_w, b"r")
                time.sleep(3600)  # only PDEATHSIG ends it before the test gives up waiting
            finally:
                os._exit(0)
        os.close(ready_w)
        os.read(ready_r, 1)
        _say(w, f"result {pid}")
        # returning ends the middle process: the isolated grandchild must die with it

    out = in_child(middle, timeout=30)
    grandchild = int(out.result)
    if out.timed_out:  # the grandchild outlived its parent: clean up, then fail
        os.kill(grandchild, signal.SIGKILL)
    assert not out.timed_out, "the isolated grandchild still held the pipe 30 s after its parent ended"
    # Its pipe ends close while it exits, a moment before it turns zombie: allow that moment.
    state = "?"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{grandchild}/stat") as f:
                state = f.read().split(") ")[1][0]
        except FileNotFoundError:
            state = "gone"
        if state in ("Z", "X", "gone"):
            break
        time.sleep(0.02)
    assert state in ("Z", "X", "gone"), state  # a zombie awaiting its new reaper at most


@USERNS_READY
def test_an_isolated_child_a_memory_bomb_raises_memory_error():
    def bomb() -> int:
        hoard = []
        while True:
            hoard.append(bytearray(8 * MiB))

    out = isolated(bomb, memory_bytes=128 * MiB)
    assert out.result == "raised MemoryError"


@USERNS_READY
def test_an_isolated_child_a_cpu_loop_is_stopped_by_rlimit_cpu():
    def spin() -> None:
        while True:
            pass

    out = isolated(spin, cpu_seconds=1, timeout=60)  # 1 s of CPU; a loaded machine may take many more of wall time
    assert not out.timed_out  # the harness never had to kill it: the limit did
    assert out.signal in (signal.SIGXCPU, signal.SIGKILL)


@USERNS_READY
def test_an_isolated_child_cannot_raise_its_limits_or_leave_its_namespaces():
    assert isolated(lambda: resource.setrlimit(resource.RLIMIT_CPU, (100, 100))).signal == signal.SIGSYS
    assert isolated(lambda: resource.prlimit(os.getppid(), resource.RLIMIT_CPU)).signal == signal.SIGSYS
    assert isolated(lambda: namespaces.unshare(namespaces.CLONE_NEWUSER)).signal == signal.SIGSYS


def _raw_syscall(nr: int, *args: int) -> str:
    ret = _libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(a) for a in args))
    return "0" if ret >= 0 else errno.errorcode[ctypes.get_errno()]


@USERNS_READY
def test_an_isolated_child_gets_enosys_for_clone3_and_for_syscalls_newer_than_the_table():
    out = isolated(lambda: (_raw_syscall(435, 0, 0), _raw_syscall(seccomp.LAST_KNOWN_SYSCALL + 5)))
    assert out.result == "ok ('ENOSYS', 'ENOSYS')"


@USERNS_READY
def test_an_isolated_child_is_killed_for_an_x32_system_call():
    out = isolated(lambda: _raw_syscall(seccomp.X32_SYSCALL_BIT | 39))
    assert out.signal == signal.SIGSYS


@USERNS_READY
def test_an_isolated_child_cannot_inject_keystrokes_into_a_terminal():
    TIOCSTI = 0x5412
    ch = ctypes.c_char(b"x")
    out = isolated(lambda: _libc.ioctl(0, TIOCSTI, ctypes.byref(ch)) == -1 and ctypes.get_errno())
    assert out.result == f"ok {errno.EPERM}"  # without the filter: ENOTTY (stdin is /dev/null)


# --- one layer at a time ----------------------------------------------------------------------


@needs_landlock
def test_landlock_alone_denies_files_tcp_and_signals_outside_the_domain():
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    parent = os.getpid()

    def body(w: int) -> None:
        landlock.restrict_all(landlock.abi_version())
        for name, attempt in [
            ("read", lambda: open("/etc/passwd").read(1)),
            ("environ", lambda: open(f"/proc/{parent}/environ", "rb").read(1)),
            ("tcp", lambda: socket.create_connection(("127.0.0.1", port), timeout=2)),
            ("signal", lambda: os.kill(parent, 0)),
        ]:
            try:
                attempt()
                _say(w, f"{name} allowed")
            except OSError as e:
                _say(w, f"{name} {errno.errorcode[e.errno]}")

    try:
        out = in_child(body)
    finally:
        listener.close()
    assert out.line("read") == "EACCES"
    assert out.line("environ") == "EACCES"
    if CAPS.landlock_abi >= 4:
        assert out.line("tcp") == "EACCES"
    if CAPS.landlock_abi >= 6:
        assert out.line("signal") == "EPERM"


def test_landlock_attribute_sizes_and_rights_follow_the_abi():
    assert [landlock.attr_size_for(a) for a in (1, 3, 4, 5, 6, 7)] == [8, 8, 16, 16, 24, 24]
    assert landlock.fs_access_for(1) == (1 << 13) - 1
    assert landlock.fs_access_for(3) == (1 << 15) - 1
    assert landlock.fs_access_for(5) == (1 << 16) - 1
    assert landlock.net_access_for(3) == 0 and landlock.net_access_for(4) == 3
    assert landlock.scopes_for(5) == 0 and landlock.scopes_for(6) == 3


@needs_seccomp
def test_seccomp_alone_refuses_opening_files_but_allows_threads():
    def body(w: int) -> None:
        seccomp.install_filter()
        try:
            open("/etc/hostname").read()
            _say(w, "open allowed")
        except OSError as e:
            _say(w, f"open {errno.errorcode[e.errno]}")
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()
        _say(w, "result thread ok")

    out = in_child(body)
    assert out.line("open") == "EACCES"
    assert out.result == "thread ok"


def test_the_seccomp_table_covers_the_policy_and_jumps_stay_in_range():
    assert set(seccomp.POLICY) <= set(seccomp.SYSCALLS)
    prog = seccomp.build_filter(pid=1234)
    assert len(prog) < 4096
    for i, (code, jt, jf, _k) in enumerate(prog):
        if code & 0x07 == 0x05:  # BPF_JMP
            assert 0 <= jt <= 255 and 0 <= jf <= 255
            assert i + 1 + max(jt, jf) < len(prog)
    assert seccomp.POLICY["prlimit64"] == seccomp.ReadOnlyPrlimit()
    for name in ("socket", "execve", "fork", "ptrace", "mount", "bpf", "setrlimit", "sethostname"):
        assert isinstance(seccomp.POLICY[name], seccomp.Kill)
    for name in ("open", "openat", "openat2", "creat", "unlinkat", "fchmodat2"):
        assert seccomp.POLICY[name] == seccomp.Errno(errno.EACCES)
    assert seccomp.POLICY["clone3"] == seccomp.Errno(errno.ENOSYS)
    assert "read" not in seccomp.POLICY and "sendmsg" not in seccomp.POLICY


@needs_userns
def test_namespaces_alone_map_the_child_to_nobody():
    def body(w: int) -> None:
        entered = namespaces.enter_private_namespaces()
        _say(w, f"result {entered} {os.getuid()}")

    out = in_child(body)
    assert out.result == "['user', 'net', 'ipc', 'uts'] 65534"


# --- stacks -----------------------------------------------------------------------------------


@needs_seccomp
def test_the_weak_stack_is_only_seccomp_and_rlimits():
    out = isolated(lambda: open("/etc/passwd").read(1), stack=Stack.WEAK)
    layers = out.line("layers").split(",")
    assert "seccomp" in layers and "rlimits" in layers
    assert not any(x.endswith("-ns") or x.startswith("landlock") for x in layers)
    assert out.result == "raised PermissionError EACCES"


def test_the_in_process_stack_has_no_child_to_isolate():
    with pytest.raises(IsolationError):
        isolate_child(Stack.INPROCESS, keep_fds=[], memory_bytes=MiB, cpu_seconds=1)


def test_detect_reports_bubblewrap_or_the_userns_stack_on_this_machine():
    caps = detect()
    assert caps is detect()  # cached
    assert caps.userns and caps.landlock_abi >= 1 and caps.seccomp
    expected = Stack.BWRAP if caps.bwrap else Stack.USERNS
    assert best_stack(caps) is expected
    assert best_stack(caps, prefer_strongest=False) is Stack.USERNS
    lines = describe(caps)
    assert lines[-1] == f"stack for model-written skills: {expected.value}"


def _caps(**kw: object) -> Capabilities:
    base = dict(runsc=None, bwrap=None, userns=False, landlock_abi=0, seccomp=False, cgroups=False, is_root=False)
    base.update(kw)
    return Capabilities(**base)  # type: ignore[arg-type]


def test_best_stack_prefers_the_strongest_working_stack_and_refuses_when_nothing_works():
    assert best_stack(_caps()) is None
    assert best_stack(_caps(seccomp=True)) is None  # WEAK only by explicit opt-in
    assert best_stack(_caps(runsc="/usr/bin/runsc")) is None  # gVisor is not wired to the runner yet
    assert best_stack(_caps(bwrap="/usr/bin/bwrap", seccomp=True)) is Stack.BWRAP
    assert best_stack(_caps(landlock_abi=3, seccomp=True)) is Stack.USERNS
    assert best_stack(_caps(userns=True, seccomp=True)) is Stack.USERNS
    full = _caps(runsc="/r", bwrap="/b", userns=True, landlock_abi=7, seccomp=True)
    assert best_stack(full) is Stack.BWRAP
    assert best_stack(full, prefer_strongest=False) is Stack.USERNS
    assert "opt into the weak stack" in describe(_caps())[-1]


# --- cgroups ----------------------------------------------------------------------------------


@pytest.mark.skipif(not CAPS.cgroups, reason="cgroup v1 jails need root and writable pids/memory hierarchies")
def test_a_cgroup_jail_caps_the_number_of_processes():
    jail = CgroupJail(f"test-{os.getpid()}", memory_bytes=512 * MiB, pids_max=3)
    assert jail.create(), jail.error
    try:
        assert (jail.paths["memory"] / "memory.limit_in_bytes").read_text().strip() == str(512 * MiB)

        def body(w: int) -> None:
            gate_r, gate_w = os.pipe()
            if not jail.add(os.getpid()):
                _say(w, f"result add failed {jail.error}")
                return
            started = 0
            for _ in range(6):
                try:
                    pid = os.fork()
                except BlockingIOError:
                    break
                if pid == 0:
                    os.close(gate_w)
                    os.read(gate_r, 1)
                    os._exit(0)
                started += 1
            os.close(gate_w)
            _say(w, f"result {started}")

        out = in_child(body)
        assert out.result == "2"  # the child itself plus two more reach pids.max = 3
    finally:
        assert jail.destroy()
    assert not jail.paths


def test_a_cgroup_jail_never_raises_when_cgroups_are_unusable(monkeypatch, tmp_path):
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path / "nowhere")
    jail = CgroupJail("x", memory_bytes=MiB, pids_max=1)
    assert jail.create() is False and jail.error
    assert jail.add(os.getpid()) is False
    assert jail.destroy() is True
    assert cgroups.available() is False


# --- bubblewrap -------------------------------------------------------------------------------

_BWRAP_WORKER = r"""
import os, socket, sys
from hackwright.sandbox.isolation import Stack, isolate_child
fd = int(os.environ["HACKWRIGHT_KEEP_FDS"].split(",")[0])
sock = socket.socket(fileno=fd)
sock.sendall(repr(sorted(os.listdir("/"))).encode() + b"\n")
layers = isolate_child(Stack.BWRAP, keep_fds=[fd], memory_bytes=256 << 20, cpu_seconds=5)
sock.sendall(("layers " + ",".join(layers) + "\n").encode())
try:
    open("/etc/hostname")
    sock.sendall(b"open allowed\n")
except OSError as e:
    sock.sendall(f"open {e.errno}\n".encode())
sock.sendall(b"echo " + sock.recv(100) + b"\n")
sock.sendall(b"now socket\n")
socket.socket()
sock.sendall(b"socket allowed\n")
"""


def _run_bwrap_worker() -> tuple[list[str], int]:
    host, worker = socket.socketpair()
    cmd = bwrap_command(CAPS.bwrap, [sys.executable, "-c", _BWRAP_WORKER], ro_paths=python_ro_paths(),
                        keep_fds=[worker.fileno()])
    proc = subprocess.Popen(cmd, pass_fds=[worker.fileno()], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker.close()
    host.settimeout(20)
    buf = b""
    try:
        while b"layers" not in buf:
            buf += host.recv(4096) or b"!"
        host.sendall(b"hello")
        while chunk := host.recv(4096):
            buf += chunk
    except TimeoutError:
        proc.kill()
    finally:
        host.close()
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
    return buf.decode(errors="replace").splitlines(), code


@needs_bwrap
def test_a_bwrap_worker_sees_an_empty_root_and_is_isolated_inside():
    lines, code = _run_bwrap_worker()
    root = eval(lines[0])  # noqa: S307 - our own worker's repr of a list of names
    assert "etc" not in root and "home" not in root and {"usr", "proc", "dev", "tmp"} <= set(root)
    layers = lines[1].removeprefix("layers ").split(",")
    assert "seccomp" in layers and "rlimits" in layers
    if CAPS.landlock_abi:
        assert f"landlock-abi{CAPS.landlock_abi}" in layers
    assert f"open {errno.EACCES}" in lines
    assert "echo hello" in lines
    assert "now socket" in lines and "socket allowed" not in lines
    assert code == 128 + signal.SIGSYS  # bwrap, the pid namespace's init, reports the child's SIGSYS


def test_bwrap_command_binds_read_only_and_passes_descriptors(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    cmd = bwrap_command("/usr/bin/bwrap", ["python3", "-c", "pass"], ro_paths=[str(tmp_path / "link"), "/missing"],
                        keep_fds=[7, 5])
    for flag in ("--unshare-all", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in cmd
    assert cmd[cmd.index("--cap-drop") + 1] == "ALL"
    joined = " ".join(cmd)
    assert f"--ro-bind {tmp_path / 'real'} {tmp_path / 'real'}" in joined
    assert f"--symlink {tmp_path / 'real'} {tmp_path / 'link'}" in joined
    assert "/missing" not in cmd
    assert "--proc /proc --dev /dev --tmpfs /tmp" in joined
    assert "--setenv HACKWRIGHT_KEEP_FDS 5,7" in joined
    assert cmd[-4:] == ["--", "python3", "-c", "pass"]
    assert "--bind" not in cmd  # nothing writable


# --- gVisor -----------------------------------------------------------------------------------


def test_a_runsc_bundle_has_an_empty_read_only_root(tmp_path):
    bundle = runsc.write_bundle(tmp_path / "b", ["python3", "-c", "pass"], ro_paths=python_ro_paths())
    cfg = json.loads((bundle / "config.json").read_text())
    assert list((bundle / "rootfs").iterdir()) == []
    assert cfg["root"] == {"path": "rootfs", "readonly": True}
    assert cfg["process"]["noNewPrivileges"] is True
    assert all(m["type"] != "bind" or "ro" in m["options"] for m in cfg["mounts"])
    assert {"network", "pid"} <= {n["type"] for n in cfg["linux"]["namespaces"]}
    cmd = runsc.runsc_command("/usr/bin/runsc", bundle, "w1", state_dir=tmp_path / "state")
    assert "--network=none" in cmd and "do" not in cmd


@needs_runsc
def test_a_runsc_worker_runs_in_an_empty_root(tmp_path):
    bundle = runsc.write_bundle(tmp_path / "b", [sys.executable, "-c", "import os; print(sorted(os.listdir('/')))"],
                                ro_paths=python_ro_paths())
    cmd = runsc.runsc_command(CAPS.runsc, bundle, f"hw-test-{os.getpid()}", state_dir=tmp_path / "state")
    done = subprocess.run(cmd, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-500:]
    assert "etc" not in eval(done.stdout.decode())  # noqa: S307


# --- again and again ---------------------------------------------------------------------------


@USERNS_READY
def test_ten_children_in_a_row_isolate_exit_cleanly_and_leave_the_parent_no_open_descriptor():
    # What isolating a child costs is `hackwright bench sandbox` ("cold worker fork + isolation").
    before = sorted(os.listdir("/proc/self/fd"))
    for _ in range(10):
        out = isolated(lambda: None)
        assert out.result == "ok None" and out.exit_code == 0 and not out.timed_out, out
        assert out.line("layers").split(",")[-1] == "seccomp"
    assert sorted(os.listdir("/proc/self/fd")) == before

"""Linux namespaces for a worker: a user namespace (its uid maps to nothing on the host), an empty
network namespace (only a loopback that is down), and private IPC and UTS namespaces.

Owns ``unshare`` (through libc; Python 3.11 has no ``os.unshare``) and the probe that tells whether
unprivileged user namespaces work on this machine.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import time

__all__ = [
    "CLONE_NEWUSER",
    "CLONE_NEWNET",
    "CLONE_NEWIPC",
    "CLONE_NEWUTS",
    "CLONE_NEWNS",
    "CLONE_NEWPID",
    "unshare",
    "enter_private_namespaces",
    "userns_available",
]

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

_PRIVATE = (("user", CLONE_NEWUSER), ("net", CLONE_NEWNET), ("ipc", CLONE_NEWIPC), ("uts", CLONE_NEWUTS))

_libc = ctypes.CDLL(None, use_errno=True)
_unshare = _libc.unshare
_unshare.argtypes = [ctypes.c_int]
_unshare.restype = ctypes.c_int


def unshare(flags: int) -> None:
    """``unshare(2)``; raises ``OSError`` on failure. A user namespace needs a single-threaded
    caller."""
    if _unshare(flags) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare({flags:#x}): {os.strerror(err)}")


def enter_private_namespaces() -> list[str]:
    """Move the calling process into new user, network, IPC and UTS namespaces.

    Tries all four at once, then one by one (user first, so the others need no host privilege).
    Returns the names of the namespaces entered (``"user"``, ``"net"``, ``"ipc"``, ``"uts"``).
    The new user namespace gets no uid map: the process runs as the overflow uid with no
    capabilities over anything outside the namespace."""
    try:
        unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)
        return [name for name, _ in _PRIVATE]
    except OSError:
        pass
    entered = []
    for name, flag in _PRIVATE:
        try:
            unshare(flag)
            entered.append(name)
        except OSError:
            continue
    return entered


def userns_available(timeout: float = 5.0) -> bool:
    """True when a forked child can create a user namespace and a network namespace inside it."""
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:  # child: never return into the caller's code
        code = 1
        try:
            unshare(CLONE_NEWUSER | CLONE_NEWNET)
            code = 0
        except BaseException:
            pass
        os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return False
        select.select([], [], [], 0.002)

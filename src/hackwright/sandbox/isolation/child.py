"""Turn a freshly forked (or freshly started) worker process into a sandbox, one layer at a time.

Owns the order of the layers and which of them each :class:`Stack` requires:

1. descriptors: stdin/stdout/stderr onto ``/dev/null``, every other descriptor but ``keep_fds``
   closed;
2. ``PR_SET_DUMPABLE=0`` (no ptrace or ``/proc/<pid>/mem|environ`` access by same-uid processes),
   ``PR_SET_PDEATHSIG=SIGKILL`` (dies with the thread that forked it), a new session;
3. rlimits (address space relative to the current size, CPU, descriptors, file size, no core);
4. namespaces (USERNS and BWRAP stacks): user, net, ipc, uts;
5. Landlock: no file system, no TCP, no signals or abstract sockets outside the domain;
6. seccomp, last: no sockets, processes, exec, file opening or modification, or foreign signals.

Everything the worker will need afterwards must be imported and opened before the call: after it,
no module can be imported from disk and no file can be opened.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable, Collection, Sequence

from ..layers import ISOLATION_LAYERS
from . import landlock, namespaces, rlimits, seccomp
from .detect import Stack

__all__ = ["IsolationError", "isolate_child"]

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4

_libc = ctypes.CDLL(None, use_errno=True)
_prctl = _libc.prctl
_prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_prctl.restype = ctypes.c_int


class IsolationError(RuntimeError):
    """A layer the chosen stack requires could not be applied; the process must not run skills."""


def _prctl_or_raise(option: int, value: int, what: str) -> None:
    if _prctl(option, value, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl({what}): {os.strerror(err)}")


def _protect_from_parent_loss(parent: int) -> None:
    """PDEATHSIG=SIGKILL, and die now if the parent is already gone (the signal would never
    come)."""
    _prctl_or_raise(PR_SET_PDEATHSIG, signal.SIGKILL, "PR_SET_PDEATHSIG")
    if os.getppid() != parent:
        os._exit(70)


def _close_fds(keep: set[int]) -> None:
    devnull = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        if fd not in keep and fd != devnull:
            os.dup2(devnull, fd, inheritable=True)
    keep = keep | {0, 1, 2}
    try:
        open_fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        open_fds = []
    if open_fds:
        for fd in open_fds:
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass
        return
    # no /proc: close the gaps between the kept descriptors
    lo = 3
    for fd in sorted(keep) + [os.sysconf("SC_OPEN_MAX")]:
        if fd >= lo:
            os.closerange(lo, fd)
            lo = fd + 1


def _layer(applied: list[str], name: str, action: Callable[[], object]) -> None:
    try:
        action()
    except Exception as e:
        raise IsolationError(f"{name}: {type(e).__name__}: {e}") from e
    applied.append(name)


def isolate_child(
    stack: Stack,
    *,
    keep_fds: Sequence[int],
    memory_bytes: int,
    cpu_seconds: int,
    skip: Collection[str] = (),
) -> list[str]:
    """Isolate the calling process (single-threaded: freshly forked, or just started by bwrap or
    runsc) for ``stack`` and return the names of the layers applied, in order — e.g. ``["fds",
    "no-dump", "pdeathsig", "setsid", "rlimits", "user-ns", "net-ns", "ipc-ns", "uts-ns",
    "landlock-abi7", "seccomp"]``.

    Required per stack (an :class:`IsolationError` otherwise): descriptors, dumpable, rlimits and
    seccomp always; for USERNS also at least one of the user namespace and Landlock, and Landlock
    whenever the kernel has it; for BWRAP also Landlock whenever the kernel has it (bubblewrap
    supplies the namespaces; nested ones are added when possible). RUNSC adds Landlock only when
    gVisor offers it. WEAK is seccomp + rlimits only. INPROCESS has no child and is refused.

    ``skip`` leaves out some of ``"rlimits"``, ``"namespaces"``, ``"landlock"`` and ``"seccomp"``
    (and then the requirements above that need them): only for the escape battery's positive
    controls, which reach it through ``SkillRunner(layers_off=...)`` (see ``sandbox/layers.py``)."""
    if stack is Stack.INPROCESS:
        raise IsolationError("the in-process stack runs no child process to isolate")
    skip = frozenset(skip)
    unknown = sorted(skip - set(ISOLATION_LAYERS))
    if unknown:
        raise IsolationError(f"unknown layer(s) to skip: {', '.join(unknown)}; "
                             f"choose from {', '.join(ISOLATION_LAYERS)}")
    applied: list[str] = []
    parent = os.getppid()
    keep = {int(fd) for fd in keep_fds}

    _layer(applied, "fds", lambda: _close_fds(keep))
    _layer(applied, "no-dump", lambda: _prctl_or_raise(PR_SET_DUMPABLE, 0, "PR_SET_DUMPABLE"))
    _layer(applied, "pdeathsig", lambda: _protect_from_parent_loss(parent))
    try:
        os.setsid()
        applied.append("setsid")
    except OSError:  # already a session leader (bwrap --new-session, runsc)
        pass
    if "rlimits" not in skip:
        _layer(applied, "rlimits", lambda: rlimits.apply(memory_bytes, cpu_seconds))
        # The CPU soft limit ends the worker only while SIGXCPU has its default action and is
        # not blocked; a launcher may hand either down changed.
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGXCPU})

    entered: list[str] = []
    if stack in (Stack.USERNS, Stack.BWRAP) and "namespaces" not in skip:
        entered = namespaces.enter_private_namespaces()
        applied += [f"{name}-ns" for name in entered]
        # a change of credentials may reset both; set them again
        _prctl_or_raise(PR_SET_DUMPABLE, 0, "PR_SET_DUMPABLE")
        _protect_from_parent_loss(parent)

    if stack is not Stack.WEAK and "landlock" not in skip:
        abi = landlock.abi_version()
        if abi >= 1:
            _layer(applied, f"landlock-abi{abi}", lambda: landlock.restrict_all(abi))
        if stack is Stack.USERNS and abi < 1 and "user" not in entered and "namespaces" not in skip:
            raise IsolationError("the USERNS stack needs a user namespace or Landlock; neither works")

    if "seccomp" not in skip:
        _layer(applied, "seccomp", seccomp.install_filter)
    return applied

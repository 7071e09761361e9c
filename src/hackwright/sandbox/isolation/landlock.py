"""Landlock through raw system calls: deny a worker every file-system access, TCP bind/connect, and
signals or abstract unix sockets that leave its domain.

Owns the Landlock ABI table (which access rights each ABI version knows) and the "deny everything"
ruleset: every right the running ABI handles, and no rule that grants any of them back. Descriptors
opened before :func:`restrict_all` keep working; nothing new can be opened by path.
"""

from __future__ import annotations

import ctypes
import errno
import os

from .seccomp import set_no_new_privs

__all__ = [
    "abi_version",
    "restrict_all",
    "fs_access_for",
    "net_access_for",
    "scopes_for",
    "attr_size_for",
    "KNOWN_ABI",
]

_NR_LANDLOCK_CREATE_RULESET = 444
_NR_LANDLOCK_ADD_RULE = 445  # unused: a deny-everything ruleset has no rules
_NR_LANDLOCK_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1 << 0

# file-system access rights, by the ABI version that introduced them
_FS_ABI1 = (1 << 13) - 1  # EXECUTE .. MAKE_SYM (bits 0-12)
ACCESS_FS_REFER = 1 << 13  # ABI 2
ACCESS_FS_TRUNCATE = 1 << 14  # ABI 3
ACCESS_FS_IOCTL_DEV = 1 << 15  # ABI 5
ACCESS_NET_BIND_TCP = 1 << 0  # ABI 4
ACCESS_NET_CONNECT_TCP = 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1  # ABI 6

#: The newest ABI whose rights this module knows (ABI 7 added audit flags, no new rights).
KNOWN_ABI = 7

_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


def abi_version() -> int:
    """The kernel's Landlock ABI version, or 0 when Landlock is missing or disabled."""
    ret = _syscall(
        ctypes.c_long(_NR_LANDLOCK_CREATE_RULESET), ctypes.c_void_p(None), ctypes.c_size_t(0),
        ctypes.c_uint32(_CREATE_RULESET_VERSION),
    )
    return int(ret) if ret > 0 else 0


def fs_access_for(abi: int) -> int:
    """Every file-system access right ABI ``abi`` handles."""
    mask = _FS_ABI1 if abi >= 1 else 0
    if abi >= 2:
        mask |= ACCESS_FS_REFER
    if abi >= 3:
        mask |= ACCESS_FS_TRUNCATE
    if abi >= 5:
        mask |= ACCESS_FS_IOCTL_DEV
    return mask


def net_access_for(abi: int) -> int:
    """The network access rights ABI ``abi`` handles (TCP bind and connect since ABI 4)."""
    return ACCESS_NET_BIND_TCP | ACCESS_NET_CONNECT_TCP if abi >= 4 else 0


def scopes_for(abi: int) -> int:
    """The IPC scopes ABI ``abi`` knows (abstract unix sockets and signals since ABI 6)."""
    return SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0


def attr_size_for(abi: int) -> int:
    """The ``struct landlock_ruleset_attr`` size ABI ``abi`` expects: 8, 16 (ABI 4-5) or 24."""
    return 24 if abi >= 6 else 16 if abi >= 4 else 8


def restrict_all(abi: int) -> None:
    """Restrict the calling process (and its future threads) to no file-system access at all, no
    TCP bind/connect (ABI ≥ 4), and no signals or abstract-unix connections outside its own
    Landlock domain (ABI ≥ 6). Sets ``no_new_privs`` first. Irreversible.

    ``abi`` is usually :func:`abi_version`; ABIs newer than :data:`KNOWN_ABI` are treated as it."""
    if abi < 1:
        raise OSError(errno.EOPNOTSUPP, "Landlock is not available")
    abi = min(abi, KNOWN_ABI)
    attr = _RulesetAttr(fs_access_for(abi), net_access_for(abi), scopes_for(abi))
    fd = _syscall(
        ctypes.c_long(_NR_LANDLOCK_CREATE_RULESET), ctypes.byref(attr),
        ctypes.c_size_t(attr_size_for(abi)), ctypes.c_uint32(0),
    )
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"landlock_create_ruleset: {os.strerror(err)}")
    try:
        set_no_new_privs()
        ret = _syscall(ctypes.c_long(_NR_LANDLOCK_RESTRICT_SELF), ctypes.c_int(fd), ctypes.c_uint32(0))
        if ret != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"landlock_restrict_self: {os.strerror(err)}")
    finally:
        os.close(fd)

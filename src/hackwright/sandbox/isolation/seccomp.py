"""A hand-written seccomp BPF filter for sandboxed skill workers (x86_64 only).

Owns the system-call policy of a worker process: what kills it, what fails with an errno, and what
is allowed. The filter is assembled from :data:`POLICY` into classic BPF (``struct sock_filter``)
and installed with ``prctl(PR_SET_NO_NEW_PRIVS)`` + ``prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)``
through ctypes, because Python has no seccomp binding here.

Policy in short (see :data:`POLICY` for the exact table):

* a foreign architecture (i386, x32) → kill the process;
* network sockets, new processes, exec, tracing, mounts, namespaces, kernel keys, modules, io_uring,
  bpf, clock and host-name changes, and resource-limit changes → kill the process (``SIGSYS``;
  reading one's own limits with ``prlimit64`` stays allowed);
* ``clone`` is allowed only for threads (``CLONE_THREAD`` set, no namespace flags); ``clone3`` fails
  with ``ENOSYS`` so glibc falls back to ``clone``;
* opening files and every call that modifies the file system → ``EACCES``;
* signals to anything but the process itself, pidfds, scheduling and memory-policy changes,
  ``modify_ldt`` and mount listings → ``EPERM``;
* the terminal-injection ioctls ``TIOCSTI``/``TIOCLINUX`` → ``EPERM``;
* system calls newer than this table (number > :data:`LAST_KNOWN_SYSCALL`) → ``ENOSYS``;
* everything else is allowed, so reads and writes on inherited descriptors, memory management,
  futexes, clocks and ``getrandom`` keep CPython working.

The process id is baked into the filter (``kill``/``tgkill`` to one's own pid are allowed, so
``abort()`` and ``signal.raise_signal`` work); install it in the process that will run the code.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
from dataclasses import dataclass
from typing import Union

__all__ = [
    "SYSCALLS",
    "POLICY",
    "LAST_KNOWN_SYSCALL",
    "Kill",
    "Errno",
    "ThreadsOnly",
    "SelfOnly",
    "ReadOnlyPrlimit",
    "IoctlDeny",
    "available",
    "build_filter",
    "install_filter",
]

# --- x86_64 system-call numbers used by the policy (arch/x86/entry/syscalls/syscall_64.tbl) -----

SYSCALLS: dict[str, int] = {
    # files: open and create
    "open": 2, "openat": 257, "openat2": 437, "creat": 85,
    "open_by_handle_at": 304, "name_to_handle_at": 303, "uselib": 134,
    "inotify_add_watch": 254, "fanotify_init": 300, "fanotify_mark": 301,
    "mq_open": 240, "mq_unlink": 241,
    # files: modify
    "unlink": 87, "unlinkat": 263, "rename": 82, "renameat": 264, "renameat2": 316,
    "mkdir": 83, "mkdirat": 258, "rmdir": 84, "link": 86, "linkat": 265,
    "symlink": 88, "symlinkat": 266, "chmod": 90, "fchmod": 91, "fchmodat": 268, "fchmodat2": 452,
    "chown": 92, "fchown": 93, "lchown": 94, "fchownat": 260, "truncate": 76, "ftruncate": 77,
    "mknod": 133, "mknodat": 259, "utime": 132, "utimes": 235, "futimesat": 261, "utimensat": 280,
    "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
    "fremovexattr": 199, "setxattrat": 463, "removexattrat": 466, "file_setattr": 469,
    # network
    "socket": 41, "socketpair": 53, "connect": 42, "bind": 49, "listen": 50,
    "accept": 43, "accept4": 288,
    # processes and programs
    "clone": 56, "clone3": 435, "fork": 57, "vfork": 58, "execve": 59, "execveat": 322,
    # other processes' memory and tracing
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "process_madvise": 440, "process_mrelease": 448, "migrate_pages": 256, "move_pages": 279,
    # mounts, roots and namespaces
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "unshare": 272, "setns": 308,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "mount_setattr": 442, "open_tree_attr": 467, "statmount": 457, "listmount": 458,
    "listns": 470,
    # kernel attack surface
    "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "keyctl": 250, "add_key": 248, "request_key": 249, "personality": 135,
    "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
    "delete_module": 176, "reboot": 169, "swapon": 167, "swapoff": 168,
    "acct": 163, "quotactl": 179, "quotactl_fd": 443, "syslog": 103, "vhangup": 153,
    "iopl": 172, "ioperm": 173, "sethostname": 170, "setdomainname": 171,
    "settimeofday": 164, "clock_settime": 227, "adjtimex": 159, "clock_adjtime": 305,
    "modify_ldt": 154, "lookup_dcookie": 212, "lsm_set_self_attr": 460,
    # resource limits
    "setrlimit": 160, "prlimit64": 302,
    # signals and pidfds
    "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
    "pidfd_send_signal": 424, "pidfd_open": 434, "pidfd_getfd": 438,
    # other processes' scheduling
    "setpriority": 141, "sched_setparam": 142, "sched_setscheduler": 144,
    "sched_setaffinity": 203, "sched_setattr": 314, "ioprio_set": 251,
    # terminal
    "ioctl": 16,
}

#: Highest system-call number the table knows (``listns``, Linux 6.18); newer ones get ENOSYS.
LAST_KNOWN_SYSCALL = 470

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

# seccomp return actions
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

# offsets into struct seccomp_data {int nr; u32 arch; u64 instruction_pointer; u64 args[6];}
_OFF_NR = 0
_OFF_ARCH = 4


def _arg_lo(i: int) -> int:
    """Offset of the low 32 bits of syscall argument ``i`` (little-endian)."""
    return 16 + 8 * i


# classic BPF opcodes
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

CLONE_THREAD = 0x00010000
#: CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
TIOCSTI = 0x5412
TIOCLINUX = 0x541C

# --- the policy ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kill:
    """Kill the whole process with SIGSYS."""


@dataclass(frozen=True)
class Errno:
    """Fail the call with ``errno``."""

    errno: int


@dataclass(frozen=True)
class ThreadsOnly:
    """``clone``: allow when ``CLONE_THREAD`` is set and no namespace flag is; otherwise kill."""


@dataclass(frozen=True)
class SelfOnly:
    """``kill``/``tgkill``: allow when argument 0 is this process's pid; otherwise fail with EPERM."""


@dataclass(frozen=True)
class IoctlDeny:
    """``ioctl``: fail the terminal-injection requests with EPERM; allow every other request."""


@dataclass(frozen=True)
class ReadOnlyPrlimit:
    """``prlimit64``: allow reading one's own limits (``new_limit`` NULL, pid 0 or one's own pid —
    glibc's ``getrlimit`` and ``sysconf`` use it); kill on anything else."""


Rule = Union[Kill, Errno, ThreadsOnly, SelfOnly, IoctlDeny, ReadOnlyPrlimit]

_KILL = Kill()
_EACCES = Errno(errno.EACCES)
_EPERM = Errno(errno.EPERM)

POLICY: dict[str, Rule] = {
    **{n: _KILL for n in (
        "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
        "fork", "vfork", "execve", "execveat",
        "ptrace", "process_vm_readv", "process_vm_writev",
        "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
        "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
        "open_tree_attr",
        "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
        "io_uring_register", "keyctl", "add_key", "request_key", "personality",
        "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
        "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "vhangup",
        "iopl", "ioperm", "sethostname", "setdomainname", "settimeofday", "clock_settime",
        "adjtimex", "clock_adjtime",
        "setrlimit",
    )},
    "prlimit64": ReadOnlyPrlimit(),
    "clone": ThreadsOnly(),
    "clone3": Errno(errno.ENOSYS),
    **{n: _EACCES for n in (
        "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at", "uselib",
        "inotify_add_watch", "fanotify_init", "fanotify_mark", "mq_open", "mq_unlink",
        "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
        "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "fchmodat2",
        "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "mknod", "mknodat",
        "utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
        "removexattr", "lremovexattr", "fremovexattr", "setxattrat", "removexattrat",
        "file_setattr",
    )},
    "kill": SelfOnly(),
    "tgkill": SelfOnly(),
    **{n: _EPERM for n in (
        "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal", "pidfd_open",
        "pidfd_getfd", "kcmp", "process_madvise", "process_mrelease", "migrate_pages",
        "move_pages", "statmount", "listmount", "listns",
        "setpriority", "sched_setparam", "sched_setscheduler", "sched_setaffinity",
        "sched_setattr", "ioprio_set", "modify_ldt", "lookup_dcookie", "lsm_set_self_attr",
    )},
    "ioctl": IoctlDeny(),
}

# --- assembling ---------------------------------------------------------------------------------


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


Insn = tuple[int, int, int, int]  # (code, jt, jf, k)
_INSN = struct.Struct("=HBBI")  # struct sock_filter, 8 bytes


def _ret(value: int) -> Insn:
    return (_RET_K, 0, 0, value)


def _ret_for(rule: Kill | Errno) -> Insn:
    if isinstance(rule, Kill):
        return _ret(RET_KILL_PROCESS)
    return _ret(RET_ERRNO | (rule.errno & 0xFFFF))


def _block(nr: int, rule: Rule, pid: int) -> list[Insn]:
    """Instructions for one system call, entered with the syscall number in A. Every jump is
    local: the block either returns or falls through to the next block."""
    if isinstance(rule, (Kill, Errno)):
        return [(_JEQ_K, 0, 1, nr), _ret_for(rule)]
    if isinstance(rule, ThreadsOnly):
        body = [
            (_LD_W_ABS, 0, 0, _arg_lo(0)),
            (_JSET_K, 0, 2, CLONE_THREAD),  # not a thread → kill
            (_JSET_K, 1, 0, CLONE_NAMESPACE_FLAGS),  # a thread asking for namespaces → kill
            _ret(RET_ALLOW),
            _ret(RET_KILL_PROCESS),
        ]
    elif isinstance(rule, SelfOnly):
        body = [
            (_LD_W_ABS, 0, 0, _arg_lo(0)),
            (_JEQ_K, 0, 1, pid & 0xFFFFFFFF),
            _ret(RET_ALLOW),
            _ret(RET_ERRNO | errno.EPERM),
        ]
    elif isinstance(rule, IoctlDeny):
        body = [
            (_LD_W_ABS, 0, 0, _arg_lo(1)),
            (_JEQ_K, 2, 0, TIOCSTI),
            (_JEQ_K, 1, 0, TIOCLINUX),
            _ret(RET_ALLOW),
            _ret(RET_ERRNO | errno.EPERM),
        ]
    elif isinstance(rule, ReadOnlyPrlimit):
        body = [
            (_LD_W_ABS, 0, 0, _arg_lo(2)),
            (_JEQ_K, 0, 6, 0),  # new_limit (low half) set → kill
            (_LD_W_ABS, 0, 0, _arg_lo(2) + 4),
            (_JEQ_K, 0, 4, 0),  # new_limit (high half) set → kill
            (_LD_W_ABS, 0, 0, _arg_lo(0)),
            (_JEQ_K, 1, 0, 0),  # pid 0: oneself
            (_JEQ_K, 0, 1, pid & 0xFFFFFFFF),
            _ret(RET_ALLOW),
            _ret(RET_KILL_PROCESS),
        ]
    else:  # pragma: no cover - the Rule union is closed
        raise TypeError(f"unknown seccomp rule {rule!r}")
    return [(_JEQ_K, 0, len(body), nr), *body]


def build_filter(pid: int | None = None) -> list[Insn]:
    """The filter program as ``(code, jt, jf, k)`` tuples, for process ``pid`` (default: this one)."""
    pid = os.getpid() if pid is None else pid
    prog: list[Insn] = [
        (_LD_W_ABS, 0, 0, _OFF_ARCH),
        (_JEQ_K, 1, 0, AUDIT_ARCH_X86_64),
        _ret(RET_KILL_PROCESS),
        (_LD_W_ABS, 0, 0, _OFF_NR),
        (_JGE_K, 0, 1, X32_SYSCALL_BIT),
        _ret(RET_KILL_PROCESS),
        (_JGE_K, 0, 1, LAST_KNOWN_SYSCALL + 1),
        _ret(RET_ERRNO | errno.ENOSYS),
    ]
    for name, rule in sorted(POLICY.items(), key=lambda item: SYSCALLS[item[0]]):
        prog += _block(SYSCALLS[name], rule, pid)
    prog.append(_ret(RET_ALLOW))
    if len(prog) > 4096:  # BPF_MAXINSNS
        raise ValueError(f"seccomp filter too long: {len(prog)} instructions")
    return prog


# --- installing ---------------------------------------------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True)
_prctl = _libc.prctl
_prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_prctl.restype = ctypes.c_int
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long

PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2
_NR_SECCOMP = 317
_SECCOMP_GET_ACTION_AVAIL = 2


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def set_no_new_privs() -> None:
    """``prctl(PR_SET_NO_NEW_PRIVS, 1)``: exec can never gain privileges again (needed by seccomp
    and Landlock for unprivileged processes)."""
    _check(_prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")


def available() -> bool:
    """True when this kernel runs seccomp filters on x86_64 and knows ``SECCOMP_RET_KILL_PROCESS``.
    Installs nothing."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return False
    action = ctypes.c_uint32(RET_KILL_PROCESS)
    ret = _syscall(ctypes.c_long(_NR_SECCOMP), ctypes.c_long(_SECCOMP_GET_ACTION_AVAIL),
                   ctypes.c_long(0), ctypes.byref(action))
    return ret == 0


_template: tuple[bytes, list[int]] | None = None


def _packed(pid: int) -> bytes:
    """The filter as packed ``struct sock_filter`` bytes for ``pid``. Assembled once; only the
    pid-dependent instructions are patched per process (forked children inherit the template)."""
    global _template
    if _template is None:
        a, b = build_filter(pid=1), build_filter(pid=2)
        _template = (b"".join(_INSN.pack(*insn) for insn in a), [i for i, (x, y) in enumerate(zip(a, b)) if x != y])
    blob, pid_slots = _template
    buf = bytearray(blob)
    for i in pid_slots:
        code, jt, jf, _ = _INSN.unpack_from(buf, i * _INSN.size)
        _INSN.pack_into(buf, i * _INSN.size, code, jt, jf, pid & 0xFFFFFFFF)
    return bytes(buf)


def install_filter() -> None:
    """Install the filter on the calling process (irreversible; inherited by its threads).

    Sets ``no_new_privs`` first. Call it last, after every other layer: afterwards the process can
    no longer open files, unshare, or change its resource limits."""
    if platform.machine() not in ("x86_64", "AMD64"):
        raise OSError(errno.ENOSYS, "the seccomp filter is written for x86_64 only")
    blob = _packed(os.getpid())
    array = ctypes.create_string_buffer(blob, len(blob))
    fprog = _SockFprog(len(blob) // _INSN.size, ctypes.cast(array, ctypes.POINTER(_SockFilter)))
    set_no_new_privs()
    _check(
        _prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0),
        "prctl(PR_SET_SECCOMP)",
    )


_packed(0)  # assemble at import, so forked children only patch their pid in

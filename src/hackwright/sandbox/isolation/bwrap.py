"""Command lines that run a worker inside bubblewrap (``bwrap``).

Owns the bubblewrap flags: every namespace unshared (user, pid, net, ipc, uts, cgroup), an empty
root with read-only binds of the system libraries and of the paths the worker needs (the Python
prefix, the venv, the package source), a private ``/proc``, a minimal ``/dev``, an empty ``/tmp``,
an empty environment, no capabilities, a new session, and death with the parent.

File descriptors: bwrap leaves inherited descriptors open and passes them to the program it runs
(it closes none), so a socketpair end passed with ``subprocess.Popen(..., pass_fds=keep_fds)``
reaches the worker under the same number. Because ``--clearenv`` empties the environment, the
numbers are also announced in ``HACKWRIGHT_KEEP_FDS`` (comma-separated). Inside, the worker still
calls ``isolate_child(Stack.BWRAP, ...)`` to add Landlock, seccomp and rlimits.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["bwrap_command", "python_ro_paths", "probe", "SYSTEM_DIRS", "KEEP_FDS_ENV"]

#: Top-level system directories bound read-only when present (symlinks are recreated as symlinks).
SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin")
KEEP_FDS_ENV = "HACKWRIGHT_KEEP_FDS"


def _under(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


def python_ro_paths() -> list[str]:
    """What a worker running this interpreter and the hackwright package needs to see: the
    interpreter's prefixes (venv and base installation), the real directory of the executable, and
    the source directory the ``hackwright`` package is imported from."""
    import hackwright

    paths = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
             str(Path(os.path.realpath(sys.executable)).parent)]
    paths.append(str(Path(hackwright.__file__).resolve().parent.parent))
    return list(dict.fromkeys(os.path.realpath(p) for p in paths))


def bwrap_command(
    bwrap_path: str,
    argv: Sequence[str],
    *,
    ro_paths: Iterable[str],
    keep_fds: Iterable[int],
) -> list[str]:
    """The argv that runs ``argv`` inside bubblewrap (see the module docstring for what the
    sandbox contains). ``ro_paths`` are bound at their resolved location (missing ones are
    skipped); a path that is itself a symlink is recreated as one, unless a bound directory already
    shows it. ``keep_fds`` must be passed to the bwrap process by the
    caller (``pass_fds``); they are only announced here."""
    if not argv:
        raise ValueError("argv is empty")
    fds = sorted({int(fd) for fd in keep_fds})
    if any(fd < 0 for fd in fds):
        raise ValueError(f"bad file descriptor in keep_fds: {fds}")
    cmd = [
        bwrap_path,
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--cap-drop", "ALL",
        # mounts: first the fresh ones, so read-only binds below /tmp (tests) are not hidden
        "--proc", "/proc",
        "--dev", "/dev",
        "--tmpfs", "/tmp",
    ]
    bound: list[str] = []
    for top in SYSTEM_DIRS:
        if os.path.islink(top):
            cmd += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            cmd += ["--ro-bind", top, top]
            bound.append(top)
    targets: list[str] = []
    links: list[str] = []
    for p in ro_paths:
        absolute = os.path.abspath(p)
        real = os.path.realpath(absolute)
        targets.append(real)
        if absolute != real:
            links.append(absolute)
    for p in sorted(dict.fromkeys(targets), key=lambda s: (s.count("/"), s)):
        if os.path.exists(p) and not any(_under(p, b) for b in bound):
            cmd += ["--ro-bind", p, p]
            bound.append(p)
    for link in dict.fromkeys(links):
        parent = os.path.dirname(link)
        if any(_under(link, b) for b in bound) or os.path.realpath(parent) != parent:
            continue  # visible through a bound directory, or reached through a symlinked parent
        if os.path.islink(link):
            cmd += ["--symlink", os.readlink(link), link]
    cmd += ["--chdir", "/"]
    if fds:
        cmd += ["--setenv", KEEP_FDS_ENV, ",".join(map(str, fds))]
    cmd += ["--", *argv]
    return cmd


def probe(bwrap_path: str, timeout: float = 10.0) -> str | None:
    """Run ``true`` inside the sandbox; None when that works, else a short reason."""
    true = next((p for p in ("/usr/bin/true", "/bin/true") if os.path.exists(p)), None)
    if true is None:
        return "no 'true' binary to probe with"
    try:
        done = subprocess.run(
            bwrap_command(bwrap_path, [true], ro_paths=(), keep_fds=()),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            timeout=timeout,
        )
    except (OSError, subprocess.SubprocessError) as e:
        return f"{type(e).__name__}: {e}"
    if done.returncode != 0:
        return done.stderr.decode(errors="replace").strip()[:200] or f"exit status {done.returncode}"
    return None

"""A cgroup v1 jail (pids + memory) for worker processes, root only.

Owns the jail's directories: one ``hackwright-<name>`` group per controller, created *inside the
caller's own cgroup* of that controller so that every limit already placed on the caller still
applies. Nothing here raises into the caller: when cgroups are unusable, :func:`available` says
False and the jail's methods return False.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import time
from pathlib import Path

__all__ = ["CgroupJail", "available", "CGROUP_ROOT", "CONTROLLERS"]

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("pids", "memory")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def _own_path(controller: str) -> str:
    """The calling process's cgroup path in the v1 hierarchy of ``controller`` ("/" if unknown)."""
    try:
        with open("/proc/self/cgroup") as f:
            for line in f:
                parts = line.rstrip("\n").split(":", 2)
                if len(parts) == 3 and controller in parts[1].split(","):
                    return parts[2] or "/"
    except OSError:
        pass
    return "/"


def _parent_dir(controller: str) -> Path:
    return CGROUP_ROOT / controller / _own_path(controller).lstrip("/")


def _write(path: Path, value: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def available() -> bool:
    """True when this process is root and can create groups in the v1 ``pids`` and ``memory``
    hierarchies (cgroup v2 is not supported here)."""
    try:
        if os.geteuid() != 0:
            return False
        for controller in CONTROLLERS:
            parent = _parent_dir(controller)
            if not (parent / "cgroup.procs").is_file():
                return False
            if os.statvfs(parent).f_flag & os.ST_RDONLY or not os.access(parent, os.W_OK):
                return False
        return True
    except OSError:
        return False


class CgroupJail:
    """Limits a set of processes to ``pids_max`` tasks and ``memory_bytes`` of memory (+swap).

    Typical use: ``jail.create()`` in the host; the worker joins with ``jail.add(os.getpid())``
    *before* it isolates itself (or the host adds the child's pid right after fork);
    ``jail.destroy()`` when the worker is gone (it kills stragglers)."""

    def __init__(self, name: str, memory_bytes: int, pids_max: int) -> None:
        if not _NAME.match(name):
            raise ValueError(f"bad cgroup name {name!r}: use letters, digits, '_', '.', '-'")
        self.name = name
        self.memory_bytes = int(memory_bytes)
        self.pids_max = int(pids_max)
        self.paths: dict[str, Path] = {}
        self.error: str | None = None

    @property
    def created(self) -> bool:
        return len(self.paths) == len(CONTROLLERS)

    def create(self) -> bool:
        """Create the groups and write the limits. False (and nothing left behind) on failure."""
        try:
            for controller in CONTROLLERS:
                path = _parent_dir(controller) / f"hackwright-{self.name}"
                path.mkdir(exist_ok=True)
                self.paths[controller] = path
            _write(self.paths["pids"] / "pids.max", str(self.pids_max))
            mem = self.paths["memory"]
            _write(mem / "memory.limit_in_bytes", str(self.memory_bytes))
            if (mem / "memory.memsw.limit_in_bytes").exists():
                _write(mem / "memory.memsw.limit_in_bytes", str(self.memory_bytes))
            return True
        except OSError as e:
            self.error = f"{type(e).__name__}: {e}"
            self.destroy()
            return False

    def add(self, pid: int) -> bool:
        """Move process ``pid`` into the jail (every controller). False on failure."""
        if not self.created:
            return False
        try:
            for path in self.paths.values():
                _write(path / "cgroup.procs", str(int(pid)))
            return True
        except OSError as e:
            self.error = f"{type(e).__name__}: {e}"
            return False

    def pids(self) -> list[int]:
        """The processes in the jail (union over controllers)."""
        found: set[int] = set()
        for path in self.paths.values():
            try:
                found.update(int(x) for x in (path / "cgroup.procs").read_text().split())
            except (OSError, ValueError):
                continue
        return sorted(found)

    def destroy(self, kill: bool = True, timeout: float = 2.0) -> bool:
        """Remove the groups, SIGKILLing processes still inside when ``kill``. Never raises;
        True when every group is gone."""
        deadline = time.monotonic() + timeout
        for controller, path in list(self.paths.items()):
            while True:
                try:
                    path.rmdir()
                    del self.paths[controller]
                    break
                except FileNotFoundError:
                    del self.paths[controller]
                    break
                except OSError as e:
                    if e.errno != errno.EBUSY or time.monotonic() > deadline:
                        self.error = f"{type(e).__name__}: {e}"
                        break
                    if kill:
                        for pid in self.pids():
                            try:
                                os.kill(pid, signal.SIGKILL)
                            except OSError:
                                pass
                    time.sleep(0.01)
        return not self.paths

    def __enter__(self) -> CgroupJail:
        self.create()
        return self

    def __exit__(self, *exc: object) -> None:
        self.destroy()

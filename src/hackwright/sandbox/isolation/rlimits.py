"""Resource limits for a worker: address space, CPU time, open files, file size, no core dumps.

Owns the arithmetic: a forked worker inherits its parent's address space, so the memory limit is
the current ``VmSize`` plus the budget the skill may allocate. ``RLIMIT_NPROC`` is deliberately not
used — Linux ignores it for uid 0 (also inside a user namespace) and counts every process of the
uid otherwise; the seccomp filter (no fork) and a cgroup pids limit do that job.
"""

from __future__ import annotations

import resource

__all__ = ["apply", "vm_size"]


def vm_size() -> int:
    """The calling process's virtual memory size in bytes (``VmSize`` of ``/proc/self/status``).
    Must be read before Landlock or seccomp forbid opening files."""
    with open("/proc/self/status", "rb") as f:
        for line in f:
            if line.startswith(b"VmSize:"):
                kib = int(line.split()[1])
                return kib * 1024
    raise OSError("no VmSize in /proc/self/status")


def _lower(which: int, soft: int, hard: int) -> None:
    """Set a limit, never above the current hard limit (raising it needs privilege)."""
    _, cur_hard = resource.getrlimit(which)
    if cur_hard != resource.RLIM_INFINITY:
        hard = min(hard, cur_hard)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def apply(memory_bytes: int, cpu_seconds: int, max_open_files: int = 64, max_file_size: int = 0) -> None:
    """Limit the calling process (soft = hard unless noted):

    * ``RLIMIT_AS`` = current VmSize + ``memory_bytes`` — allocations beyond raise MemoryError;
    * ``RLIMIT_CPU`` soft ``cpu_seconds`` (SIGXCPU), hard ``cpu_seconds + 1`` (SIGKILL);
    * ``RLIMIT_NOFILE`` = ``max_open_files`` (descriptors already open above it stay usable);
    * ``RLIMIT_FSIZE`` = ``max_file_size`` (writing past it to a regular file raises SIGXFSZ;
      pipes and sockets are not affected);
    * ``RLIMIT_CORE`` = 0.
    """
    if memory_bytes <= 0:
        raise ValueError("memory_bytes must be positive")
    if cpu_seconds < 1:
        raise ValueError("cpu_seconds must be at least 1 (Linux treats 0 as 1)")
    address_space = vm_size() + memory_bytes
    _lower(resource.RLIMIT_AS, address_space, address_space)
    _lower(resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 1)
    _lower(resource.RLIMIT_NOFILE, max_open_files, max_open_files)
    _lower(resource.RLIMIT_FSIZE, max_file_size, max_file_size)
    _lower(resource.RLIMIT_CORE, 0, 0)

"""What isolation this machine offers, and which stack of layers a worker should use.

Owns the capability probe (cached: it forks a couple of short-lived children and may run bwrap
once), the :class:`Stack` names shown to users, the choice of the best stack, and the lines
``hackwright sandbox check`` prints.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from enum import Enum

from . import bwrap as _bwrap
from . import cgroups as _cgroups
from . import landlock as _landlock
from . import namespaces as _namespaces
from . import seccomp as _seccomp

__all__ = ["Capabilities", "Stack", "detect", "best_stack", "describe"]


@dataclass(frozen=True)
class Capabilities:
    """What works here. ``runsc``/``bwrap`` are paths of usable binaries (None when missing or
    broken); ``notes`` explains anything found but unusable."""

    runsc: str | None
    bwrap: str | None
    userns: bool
    landlock_abi: int
    seccomp: bool
    cgroups: bool
    is_root: bool
    notes: tuple[str, ...] = ()


class Stack(Enum):
    RUNSC = "gvisor (runsc)"
    BWRAP = "bubblewrap + landlock + seccomp + rlimits"
    USERNS = "user namespaces + landlock + seccomp + rlimits"
    WEAK = "seccomp + rlimits only (weak)"
    DOCKER = "docker container (network off, read-only root, no capabilities)"
    INPROCESS = "in-process (trusted built-in skills only)"


_cached: Capabilities | None = None


def _runsc() -> tuple[str | None, str | None]:
    path = shutil.which("runsc")
    if path is None:
        return None, None
    try:
        done = subprocess.run([path, "--version"], stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"runsc at {path} does not run: {e}"
    if done.returncode != 0:
        return None, f"runsc at {path} does not run (exit status {done.returncode})"
    return path, None


def _bwrap_usable() -> tuple[str | None, str | None]:
    path = shutil.which("bwrap")
    if path is None:
        return None, None
    reason = _bwrap.probe(path)
    if reason is not None:
        return None, f"bwrap at {path} cannot build a sandbox: {reason}"
    return path, None


def detect(refresh: bool = False) -> Capabilities:
    """Probe the machine once (later calls return the cached answer unless ``refresh``)."""
    global _cached
    if _cached is not None and not refresh:
        return _cached
    notes: list[str] = []
    runsc, note = _runsc()
    notes += [note] if note else []
    bwrap, note = _bwrap_usable()
    notes += [note] if note else []
    _cached = Capabilities(
        runsc=runsc,
        bwrap=bwrap,
        userns=_namespaces.userns_available(),
        landlock_abi=_landlock.abi_version(),
        seccomp=_seccomp.available(),
        cgroups=_cgroups.available(),
        is_root=os.geteuid() == 0,
        notes=tuple(notes),
    )
    return _cached


def best_stack(caps: Capabilities, *, prefer_strongest: bool = True) -> Stack | None:
    """The stack model-written skills should run under, or None when nothing sufficient works
    (then they are refused unless the user opts into :attr:`Stack.WEAK`).

    The strongest first, as the project asks: bubblewrap (the worker parent sees an
    empty filesystem and its own namespaces; each worker then adds Landlock, seccomp
    and rlimits), else user namespaces with Landlock, seccomp and rlimits. gVisor is
    reported by ``describe`` but not used yet: its container reaches the host only
    through stdin/stdout, and the runner hands workers a socketpair (see runsc.py).
    ``prefer_strongest=False`` picks the cheapest stack with zero measured escapes
    (user namespaces: workers fork from a warm parent, no extra start-up)."""
    full_userns = caps.userns and caps.landlock_abi >= 1 and caps.seccomp
    bwrap = caps.bwrap is not None and caps.seccomp
    order: list[tuple[bool, Stack]] = [(bwrap, Stack.BWRAP), (full_userns, Stack.USERNS)]
    if not prefer_strongest:
        order.reverse()
    order.append((caps.seccomp and (caps.userns or caps.landlock_abi >= 1), Stack.USERNS))
    return next((stack for ok, stack in order if ok), None)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def describe(caps: Capabilities) -> list[str]:
    """Human-readable lines for ``hackwright sandbox check``."""
    lines = [
        f"gVisor (runsc): {caps.runsc or 'not found'}",
        f"bubblewrap (bwrap): {caps.bwrap or 'not found'}",
        f"user namespaces: {_yes(caps.userns)}",
        f"Landlock: {'ABI ' + str(caps.landlock_abi) if caps.landlock_abi else 'not available'}",
        f"seccomp filter (x86_64, kill-process): {_yes(caps.seccomp)}",
        f"cgroups v1 (pids, memory): {_yes(caps.cgroups)}",
        f"running as root: {_yes(caps.is_root)}"
        + (" (RLIMIT_NPROC is ignored for root; the seccomp filter blocks fork)" if caps.is_root else ""),
    ]
    lines += [f"note: {n}" for n in caps.notes]
    stack = best_stack(caps)
    if stack is None:
        lines.append(
            "no sufficient isolation works here: model-written skills are refused unless you opt "
            f"into the weak stack ({Stack.WEAK.value})"
        )
    else:
        missing = []
        if stack is Stack.USERNS and not caps.userns:
            missing.append("without user namespaces")
        if stack in (Stack.USERNS, Stack.BWRAP) and caps.landlock_abi < 1:
            missing.append("without Landlock")
        suffix = f" ({', '.join(missing)})" if missing else ""
        lines.append(f"stack for model-written skills: {stack.value}{suffix}")
    return lines

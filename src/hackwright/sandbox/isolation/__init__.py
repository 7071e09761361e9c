"""OS isolation for skill workers: one module per mechanism.

* :mod:`.seccomp` — the system-call filter (``install_filter``, ``SYSCALLS``, ``POLICY``);
* :mod:`.landlock` — deny all file-system, TCP and cross-domain IPC access (``abi_version``,
  ``restrict_all``);
* :mod:`.namespaces` — user/net/ipc/uts namespaces (``unshare``, ``enter_private_namespaces``);
* :mod:`.rlimits` — address space, CPU, descriptors, file size (``apply``);
* :mod:`.cgroups` — a root-only cgroup v1 pids+memory jail (``CgroupJail``);
* :mod:`.bwrap` — bubblewrap command lines; :mod:`.runsc` — gVisor OCI bundles;
* :mod:`.detect` — what works here and which :class:`Stack` to use;
* :mod:`.child` — :func:`isolate_child`, which applies a stack's layers in the right order.
"""

from __future__ import annotations

from . import bwrap, cgroups, landlock, namespaces, rlimits, runsc, seccomp
from .bwrap import bwrap_command, python_ro_paths
from .cgroups import CgroupJail
from .child import IsolationError, isolate_child
from .detect import Capabilities, Stack, best_stack, describe, detect
from .landlock import abi_version as landlock_abi
from .namespaces import enter_private_namespaces, unshare, userns_available
from .runsc import runsc_command, write_bundle
from .seccomp import SYSCALLS, install_filter

__all__ = [
    "Capabilities",
    "CgroupJail",
    "IsolationError",
    "SYSCALLS",
    "Stack",
    "best_stack",
    "bwrap",
    "bwrap_command",
    "cgroups",
    "describe",
    "detect",
    "enter_private_namespaces",
    "install_filter",
    "isolate_child",
    "landlock",
    "landlock_abi",
    "namespaces",
    "python_ro_paths",
    "rlimits",
    "runsc",
    "runsc_command",
    "seccomp",
    "unshare",
    "userns_available",
    "write_bundle",
]

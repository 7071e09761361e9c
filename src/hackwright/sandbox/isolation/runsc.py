"""gVisor (``runsc run``) command lines and OCI bundles for a worker.

Owns the bundle: an *empty* read-only root directory, read-only bind mounts of the paths the worker
needs, a private ``/proc``, ``/dev`` and ``/tmp``, no capabilities, ``noNewPrivileges``, and its own
pid, network, ipc, uts and mount namespaces; ``runsc`` runs it with ``--network=none``
(rootless when not root). Never use ``runsc do``: it shows the host file system to the sandbox.

Only stdin, stdout and stderr cross into the container, so a gVisor worker talks to the host over
pipes (``subprocess.Popen(stdin=PIPE, stdout=PIPE)``), not over an inherited socketpair.
Inside, the worker may still call ``isolate_child(Stack.RUNSC, keep_fds=[0, 1], ...)``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["write_bundle", "runsc_command", "bundle_config"]


def bundle_config(
    argv: Sequence[str],
    *,
    ro_paths: Iterable[str],
    env: Sequence[str] = ("PATH=/usr/bin:/bin",),
    memory_bytes: int | None = None,
    cpu_seconds: int | None = None,
) -> dict:
    """The OCI ``config.json`` contents (root is ``rootfs`` inside the bundle)."""
    mounts: list[dict] = [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755"]},
        {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev"]},
    ]
    seen: set[str] = set()
    for p in ["/usr", "/lib", "/lib64", "/bin", *ro_paths]:
        real = os.path.realpath(p)
        if real in seen or not os.path.exists(real):
            continue
        seen.add(real)
        mounts.append({"destination": real, "type": "bind", "source": real,
                       "options": ["rbind", "ro", "nosuid", "nodev"]})
        absolute = os.path.abspath(p)
        if absolute != real and absolute not in seen and os.path.realpath(os.path.dirname(absolute)) == os.path.dirname(absolute):
            seen.add(absolute)
            mounts.append({"destination": absolute, "type": "bind", "source": real,
                           "options": ["rbind", "ro", "nosuid", "nodev"]})
    rlimits = [{"type": "RLIMIT_CORE", "hard": 0, "soft": 0}]
    if memory_bytes is not None:
        rlimits.append({"type": "RLIMIT_AS", "hard": memory_bytes, "soft": memory_bytes})
    if cpu_seconds is not None:
        rlimits.append({"type": "RLIMIT_CPU", "hard": cpu_seconds + 1, "soft": cpu_seconds})
    return {
        "ociVersion": "1.0.0",
        "process": {
            "terminal": False,
            "user": {"uid": 0, "gid": 0},
            "args": list(argv),
            "env": list(env),
            "cwd": "/",
            "capabilities": {k: [] for k in ("bounding", "effective", "inheritable", "permitted", "ambient")},
            "noNewPrivileges": True,
            "rlimits": rlimits,
        },
        "root": {"path": "rootfs", "readonly": True},
        "hostname": "skill",
        "mounts": mounts,
        "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")]},
    }


def write_bundle(bundle_dir: str | os.PathLike[str], argv: Sequence[str], *, ro_paths: Iterable[str],
                 **config: object) -> Path:
    """Write ``config.json`` and an empty ``rootfs/`` into ``bundle_dir``; returns the directory."""
    bundle = Path(bundle_dir)
    (bundle / "rootfs").mkdir(parents=True, exist_ok=True)
    cfg = bundle_config(argv, ro_paths=ro_paths, **config)  # type: ignore[arg-type]
    (bundle / "config.json").write_text(json.dumps(cfg, indent=2))
    return bundle


def runsc_command(runsc_path: str, bundle_dir: str | os.PathLike[str], container_id: str, *,
                  state_dir: str | os.PathLike[str], rootless: bool = True) -> list[str]:
    """``runsc [--rootless] --network=none --root=<state_dir> run --bundle=<bundle> <id>``
    (rootless mode is what was measured to work here, for root and non-root alike)."""
    cmd = [runsc_path, "--network=none", f"--root={os.fspath(state_dir)}"]
    if rootless:
        cmd.insert(1, "--rootless")
    return cmd + ["run", f"--bundle={os.fspath(bundle_dir)}", container_id]

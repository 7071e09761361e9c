"""Switching sandbox layers off: for the sandbox's own escape tests, never for a game.

The escape battery (``tests/sandbox/test_escapes.py``) shows that every layer
holds on its own: an attempt must succeed with the layers switched off (its
positive control) and fail with only the layer under test on. It asks for that
with ``SkillRunner(api, layers_off={...})``. Nothing else in Hackwright passes
``layers_off``, no setting, flag or environment variable reaches it, and
:func:`check_layers_off` refuses it outside a running pytest test, so a real
episode always runs with every layer.

The policy check (``validate=False``) and the in-process mode are switched the
ordinary ways; the layers here are the ones that had no switch.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = ["LAYERS", "ISOLATION_LAYERS", "check_layers_off"]

#: The layers a test may switch off, and what each one does while it is on.
LAYERS: dict[str, str] = {
    "environment": "the worker parent starts with an empty environment (off: it inherits the host's)",
    "builtins": "skill code gets restricted builtins, imports and getattr (off: Python's own)",
    "surface": "the host answers only the API methods in surface.CALLABLE (off: any NetHackAPI method)",
    "rlimits": "address space, CPU time, descriptors and file size are limited",
    "namespaces": "user, network, IPC and UTS namespaces",
    "landlock": "Landlock: no file system, no TCP, no signals or abstract sockets out",
    "seccomp": "the system-call filter",
}
#: The layers ``isolation.isolate_child`` applies in the worker.
ISOLATION_LAYERS: tuple[str, ...] = ("rlimits", "namespaces", "landlock", "seccomp")

#: pytest sets this variable while a test runs (setup, call and teardown).
_PYTEST_MARK = "PYTEST_CURRENT_TEST"


def check_layers_off(names: Iterable[str]) -> frozenset[str]:
    """The layers to switch off, checked: every name must be in :data:`LAYERS`, and a
    non-empty set is refused unless a pytest test is running (``ValueError``, one line)."""
    if isinstance(names, str):
        names = [names]
    off = frozenset(names)
    unknown = sorted(off - set(LAYERS))
    if unknown:
        raise ValueError(f"unknown sandbox layer(s) {', '.join(map(repr, unknown))}; "
                         f"the layers are: {', '.join(LAYERS)}")
    if off and _PYTEST_MARK not in os.environ:
        raise ValueError("sandbox layers can be switched off only in the sandbox's own tests "
                         "(under pytest); run skills with every layer on")
    return off

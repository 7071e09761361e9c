"""The pre-loaded parent that forks sandboxed workers on request.

Started once per runner as a fresh Python process with an empty environment
(so no API key is ever in its memory), it imports everything a worker needs and
then waits on its control socket (SOCK_SEQPACKET, inherited from the host):

* ``{"op": "spawn", "id": n, "memory": bytes, "cpu": seconds}`` → it makes a
  socketpair and forks; the child isolates itself (``isolation.isolate_child``)
  and serves one skill on its end; the other end goes back to the host with
  ``{"op": "spawned", "id": n, "pid": pid}`` as an SCM_RIGHTS message.
* ``{"op": "kill", "pid": pid}`` → SIGKILL to that worker.
* Every worker that exits is reported as ``{"op": "exit", "pid": p, "status": s}``
  (the raw wait status, so the host can tell SIGSYS from SIGXCPU from a kill).

Forking from this warm process costs a few milliseconds instead of the tens a
fresh interpreter needs.

Run as ``python -m hackwright.sandbox.zygote FD STACK [LAYERS_OFF]``; the optional
comma-separated ``LAYERS_OFF`` comes only from ``SkillRunner(layers_off=...)``, which
the escape tests alone use (see ``layers.py``).
"""

from __future__ import annotations

import os
import select
import signal
import socket
import sys

# Pre-load what workers use, so that after isolation no file needs opening.
import bisect  # noqa: F401
import collections  # noqa: F401
import copy  # noqa: F401
import dataclasses  # noqa: F401
import enum  # noqa: F401
import functools  # noqa: F401
import heapq  # noqa: F401
import itertools  # noqa: F401
import math  # noqa: F401
import operator  # noqa: F401
import random  # noqa: F401
import re  # noqa: F401
import statistics  # noqa: F401
import string  # noqa: F401
import traceback  # noqa: F401
import typing  # noqa: F401

from .isolation import Stack, isolate_child
from .layers import ISOLATION_LAYERS
from .protocol import decode, encode
from .worker import Channel, serve

CONTROL_PACKET = 65536


def _send(ctrl: socket.socket, msg: dict, fds: tuple[int, ...] = ()) -> None:
    data = encode(msg)
    if fds:
        socket.send_fds(ctrl, [data], list(fds))
    else:
        ctrl.send(data)


def _spawn(ctrl: socket.socket, msg: dict, stack: Stack, children: set[int], off: frozenset[str]) -> None:
    host_end, worker_end = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # the worker
        code = 0
        try:
            ctrl.close()
            host_end.close()
            isolate_child(
                stack,
                keep_fds=[worker_end.fileno()],
                memory_bytes=int(msg.get("memory", 256 << 20)),
                cpu_seconds=int(msg.get("cpu", 10)),
                skip=off & set(ISOLATION_LAYERS),
            )
            serve(Channel(worker_end), restricted="builtins" not in off)
        except BaseException:  # noqa: BLE001 - never return into the zygote's loop
            code = 70
        os._exit(code)
    worker_end.close()
    children.add(pid)
    _send(ctrl, {"op": "spawned", "id": msg.get("id"), "pid": pid}, (host_end.fileno(),))
    host_end.close()


def _reap(ctrl: socket.socket, children: set[int]) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            return
        children.discard(pid)
        _send(ctrl, {"op": "exit", "pid": pid, "status": status})


def main(fd: int, stack_name: str, layers_off: str = "") -> None:
    stack = Stack[stack_name]
    off = frozenset(name for name in layers_off.split(",") if name)
    ctrl = socket.socket(fileno=fd)
    children: set[int] = set()
    # Wake the select() below when a worker exits.
    signal.signal(signal.SIGCHLD, lambda *_: None)
    try:
        while True:
            _reap(ctrl, children)
            try:
                ready, _, _ = select.select([ctrl], [], [], 0.5)
            except InterruptedError:
                continue
            if not ready:
                continue
            data = ctrl.recv(CONTROL_PACKET)
            if not data:
                break  # the host is gone
            msg = decode(data[4:])
            if msg.get("op") == "spawn":
                _spawn(ctrl, msg, stack, children, off)
            elif msg.get("op") == "kill":
                pid = int(msg.get("pid", 0))
                if pid in children:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            elif msg.get("op") == "ping":
                _send(ctrl, {"op": "pong"})
    finally:
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], *sys.argv[3:4])

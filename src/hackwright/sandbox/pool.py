"""The host's side of the sandbox's processes: the zygote, the spare worker, and liveness.

:class:`Zygote` starts the pre-loaded worker parent (``zygote.py`` is its sandbox
side) and talks to it over a control socket: spawn, kill, and the exit status of
every worker. :class:`WorkerPool` keeps one worker ready for the next skill
(asked for while the current skill runs) and hands out only a worker that
answers a ping: a spare that died while it waited (killed from outside, out of
memory) is replaced without the caller seeing it.

Process layout, which decides what a kill takes with it. User-namespace stack:
host → zygote → workers; each worker is its own session and process group, and
there is no PID namespace, so a killed worker takes no other process with it.
Bubblewrap stack: host → bwrap → bwrap's reaper (PID 1 of the sandbox's PID
namespace) → zygote → workers; killing the reaper ends every process of the
namespace, the control socket closes, and the next run starts a fresh zygote.
Worker pids here are the zygote's: under bubblewrap, pids inside that namespace.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from . import errors
from .isolation import Stack, detect
from .protocol import Channel, ChannelClosed, ProtocolError, decode, encode

MiB = 1 << 20

#: How long a live worker may take to answer a ping: it answers as soon as it has
#: isolated itself (milliseconds; seconds on a loaded machine). A dead one's channel
#: reads end-of-file at once, so this is never waited out for a dead worker.
PING_SECONDS = 10.0
#: Workers that may fail to answer in a row before the sandbox is declared unusable
#: (the first is usually a spare that died while it waited).
ATTEMPTS = 3
#: Exit reports kept for workers nobody asked about (those that ended normally).
KEPT_EXITS = 64


@dataclass
class Worker:
    """One forked, isolated worker that will run one skill.

    ``pid`` is the worker's pid as the zygote knows it; ``memory`` and ``cpu`` are
    the limits it was isolated with (bytes, CPU seconds).
    """

    pid: int
    chan: Channel
    memory: int
    cpu: int

    def answers(self, timeout: float = PING_SECONDS) -> bool:
        """True when the worker is alive and waiting for a skill (it answers a ping).

        A worker that received SIGKILL never runs again, even while the signal is
        still pending, so it can never answer; a dead worker's channel reads
        end-of-file at once.
        """
        try:
            self.chan.send({"op": "ping"})
            return self.chan.recv(timeout=timeout) == {"op": "pong"}
        except (ChannelClosed, OSError, TimeoutError, ProtocolError):
            return False


class Zygote:
    """The pre-loaded worker parent (see ``zygote.py``), seen from the host.

    ``layers_off``: sandbox layers its workers go without (escape tests only; see
    ``layers.py``)."""

    def __init__(self, stack: Stack, cpu: Optional[int] = None, layers_off: frozenset[str] = frozenset()):
        self.stack = stack
        self.cpu = cpu
        self.layers_off = layers_off
        self.proc: Optional[subprocess.Popen] = None
        self.ctrl: Optional[socket.socket] = None
        self.exits: dict[int, int] = {}
        self._spawned: dict[int, tuple[int, socket.socket]] = {}
        self._next_id = 0
        self.jail = None

    def start(self) -> None:
        host, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = [sys.executable, "-I", "-m", "hackwright.sandbox.zygote", str(child.fileno()), self.stack.name]
        if self.layers_off:
            argv.append(",".join(sorted(self.layers_off)))
        if self.stack is Stack.BWRAP:
            from .isolation import bwrap_command

            caps = detect()
            argv = bwrap_command(caps.bwrap, argv, ro_paths=_python_paths(), keep_fds=[child.fileno()])
        # An empty environment: nothing secret is ever inside the sandbox.
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        if "environment" in self.layers_off:
            env = dict(os.environ)
        cpu = self.cpu

        def pin() -> None:  # runs in the child before exec: bwrap, the zygote and its workers inherit it
            if cpu is not None:
                os.sched_setaffinity(0, {cpu})

        self.proc = subprocess.Popen(
            argv, pass_fds=[child.fileno()], env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True,
            preexec_fn=pin if cpu is not None else None,
        )
        child.close()
        self.ctrl = host
        self._jail()

    def _jail(self) -> None:
        """cgroup limits for the zygote and its workers, when running as root."""
        try:
            from .isolation import CgroupJail

            caps = detect()
            if not (caps.cgroups and caps.is_root) or self.proc is None:
                return
            jail = CgroupJail(f"hackwright-{os.getpid()}-{self.proc.pid}", memory_bytes=2048 * MiB, pids_max=16)
            if jail.create() is not False:
                jail.add(self.proc.pid)
                self.jail = jail
        except Exception:  # cgroups are a bonus layer; never fail a run for them
            self.jail = None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def healthy(self) -> bool:
        """Alive and its control channel still open.

        Under bwrap ``proc`` is bwrap itself, which outlives a killed zygote for a
        moment; the closed channel tells the truth at once.
        """
        if not self.alive or self.ctrl is None:
            return False
        try:
            while self._recv(0):
                pass
        except (ChannelClosed, OSError):
            return False
        return True

    def _recv(self, timeout: float) -> bool:
        """Read one control message into the tables; False on timeout."""
        assert self.ctrl is not None
        if not select.select([self.ctrl], [], [], timeout)[0]:
            return False
        data, fds, _flags, _addr = socket.recv_fds(self.ctrl, 65536, 4)
        if not data:
            raise ChannelClosed("the sandbox's worker parent exited")
        msg = decode(data[4:])
        op = msg.get("op")
        if op == "exit":
            self.exits[int(msg["pid"])] = int(msg["status"])
            while len(self.exits) > KEPT_EXITS:
                del self.exits[next(iter(self.exits))]
        elif op == "spawned" and fds:
            pid = int(msg["pid"])
            # A report under this pid is about an earlier worker: the zygote reaps a
            # process (and reports it) before the kernel can give its pid to a new one.
            self.exits.pop(pid, None)
            self._spawned[int(msg["id"])] = (pid, socket.socket(fileno=fds[0]))
        else:
            for fd in fds:
                os.close(fd)
        return True

    def request(self, memory: int, cpu: int) -> int:
        assert self.ctrl is not None
        self._next_id += 1
        self.ctrl.send(encode({"op": "spawn", "id": self._next_id, "memory": memory, "cpu": cpu}))
        return self._next_id

    def collect(self, req_id: int, timeout: float = 10.0) -> tuple[int, socket.socket]:
        deadline = time.monotonic() + timeout
        while req_id not in self._spawned:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the sandbox did not start a worker in time")
            self._recv(left)
        return self._spawned.pop(req_id)

    def kill(self, pid: int) -> None:
        if self.ctrl is not None and self.alive:
            try:
                self.ctrl.send(encode({"op": "kill", "pid": pid}))
            except OSError:
                pass

    def exit_status(self, pid: int, timeout: float = 2.0) -> Optional[int]:
        deadline = time.monotonic() + timeout
        while pid not in self.exits:
            left = deadline - time.monotonic()
            if left <= 0 or not self.alive:
                return None
            try:
                self._recv(left)
            except (ChannelClosed, OSError):
                return None
        return self.exits.pop(pid)

    def close(self) -> None:
        if self.ctrl is not None:
            self.ctrl.close()
            self.ctrl = None
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait(timeout=5)
            self.proc = None
        if self.jail is not None:
            try:
                self.jail.destroy()
            except Exception:
                pass
            self.jail = None


def _python_paths() -> list[str]:
    """Read-only paths a bwrap'd zygote needs: the interpreter, its stdlib, the venv, this package."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    paths.add(str(Path(__file__).resolve().parents[2]))  # the directory holding the hackwright package
    import msgpack

    paths.add(str(Path(msgpack.__file__).resolve().parents[1]))
    return sorted(p for p in paths if p and os.path.exists(p))


def describe_exit(status: Optional[int]) -> str:
    """A raw wait status in words, for error messages."""
    if status is None:
        return "no exit status"
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        return "could not isolate itself (exit status 70)" if code == 70 else f"exit status {code}"
    return f"wait status {status}"


class WorkerPool:
    """The zygote of one runner and the spare worker it keeps ready.

    ``backend`` "local" forks workers from a :class:`Zygote` running ``stack``;
    "docker" starts a container per worker (``docker_backend.DockerPool``).
    """

    def __init__(self, stack: Stack, cpu: Optional[int] = None, backend: str = "local",
                 docker_image: Optional[str] = None, docker_runtime: Optional[str] = None,
                 layers_off: frozenset[str] = frozenset()):
        self.stack = stack
        self.cpu = cpu
        self.layers_off = layers_off
        self.backend = backend
        self.docker_image, self.docker_runtime = docker_image, docker_runtime
        self.zygote: Optional[Zygote] = None
        self.spare: Optional[Worker] = None
        self.pending: Optional[tuple[int, int, int]] = None  # (request id, memory, cpu)

    def ensure_zygote(self) -> Zygote:
        """The running zygote, started (again) when there is none or it died."""
        if self.zygote is None or not self.zygote.healthy():
            if self.zygote is not None:
                self.zygote.close()
            self.spare = None
            self.pending = None
            if self.backend == "docker":
                from .docker_backend import DockerPool

                self.zygote = DockerPool(self.docker_image, self.docker_runtime)  # type: ignore[assignment]
            else:
                self.zygote = Zygote(self.stack, self.cpu, self.layers_off)
                self.zygote.start()
        return self.zygote

    def prefork(self, memory: int, cpu: int) -> None:
        """Ask for the next run's worker now; never fails (it is only a head start).

        The zygote can die between two runs (killed, out of memory) while its bwrap
        parent still looks alive for a moment: the request then meets a broken pipe,
        and the zygote is dropped so that the next run starts a fresh one.
        """
        try:
            z = self.ensure_zygote()
            if self.pending is None and self.spare is None:
                self.pending = (z.request(memory, cpu), memory, cpu)
        except (ChannelClosed, OSError):
            self.drop_zygote()

    def take(self, memory: int, cpu: int) -> Worker:
        """A live worker with these limits: the spare when it fits and answers, else a new one.

        A worker that does not answer is killed and replaced silently. Raises
        ``SandboxUnavailableError`` when the zygote cannot be (re)started or
        ``ATTEMPTS`` workers in a row die before answering.
        """
        dead: list[str] = []
        restarted = False
        while len(dead) < ATTEMPTS:
            z = self.ensure_zygote()
            try:
                worker = self._next(z, memory, cpu)
            except (ChannelClosed, OSError, TimeoutError):
                self.drop_zygote()
                if restarted:
                    raise errors.SandboxUnavailableError("the sandbox could not start a worker")
                restarted = True
                continue
            if worker.answers():
                return worker
            z.kill(worker.pid)
            worker.chan.close()
            dead.append(describe_exit(z.exit_status(worker.pid)))
        raise errors.SandboxUnavailableError(
            f"the sandbox's workers died before they could run a skill ({'; '.join(dead)}); "
            "run `hackwright sandbox check`")

    def _next(self, z: Zygote, memory: int, cpu: int) -> Worker:
        """The spare (collected if still on its way) when its limits fit, else a new worker."""
        if self.spare is None and self.pending is not None:
            rid, mem, c = self.pending
            self.pending = None
            pid, sock = z.collect(rid)
            self.spare = Worker(pid, Channel(sock), mem, c)
        if self.spare is not None and (self.spare.memory, self.spare.cpu) != (memory, cpu):
            z.kill(self.spare.pid)
            self.spare.chan.close()
            self.spare = None
        if self.spare is not None:
            worker, self.spare = self.spare, None
            return worker
        pid, sock = z.collect(z.request(memory, cpu))
        return Worker(pid, Channel(sock), memory, cpu)

    def warm_up(self, memory: int, cpu: int) -> None:
        """Start the zygote and a spare worker now rather than at the first run."""
        self.prefork(memory, cpu)
        self.spare = self.take(memory, cpu)

    def drop_zygote(self) -> None:
        """Stop the zygote (and with it every worker); the next request starts a new one."""
        if self.zygote is not None:
            self.zygote.close()
        self.zygote = None
        self.spare = None
        self.pending = None

    def close(self) -> None:
        if self.spare is not None:
            self.spare.chan.close()
        self.drop_zygote()

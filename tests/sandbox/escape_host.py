"""The host side of the escape battery: what an escape would leave behind, and the runners that try.

:class:`Host` holds the targets: a file with a secret, an environment variable with a secret, a
TCP listener, a UDP socket and an abstract unix socket on this machine, a SIGUSR1 counter, and
a fresh marker path for every run. :meth:`Host.evidence` lists what a run left behind.
:class:`Config` says which layers are on for a run; :class:`Runners` keeps one runner per
configuration (each with its own worker parent).
"""

from __future__ import annotations

import os
import signal
import socket
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, Optional

from hackwright.sandbox import errors
from hackwright.sandbox.isolation import Stack
from hackwright.sandbox.layers import LAYERS
from hackwright.sandbox.runner import SandboxLimits, SkillOutcome, SkillRunner

from .escape_attempts import (API_CALLS, CPU_SECONDS, MEMORY_BYTES, OUTPUT_BYTES, WALL_SECONDS, Attempt, Expect,
                              MiB, Refused, Returned)

#: Every layer a test can switch off: the policy, the worker process itself, the runtime
#: layers of ``hackwright.sandbox.layers``, and two of the runner's budgets.
TEST_LAYERS: dict[str, str] = {
    "policy": "the static check of the skill's source (validate=True)",
    "process": "the skill runs in a worker process, not beside the game (off: the runner's in-process mode)",
    **LAYERS,
    "output": f"the skill's log is capped at {OUTPUT_BYTES} bytes",
    "api-calls": f"a run may make at most {API_CALLS} API calls",
}
BUDGETS = ("output", "api-calls")

SECRET = "sk-hackwright-test-secret-5f3a9c"  # in the host's environment, as an API key would be
SECRET_VARIABLE = "HACKWRIGHT_TEST_SECRET"
FILE_SECRET = "hackwright-escape-file-secret-81d2"


@dataclass(frozen=True)
class Config:
    """How one run is made: validated or not, in a worker or in-process, which layers and budgets."""

    validate: bool
    in_process: bool
    layers_off: frozenset[str]
    budgets: frozenset[str]

    @classmethod
    def with_on(cls, on: set[str], attempt: Attempt) -> "Config":
        """Only the layers ``on`` (names of TEST_LAYERS). The in-process mode is used only for an
        attempt the worker process itself must stop: every other attempt would run its system
        calls in pytest's own process."""
        return cls(validate="policy" in on,
                   in_process="process" not in on and "process" in attempt.holds,
                   layers_off=frozenset(LAYERS) - on,
                   budgets=frozenset(BUDGETS) & on)

    def limits(self) -> SandboxLimits:
        # The rlimits budget is always asked for; only the "rlimits" layer enforces it.
        return SandboxLimits(wall_seconds=WALL_SECONDS, cpu_seconds=CPU_SECONDS, memory_bytes=MEMORY_BYTES,
                             max_api_calls=API_CALLS if "api-calls" in self.budgets else 10**9,
                             max_output_bytes=OUTPUT_BYTES if "output" in self.budgets else 64 * MiB)

    def describe(self) -> str:
        on = [name for name in TEST_LAYERS if self.has(name)]
        return "layers on: " + (", ".join(on) or "none")

    def has(self, layer: str) -> bool:
        if layer == "policy":
            return self.validate
        if layer == "process":
            return not self.in_process
        if layer in BUDGETS:
            return layer in self.budgets
        return layer not in self.layers_off


class Host:
    """The targets of the battery, on this machine, and the evidence that one was reached."""

    def __init__(self, root: Path):
        self.root = root
        self.secret_file = root / "secret.txt"
        self.secret_file.write_text(FILE_SECRET)
        self._runs = count()
        # /proc/<pid>/environ shows the environment the host was started with, not later changes
        self.start_environment = Path("/proc/self/environ").read_bytes().decode("latin-1").rstrip("\0")
        self._saved_secret = os.environ.get(SECRET_VARIABLE)
        os.environ[SECRET_VARIABLE] = SECRET  # set before any worker parent starts
        self.signals = 0
        self._saved_handler = signal.signal(signal.SIGUSR1, self._count_signal)
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.unix_name = f"\0hackwright-escapes-{os.getpid()}"
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind(self.unix_name)
        self.unix.listen(8)
        for s in (self.tcp, self.udp, self.unix):
            s.setblocking(False)

    def _count_signal(self, signum, frame) -> None:
        self.signals += 1

    def params(self, attempt: Attempt) -> dict[str, Any]:
        """The run's parameters: where the targets are, and a marker path no run used before."""
        return {"mark": str(self.root / f"marker-{next(self._runs)}"), "path": str(self.secret_file),
                "host_pid": os.getpid(), "tcp_port": self.tcp.getsockname()[1],
                "udp_port": self.udp.getsockname()[1], "unix_name": self.unix_name, **attempt.params}

    def evidence(self, params: dict[str, Any], signals_before: int, outcome: Optional[SkillOutcome],
                 error: Optional[BaseException]) -> list[str]:
        """Everything a run left that only an escape could have: empty when nothing got out.
        Reads (and so clears) the listeners' queues."""
        found = []
        if Path(params["mark"]).exists():
            found.append("a marker file was written on the host")
        if self.signals > signals_before:
            found.append("the host received SIGUSR1")
        if _accepted(self.tcp):
            found.append("the host's TCP listener was connected to")
        if _received(self.udp):
            found.append("the host's UDP socket received a datagram")
        if _accepted(self.unix):
            found.append("the host's abstract unix socket was connected to")
        texts: list[str] = []
        data: dict = {}
        if outcome is not None:
            data = outcome.result.data if isinstance(outcome.result.data, dict) else {}
            texts += [str(v) for v in data.values()] + [outcome.log]
            if data.get("escaped"):
                found.append(f"the skill got what it asked for: {str(data['escaped'])[:120]!r}")
            if data.get("cpu_used", 0) > CPU_SECONDS:
                found.append(f"the skill used {data['cpu_used']} CPU seconds (budget {CPU_SECONDS})")
            if data.get("allocated", 0) > MEMORY_BYTES:
                found.append(f"the skill allocated {data['allocated']} bytes (budget {MEMORY_BYTES})")
            if data.get("calls", 0) > API_CALLS:
                found.append(f"the skill made {data['calls']} API calls (budget {API_CALLS})")
            if len(outcome.log) > OUTPUT_BYTES:
                found.append(f"the skill's log holds {len(outcome.log)} bytes (budget {OUTPUT_BYTES})")
        if error is not None:
            texts += [str(error), str(getattr(error, "log", ""))]
        if any(SECRET in t for t in texts):
            found.append("the host's secret environment variable leaked")
        if any(FILE_SECRET in t for t in texts):
            found.append("the host's secret file was read")
        if self.start_environment and any(self.start_environment in t for t in texts):
            found.append("the host's environment was read through /proc")
        return found

    def close(self) -> None:
        for s in (self.tcp, self.udp, self.unix):
            s.close()
        signal.signal(signal.SIGUSR1, self._saved_handler)
        if self._saved_secret is None:
            os.environ.pop(SECRET_VARIABLE, None)
        else:
            os.environ[SECRET_VARIABLE] = self._saved_secret


def _accepted(listener: socket.socket) -> bool:
    try:
        conn, _ = listener.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True


def _received(sock: socket.socket) -> bool:
    try:
        sock.recv(64)
    except BlockingIOError:
        return False
    return True


class Runners:
    """One runner per (stack, configuration), started on first use, all against one game."""

    def __init__(self, api):
        self.api = api
        self._made: dict[tuple, SkillRunner] = {}

    def get(self, stack: Stack, config: Config) -> SkillRunner:
        key = (None if config.in_process else stack, config.in_process, config.layers_off)
        if key not in self._made:
            if config.in_process:
                runner = SkillRunner(self.api, mode="inprocess", limits=config.limits())
            else:
                runner = SkillRunner(self.api, stack=stack, limits=config.limits(), layers_off=config.layers_off)
            self._made[key] = runner
        return self._made[key]

    async def run(self, host: Host, stack: Stack, config: Config, attempt: Attempt):
        """Run the attempt once: (params, outcome or None, error or None, evidence)."""
        params = host.params(attempt)
        signals_before = host.signals
        outcome = error = None
        try:
            outcome = await self.get(stack, config).run(attempt.source, params, validate=config.validate,
                                                        limits=config.limits())
        except errors.SkillExecutionError as e:
            error = e
        return params, outcome, error, host.evidence(params, signals_before, outcome, error)

    def close(self) -> None:
        for runner in self._made.values():
            runner.close()
        self._made.clear()


def mismatches(expect: Expect, params: dict[str, Any], outcome: Optional[SkillOutcome],
               error: Optional[BaseException]) -> list[str]:
    """How a run differs from what the layer gives: empty when it is exactly that."""
    if isinstance(expect, Refused):
        if error is None:
            assert outcome is not None
            return [f"it ran to a result {outcome.result.data!r} instead of raising {expect.error.__name__}"]
        problems = []
        if type(error) is not expect.error:
            return [f"it raised {type(error).__name__}({error}) instead of {expect.error.__name__}"]
        if expect.error is errors.SkillValidationError:
            said = [v.what for v in error.violations]
            n = len(said)
            wanted = f"{n} problem{'s' if n != 1 else ''} found; fix {'them all' if n != 1 else 'it'} and submit the " \
                     "skill again"
            if str(error) != wanted:
                problems.append(f"the message is {str(error)!r}, not {wanted!r}")
            if expect.violation not in said:
                problems.append(f"no violation says {expect.violation!r}; they say {said!r}")
        elif str(error) != expect.message.format(**params):
            problems.append(f"the message is {str(error)!r}, not {expect.message.format(**params)!r}")
        for name, value in expect.fields.items():
            if getattr(error, name, None) != value:
                problems.append(f"its {name} is {getattr(error, name, None)!r}, not {value!r}")
        return problems
    assert isinstance(expect, Returned)
    if error is not None:
        return [f"it raised {type(error).__name__}({error}) instead of returning {expect.data!r}"]
    assert outcome is not None
    problems = []
    if outcome.result.data != expect.data:
        problems.append(f"it returned {outcome.result.data!r}, not {expect.data!r}")
    if expect.log_bytes is not None and len(outcome.log) != expect.log_bytes:
        problems.append(f"its log holds {len(outcome.log)} bytes, not {expect.log_bytes}")
    return problems

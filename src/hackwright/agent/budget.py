"""Limits on what a run may spend on the model: calls, tokens, dollars and wall-clock time.

``budget.charge(reply)`` after every model reply; ``budget.exhausted()`` before the next
call returns why the run must stop (or None). Tokens count everything the API bills:
input, output, cache reads and cache writes. The wall clock starts when the budget is made
(or at :meth:`Budget.restart`). A limit of None is no limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional


@dataclass
class Budget:
    max_calls: Optional[int] = None
    max_tokens: Optional[int] = None
    max_usd: Optional[float] = None
    max_wall_s: Optional[float] = None
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    calls: int = field(default=0, init=False)
    tokens: int = field(default=0, init=False)
    usd: float = field(default=0.0, init=False)
    started: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def restart(self) -> None:
        """Start the wall clock again (the counters stay)."""
        self.started = self.clock()

    @property
    def elapsed_s(self) -> float:
        return self.clock() - self.started

    def charge(self, reply) -> None:
        """Count one model reply (a :class:`ModelReply`, or anything with its token and cost fields)."""
        self.calls += 1
        total = getattr(reply, "total_tokens", None)
        if total is None:
            total = sum(getattr(reply, k, 0) or 0 for k in
                        ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"))
        self.tokens += int(total)
        self.usd += float(getattr(reply, "cost_usd", 0.0) or 0.0)

    def exhausted(self) -> Optional[str]:
        """Why no further call may be made, or None while the budget lasts."""
        if self.max_calls is not None and self.calls >= self.max_calls:
            return f"model call budget exhausted: {self.calls} of {self.max_calls} calls made"
        if self.max_tokens is not None and self.tokens >= self.max_tokens:
            return f"token budget exhausted: {self.tokens} of {self.max_tokens} tokens used"
        if self.max_usd is not None and self.usd >= self.max_usd:
            return f"cost budget exhausted: ${self.usd:.4f} of ${self.max_usd:.4f} spent"
        if self.max_wall_s is not None and self.elapsed_s >= self.max_wall_s:
            return f"time budget exhausted: {self.elapsed_s:.1f} s of {self.max_wall_s:.1f} s elapsed"
        return None

    def summary(self) -> dict:
        return {"calls": self.calls, "tokens": self.tokens, "usd": round(self.usd, 6),
                "elapsed_s": round(self.elapsed_s, 3), "limits": {"max_calls": self.max_calls,
                "max_tokens": self.max_tokens, "max_usd": self.max_usd, "max_wall_s": self.max_wall_s}}

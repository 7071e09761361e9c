"""Every API call a skill makes, counted against ``SandboxLimits.max_api_calls``.

A sandboxed skill's worker answers a query asked again in the same game state from
its own cache, without a word to the host (``worker.RemoteNetHackAPI``). So that a
skill looping on ``nh.get_stats()`` is stopped by this budget and not only by the CPU
limit, the worker counts those answers by method and reports them with its next
message to the host (``"local"``: method -> count), and once the budget is spent it
asks the host instead of its cache; the host adds the reports here and stops the run.
In-process (trusted) skills count through the same class.
"""

from __future__ import annotations

from collections import Counter

from . import errors, surface

LOCAL_KEY = "local"  # the frame field carrying the worker's cached answers by method
_KNOWN = surface.CALLABLE | frozenset(surface.LOCAL) | frozenset(surface.SKILL_CALLS)


class CallBudget:
    """The calls of one skill run: how many, of which methods, against ``limit``."""

    def __init__(self, limit: int):
        self.limit = int(limit)
        self.total = 0
        self.by_method: Counter[str] = Counter()

    def add(self, method: object, n: int = 1) -> None:
        """Count ``n`` calls of ``method`` (a name the skill called, whatever it was)."""
        name = method if isinstance(method, str) and method in _KNOWN else "an unknown method"
        self.by_method[name] += n
        self.total += n

    def add_local(self, counts: object) -> None:
        """Count the worker's report of answers it gave from its cache. The worker runs the
        skill's code, so anything malformed in the report is ignored."""
        if not isinstance(counts, dict):
            return
        for method, n in list(counts.items())[:len(_KNOWN)]:
            if isinstance(method, str) and method in surface.QUERIES and type(n) is int and n > 0:
                self.add(method, min(n, self.limit + 1))

    @property
    def spent(self) -> bool:
        """More calls than the budget allows were made."""
        return self.total > self.limit

    def stop_reason(self) -> str:
        """Why the run stopped, e.g. "api_call_budget: 50000 calls, mostly get_stats (49990)"."""
        top = self.by_method.most_common(1)
        mostly = f", mostly {top[0][0]} ({top[0][1]})" if top else ""
        return f"api_call_budget: {self.limit} calls{mostly}"

    def error(self) -> errors.SkillLimitError:
        """The error that ends a run over its budget, naming the method it was spent on."""
        return errors.SkillLimitError(
            f"the skill made more than {self.limit} API calls; it is probably looping without acting — "
            "add a stopping condition", limit=errors.API_CALLS, value=self.limit, used=self.total,
            detail=self.stop_reason())


__all__ = ["CallBudget", "LOCAL_KEY"]

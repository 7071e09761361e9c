"""The strategist protocol: what a plug-in must offer to play in Hackwright's loop.

A strategist is any object with a ``name`` and an ``async decide(ctx)`` that returns one
decision per step. It sees exactly what a model sees (the game state and, on request,
the very prompt a model would be sent) and answers with exactly what a model answers
(invoke a library skill, create a skill with code, send a key, look something up, show
a skill's code). The built-in autopilot, the baselines and the model strategist all
have this shape; a plug-in loaded with ``--agent module:Class``,
``--agent path/to/file.py:Class`` or an entry point of the ``hackwright.strategists``
group plays under the same loop, budgets, sandbox and records.

The helpers below build decisions without spelling out :class:`AgentDecision`'s fields;
:func:`as_decision` turns what a plug-in returned (a decision, its JSON-like dict, or a
model's text reply) into a decision, or says what is wrong with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Protocol, runtime_checkable

from ..decisions import AgentDecision, DecisionError, decision_from_dict, parse_decision

if TYPE_CHECKING:  # the loop imports this package: name its context for type checkers only
    from ..loop import DecisionContext


@runtime_checkable
class Strategist(Protocol):
    """Decides what the hero does next, one decision per call.

    Required:

    - ``name: str`` a short description of the strategist. Results are recorded under
      the name it was loaded by (``module:Class``, ``path/file.py:Class`` or the entry
      point's name), so that no plug-in can pass for another or for a model.
    - ``async def decide(self, ctx) -> AgentDecision`` called at every step with a
      :class:`~hackwright.agent.loop.DecisionContext`:

      - ``ctx.api``: the game's :class:`~hackwright.api.NetHackAPI` (read it freely; act
        through decisions, so that every action is recorded and budgeted);
      - ``ctx.state``: a dict read just before the call: ``"stats"`` (Stats: hp, max_hp,
        hunger, dungeon_level, turn, position, …), ``"position"`` (Position),
        ``"monsters"`` (list of Monster), ``"inventory"`` (list of Item),
        ``"status_effects"`` (list of str), ``"messages"`` (the last messages, list of
        str), ``"level"`` (DungeonLevel: tiles, stairs_down, explored_percentage, …),
        ``"screen"`` (the 24x80 text screen) and ``"frontier"`` (the nearest unexplored
        Position, or None);
      - ``ctx.skill_names``: the set of library skill names ``invoke_skill`` may name;
        ``ctx.skills``: those skills (name, description, parameters, code), the most
        relevant to the situation first;
      - ``ctx.memory``: the episode's memory (timeline, executions, errors) that the
        prompt summarises;
      - ``ctx.task``: the task text of a scenario, or None;
      - ``ctx.prompt()``: the PromptParts a model would be sent now (``.system``, the
        static part, the same every step; ``.user``, the dynamic part; ``.sections``,
        the user part by named section), built on the first call and kept for the step;
      - ``ctx.record_reply(reply, prompt, messages)``: for a plug-in that asks a model
        of its own through a Hackwright backend, records the exchange so that calls,
        tokens and cost are counted and budgeted as for the built-in model strategist.

      It returns an :class:`AgentDecision` (see :func:`invoke_skill`,
      :func:`create_skill`, :func:`direct_action`, :func:`lookup`, :func:`show_skill`);
      a dict in the decision format or a model's text reply are accepted as well.
      Raising :class:`DecisionError` (or returning something that is no decision) is an
      unusable decision: the step plays nothing, three in a row end the episode, and
      with ``--fallback autopilot`` the autopilot plays the step instead, counted as
      such. Any other exception is treated the same way, its message and line recorded.

    Optional (looked up with ``getattr``; leave them out if not needed):

    - ``observe(self, skill: str, result, api) -> None``: called after each executed
      decision with the skill's name (or the decision type) and its SkillResult (None
      when it failed before running).
    - ``loop_fallback: bool = True``: the same decision five times without progress
      lets the autopilot take one step (counted as ``loop_break``); False turns that off.
    - ``max_idle_decisions: int``: end the episode after this many decisions in a row
      without the game clock moving.
    - ``keys_are_commands: bool = False``: True when direct actions are whole commands,
      never answers: a question left open (often one a monster's turn raised) is then
      closed before the keys are sent (``send_keys(new_command=True)``).
    - ``async summarise(self, question, passages, record) -> str``: condense the
      passages a ``lookup`` decision retrieved (the passages are kept as they are
      without it).
    - ``__init__(self)`` or ``__init__(self, seed=None)``: the episode's seed is passed
      when the constructor takes ``seed``.
    """

    name: str

    async def decide(self, ctx: "DecisionContext") -> AgentDecision:
        """The next decision for the game in ``ctx``."""
        ...


def invoke_skill(skill: str, params: Optional[dict] = None, *, reasoning: str = "") -> AgentDecision:
    """Run the library skill named ``skill`` with keyword arguments ``params``, e.g.
    ``invoke_skill("rest_until_healed", {"hp_fraction": 0.8}, reasoning="hurt, nothing near")``."""
    return AgentDecision(type="invoke_skill", skill_name=skill, params=dict(params or {}), reasoning=reasoning)


def create_skill(name: str, code: str, params: Optional[dict] = None, *, description: str = "",
                 category: Optional[str] = None, triggers: tuple[str, ...] = (),
                 reasoning: str = "") -> AgentDecision:
    """Write a new skill and run it in the sandbox: ``code`` defines ``async def name(nh,
    …)`` returning a SkillResult, ``params`` are its keyword arguments. A skill that
    succeeds is saved to the library (later steps can invoke it by name); ``triggers``
    names the events that interrupt it (e.g. ``("low_hp",)``)."""
    return AgentDecision(type="create_skill", skill_name=name, code=code, params=dict(params or {}),
                         description=description, category=category, triggers=tuple(triggers),
                         reasoning=reasoning)


def direct_action(keys: str, *, reasoning: str = "") -> AgentDecision:
    """Send raw keys to the game, e.g. ``direct_action("s")`` to search once or
    ``direct_action("20s")`` for a counted search; keys that save, quit or change the
    game's mode are refused."""
    return AgentDecision(type="direct_action", action=keys, reasoning=reasoning)


def lookup(query: str, *, reasoning: str = "") -> AgentDecision:
    """Ask the NetHack knowledge base a question; the answer appears in the next prompts
    (``ctx.memory``) and takes no game time."""
    return AgentDecision(type="lookup", query=query, reasoning=reasoning)


def show_skill(skill: str, *, reasoning: str = "") -> AgentDecision:
    """Put a library skill's code into the next prompts; takes no game time."""
    return AgentDecision(type="show_skill", skill_name=skill, reasoning=reasoning)


def as_decision(value: Any, *, who: str = "the strategist") -> AgentDecision:
    """``value`` as a decision: an AgentDecision as it is, a dict in the decision format
    (``{"action": "invoke", "skill": …}``), or a text reply as a model would write it.
    Anything else raises :class:`DecisionError` naming what came back."""
    if isinstance(value, AgentDecision):
        return _checked(value, who)
    if isinstance(value, dict):
        return decision_from_dict(value)
    if isinstance(value, str):
        return parse_decision(value)
    raise DecisionError(f"{who} returned {type(value).__name__} {str(value)[:80]!r}, not a decision: return "
                        "invoke_skill(...), create_skill(...), direct_action(...) (hackwright.strategist)")


_NEEDS = {"invoke_skill": ("skill_name", "the skill's name"), "show_skill": ("skill_name", "the skill's name"),
          "create_skill": ("code", "the skill's code"), "direct_action": ("action", "the keys"),
          "lookup": ("query", "the question")}


def _checked(d: AgentDecision, who: str) -> AgentDecision:
    """A decision the loop can execute: a known type with the field that type needs."""
    if d.type not in _NEEDS:
        raise DecisionError(f"{who} returned a decision of type {d.type!r}; the types are "
                            + ", ".join(_NEEDS))
    attr, what = _NEEDS[d.type]
    if not isinstance(getattr(d, attr), str) or not getattr(d, attr).strip():
        raise DecisionError(f"{who} returned a {d.type} decision without {what} ({attr})")
    if d.type == "create_skill" and not (d.skill_name or "").strip():
        raise DecisionError(f"{who} returned a create_skill decision without the skill's name")
    if not isinstance(d.params, dict):
        raise DecisionError(f"{who} returned params of type {type(d.params).__name__}; params is a dict")
    return d


__all__ = ["Strategist", "AgentDecision", "DecisionError", "invoke_skill", "create_skill", "direct_action",
           "lookup", "show_skill", "as_decision"]

"""The MCP tools of ``hackwright mcp``: a coding agent plays one game at a time over stdio.

Each tool is a thin call into :class:`~hackwright.mcp_server.session.GameSession`, which
drives ``play``'s own episode loop. Results are short text: the execution line the next
prompt would show, the state, or one line saying what to fix. No tool call ends the
server: bad input is a ``ToolError`` (the client sees its one line), anything unexpected is
logged on stderr and reported in one line too.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import anyio

try:  # the SDK's 2.x name; 1.x (the extra allows >=1.20) calls the same server FastMCP
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # pragma: no cover - exercised only where mcp 1.x is installed
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[no-redef]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]

from .session import GameSession, SessionError, StepOutcome, one_line

log = logging.getLogger("hackwright.mcp")

INSTRUCTIONS = (
    "Play NetHack through Hackwright. start_game begins a seeded game; get_system_prompt once gives the "
    "rules, the NetHack API reference (the `nh` object skills use) and an example skill; get_prompt gives "
    "what a model sees each turn (map, surroundings, stats, inventory, skills, last executions). Act with "
    "invoke_skill (a library skill), create_skill (write a new async skill; it runs sandboxed and is saved "
    "when it works), send_key (one raw key), show_skill (read a skill's code) and lookup (ask the knowledge "
    "base). end_game records the episode. Every decision counts against the game's step budget.")


@dataclass
class ServerOptions:
    """Where games are recorded: ``db_path``/``library_path`` (None: the configuration's),
    ``runs_dir`` (each game's ttyrec and summary go in a folder below it; None: nothing on
    disk but the database) and ``config_path`` (a config.yaml; None: ./config.yaml if present)."""

    db_path: Optional[str] = None
    library_path: Optional[str] = None
    runs_dir: Optional[str] = "runs"
    config_path: Optional[str] = None


class Hub:
    """The one game this server plays at a time."""

    def __init__(self, options: ServerOptions):
        self.options = options
        self.session: Optional[GameSession] = None

    def current(self) -> GameSession:
        if self.session is None:
            raise SessionError("no game is running: call start_game first")
        return self.session

    async def start(self, seed: Optional[int], role: Optional[str], max_turns: Optional[int],
                    max_steps: Optional[int], env: Optional[str]) -> str:
        from ..config import ConfigError, load_config

        if self.session is not None and not self.session.over:
            raise SessionError(f"a game is running (episode {self.session.agent.episode_id}): call end_game first")
        for flag, value in (("max_turns", max_turns), ("max_steps", max_steps)):
            if value is not None and value < 1:
                raise SessionError(f"{flag} must be a whole number of at least 1 (or left out), not {value}")
        try:
            cfg = load_config(self.options.config_path)
        except ConfigError as e:
            raise SessionError(f"the configuration cannot be read: {one_line(e)}") from None
        record_dir = None
        if self.options.runs_dir:
            record_dir = str(Path(self.options.runs_dir) / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}-mcp")
        episode = cfg.episode(llm="mcp", seed=seed, role=role, env_id=env, max_steps=max_steps, max_turns=max_turns,
                              db_path=self.options.db_path, library_path=self.options.library_path,
                              record_dir=record_dir)
        session = GameSession(episode)
        await session.start()
        self.session = session
        a, c = session.agent, episode
        where = f"; recorded in {record_dir}/" if record_dir else ""
        return (f"Started episode {a.episode_id}: seed {c.seed}, a {a.api.hero_role} in {c.env_id}; at most "
                f"{c.max_steps} decisions" + (f" and {c.max_turns} game turns" if c.max_turns else "")
                + f"; the run database is {c.db_path}{where}.\n{session.budget_line()}\n"
                "Next: get_system_prompt (once), then get_prompt or get_state, then decide.")

    async def read(self, what: str) -> str:
        """``state_text``, ``prompt_user`` or ``prompt_system`` of the running game."""
        return await getattr(self.current(), what)()

    async def decide(self, wire: dict[str, Any]) -> str:
        session = self.current()
        outcome = await session.play(wire)
        return self._render(session, outcome)

    def _render(self, session: GameSession, out: StepOutcome) -> str:
        parts = []
        if out.answer is not None:
            parts.append(f"Answer: {out.answer}")
        if out.shown_code is not None:
            parts.append(f"```python\n{out.shown_code.rstrip()}\n```")
        parts.append(out.line)
        if out.message:
            parts.append(f"Message: {out.message}")
        parts.append(game_over_text(session) if out.ended is not None or session.over else session.budget_line())
        return "\n".join(parts)

    async def end(self) -> str:
        session = self.current()
        await session.end()
        return game_over_text(session)

    async def close(self) -> None:
        """At the server's end: a game still running is ended and recorded."""
        if self.session is not None and not self.session.over:
            await self.session.end()


def game_over_text(session: GameSession) -> str:
    s = session.summary
    if s is None:
        return f"The game ended without a summary: {session.crash() or 'unknown reason'}."
    death = f" ({s.death_reason})" if s.death_reason else ""
    crash = session.crash()
    return (f"GAME OVER: {s.end_reason}{death}{'; the harness failed: ' + crash if crash else ''}. Episode "
            f"{s.episode_id}: score {s.score}, Dlvl {s.depth} (max {s.max_depth}), XL {s.xp_level}, {s.turns} turns, "
            f"{s.decisions} decisions; recorded in {session.episode.db_path}"
            + (f"; ttyrec {s.ttyrec}" if s.ttyrec else "") + ".")


async def _guard(call) -> str:
    """The tool's text, or a ToolError of one line; never a traceback to the client."""
    try:
        return await call
    except SessionError as e:
        raise ToolError(one_line(e)) from None
    except ToolError:
        raise
    except Exception as e:  # noqa: BLE001 — the server outlives any one call
        log.exception("a tool call failed")
        raise ToolError(f"{type(e).__name__}: {one_line(e)}") from None


def build_server(options: ServerOptions) -> MCPServer:
    """The MCP server with Hackwright's tools and the system prompt as a resource."""
    hub = Hub(options)

    @contextlib.asynccontextmanager
    async def lifespan(_server):
        try:
            yield hub
        finally:
            # the client is gone: a game still running is ended and recorded, whatever cancels us
            with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                await hub.close()

    server: MCPServer = MCPServer("hackwright", instructions=INSTRUCTIONS, lifespan=lifespan,
                                      log_level="WARNING")  # stderr is the client's log: keep it for trouble
    tool = server.tool

    @tool(structured_output=False)
    async def start_game(seed: Optional[int] = 0, role: Optional[str] = None, max_turns: Optional[int] = None,
                         max_steps: Optional[int] = None, env: Optional[str] = None) -> str:
        """Start a new seeded NetHack game (one at a time; end_game ends the one running).

        seed: the same seed gives the same game (default 0; null for a random game).
        role: valkyrie, samurai, wizard, … (random when left out).
        max_turns: end the game after this many game turns (default: the configuration's, usually none).
        max_steps: end the game after this many decisions, i.e. calls of invoke_skill, create_skill,
        send_key, show_skill and lookup (default: the configuration's, 500).
        env: NetHackChallenge-v0 (default) or a MiniHack environment name.
        Returns the episode number, the hero, the budgets and where the game is recorded."""
        return await _guard(hub.start(seed, role, max_turns, max_steps, env))

    @tool(structured_output=False)
    async def get_state() -> str:
        """The game's screen as NetHack shows it (the map, the message line and the two status lines
        with Dlvl, HP, turn …) and the budgets used so far. Takes no game time."""
        return await _guard(hub.read("state_text"))

    @tool(structured_output=False)
    async def get_prompt() -> str:
        """The dynamic part of the prompt a model gets for this decision, exactly as it is sent: current
        state, map, surroundings, inventory, messages, dungeon memory, timeline, the available skills
        with their success rates, the last executions (a failing skill's error with its line of code
        marked), lookup answers and any skill code you asked to see. Takes no game time."""
        return await _guard(hub.read("prompt_user"))

    @tool(structured_output=False)
    async def get_system_prompt() -> str:
        """The static part of the prompt (the same all game; read it once): the skill rules, the
        NetHack API reference for the `nh` object skills use (every method and type), the decision
        format and advice. Needs a running game (it names the hero's role)."""
        return await _guard(hub.read("prompt_system"))

    @tool(structured_output=False)
    async def invoke_skill(skill: str, params: Optional[dict[str, Any]] = None, reasoning: str = "") -> str:
        """Run a library skill (the AVAILABLE SKILLS of get_prompt), e.g. skill="explore_level" or
        skill="go_to", params={"x": 10, "y": 5}. reasoning: a short reason, recorded with the decision.
        Returns the execution line (how it stopped, actions, turns, what changed, or its error) and
        the budgets; an unknown skill is refused with the closest names and plays nothing."""
        return await _guard(hub.decide({"action": "invoke", "skill": skill, "params": params or {},
                                        "reasoning": reasoning}))

    @tool(structured_output=False)
    async def create_skill(name: str, code: str, params: Optional[dict[str, Any]] = None, description: str = "",
                           triggers: Optional[list[str]] = None, category: Optional[str] = None,
                           reasoning: str = "") -> str:
        """Write a new skill and run it at once, sandboxed exactly as in `hackwright play`.

        name: snake_case; code: plain Python source (no fence needed) defining `async def <name>(nh, ...)`
        that returns a SkillResult (see get_system_prompt for the API and an example); params: its
        keyword arguments for this run; triggers: events that interrupt it (monster, low_hp, very_low_hp,
        deadly, hunger, level_change, teleport, items, engulfed, message); description and category
        describe it in the library. A skill that works is saved to the library and can be invoked
        later; re-creating a name makes a new version. Returns the execution line: the outcome, or
        the error with the failing line of your code marked, and the budgets."""
        wire: dict[str, Any] = {"action": "create", "name": name, "code": code, "params": params or {},
                                "description": description, "triggers": triggers or [], "reasoning": reasoning}
        if category:
            wire["category"] = category
        return await _guard(hub.decide(wire))

    @tool(structured_output=False)
    async def show_skill(skill: str, reasoning: str = "") -> str:
        """A library skill's code (built-in or written by a model), to read or adapt; it is also shown
        in the next prompts. Takes no game time but counts as a decision (at most 20 per game)."""
        return await _guard(hub.decide({"action": "show", "skill": skill, "reasoning": reasoning}))

    @tool(structured_output=False)
    async def lookup(query: str, reasoning: str = "") -> str:
        """Ask the NetHack knowledge base (monsters, objects, rules, strategy), e.g. "floating eye" or
        "is it safe to eat a newt corpse". Returns the answer, which the next prompts also carry. Takes
        no game time but counts as a decision."""
        return await _guard(hub.decide({"action": "lookup", "query": query, "reasoning": reasoning}))

    @tool(structured_output=False)
    async def send_key(key: str, reasoning: str = "") -> str:
        """Send one raw key to the game, as `hackwright play`'s direct action: e.g. "s" to search,
        "h" to move west, "20s" for a counted search. Keys that save, quit or change the game's mode
        or options are refused. Returns the execution line and the budgets."""
        return await _guard(hub.decide({"action": "direct", "key": key, "reasoning": reasoning}))

    @tool(structured_output=False)
    async def end_game() -> str:
        """End the game now (recorded as interrupted) and return its summary: end reason, score,
        depth, turns, decisions, the run database and the ttyrec. After a death or a cap the game
        has already ended: this returns its summary."""
        return await _guard(hub.end())

    @server.resource("hackwright://system-prompt", name="system-prompt", mime_type="text/plain",
                     description="The static part of the prompt: rules, NetHack API reference, decision format.")
    async def system_prompt_resource() -> str:
        if hub.session is not None and not hub.session.over:
            with contextlib.suppress(SessionError):
                return await hub.session.prompt_system()
        from ..agent.prompt import system_prompt

        return system_prompt(None)

    return server


def serve(options: ServerOptions) -> None:
    """Serve over stdio until the client closes the connection."""
    build_server(options).run("stdio")

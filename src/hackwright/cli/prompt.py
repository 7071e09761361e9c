"""`hackwright prompt`: what a model would be sent at the start of a game.

The game starts as `hackwright play` starts it (the same configuration, seeding,
role and skill library); the state is gathered by the episode loop's own code, and
the prompt is built as for the first decision. Both parts are printed exactly as
they would be sent, then a table of their sections with sizes. Nothing is sent
anywhere: with ``--llm`` the command also says what that backend would add to the
request (the ``decide`` tool, cache marks, token limits), without contacting it.

Token counts are estimates, marked "≈ tokens": characters / 4, rounded up
(:func:`hackwright.agent.prompt.estimate_tokens`, the figure the prompt budget
uses). No tokenizer is loaded: real tokenizers differ by model and most need a
download, and this command stays off the network.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from .common import SEED_HELP, app, fail

if TYPE_CHECKING:
    from ..agent.episode import EpisodeConfig
    from ..agent.prompt import PromptParts

TOKENS = "≈ tokens"


def opening_prompt(episode: "EpisodeConfig") -> tuple["PromptParts", list[tuple[str, str]]]:
    """(PromptParts, the system part's sections) for the first decision of ``episode``."""
    from ..agent.loop import Agent
    from ..agent.prompt import build_prompt, system_prompt, system_sections
    from ..agent.strategists import Autopilot
    from ..api.nethack_api import NetHackAPI
    from ..env.make import GameConfig
    from ..skills.library.skill_library import SkillLibrary

    api = NetHackAPI.new_game(GameConfig(env_id=episode.env_id, seed=episode.seed, role=episode.role,
                                         des_file=episode.des_file))
    library = None
    try:
        Path(episode.db_path).parent.mkdir(parents=True, exist_ok=True)
        library = SkillLibrary(Path(episode.library_path), db_path=Path(episode.db_path))
        agent = Agent(episode, strategist=Autopilot())  # gathers the state; never asked to decide
        agent.api, agent.library = api, library
        # The loop's own gathering and skill choice, so the prompt is the one a model gets.
        state = asyncio.run(agent._gather())
        skills = agent._prompt_skills(state)
        parts = build_prompt(api, state, agent.memory, skills, library.stats, [], system=system_prompt(api.hero_role),
                             task=episode.task, max_user_tokens=episode.max_prompt_tokens)
        return parts, system_sections(api.hero_role)
    finally:
        if library is not None:
            library.close()
        api.close()


def backend_extras(spec: str, system: str, user: str, options: dict) -> tuple[list[str], Optional[str]]:
    """What the backend of ``spec`` would send besides the two parts: lines that say so,
    and the tool definition's JSON (None when no tool would be sent). Nothing is sent."""
    from ..agent.backends.base import Message, make_backend
    from ..agent.strategists import BUILTIN, check_spec

    spec = check_spec(spec)
    if spec in BUILTIN or spec in ("offline", "none"):
        return [f"{spec} is not a language model: it decides without a prompt. The text above is what a model "
                "would be sent."], None
    if spec.startswith("replay:"):
        return [f"{spec} plays back the replies recorded in a transcript: nothing is sent."], None
    if spec == "human" or spec.startswith("human:"):
        return [f"{spec}: a person or a script is shown the two parts above as they are and replies in text."], None
    from ..agent.backends.base import parse_spec

    try:
        parse_spec(spec)
    except Exception:  # not a model backend: a strategist plug-in (module:Class, file.py:Class, entry point)
        return [f"{spec} is a strategist plug-in: it reads the two parts above through ctx.prompt() "
                "and decides without sending them anywhere."], None
    # A placeholder key: the client is built but never used, so no request is made.
    backend: Any = make_backend(spec, api_key="unused-nothing-is-sent", **options)
    body = backend.request_body(system, [Message("user", user)])
    try:
        asyncio.run(backend.aclose())
    except Exception:
        pass
    api = "Messages" if backend.name == "anthropic" else "Chat Completions"
    lines = [f"Backend {backend.name}, model {backend.model}: a {api} request with the parts above and:"]
    if backend.name == "anthropic":
        cached = any("cache_control" in block for block in body.get("system", []))
        lines.append("- system: one text block" + (" marked cache_control ephemeral: the tools and the system part "
                                                   "are the cached prefix" if cached else ""))
    else:
        lines.append("- system: the first message (role system); the server caches long prefixes by itself")
    tools = body.get("tools") or []
    tool_json = json.dumps(tools[0], ensure_ascii=False) if tools else None  # as the SDK sends it
    if tools:
        choice = json.dumps(body.get("tool_choice"))
        lines.append(f"- tools: the native `decide` tool (its JSON below), tool_choice {choice}: the model may "
                     "decide through it or in text, in the DECISION FORMAT of the system part")
        if backend.name == "openai":
            lines.append("  (a server that rejects tools gets the same request once more without them; decisions "
                         "then come from the text)")
    else:
        lines.append("- no tools: the decision is read from the text, in the DECISION FORMAT of the system part")
    for key in ("max_tokens", "max_completion_tokens", "temperature"):
        if key in body:
            lines.append(f"- {key}: {body[key]}")
    for key, value in (body.get("extra_body") or {}).items():
        lines.append(f"- {key}: {value} (extra_body)")
    return lines, tool_json


def size_rows(system_sections: list[tuple[str, str]], parts: "PromptParts",
              tool_json: Optional[str]) -> list[tuple[str, str, int, int]]:
    """(part, section, characters, ≈ tokens) per section, each part's total and the grand total."""
    from ..agent.prompt import estimate_tokens

    rows: list[tuple[str, str, int, int]] = []
    for part, sections, text in (("system", system_sections, parts.system), ("user", parts.sections, parts.user)):
        rows += [(part, name, len(body), estimate_tokens(body)) for name, body in sections]
        rows.append((part, "total", len(text), estimate_tokens(text)))
    everything = [parts.system, parts.user] + ([tool_json] if tool_json else [])
    if tool_json:
        rows.append(("request", "decide tool", len(tool_json), estimate_tokens(tool_json)))
    rows.append(("all", "total", sum(len(t) for t in everything), sum(estimate_tokens(t) for t in everything)))
    return rows


def format_sizes(rows: list[tuple[str, str, int, int]]) -> str:
    width = max(len(section) for _, section, _, _ in rows)
    lines = [f"{'part':8} {'section':{width}} {'chars':>7} {TOKENS:>9}"]
    for part, section, chars, tokens in rows:
        lines.append(f"{part:8} {section:{width}} {chars:>7,} {tokens:>9,}")
    return "\n".join(lines)


@app.command("prompt")
def prompt_command(
    seed: Optional[int] = typer.Option(0, help=SEED_HELP),
    role: Optional[str] = typer.Option(None, help="valkyrie, samurai, wizard, … (random if not given, as in play)."),
    llm: Optional[str] = typer.Option(None, help="Also say what this backend would send besides the prompt: "
                                                 "anthropic:MODEL, openai:MODEL or openai:MODEL@BASE_URL (nothing is sent)."),
    env: Optional[str] = typer.Option(None, help="NetHackChallenge-v0 (default) or a MiniHack environment name."),
    max_user_tokens: Optional[int] = typer.Option(None, help="Budget of the user part, in ≈ tokens (default: the "
                                                             "configuration's; none). Over it, the timeline, other "
                                                             "levels, older messages and knowledge are trimmed first."),
    db: Optional[str] = typer.Option(None, help="The run database the skills' statistics come from (default "
                                                "data/memory.db)."),
    library: Optional[str] = typer.Option(None, help="The skill library folder (default ./skills)."),
    sizes: bool = typer.Option(False, "--sizes", help="Print only the table of sections and sizes."),
    config: Optional[str] = typer.Option(None, help="A config.yaml (default ./config.yaml if present)."),
) -> None:
    """Print what a model would be sent at the start of a game, and each section's size.

    The system part (role, skill rules, the generated API reference, decision format,
    advice) and the user part (state, map, surroundings, inventory, memory, skills, …)
    are printed exactly as sent, then each section's size in characters and ≈ tokens
    (characters / 4, rounded up; no tokenizer is used). The game starts as `hackwright
    play --seed N --role R` starts it, so the same options give the same prompt. Nothing
    is sent to any model: --llm only says what that backend would add (the decide tool,
    cache marks, token limits)."""
    from ..agent.backends.base import BackendError
    from ..agent.strategists import UnknownAgentError, check_spec
    from ..env.make import EnvConfigError
    from .common import load_config_or_exit

    cfg = load_config_or_exit(config)
    try:
        llm = check_spec(llm) if llm else None  # a bad name is refused before the game starts
    except UnknownAgentError as e:
        raise fail(e)
    episode = cfg.episode(seed=seed, role=role, env_id=env, db_path=db, library_path=library,
                          max_prompt_tokens=max_user_tokens)
    try:
        parts, system_secs = opening_prompt(episode)
        extras, tool_json = backend_extras(llm, parts.system, parts.user, dict(episode.backend_options)) \
            if llm else ([], None)
    except (EnvConfigError, UnknownAgentError, BackendError, ValueError) as e:
        raise fail(e)
    if not sizes:
        typer.echo(f"===== SYSTEM PART ({len(parts.system):,} characters) =====")
        typer.echo(parts.system)
        typer.echo(f"===== USER PART ({len(parts.user):,} characters) =====")
        typer.echo(parts.user)
        typer.echo("===== END =====")
    if extras:
        typer.echo("\n".join(extras))
        if tool_json and not sizes:
            typer.echo(tool_json)
    if episode.max_prompt_tokens:
        cut = "; ".join(parts.trimmed) or "nothing"
        typer.echo(f"Budget of the user part: {episode.max_prompt_tokens:,} {TOKENS}; trimmed: {cut}")
    typer.echo(f"Sizes ({TOKENS}: characters / 4, rounded up; no tokenizer is used):")
    typer.echo(format_sizes(size_rows(system_secs, parts, tool_json)))

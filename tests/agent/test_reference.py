"""The API reference in the system prompt, read as a model reads it: every method a skill
may call and every field of every type it handles is there with its meaning, and the
example skill runs, as printed, in the sandbox on a real game."""

from __future__ import annotations

import dataclasses
import inspect
import re
from dataclasses import dataclass
from enum import Enum

from hackwright.agent import reference
from hackwright.agent.prompt import system_prompt
from hackwright.api import NetHackAPI
from hackwright.env import GameConfig
from hackwright.sandbox import protocol, surface, worker
from hackwright.sandbox.composition import SkillCaller
from hackwright.sandbox.policy import nh_methods
from hackwright.sandbox.runner import SandboxLimits, SkillRunner
from tests.conftest import room_des

PROMPT = system_prompt("Valkyrie")


HEADINGS = ("THE NETHACK API", "READING THE GAME", "ACTING (", "CALLING OTHER SKILLS", "TYPES (", "EXAMPLE SKILL")


def section(text: str, heading: str) -> str:
    """The reference's part from ``heading`` to the next of its headings."""
    start = text.index("\n" + heading) + 1
    ends = [i for h in HEADINGS if (i := text.find("\n" + h, start + 1)) > 0]
    return text[start:min(ends) if ends else len(text)]


def documented_methods(text: str) -> dict[str, str]:
    """nh.<name>(…) lines -> the indented docstring under each."""
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"nh\.(\w+)\(", line)
        if m:
            current = m.group(1)
            assert current not in out, f"nh.{current} is listed twice"
            out[current] = ""
        elif current and (line.startswith("  ") or line == ""):
            out[current] += line[2:] + "\n"
        else:
            current = None
    return {k: v.strip("\n") for k, v in out.items()}


def type_blocks(text: str) -> dict[str, list[str]]:
    """The TYPES section: each type's name -> its lines (the heading line first)."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in section(text, "TYPES (").splitlines()[1:]:
        if line and not line.startswith(" "):
            current = re.match(r"\w+", line).group(0)
            blocks[current] = [line]
        elif current:
            blocks[current].append(line)
    return blocks


def skill_classes() -> dict[str, type]:
    found = {**protocol._DATACLASSES, **protocol._ENUMS}
    for name, value in worker.injected_names().items():
        if isinstance(value, type) and (dataclasses.is_dataclass(value) or issubclass(value, Enum)):
            found.setdefault(name, value)
    return found


def test_every_method_a_skill_may_call_is_in_the_prompt_with_its_whole_docstring():
    listed = documented_methods(PROMPT)
    callable_names = list(nh_methods()) + list(surface.SKILL_CALLS)
    assert len(callable_names) > 60
    for name in callable_names:
        assert name in listed, f"nh.{name} is missing from the prompt"
        fn = getattr(NetHackAPI, name, None) or getattr(SkillCaller, name)
        doc = inspect.getdoc(fn) or ""
        assert doc.strip(), f"nh.{name} has no docstring: a model cannot know what it does"
        assert listed[name] == doc, f"nh.{name}: the prompt does not carry its whole docstring"
    # Nothing is listed that a skill cannot call.
    assert set(listed) <= set(callable_names)
    # The signature line keeps the arguments: keyword-only options and defaults.
    assert re.search(r"^nh\.move_to\(target: Position, \*, avoid: .*\) -> ActionResult$", PROMPT, re.M)
    assert "nh.get_messages(n: int = 10) -> list[str]" in PROMPT


def test_reading_and_acting_methods_are_told_apart():
    reading = documented_methods(section(PROMPT, "READING THE GAME"))
    acting = documented_methods(section(PROMPT, "ACTING ("))
    assert set(acting) == set(surface.ACTIONS)
    assert "get_stats" in reading and "find_path" in reading and not set(reading) & set(acting)


def test_every_field_of_every_type_a_skill_sees_is_listed_with_its_type_and_meaning():
    blocks = type_blocks(PROMPT)
    classes = skill_classes()
    for must in ("Stats", "Position", "Monster", "Item", "Tile", "DungeonLevel", "ActionResult", "GameEvent",
                 "MonsterInfo", "ItemInfo", "SkillResult", "LookResult", "DungeonOverview", "ContainerResult",
                 "EnhanceResult", "HungerState"):
        assert must in classes
    for name, cls in classes.items():
        assert name in blocks, f"type {name} is missing from the prompt"
        lines = blocks[name]
        if issubclass(cls, Enum):
            for member in cls:
                assert f"{member.name} {member.value!r}" in lines[1], f"{name}.{member.name} is not listed"
            continue
        base = next((b for b in cls.__mro__[1:] if dataclasses.is_dataclass(b)), None)
        if base is not None:
            assert f"(an {base.__name__}:" in lines[0]
        inherited = {f.name for f in dataclasses.fields(base)} if base else set()
        for f in dataclasses.fields(cls):
            if f.name in inherited:
                continue
            m = next((re.match(rf"  - {f.name}: (.+?) — (.*)$", ln) for ln in lines
                      if ln.startswith(f"  - {f.name}: ")), None)
            assert m, f"{name}.{f.name} is not listed"
            assert m.group(2).strip(), f"{name}.{f.name} has no description: add a comment beside it"
        for attr, obj in vars(cls).items():
            if attr.startswith("_") or not (isinstance(obj, property) or inspect.isfunction(obj)):
                continue
            m = next((re.match(rf"  - \.{attr}\b.*? — (.*)$", ln) for ln in lines if ln.startswith(f"  - .{attr}")),
                     None)
            assert m and m.group(1).strip(), f"{name}.{attr} is not listed with its docstring"


def test_the_properties_a_skill_needs_are_spelled_out():
    blocks = type_blocks(PROMPT)
    for cls, member in (("Position", ".offset(direction: str) -> Position"), ("Position", ".steps_to("),
                        ("Position", ".is_adjacent("), ("Position", ".direction_to("),
                        ("Monster", ".ignores_elbereth -> bool (property)"),
                        ("MonsterInfo", ".max_damage_per_turn -> int (property)"),
                        ("Stats", "position: Optional[Position] — ")):
        assert any(member in line for line in blocks[cls]), (cls, member)


def test_an_undocumented_field_or_member_is_caught():
    @dataclass
    class Probe:
        """A type with one documented field."""

        said: int  # this one has a meaning
        silent: int = 0

        def helper(self) -> int:
            return 1

    doc = reference.describe_type(Probe)
    described = {f.name: f.description for f in doc.fields}
    assert described == {"said": "this one has a meaning", "silent": ""}
    assert [(m.name, m.doc) for m in doc.members] == [("helper", "")]


def test_the_conventions_state_coordinates_directions_and_walkability():
    conv = section(PROMPT, "THE NETHACK API")
    for fact in ("x is the column 0..78", "y the row 0..20", "level.tiles[y][x]", "n s e w ne nw se sw",
                 "Tile.is_walkable", "closed door", "boulder", "--More--", "interrupted:<trigger>",
                 "turns_elapsed"):
        assert fact in conv, fact


TWO_ROOMS = ["-----     -----",
             "|...|     |...|",
             "|....#####....|",
             "|...|     |...|",
             "-----     -----"]


async def test_the_example_skill_printed_in_the_prompt_runs_in_the_sandbox_and_finds_the_stairs():
    code = re.search(r"EXAMPLE SKILL[^\n]*\n```python\n(.*?)\n```", PROMPT, re.S).group(1)
    assert code.startswith(f"async def {reference.EXAMPLE_NAME}(nh")
    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0", seed=1, extra={"pet": False},
                                         des_file=room_des(TWO_ROOMS, "STAIR:(12,3),down")))
    runner = SkillRunner(api, limits=SandboxLimits(wall_seconds=30, cpu_seconds=10))
    try:
        before = await api.get_stats()
        assert (await api.get_current_level()).stairs_down is None  # out of sight in the other room
        out = await runner.run(code, {})  # validated by the policy, as a model's skill is
        after = await api.get_stats()
        level = await api.get_current_level()
    finally:
        runner.close()
        api.close()
    assert "in-process" not in out.stack
    result = out.result
    assert (result.stopped_reason, result.success) == ("found_stairs", True)
    assert result.data["stairs_down"] == level.stairs_down is not None
    assert after.position != before.position and after.position.x > before.position.x
    assert result.turns_elapsed == after.turn - before.turn > 0
    assert result.actions_taken == out.actions > 0

"""The skill policy: what a model's skill may contain, and the errors it gets."""

from __future__ import annotations

import inspect
import json
import pickle
import random
import textwrap
from pathlib import Path

import pytest

from hackwright.sandbox.errors import (
    SandboxUnavailableError,
    SkillCrashedError,
    SkillExecutionError,
    SkillLimitError,
    SkillRuntimeError,
    SkillSyntaxError,
    SkillTimeoutError,
    SkillValidationError,
    Violation,
    trim_traceback,
)
from hackwright.sandbox.policy import (
    ALLOWED_IMPORTS,
    INJECTED_NAMES,
    Param,
    describe_policy,
    nh_methods,
    validate,
)
from hackwright.sandbox.runner import SkillRunner
from tests.conftest import room_des

SPEC_SKILL = Path(__file__).resolve().parents[1] / "api" / "spec_skills" / "cautious_explore.py"


def skill(body: str, header: str = "") -> str:
    """A one-function skill whose body starts on line 2 (after ``header``)."""
    src = textwrap.dedent(header) + "async def probe(nh):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    return src + "    return SkillResult(stopped_reason='done')\n"


def rejected(source: str, entry: str | None = None) -> list[Violation]:
    with pytest.raises(SkillValidationError) as info:
        validate(source, entry)
    assert info.value.violations, "a validation error always lists its violations"
    return info.value.violations


def on_line(violations: list[Violation], line: int) -> list[Violation]:
    return [v for v in violations if v.line == line]


# ---------------------------------------------------------------- the spec's skill
def test_the_specs_cautious_explore_validates_as_written():
    text = SPEC_SKILL.read_text()
    body = text[text.index("async def cautious_explore"):]  # the spec's skill itself, no imports
    info = validate(body)
    assert info.name == "cautious_explore"
    assert info.params == [Param("hp_threshold", "0.5", "float")]
    assert info.docstring.startswith("Explore the current level while monitoring for dangers.")
    assert info.source == body


def test_the_spec_file_with_its_imports_and_own_skillresult_validates():
    info = validate(SPEC_SKILL.read_text())  # `from hackwright.api import HungerState, NetHackAPI` is ignored
    assert info.name == "cautious_explore"


def test_nh_methods_are_the_public_async_methods_of_nethackapi():
    from hackwright.api.nethack_api import NetHackAPI

    public_async = {
        name for name, fn in inspect.getmembers(NetHackAPI, inspect.iscoroutinefunction) if not name.startswith("_")
    }
    assert set(nh_methods()) == public_async
    assert {"get_stats", "move_to", "find_unexplored", "send_keys"} <= set(nh_methods())


def test_nh_methods_follow_the_command_families_in_the_order_nethackapi_inherits_them():
    from hackwright.api.nethack_api import NetHackAPI

    in_mro_order = [
        name
        for cls in NetHackAPI.__mro__
        for name, fn in vars(cls).items()
        if inspect.iscoroutinefunction(fn) and not name.startswith("_")
    ]
    assert len(NetHackAPI.__mro__) > 3  # the methods really come from several family classes
    assert list(nh_methods()) == in_mro_order
    assert nh_methods()[:2] == ("get_stats", "get_position")
    assert nh_methods()[-1] == "get_prayer_timeout"


# ---------------------------------------------------------------- imports
@pytest.mark.parametrize("module", ["os", "sys", "subprocess", "socket", "ctypes", "importlib", "builtins"])
@pytest.mark.parametrize("form", ["import {m}", "from {m} import *", "import {m} as m2"])
def test_dangerous_imports_are_rejected_with_the_allowed_list(module, form):
    violations = rejected(skill("pass\n", header=form.format(m=module) + "\n"))
    (v,) = on_line(violations, 1)
    assert module in v.what
    assert module in v.instead
    assert "import only: " in v.instead.lower()
    for allowed in ("math", "random", "itertools", "collections", "heapq", "re", "functools", "dataclasses",
                    "enum", "typing"):
        assert allowed in v.instead


def test_imports_inside_the_skill_are_checked_too_and_the_reason_fits_the_module():
    src = skill("import os\nimport asyncio\nimport time\nimport json\nimport numpy\n")
    violations = rejected(src)
    by_line = {v.line: v for v in violations}
    assert "through nh" in by_line[2].instead
    assert "await" in by_line[3].instead
    assert "turn" in by_line[4].instead
    assert "files are not available" in by_line[5].instead
    assert "third-party" in by_line[6].instead


# One use of each allowed module, as a skill would make it, and what it gives.
MODULE_USES = {
    "bisect": ("bisect.bisect([1, 3, 5], 4)", 2),
    "collections": ("collections.deque([1, 2]).pop() + len(collections.Counter('aab'))", 4),
    "copy": ("copy.deepcopy([[1], [2]])", [[1], [2]]),
    "dataclasses": ("dataclasses.is_dataclass(Position(1, 2))", True),
    "enum": ("enum.Enum('Colour', 'RED GREEN').GREEN.value", 2),
    "functools": ("functools.reduce(operator.add, [1, 2, 3])", 6),
    "heapq": ("heapq.nsmallest(2, [5, 1, 4, 2])", [1, 2]),
    "itertools": ("list(itertools.islice(itertools.count(3), 3))", [3, 4, 5]),
    "math": ("math.floor(2.5) + math.gcd(12, 18)", 8),
    "operator": ("operator.mul(6, 7)", 42),
    "random": ("random.Random(7).randint(1, 1000)", random.Random(7).randint(1, 1000)),
    "re": ("re.sub('o', '0', 'foo')", "f00"),
    "statistics": ("statistics.median([3, 1, 2])", 2),
    "string": ("string.ascii_lowercase[:3]", "abc"),
    "typing": ("typing.cast(int, 3)", 3),
}


async def test_every_allowed_module_imports_cleanly_in_a_sandboxed_skill_and_works(make_api):
    assert set(MODULE_USES) == set(ALLOWED_IMPORTS), "give each allowed module a use here"
    header = "".join(f"import {m}\n" for m in sorted(ALLOWED_IMPORTS))
    header += "from typing import Optional, TYPE_CHECKING\nfrom collections import deque, abc\nimport collections.abc\n"
    uses = "".join(f"    {m!r}: {use},\n" for m, (use, _) in MODULE_USES.items())
    code = header + (
        "async def uses(nh):\n"
        "    q = deque([1])\n"
        "    x: Optional[int] = math.floor(2.5)\n"
        "    sized = isinstance(q, collections.abc.Iterable) and isinstance(q, abc.Sized)\n"
        f"    got = {{\n{uses}    }}\n"
        "    return SkillResult('used', {'got': got, 'sized': sized, 'x': x}, 0, 0, True)\n"
    )
    assert validate(code).name == "uses"
    assert validate("from __future__ import annotations\n" + skill("pass\n")).name == "probe"
    runner = SkillRunner(make_api(room_des(["-----", "|...|", "-----"])))  # the sandbox, never in-process
    try:
        out = await runner.run(code)
    finally:
        runner.close()
    assert out.stack and "in-process" not in out.stack
    assert out.result.data == {"got": {m: want for m, (_, want) in MODULE_USES.items()}, "sized": True, "x": 2}


def test_members_of_allowed_modules_that_leak_modules_or_attributes_by_name_are_rejected():
    src = skill(
        """
        a = dataclasses.sys.modules
        b = operator.attrgetter("_game")(nh)
        c = typing.get_type_hints(probe)
        d = string.Formatter().get_field("0.__class__", [nh], {})
        e = collections.abc.sys
        """,
        header="import dataclasses, operator, typing, string, collections.abc\nfrom functools import wraps\n",
    )
    violations = rejected(src)
    assert "functools" in on_line(violations, 2)[0].what
    assert "dataclasses.sys" in on_line(violations, 5)[0].what
    assert "lambda" in on_line(violations, 6)[0].instead
    assert "get_type_hints" in on_line(violations, 7)[0].what
    assert "Formatter" in on_line(violations, 8)[0].what
    assert "collections.abc.sys" in on_line(violations, 9)[0].what


def test_a_module_cannot_be_stored_or_passed_around():
    (v,) = rejected(skill("m = math\nprint(m)\n", header="import math\n"))
    assert v.line == 3 and "math" in v.what


@pytest.mark.parametrize("imp", [
    "from hackwright.api import Position",
    "from hackwright.api import NetHackAPI, SkillResult, HungerState, Position",
    "from hackwright.api.models import Position as P, Stats",
    "from hackwright.skills import SkillResult",
    "from nethack_api import NetHackAPI",
    "from .models import *",
])
def test_imports_of_the_api_names_are_accepted_and_ignored(imp):
    info = validate(skill("pos = Position(1, 2)\n", header=imp + "\n"))
    assert info.name == "probe"


def test_imports_of_harness_internals_are_rejected():
    violations = rejected(skill("pass\n", header="from hackwright.api.keyboard import Keyboard\nimport hackwright.api\n"))
    assert "Keyboard" in on_line(violations, 1)[0].what and "Position" in on_line(violations, 1)[0].instead
    assert "import hackwright.api" in on_line(violations, 2)[0].what


# ---------------------------------------------------------------- escape routes
ESCAPES = [
    ("f = open('/etc/passwd')", "open", "files are not available"),
    ("x = eval('1 + 1')", "eval", "strings"),
    ("exec('x = 1')", "exec", "strings"),
    ("os = __import__('os')", "__import__", "import"),
    ("g = getattr(nh, '_game')", "getattr", "obj.name"),
    ("g = nh._game", "nh._game", "public methods"),
    ("s = ().__class__.__bases__[0].__subclasses__()", "__class__", "internals"),
    ("f = (lambda: 0).__globals__", "__globals__", "internals"),
    ("t = type(nh)", "type", "isinstance"),
    ("g = globals()", "globals", "by name"),
    ("v = vars(nh)", "vars", ""),
    ("setattr(nh, 'move', None)", "setattr", ""),
    ("c = compile('1', 's', 'eval')", "compile", ""),
    ("breakpoint()", "breakpoint", "unattended"),
    ("b = __builtins__", "__builtins__", ""),
    ("s = '{0._game}'.format(nh)", "{0._game}", ""),
    ("g = nh.game", "nh has no method `game`", "get_stats"),
    ("nh.move = None", "nh.move", "do not assign"),
    ("k = NetHackAPI.new_game", "only for annotations", "call the methods on nh"),
    ("p = nh.get_stats.fget", "fget", ""),
    ("o = Position.mro()", "mro", "isinstance"),
]


@pytest.mark.parametrize("code,what,instead", ESCAPES, ids=[e[0] for e in ESCAPES])
def test_escape_routes_are_rejected_with_line_numbers(code, what, instead):
    violations = rejected(skill("x = 1\n" + code + "\n"))
    hits = on_line(violations, 3)
    assert hits, violations
    assert any(what in v.what for v in hits), hits
    assert any(instead in v.instead for v in hits), hits
    assert all(v.column >= 1 for v in hits)


def test_the_subclasses_walk_reports_every_step_at_its_column():
    src = skill("s = ().__class__.__bases__[0].__subclasses__()\n")
    violations = rejected(src)
    line = src.splitlines()[1]
    cols = [v.column for v in violations]
    assert cols == [line.index("__class__") + 1, line.index("__bases__") + 1, line.index("__subclasses__") + 1]


def test_a_traceback_frame_walk_is_rejected():
    src = skill(
        """
        try:
            1 / 0
        except Exception as e:
            g = e.__traceback__.tb_frame.f_globals
        """
    )
    violations = rejected(src)
    assert {v.line for v in violations} == {6}
    whats = " ".join(v.what for v in violations)
    assert "__traceback__" in whats and "tb_frame" in whats and "f_globals" in whats


def test_generator_and_coroutine_frame_walks_are_rejected():
    src = skill(
        """
        gen = (i for i in range(3))
        up = gen.gi_frame.f_back.f_back.f_globals
        co = probe(nh)
        c = co.cr_frame
        """
    )
    violations = rejected(src)
    assert any("gi_frame" in v.what for v in on_line(violations, 4))
    assert any("f_back" in v.what for v in on_line(violations, 4))
    assert any("cr_frame" in v.what for v in on_line(violations, 6))
    assert any("not awaited" in v.what for v in on_line(violations, 5))


def test_match_class_patterns_cannot_read_private_attributes():
    src = skill(
        """
        try:
            pass
        except Exception as e:
            match e:
                case Exception(__traceback__=tb):
                    pass
        """
    )
    (v,) = rejected(src)
    assert v.line == 7 and "__traceback__" in v.what


def test_names_and_attributes_with_underscores():
    # single-underscore names of the skill's own are fine; attributes are not
    validate(skill("for _ in range(3):\n    _seen = set()\n"))
    (v,) = rejected(skill("class_ = 1\nself_ = Position(1, 2)\nx = self_._x\n"))
    assert v.line == 4 and "'_'" in v.what


# ---------------------------------------------------------------- structure
def test_a_syntax_error_reports_line_column_and_text():
    src = "async def probe(nh):\n    x = 1\n    if x = 2:\n        pass\n"
    with pytest.raises(SkillSyntaxError) as info:
        validate(src)
    err = info.value
    assert (err.line, err.column) == (3, 8)
    assert err.text.strip() == "if x = 2:"
    text = err.for_model()
    assert "line 3" in text and "column 8" in text and "if x = 2:" in text


def test_compiler_errors_are_syntax_errors_too():
    with pytest.raises(SkillSyntaxError) as info:
        validate("def helper(nh):\n    return await nh.wait()\n\nasync def probe(nh):\n    pass\n")
    assert info.value.line == 2 and "await" in info.value.message and "async def" in info.value.hint


def test_markdown_fences_get_their_own_hint():
    with pytest.raises(SkillSyntaxError) as info:
        validate("```python\nasync def probe(nh):\n    pass\n```\n")
    assert "fences" in info.value.hint


def test_a_file_without_an_async_entry_point():
    (v,) = rejected("X = 1\n\ndef helper(a):\n    return a\n")
    assert "no skill found" in v.what and "async def" in v.instead
    (v,) = rejected("def explore(nh):\n    return None\n")
    assert "not async" in v.what and "async def explore(nh" in v.instead


def test_an_entry_point_without_nh():
    (v,) = rejected("async def explore(api, steps=3):\n    pass\n")
    assert "`api`, not `nh`" in v.what and "async def explore(nh" in v.instead
    (v,) = rejected("async def explore():\n    pass\n")
    assert "no nh parameter" in v.what


def test_two_async_functions_need_an_entry():
    src = "async def flee(nh):\n    await nh.move('n')\n\nasync def explore(nh, n: int = 3):\n    await flee(nh)\n"
    (v,) = rejected(src)
    assert "flee" in v.what and "explore" in v.what and "entry" in v.instead
    info = validate(src, entry="explore")
    assert info.name == "explore" and info.params == [Param("n", "3", "int")]
    (v,) = rejected(src, entry="hunt")
    assert "hunt" in v.what and "explore" in v.what


def test_a_skill_with_a_helper_function_and_a_dataclass_validates():
    src = textwrap.dedent(
        '''
        """Hunt weak monsters."""
        from dataclasses import dataclass, field
        from typing import Optional
        import heapq

        WEAK = {"newt", "jackal", "grid bug"}
        ORDER = sorted(WEAK)


        @dataclass(order=True)
        class Target:
            threat: int
            position: Position = field(compare=False)
            name: str = ""

            def __post_init__(self):
                self.name = self.name.strip()


        class Tally:
            def __init__(self):
                self.kills = 0

            def __repr__(self):
                return f"Tally({self.kills})"


        def pick(monsters: list[Monster]) -> Optional[Target]:
            heap = [Target(m.threat_level, m.position, m.name) for m in monsters if m.name in WEAK]
            heapq.heapify(heap)
            return heap[0] if heap else None


        async def hunt(nh: NetHackAPI, max_steps: int = 50, *, careful: bool = True) -> SkillResult:
            """Attack the weakest visible monster until none is left."""
            tally = Tally()
            for step in range(max_steps):
                target = pick(await nh.get_visible_monsters())
                if target is None:
                    break
                me = await nh.get_position()
                if me.is_adjacent(target.position):
                    await nh.attack(me.direction_to(target.position))
                else:
                    await nh.move_to(target.position)
            while True:  # no halting analysis: the sandbox's time limit ends this
                break
            return SkillResult(stopped_reason="done", data={"kills": tally.kills}, success=True)
        '''
    )
    info = validate(src)
    assert info.name == "hunt"
    assert info.params == [Param("max_steps", "50", "int"), Param("careful", "True", "bool")]
    assert info.docstring == "Attack the weakest visible monster until none is left."


def test_top_level_code_other_than_definitions_and_constants_is_rejected():
    src = textwrap.dedent(
        """
        import asyncio
        import re
        PATTERN = re.compile(r"You see (.*)")
        LIMITS = {"steps": 10, "hp": 0.5}
        def helper():
            return 3
        VALUE = helper()
        print("loading")
        for i in range(3):
            pass
        async def probe(nh):
            return SkillResult(stopped_reason="done")
        asyncio.run(probe(None))
        if __name__ == "__main__":
            pass
        """
    )
    violations = rejected(src)
    lines = {v.line: v for v in violations}
    assert set(lines) == {2, 8, 9, 10, 14, 15}
    assert "top-level values must be constants" in lines[8].what
    assert "inside the skill function" in lines[9].instead
    assert "harness calls the skill itself" in lines[14].instead
    assert "__main__" in lines[15].what


def test_an_endless_loop_is_not_rejected():
    source = skill("while True:\n    await nh.search()\n")  # the run's limits stop it, not the checker
    info = validate(source)
    assert (info.name, info.params, info.source) == ("probe", [], source)


def test_nh_calls_must_be_awaited_and_exist():
    violations = rejected(skill("stats = nh.get_stats()\nlevel = await nh.get_level()\n"))
    assert "await nh.get_stats()" in on_line(violations, 2)[0].instead
    assert "get_current_level" in on_line(violations, 3)[0].instead


def test_all_violations_are_collected_in_order():
    src = skill(
        """
        f = open("notes.txt")
        g = nh._game
        h = eval("2")
        """,
        header="import os\n",
    )
    violations = rejected(src)
    assert [v.line for v in violations] == [1, 4, 5, 6]
    err = SkillValidationError(violations=violations)
    text = err.for_model()
    assert "4 problems" in text
    for v in violations:
        assert f"line {v.line}, column {v.column}" in text


def test_describe_policy_names_what_skills_may_use():
    text = describe_policy()
    for word in ("async def", "nh", "await", "SkillResult", "Position", "math", "heapq", "getattr", "isinstance"):
        assert word in text
    assert "os" not in text.split("You may import only:")[1].split(".")[0]
    assert set(INJECTED_NAMES) >= {"NetHackAPI", "SkillResult", "Position", "HungerState"}


# ---------------------------------------------------------------- errors
def _raise_from_skill():
    """Run skill code compiled as <skill> from a test frame, and return the exception."""
    source = "def inner(x):\n    return 10 // x\n\ndef outer():\n    return inner(0)\n"
    ns: dict = {}
    exec(compile(source, "<skill>", "exec"), ns)
    try:
        ns["outer"]()
    except ZeroDivisionError as e:
        return e, source
    raise AssertionError("no exception")


def test_runtime_error_trims_the_traceback_to_the_skills_lines():
    exc, source = _raise_from_skill()
    err = SkillRuntimeError.from_exception(exc, source=source, log="step 1\nstep 2\n")
    assert err.exc_type == "ZeroDivisionError" and "division" in err.exc_message
    assert err.line == 2
    assert "test_policy.py" not in err.traceback
    assert err.traceback.count('File "<skill>"') == 2
    assert "return inner(0)" in err.traceback and "return 10 // x" in err.traceback
    assert err.traceback.splitlines()[-1].startswith("ZeroDivisionError")
    text = err.for_model()
    assert "line 2" in text and "step 2" in text


def test_trim_traceback_keeps_skill_frames_of_chained_exceptions():
    tb = textwrap.dedent(
        """\
        Traceback (most recent call last):
          File "/work/main/src/hackwright/sandbox/worker.py", line 200, in run_skill
            value = drive(fn(nh))
          File "<skill>", line 7, in probe
            x = table["missing"]
                ~~~~~^^^^^^^^^^^
        KeyError: 'missing'

        During handling of the above exception, another exception occurred:

        Traceback (most recent call last):
          File "/work/main/src/hackwright/sandbox/worker.py", line 200, in run_skill
            value = drive(fn(nh))
          File "<skill>", line 9, in probe
          File "/usr/lib/python3.11/random.py", line 373, in choice
            return seq[self._randbelow(len(seq))]
        IndexError: list index out of range
        """
    )
    out = trim_traceback(tb, source="\n" * 8 + "        random.choice([])\n")
    assert "worker.py" not in out and "random.py" not in out and "_randbelow" not in out
    assert 'File "<skill>", line 7' in out and '~~~~~^^^' in out
    assert 'File "<skill>", line 9, in probe\n    random.choice([])' in out
    assert "During handling" in out and out.endswith("IndexError: list index out of range")
    assert trim_traceback("already trimmed\nValueError: x") == "already trimmed\nValueError: x"


def test_runtime_error_hints_at_a_missing_await():
    err = SkillRuntimeError(exc_type="AttributeError", exc_message="'coroutine' object has no attribute 'hp'")
    assert "await" in err.hint


ERRORS = [
    SkillExecutionError("something", hint="do better", log="a\n"),
    SkillSyntaxError("invalid syntax", line=3, column=8, text="    if x = 2:", hint="fix it"),
    SkillValidationError(violations=[Violation(1, 1, "`import os` is not allowed", "import only: math"),
                                     Violation(4, 9, "`open` is not available", "no files")]),
    SkillTimeoutError(limit="cpu_time", seconds=2.5, log="looping\n"),
    SkillTimeoutError("the skill ran longer than 30 s", limit="wall time", seconds=30),
    SkillLimitError(limit="game_actions", value=1000, used=1001),
    SkillLimitError(limit="memory", value=256, unit="MB"),
    SkillLimitError("printed too much", limit="output", value=65536, unit="chars"),
    SkillCrashedError(signal="SIGSYS"),
    SkillCrashedError(exit_code=3),
    SkillRuntimeError(exc_type="KeyError", exc_message="'x'", traceback='  File "<skill>", line 2', line=2),
]


@pytest.mark.parametrize("err", ERRORS, ids=[f"{type(e).__name__}-{i}" for i, e in enumerate(ERRORS)])
def test_every_error_round_trips_through_a_dict(err):
    wire = json.loads(json.dumps(err.to_dict()))
    back = SkillExecutionError.from_dict(wire)
    assert type(back) is type(err)
    assert back.to_dict() == err.to_dict()
    assert back == err
    assert type(err).from_dict(wire) == err
    assert pickle.loads(pickle.dumps(err)) == err
    text = err.for_model()
    assert err.message in text and len(text) < 3000


def test_error_details():
    assert isinstance(SandboxUnavailableError("no bwrap"), RuntimeError)
    assert not issubclass(SandboxUnavailableError, SkillExecutionError)
    crash = SkillCrashedError.from_returncode(-31)
    assert crash.signal == "SIGSYS" and "forbidden system call" in crash.message
    assert SkillCrashedError.from_returncode(2).exit_code == 2
    assert SkillTimeoutError(limit="wall time").limit == "wall_time"
    assert SkillLimitError(limit="result size", value=10).limit == "result_size"
    assert "1000 game actions" in SkillLimitError(limit="game_actions", value=1000).message
    unknown = SkillExecutionError.from_dict({"type": "SkillFromTheFuture", "message": "m", "hint": "h"})
    assert type(unknown) is SkillExecutionError and unknown.message == "m" and unknown.hint == "h"
    assert "^" in SkillSyntaxError("bad", line=1, column=5, text="x = = 1").for_model()


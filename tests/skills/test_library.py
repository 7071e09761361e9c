"""The skill library: saving, versions, quarantine, stats and value, pruning, relevance, the CLI."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hackwright.api.models import Alignment, HungerState, Stats
from hackwright.sandbox.errors import SkillSyntaxError, SkillValidationError
from hackwright.skills.library import (
    BuiltinConflictError,
    Situation,
    SkillLibrary,
    SkillNotFoundError,
    compute_deltas,
    execution_value,
)
from hackwright.skills.result import SkillResult

GO_EAST = '''\
TRIGGERS = ("monster", "low_hp")


async def go_east(nh, steps: int = 1):
    """Walk east."""
    for _ in range(steps):
        await nh.move("e")
    return SkillResult("done", {}, steps, steps, True)
'''


def skill_source(name: str, doc: str = "Does a thing.", body: str = 'return SkillResult("done", {}, 0, 0, True)',
                 params: str = "", header: str = "") -> str:
    sep = ", " if params else ""
    return f'{header}async def {name}(nh{sep}{params}):\n    """{doc}"""\n    {body}\n'


def stats(**kw) -> Stats:
    base = dict(hp=12, max_hp=12, pw=2, max_pw=2, ac=6, xp_level=1, xp_points=0, gold=0, strength=16,
                dexterity=14, constitution=15, intelligence=10, wisdom=10, charisma=8,
                hunger=HungerState.NOT_HUNGRY, encumbrance="Unencumbered", alignment=Alignment.NEUTRAL,
                dungeon_level=1, turn=1, score=0)
    base.update(kw)
    return Stats(**base)


@pytest.fixture(autouse=True)
def own_folder(tmp_path, monkeypatch):
    """Each test runs in its own folder with no settings from outside: a library made
    without ``db_path`` records in ./data/memory.db of that folder (the default)."""
    monkeypatch.chdir(tmp_path)
    for name in ("HACKWRIGHT_CONFIG", "HACKWRIGHT_MEMORY_DATABASE_PATH", "HACKWRIGHT_LIBRARY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def builtin_root(tmp_path):
    root = tmp_path / "builtin"
    root.mkdir()
    return root


@pytest.fixture
def lib(tmp_path, builtin_root):
    library = SkillLibrary(tmp_path / "skills", builtin_root=builtin_root)
    yield library
    library.close()


def add_builtin(builtin_root: Path, category: str, name: str, code: str) -> Path:
    d = builtin_root / category
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"{name}.py"
    p.write_text(code)
    return p


# ---------------------------------------------------------------- saving and loading
def test_a_model_written_skill_is_saved_then_loaded_again_in_a_new_process(lib, tmp_path, builtin_root):
    saved = lib.save("go_east", GO_EAST, category="navigation")
    assert saved.version == 1 and saved.source == "model"
    assert saved.path == tmp_path / "skills" / "navigation" / "go_east.py"
    assert saved.path.read_text() == GO_EAST
    lib.record_execution("go_east", params={"steps": 2}, result=SkillResult("done", {}, 2, 2, True),
                         before=stats(), after=stats(turn=3))
    lib.close()
    script = textwrap.dedent(f"""
        import json
        from pathlib import Path
        from hackwright.skills.library import SkillLibrary
        lib = SkillLibrary(Path({str(tmp_path / 'skills')!r}), builtin_root=Path({str(builtin_root)!r}))
        report = lib.load()
        s = lib.get("go_east")
        st = lib.stats("go_east")
        print(json.dumps({{"loaded": report.loaded, "quarantined": len(report.quarantined),
                          "category": s.category, "description": s.description, "triggers": list(s.triggers),
                          "params": [[p.name, p.type, p.default] for p in s.parameters],
                          "version": s.version, "code": s.code, "runs": st.executions,
                          "signature": s.signature()}}))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["loaded"] == ["go_east"] and data["quarantined"] == 0
    assert data["category"] == "navigation"
    assert data["description"] == "Walk east."
    assert data["triggers"] == ["monster", "low_hp"]
    assert data["params"] == [["steps", "int", "1"]]
    assert data["version"] == 1 and data["code"] == GO_EAST and data["runs"] == 1
    assert data["signature"] == "go_east(steps: int = 1)"
    meta = json.loads((tmp_path / "skills" / "meta.json").read_text())
    entry = meta["go_east"]
    for key in ("category", "description", "triggers", "parameters", "version", "source", "created_at",
                "updated_at", "retired", "retired_reason"):
        assert key in entry
    assert entry["source"] == "model" and entry["retired"] is False


def test_re_saving_a_skill_keeps_the_older_version(lib, tmp_path):
    lib.save("go_east", GO_EAST, category="navigation")
    v2 = GO_EAST.replace('"""Walk east."""', '"""Walk east, faster."""')
    s = lib.save("go_east", v2, category="navigation")
    assert s.version == 2 and s.description == "Walk east, faster."
    assert s.path.read_text() == v2
    old = tmp_path / "skills" / "_versions" / "go_east" / "v1.py"
    assert old.read_text() == GO_EAST
    versions = lib.versions("go_east")
    assert [(v.version, v.code, v.current) for v in versions] == [(1, GO_EAST, False), (2, v2, True)]
    rows = lib.db.execute("SELECT version, code FROM skill_versions WHERE name = 'go_east' ORDER BY version").fetchall()
    assert [(r["version"], r["code"]) for r in rows] == [(1, GO_EAST), (2, v2)]
    # the same code again is not a new version
    assert lib.save("go_east", v2, category="navigation").version == 2
    # moving to another category keeps one file
    s3 = lib.save("go_east", v2.replace("faster", "fastest"), category="exploration")
    assert s3.version == 3
    assert not (tmp_path / "skills" / "navigation" / "go_east.py").exists()
    assert (tmp_path / "skills" / "exploration" / "go_east.py").exists()
    assert SkillLibrary(tmp_path / "skills", builtin_root=None).get("go_east").version == 3


def test_saving_invalid_code_raises_and_writes_nothing(lib, tmp_path):
    with pytest.raises(SkillSyntaxError):
        lib.save("broken", "async def broken(nh):\n    return (\n", category="combat")
    with pytest.raises(SkillValidationError):
        lib.save("sneaky", skill_source("sneaky", body="import os"), category="combat")
    with pytest.raises(SkillValidationError):  # the function must carry the skill's name
        lib.save("walk", skill_source("run"), category="navigation")
    with pytest.raises(SkillValidationError):  # no docstring, no description
        lib.save("quiet", 'async def quiet(nh):\n    return SkillResult("x")\n', category="combat")
    with pytest.raises(SkillValidationError):
        lib.save("../evil", skill_source("evil"), category="combat")
    with pytest.raises(SkillValidationError):
        lib.save("ok", skill_source("ok"), category="../up")
    with pytest.raises(SkillValidationError):
        lib.save("ok", skill_source("ok"), category="combat", triggers=("found_stairs",))
    assert not list((tmp_path / "skills").rglob("*.py"))
    # aliases are mapped; a description may be given instead of a docstring
    s = lib.save("quiet", 'async def quiet(nh):\n    return SkillResult("x")\n', category="Combat",
                 description="Stand still.", triggers="hungry, monster")
    assert s.category == "combat" and s.description == "Stand still." and s.triggers == ("hunger", "monster")


def test_a_model_written_skill_cannot_replace_a_built_in(tmp_path, builtin_root):
    add_builtin(builtin_root, "combat", "melee_fight", skill_source("melee_fight", "Fight the adjacent monster."))
    lib = SkillLibrary(tmp_path / "skills", builtin_root=builtin_root)
    report = lib.load()
    assert report.builtins == ["melee_fight"]
    assert lib.get("melee_fight").source == "builtin"
    with pytest.raises(BuiltinConflictError) as info:
        lib.save("melee_fight", skill_source("melee_fight", "My better fight."), category="combat")
    assert "built-in" in info.value.for_model()
    assert isinstance(info.value, SkillValidationError)  # the model gets it like any rejection
    assert not (tmp_path / "skills" / "combat" / "melee_fight.py").exists()
    assert lib.should_save(SkillResult("done", success=True), "melee_fight") is False
    # a model file of that name placed by hand is not loaded over the built-in
    (tmp_path / "skills" / "combat").mkdir(parents=True, exist_ok=True)
    (tmp_path / "skills" / "combat" / "melee_fight.py").write_text(skill_source("melee_fight", "Impostor."))
    report = lib.load()
    assert lib.get("melee_fight").source == "builtin"
    assert [q.path.name for q in report.quarantined] == ["melee_fight.py"]
    assert "built-in" in report.quarantined[0].reason


# ---------------------------------------------------------------- quarantine
def test_a_corrupted_skill_file_is_quarantined_with_its_reason_and_loading_goes_on(lib, tmp_path):
    lib.save("go_east", GO_EAST, category="navigation")
    root = tmp_path / "skills"
    (root / "combat").mkdir()
    (root / "combat" / "smash.py").write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe garbage")
    (root / "combat" / "half.py").write_text('async def half(nh):\n    """Cut off mid-way."""\n    x = (\n')
    (root / "combat" / "empty.py").write_text("")
    (root / "combat" / "misnamed.py").write_text(skill_source("other_name"))
    (root / "combat" / "good.py").write_text(skill_source("good", "Still fine."))
    report = SkillLibrary(root, builtin_root=None).load()
    assert sorted(report.loaded) == ["go_east", "good"]
    moved = {q.moved_to.name: q for q in report.quarantined}
    assert set(moved) == {"combat__smash.py", "combat__half.py", "combat__empty.py", "combat__misnamed.py"}
    for name, q in moved.items():
        assert q.moved_to.parent == root / "_quarantine" and q.moved_to.exists()
        assert not q.path.exists()
        reason = (root / "_quarantine" / f"{name}.reason.txt").read_text()
        assert q.reason.splitlines()[0] in reason
    assert "UTF-8" in moved["combat__smash.py"].reason
    assert "Syntax error" in moved["combat__half.py"].reason
    assert "async def empty" in moved["combat__empty.py"].reason
    assert "other_name" in moved["combat__misnamed.py"].reason
    # the garbage is kept byte for byte
    assert (root / "_quarantine" / "combat__smash.py").read_bytes().startswith(b"\x89PNG")
    # loading again finds nothing new to move
    assert SkillLibrary(root, builtin_root=None).load().quarantined == []


def test_a_skill_with_a_policy_violation_is_quarantined(lib, tmp_path):
    root = tmp_path / "skills"
    (root / "exploration").mkdir(parents=True)
    (root / "exploration" / "peek.py").write_text(
        'import os\n\nasync def peek(nh):\n    """Read the disk."""\n    return SkillResult(os.getcwd())\n')
    report = lib.load()
    assert report.loaded == []
    [q] = report.quarantined
    assert q.category == "exploration" and q.moved_to == root / "_quarantine" / "exploration__peek.py"
    assert "import os" in q.reason and "not allowed" in q.reason
    assert "import os" in (root / "_quarantine" / "exploration__peek.py.reason.txt").read_text()
    with pytest.raises(SkillNotFoundError):
        lib.get("peek")


def test_invalid_built_ins_are_reported_but_never_moved(tmp_path, builtin_root):
    bad = add_builtin(builtin_root, "combat", "bad_builtin", "async def bad_builtin(nh):\n    eval('1')\n")
    add_builtin(builtin_root, "combat", "fine", skill_source("fine", "A fine built-in."))
    (builtin_root / "combat" / "__init__.py").write_text("")
    lib = SkillLibrary(tmp_path / "skills", builtin_root=builtin_root)
    report = lib.load()
    assert report.builtins == ["fine"]
    assert [b.path for b in report.invalid_builtins] == [bad]
    assert "eval" in report.invalid_builtins[0].reason
    assert bad.exists() and not (tmp_path / "skills" / "_quarantine").exists()


def test_a_missing_or_empty_built_in_folder_is_fine(tmp_path):
    for root in (tmp_path / "nowhere", None):
        lib = SkillLibrary(tmp_path / f"lib-{root is None}", builtin_root=root)
        report = lib.load()
        assert report.builtins == [] and lib.all() == []
        lib.close()
    # the package's own folder, whatever another developer has put there so far
    lib = SkillLibrary(tmp_path / "default")
    report = lib.load()
    assert all(s.source == "builtin" for s in lib.all())
    assert sorted(report.builtins) == sorted(s.name for s in lib.all(include_retired=True))
    lib.close()


def test_an_unreadable_meta_json_is_moved_aside_and_rebuilt(lib, tmp_path):
    lib.save("go_east", GO_EAST, category="navigation")
    lib.close()
    meta = tmp_path / "skills" / "meta.json"
    meta.write_text("{ not json")
    lib2 = SkillLibrary(tmp_path / "skills", builtin_root=None)
    report = lib2.load()
    assert report.meta_recovered_from is not None and report.meta_recovered_from.read_text() == "{ not json"
    assert "go_east" in json.loads(meta.read_text())
    assert lib2.get("go_east").category == "navigation"


# ---------------------------------------------------------------- value, stats, pruning
def test_the_value_of_a_run_follows_the_documented_formula():
    before = stats(score=10, dungeon_level=1, xp_level=1, hp=12, max_hp=12, hunger=HungerState.NOT_HUNGRY)
    after = stats(score=70, dungeon_level=2, xp_level=2, hp=6, max_hp=12, hunger=HungerState.HUNGRY, turn=40)
    d = compute_deltas(before, after)
    assert d == {"score": 60, "depth": 1, "xp_level": 1, "hp": -6, "hp_fraction": -0.5, "hunger": 1, "turns": 39,
                 "gold": 0}
    # 60 + 50 + 20 + 10*(-0.5) - 5*1 + 2 (success)
    assert execution_value(d, success=True) == 122.0
    assert execution_value(d, success=True, error=True) == 120.0 - 100.0
    assert execution_value({}, success=False, died=True) == -1000.0
    # dicts work too, with the hunger as text
    assert compute_deltas({"hunger": "Not Hungry", "hp": 5, "max_hp": 10},
                          {"hunger": "Weak", "hp": 10, "max_hp": 10}) == {"hp": 5, "hp_fraction": 0.5, "hunger": 2}


def test_record_execution_stores_snapshots_deltas_and_value(lib):
    lib.save("go_east", GO_EAST, category="navigation")
    rec = lib.record_execution("go_east", params={"steps": 3}, result=SkillResult("done", {"moved": 3}, 3, 4, True),
                               before=stats(), after=stats(turn=5, score=4), episode_id=7)
    assert rec.version == 1 and rec.value == 4 + 2 and rec.success and not rec.died
    row = lib.db.execute("SELECT * FROM skill_executions WHERE id = ?", (rec.id,)).fetchone()
    assert row["skill_name"] == "go_east" and row["episode_id"] == 7 and row["stopped_reason"] == "done"
    assert json.loads(row["params"]) == {"steps": 3}
    assert json.loads(row["game_state_before"])["hunger"] == "Not Hungry"
    assert json.loads(row["deltas"])["score"] == 4
    err = lib.record_execution("go_east", params={}, result=None, before=stats(), after=stats(hp=0),
                               error=RuntimeError("boom"))
    assert err.died and err.error == "RuntimeError: boom" and err.value == -1110.0  # -100 error, -1000 death, 10 * (-1.0) HP
    st = lib.stats("go_east")
    assert (st.executions, st.successes, st.errors, st.deaths) == (2, 1, 1, 1)
    assert st.success_rate == 0.5 and st.mean_value == pytest.approx((6 - 1110) / 2)
    row = lib.db.execute("SELECT execution_count, success_count, value FROM skills WHERE name = 'go_east'").fetchone()
    assert tuple(row) == (2, 1, pytest.approx((6 - 1110) / 2))


def test_runs_of_a_draft_count_for_the_skill_once_saved(lib):
    lib.record_execution("dig_down", params={}, result=SkillResult("done", success=True),
                         before=stats(), after=stats(dungeon_level=2, score=50))
    assert lib.should_save(SkillResult("done", success=True), "dig_down") is True
    assert lib.should_save(SkillResult("stuck", success=False), "dig_down") is False
    lib.save("dig_down", skill_source("dig_down", "Dig a hole down."), category="navigation")
    st = lib.stats("dig_down")
    assert st.executions == 1 and st.recent_executions == 1
    assert lib.db.execute("SELECT version FROM skill_executions").fetchone()[0] == 1


def test_an_existing_skill_stays_while_its_success_rate_is_high_enough(lib):
    lib.save("go_east", GO_EAST, category="navigation")
    fail = SkillResult("blocked", success=False)
    for _ in range(2):
        lib.record_execution("go_east", params={}, result=fail, before=stats(), after=stats())
    assert lib.should_save(fail, "go_east") is True  # too few runs to judge
    for _ in range(2):
        lib.record_execution("go_east", params={}, result=fail, before=stats(), after=stats())
    assert lib.should_save(fail, "go_east") is False  # 0 % < 30 %
    assert lib.should_save(fail, "go_east", min_success_rate_to_save=0.0) is True


def test_a_skill_whose_value_stays_negative_is_retired_after_n_runs_and_can_be_revived(lib, tmp_path):
    lib.save("go_east", GO_EAST, category="navigation")
    lib.save("dive", skill_source("dive", "Go down the stairs."), category="navigation")
    hurt = dict(result=SkillResult("hurt", success=False), before=stats(), after=stats(hp=6))
    good = dict(result=SkillResult("down", success=True), before=stats(), after=stats(dungeon_level=2, score=50))
    for i in range(4):
        lib.record_execution("go_east", params={}, **hurt)
        lib.record_execution("dive", params={}, **good)
        assert lib.prune(min_runs=5) == []  # not enough runs yet
    lib.record_execution("go_east", params={}, **hurt)
    lib.record_execution("dive", params={}, **good)
    assert lib.prune(min_runs=5) == ["go_east"]
    s = lib.get("go_east")
    assert s.retired and "after 5 runs" in s.retired_reason
    assert [x.name for x in lib.all()] == ["dive"]
    assert [x.name for x in lib.all(include_retired=True)] == ["dive", "go_east"]
    assert "go_east" not in [x.name for x in lib.relevant(Situation(), k=10)]
    assert s.path.exists()  # kept on disk
    meta = json.loads((tmp_path / "skills" / "meta.json").read_text())
    assert meta["go_east"]["retired"] is True and "mean value" in meta["go_east"]["retired_reason"]
    assert lib.db.execute("SELECT retired FROM skills WHERE name = 'go_east'").fetchone()[0] == 1
    md = (tmp_path / "skills" / "navigation" / "SKILL.md").read_text()
    assert "### go_east (Retired)" in md and "- **Retired**: mean value" in md
    # a new process sees it retired too
    assert SkillLibrary(tmp_path / "skills", builtin_root=None).get("go_east").retired

    revived = lib.revive("go_east")
    assert not revived.retired and [x.name for x in lib.all()] == ["dive", "go_east"]
    assert json.loads((tmp_path / "skills" / "meta.json").read_text())["go_east"]["retired"] is False
    assert lib.stats("go_east").recent_executions == 0  # a fresh start ...
    assert lib.stats("go_east").executions == 5  # ... with the history kept
    assert lib.prune(min_runs=5) == []
    # retire by hand (the CLI does this)
    lib.retire("dive", "the model asked")
    assert lib.get("dive").retired_reason == "the model asked"
    with pytest.raises(SkillNotFoundError):
        lib.retire("nope", "x")


def test_a_new_version_is_judged_on_its_own_runs(lib):
    lib.save("go_east", GO_EAST, category="navigation")
    for _ in range(5):
        lib.record_execution("go_east", params={}, result=SkillResult("hurt"), before=stats(), after=stats(hp=3))
    assert lib.prune() == ["go_east"]
    s = lib.save("go_east", GO_EAST.replace("Walk east.", "Walk east, carefully."), category="navigation")
    assert s.version == 2 and not s.retired  # a rewrite gets a fresh chance
    assert lib.stats("go_east").recent_executions == 0
    rec = lib.record_execution("go_east", params={}, result=SkillResult("ok", success=True), before=stats(),
                               after=stats())
    assert rec.version == 2


# ---------------------------------------------------------------- docs
def test_skill_md_shows_success_rates_as_in_the_spec(lib, tmp_path, builtin_root):
    add_builtin(builtin_root, "exploration", "cautious_explore", skill_source(
        "cautious_explore", "Explore the current level while monitoring for dangers.", params="hp_threshold: float = 0.5",
        header='TRIGGERS = ("monster", "low_hp", "hungry")\n\n\n'))
    lib.save("speed_explore", skill_source("speed_explore", "Explore fast."), category="exploration")
    lib.load()
    ok = dict(result=SkillResult("found_stairs", success=True), before=stats(), after=stats())
    bad = dict(result=SkillResult("monster_spotted", success=False), before=stats(), after=stats())
    for i in range(1247):
        lib.record_execution("cautious_explore", params={}, **(ok if i < 973 else bad))
    lib.regenerate_docs()
    md = (tmp_path / "skills" / "exploration" / "SKILL.md").read_text()
    assert md.startswith("# Exploration Skills\n\nSkills for navigating and exploring dungeon levels.\n")
    assert "## Available Skills" in md
    block = md.split("### cautious_explore\n")[1].split("\n\n")[0]
    assert "- **Triggers**: monster, low_hp, hunger" in block
    assert "- **Parameters**: hp_threshold (float, default 0.5)" in block
    assert "- **Success Rate**: 78% (based on 1,247 executions)" in block
    assert "- **Value**: +1.6 per run" in block  # 973 successes × 2 / 1247
    speed = md.split("### speed_explore\n")[1]
    assert "- **Parameters**: none" in speed and "- **Triggers**: none" in speed
    assert "- **Success Rate**: no executions yet" in speed
    meta = json.loads((tmp_path / "skills" / "meta.json").read_text())
    assert meta["cautious_explore"]["executions"] == 1247 and meta["cautious_explore"]["source"] == "builtin"


# ---------------------------------------------------------------- relevance
def test_relevant_puts_combat_skills_first_when_a_hostile_is_adjacent(lib, builtin_root):
    add_builtin(builtin_root, "exploration", "explore_level", skill_source("explore_level", "Explore the level."))
    add_builtin(builtin_root, "combat", "melee_fight", skill_source("melee_fight", "Fight the adjacent monster."))
    lib.load()
    lib.save("go_east", GO_EAST, category="navigation")
    lib.save("eat_corpse", skill_source("eat_corpse", "Eat a safe corpse."), category="resource")
    lib.save("pick_up_all", skill_source("pick_up_all", "Pick up everything here."), category="inventory")
    lib.save("ranged_kite", skill_source("ranged_kite", "Throw daggers while backing off."), category="combat")
    lib.save("flee_upstairs", skill_source("flee_upstairs", "Run to the up stairs."), category="escape")
    # exploration has the better record, but a monster is next to us
    for _ in range(20):
        lib.record_execution("explore_level", params={}, result=SkillResult("done", success=True),
                             before=stats(), after=stats(score=20))
    fight = lib.relevant(Situation(hostile_adjacent=True, hostile_visible=True, hp_fraction=0.9), k=3)
    assert [s.category for s in fight[:2]] == ["combat", "combat"]
    calm = lib.relevant(Situation(level_explored_pct=10), k=2)
    assert calm[0].name == "explore_level"
    hungry = lib.relevant(Situation(hungry=True, level_explored_pct=90), k=1)
    assert hungry[0].name == "eat_corpse"
    dying = lib.relevant(Situation(hostile_adjacent=True, hostile_visible=True, hp_fraction=0.15), k=1)
    assert dying[0].name == "flee_upstairs"
    assert len(lib.relevant(Situation(), k=3)) == 3
    assert lib.relevant(Situation(), k=0) == []
    # from the API's own objects
    from hackwright.api.models import Monster, Position

    hero = stats(position=Position(10, 5), hp=11)
    jackal = Monster(glyph=0, char="d", name="jackal", position=Position(11, 5), color=3, is_peaceful=False,
                     is_tame=False, threat_level=1)
    kitten = Monster(glyph=0, char="f", name="kitten", position=Position(9, 5), color=7, is_peaceful=False,
                     is_tame=True, threat_level=1)
    sit = Situation.from_state(hero, [jackal, kitten])
    assert sit.hostile_adjacent and sit.hostile_visible and not sit.in_danger
    assert lib.relevant(sit, k=1)[0].category == "combat"
    assert not Situation.from_state(hero, [kitten]).hostile_visible
    text = lib.describe_for_prompt(fight)
    assert "melee_fight() — Fight the adjacent monster." in text


# ---------------------------------------------------------------- several processes
def _record_many(root: str, n: int) -> None:
    lib = SkillLibrary(Path(root), builtin_root=None)
    for i in range(n):
        lib.record_execution("go_east", params={"i": i}, result=SkillResult("done", success=i % 2 == 0),
                             before={"score": 0}, after={"score": 1})
    lib.close()


def test_four_processes_recording_executions_at_once_lose_no_rows(lib, tmp_path):
    lib.save("go_east", GO_EAST, category="navigation")
    lib.close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_record_many, args=(str(tmp_path / "skills"), 100)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(180)
        assert p.exitcode == 0
    st = lib.stats("go_east")
    assert st.executions == 400 and st.successes == 200
    row = lib.db.execute("SELECT execution_count, success_count, value_sum FROM skills WHERE name = 'go_east'").fetchone()
    assert tuple(row) == (400, 200, pytest.approx(400 * 1 + 200 * 2))


def test_a_corrupt_database_file_is_moved_aside_and_reported(tmp_path):
    root = tmp_path / "skills"
    lib = SkillLibrary(root, builtin_root=None)
    lib.save("go_east", GO_EAST, category="navigation")
    lib.close()
    db = tmp_path / "data" / "memory.db"  # the run database, the library's default
    assert lib.db_path == Path("data/memory.db") and db.is_file()
    for suffix in ("-wal", "-shm"):
        p = db.with_name(db.name + suffix)
        if p.exists():
            p.unlink()
    db.write_bytes(b"garbage" * 1000)
    lib = SkillLibrary(root, builtin_root=None)
    report = lib.load()
    moved = report.db_recovered_from
    assert moved is not None and moved.name.startswith("memory.db.corrupt-")
    assert moved.read_bytes() == b"garbage" * 1000
    assert not report.ok and "corrupt" in report.summary()
    # the skill files survive; the new database learns them again
    assert lib.get("go_east").version == 1
    lib.record_execution("go_east", params={}, result=SkillResult("ok", success=True), before={}, after={})
    assert lib.stats("go_east").executions == 1


# ---------------------------------------------------------------- CLI
def test_the_skills_cli_lists_shows_retires_and_revives(tmp_path, monkeypatch):
    from hackwright.cli import app

    root = tmp_path / "lib"
    lib = SkillLibrary(root)
    lib.save("go_east_cli", GO_EAST.replace("go_east", "go_east_cli"), category="navigation")
    lib.record_execution("go_east_cli", params={}, result=SkillResult("done", success=True), before={}, after={})
    lib.close()
    runner = CliRunner()
    monkeypatch.setenv("HACKWRIGHT_LIBRARY", str(root))
    monkeypatch.setenv("COLUMNS", "200")
    r = runner.invoke(app, ["skills", "list"])
    assert r.exit_code == 0, r.output
    assert "go_east_cli" in r.output and "100% of 1" in r.output
    r = runner.invoke(app, ["skills", "show", "go_east_cli", "--code"])
    assert r.exit_code == 0, r.output
    assert "Walk east." in r.output and "await nh.move" in r.output
    r = runner.invoke(app, ["skills", "retire", "go_east_cli", "--reason", "testing"])
    assert r.exit_code == 0, r.output
    assert "go_east_cli" not in runner.invoke(app, ["skills", "list"]).output
    r = runner.invoke(app, ["skills", "list", "--all"])
    assert "go_east_cli" in r.output and "retired" in r.output
    assert runner.invoke(app, ["skills", "revive", "go_east_cli"]).exit_code == 0
    assert "go_east_cli" in runner.invoke(app, ["skills", "list"]).output
    r = runner.invoke(app, ["skills", "stats"])
    assert r.exit_code == 0 and "go_east_cli" in r.output
    r = runner.invoke(app, ["skills", "show", "nope"])
    assert r.exit_code == 1 and "no skill named" in r.output
    other = tmp_path / "elsewhere"
    r = runner.invoke(app, ["skills", "path", "--library", str(other), "--db", str(tmp_path / "run.db")])
    assert r.exit_code == 0
    assert r.output.splitlines()[0] == str(other.resolve()) and "run.db" in r.output
    assert not other.exists()  # `path` creates nothing

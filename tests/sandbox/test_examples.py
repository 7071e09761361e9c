"""Example skills shipped in the repository pass the policy."""

from pathlib import Path

import pytest

from hackwright.sandbox.policy import validate

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "skills").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_skill_validates(path):
    info = validate(path.read_text())
    assert info.name == path.stem

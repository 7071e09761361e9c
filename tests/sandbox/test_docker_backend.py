"""The Docker backend: real containers where an engine runs, a clear skip elsewhere."""

import asyncio

import pytest

from hackwright.sandbox import errors
from hackwright.sandbox.docker_backend import default_image, docker_available

OK, WHY = docker_available()


def test_without_an_engine_the_docker_backend_says_why():
    from hackwright.sandbox.runner import SkillRunner

    if OK:
        pytest.skip("a Docker engine is available here")
    with pytest.raises(errors.SandboxUnavailableError, match="Docker"):
        SkillRunner(object(), backend="docker")


def test_the_default_image_matches_the_hosts_python():
    import sys

    assert default_image() == f"python:{sys.version_info.major}.{sys.version_info.minor}-slim"


@pytest.mark.skipif(not OK, reason=f"no Docker here: {WHY}")
def test_a_skill_runs_in_a_docker_container():
    from hackwright.api import NetHackAPI
    from hackwright.env import GameConfig
    from hackwright.sandbox.runner import SkillRunner

    api = NetHackAPI.new_game(GameConfig(seed=1))
    runner = SkillRunner(api, backend="docker")
    code = "async def s(nh):\n    p = await nh.get_position()\n    return SkillResult('ok', {'p': p}, 0, 0, True)\n"
    out = asyncio.run(runner.run(code))
    assert out.result.success and out.stack.startswith("docker")
    runner.close()
    api.close()

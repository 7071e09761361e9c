"""nh.lookup from a sandboxed skill: the question travels to the host, the passages come back as text."""

from __future__ import annotations

import pytest

from hackwright.api import NetHackAPI
from hackwright.env import GameConfig
from hackwright.sandbox.runner import SandboxLimits, SkillRunner
from tests.conftest import room_des

ROOM = ["-------", "|.....|", "|.....|", "-------"]


async def test_a_skill_asks_the_knowledge_base_before_fighting(kb_path):
    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0", des_file=room_des(ROOM), seed=1))
    api.kb_path = str(kb_path)
    runner = SkillRunner(api, limits=SandboxLimits(wall_seconds=20, cpu_seconds=5))
    try:
        code = '''
async def ask(nh):
    text = await nh.lookup("what happens if I hit a floating eye", k=2)
    again = await nh.lookup("what happens if I hit a floating eye", k=2)
    return SkillResult("asked", {"text": text, "same": text == again}, 0, 0, True)
'''
        out = await runner.run(code)
        text = out.result.data["text"]
        assert isinstance(text, str) and out.result.data["same"]
        assert "## floating eye" in text and "paralys" in text
        assert text.count("## ") == 2 and out.actions == 0
    finally:
        runner.close()
        api.close()


async def test_lookup_refuses_an_empty_question(kb_path):
    api = NetHackAPI.new_game(GameConfig(env_id="MiniHack-Navigation-Custom-v0", des_file=room_des(ROOM), seed=1))
    api.kb_path = str(kb_path)
    try:
        with pytest.raises(ValueError, match="non-empty"):
            await api.lookup("   ")
        assert "[monsters]" in await api.lookup("newt corpse", k=1)
    finally:
        api.close()

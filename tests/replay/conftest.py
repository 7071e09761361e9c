"""One real recorded episode (the autopilot on the challenge env), shared by the replay tests."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

from hackwright.agent.loop import Agent, EpisodeConfig, EpisodeSummary
from hackwright.replay.frames import FrameRecorder

STEPS = 12


def _recorder_attached(game) -> bool:
    return any(isinstance(getattr(h, "__self__", None), FrameRecorder) for h in game.on_frame)


class RecordingAgent(Agent):
    """The real agent loop, plus the frame recorder wired the way docs/replays.md tells —
    unless the loop already records frames itself (then it is left to do so)."""

    recorder = None

    def _open(self) -> None:
        super()._open()
        if not _recorder_attached(self.api.game):
            self.recorder = FrameRecorder(self.api.game, Path(self.config.record_dir) / "frames.bin",
                                          meta={"episode_id": self.episode_id, "seed": self.config.seed})

    async def _step(self, step: int) -> None:
        if self.recorder is not None:
            self.recorder.step = step
        await super()._step(step)

    def _finish(self, end_reason: str, wall: float) -> EpisodeSummary:
        if self.recorder is not None:
            self.recorder.close()
        return super()._finish(end_reason, wall)


@dataclass
class Episode:
    db: Path
    record_dir: Path
    summary: EpisodeSummary


@pytest.fixture(scope="session")
def episode(tmp_path_factory) -> Episode:
    """A 12-decision autopilot episode (seed 0, valkyrie) recorded into a temporary folder."""
    root = tmp_path_factory.mktemp("replay-episode")
    cfg = EpisodeConfig(seed=0, role="valkyrie", max_steps=STEPS, db_path=str(root / "memory.db"),
                        library_path=str(root / "skills"), record_dir=str(root / "run"))
    summary = asyncio.run(RecordingAgent(cfg).run())
    return Episode(db=root / "memory.db", record_dir=root / "run", summary=summary)

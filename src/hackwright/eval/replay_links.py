"""Links from evaluation pages to each episode's replay viewer.

``hackwright eval`` records every episode into its own folder (``OUT/episodes/<agent>-seed<N>/``)
with ``frames.bin``. The viewer of an episode is ``replay.html`` in that folder, rendered from
the frames (and the run database's decisions) the first time a page links to it, and again
only when the frames are newer. Reports and comparisons link to it by a path relative to the
page, so an evaluation folder can be moved or copied whole.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional, Sequence, Union

from hackwright.eval.metrics import EpisodeRecord

PathLike = Union[str, Path]

VIEWER_NAME = "replay.html"
FRAMES_NAME = "frames.bin"
MAX_FRAMES = 5000  # longer recordings keep every n-th frame (as `hackwright render` does by default)
_COUNT_ABOVE_BYTES = 1 << 20  # smaller frame files are read whole without counting first


def record_folder(record_dir: Optional[str], base: Optional[PathLike]) -> Optional[Path]:
    """The episode's record folder: ``record_dir`` as eval wrote it (absolute, or relative to
    where eval ran), else the folder of that name under ``base/episodes`` (the evaluation
    folder, when it was moved or the page is made from elsewhere). None when neither exists."""
    if not record_dir:
        return None
    candidates = [Path(record_dir)]
    if base is not None:
        candidates.append(Path(base) / "episodes" / Path(record_dir).name)
    for c in candidates:
        if (c / FRAMES_NAME).is_file():
            return c
    return None


def ensure_viewer(folder: Path, db: Optional[PathLike] = None) -> Path:
    """``folder/replay.html``, rendered from ``folder/frames.bin`` unless it is already newer.

    ``db`` is the run database with the episode's decisions (shown beside the map). Raises
    the replay package's errors (``RenderError``, ``FrameFileError``, ``OSError``) when the
    recording cannot be rendered.
    """
    from hackwright.replay.frames import iter_frames, load_frames
    from hackwright.replay.html import render_html
    from hackwright.replay.run import resolve_run

    frames_file = folder / FRAMES_NAME
    viewer = folder / VIEWER_NAME
    if viewer.is_file() and viewer.stat().st_mtime >= frames_file.stat().st_mtime:
        return viewer
    every = 1
    if frames_file.stat().st_size > _COUNT_ABOVE_BYTES:
        # Counted first so that a long episode is never held in memory whole.
        every = max(1, math.ceil(sum(1 for _ in iter_frames(frames_file)) / MAX_FRAMES))
    run = resolve_run(folder, db)
    render_html(load_frames(frames_file, every=every), viewer, run=run)
    return viewer


EpisodeKey = tuple[str, Optional[int], int, Optional[str]]  # agent, seed, episode id, record folder


@dataclass
class ReplayLinks:
    """Where each episode's viewer is, relative to the page that links to it."""

    hrefs: dict[EpisodeKey, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # viewers that could not be made, one line each

    def href(self, agent: str, seed: Optional[int], episode_id: int, record_dir: Optional[str]) -> Optional[str]:
        """The link to the viewer of ``agent``'s episode (None when it has none)."""
        return self.hrefs.get((agent, seed, episode_id, record_dir))


def replay_links(groups: Mapping[str, Sequence[EpisodeRecord]], page_dir: PathLike, *,
                 bases: Mapping[str, Optional[PathLike]], dbs: Mapping[str, Optional[PathLike]],
                 render: bool = True) -> ReplayLinks:
    """Make (when ``render``) and find the viewer of every episode that has a recording.

    ``bases`` maps each agent to its evaluation folder and ``dbs`` to its run database.
    Without ``render`` only viewers already made are linked.
    """
    from hackwright.replay.frames import FrameFileError
    from hackwright.replay.gif import RenderError
    from hackwright.replay.run import RunNotFoundError

    links = ReplayLinks()
    page = Path(page_dir).resolve()
    for agent, eps in groups.items():
        for e in eps:
            folder = record_folder(e.record_dir, bases.get(agent))
            if folder is None:
                continue
            viewer = folder / VIEWER_NAME
            if render:
                try:
                    viewer = ensure_viewer(folder, dbs.get(agent))
                except (RenderError, FrameFileError, RunNotFoundError, OSError, ValueError) as err:
                    links.problems.append(f"{agent} seed {e.seed}: no replay viewer ({err})")
                    continue
            if viewer.is_file():
                href = Path(os.path.relpath(viewer.resolve(), page)).as_posix()
                links.hrefs[(agent, e.seed, e.episode_id, e.record_dir)] = href
    return links

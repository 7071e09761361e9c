"""NetHack's tiles, as MiniHack ships them for its ``pixel`` observation.

MiniHack carries the 16×16 tile images (``minihack/tiles/tiles.pkl``, tile id →
RGB array) and NetHack's generated glyph → tile table (``minihack.tiles.glyph2tile``).
The whole set uses 17 colours, so every tile is kept here as palette indices:
a map is drawn by indexing one array, and a GIF needs no colour quantising.
"""

from __future__ import annotations

import pickle
import warnings
from functools import lru_cache
from importlib import resources

import numpy as np

TILE = 16  # pixels per side


class TileSet:
    """The tile images as palette indices, the palette, and the glyph → tile table."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # minihack.tiles imports the deprecated pkg_resources
            from minihack.tiles import glyph2tile
        raw = pickle.loads(resources.files("minihack").joinpath("tiles/tiles.pkl").read_bytes())
        rgb = np.stack([np.asarray(raw[i], dtype=np.uint8) for i in range(len(raw))])  # (T, 16, 16, 3)
        colors, inverse = np.unique(rgb.reshape(-1, 3), axis=0, return_inverse=True)
        extra = [c for c in ((0, 0, 0), (255, 255, 255), (160, 160, 160))
                 if not (colors == c).all(axis=1).any()]
        self.palette = np.concatenate([colors, np.array(extra, dtype=np.uint8).reshape(-1, 3)]).astype(np.uint8)
        self.tiles = inverse.reshape(rgb.shape[:3]).astype(np.uint8)  # (T, 16, 16) palette indices
        self.glyph2tile = np.asarray(glyph2tile, dtype=np.int32)

    def color(self, rgb: tuple[int, int, int]) -> int:
        """The palette index of ``rgb`` (the nearest colour if it is not in the palette)."""
        d = ((self.palette.astype(np.int32) - np.array(rgb, dtype=np.int32)) ** 2).sum(axis=1)
        return int(d.argmin())

    def tile_ids(self, glyphs: np.ndarray) -> np.ndarray:
        """Tile id of every glyph (same shape)."""
        g = np.clip(np.asarray(glyphs, dtype=np.int64), 0, len(self.glyph2tile) - 1)
        return self.glyph2tile[g]

    def render(self, glyphs: np.ndarray) -> np.ndarray:
        """A glyph map (rows × columns) as a palette-index image (rows·16 × columns·16)."""
        t = self.tiles[self.tile_ids(glyphs)]  # (R, C, 16, 16)
        r, c = t.shape[:2]
        return t.transpose(0, 2, 1, 3).reshape(r * TILE, c * TILE)

    def render_rgb(self, glyphs: np.ndarray) -> np.ndarray:
        """A glyph map as an RGB image (rows·16 × columns·16 × 3)."""
        return self.palette[self.render(glyphs)]

    def atlas(self, tile_ids: np.ndarray, per_row: int = 32) -> np.ndarray:
        """The given tiles side by side, ``per_row`` to a row, as a palette-index image."""
        ids = np.asarray(tile_ids, dtype=np.int64)
        rows = max(1, -(-len(ids) // per_row))
        out = np.zeros((rows * TILE, per_row * TILE), dtype=np.uint8)
        for n, t in enumerate(ids):
            y, x = divmod(n, per_row)
            out[y * TILE:(y + 1) * TILE, x * TILE:(x + 1) * TILE] = self.tiles[t]
        return out


@lru_cache(maxsize=1)
def tileset() -> TileSet:
    """The shared :class:`TileSet` (loaded once)."""
    return TileSet()

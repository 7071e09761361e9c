"""Replays of recorded episodes: terminal playback and tile renderings (GIF, HTML)."""

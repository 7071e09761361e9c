"""Hackwright: a language model plays NetHack by programming its own skills.

Layers (one sub-package each): ``env`` (NLE/MiniHack games) → ``api`` (the
NetHack API skills call) → sandbox → skills → agent → evaluation.
"""

__version__ = "0.1.0"

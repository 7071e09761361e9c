"""The command families NetHackAPI is made of, one module each.

``core`` holds the game session and what every family shares (caching, the
remembered map, typing one command and judging its outcome); the others add
the public methods of one family. ``api/nethack_api.py`` joins them.
"""

"""Playing whole games. ``simple_loop`` is the built-in loop used until the agent layer lands."""

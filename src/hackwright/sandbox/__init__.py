"""The skill execution layer (spec §5, §6.1): validation, isolation, the API proxy.

``runner.SkillRunner`` is the entry point; ``policy`` validates skill code;
``errors`` holds the typed errors a model can act on; ``worker`` and ``zygote``
run inside the sandbox; ``isolation`` applies the OS layers.
"""

"""The model-facing layer: decisions the model makes (spec §7.3), the backends that
ask a model for them (Anthropic, OpenAI-compatible, replay of recorded transcripts),
transcripts of every exchange, and the budget that bounds a run."""

"""Model backends: Anthropic and OpenAI(-compatible) through the official SDKs, replay of
recorded transcripts, a person or script as the model (``human.py``), and the transcript
writer (see ``base.py`` for the common API)."""

from .base import (
    PRICES,
    BackendError,
    Message,
    ModelBackend,
    ModelReply,
    Price,
    UnreadableReplyError,
    estimate_cost,
    make_backend,
    parse_spec,
    price_for,
)
from .human import HumanBackend, PlayerEnded
from .replay import ReplayBackend
from .transcript import RecordingBackend, TranscriptWriter, read_transcript

__all__ = [
    "PRICES", "BackendError", "Message", "ModelBackend", "ModelReply", "Price", "UnreadableReplyError",
    "estimate_cost", "make_backend", "parse_spec", "price_for", "ReplayBackend", "RecordingBackend",
    "TranscriptWriter", "read_transcript", "HumanBackend", "PlayerEnded",
]

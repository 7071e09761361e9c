"""Be the model: a person, or a script, plays the model's part and sees exactly what a
model is sent.

``human``
    Each request is shown on the terminal (stderr, so that ``--json`` on stdout stays
    clean): the system prompt the first time and whenever it changes, then each user part.
    The reply is read from stdin, in the formats a model may send (one JSON decision; for
    ``create`` the JSON and then the code in a ```python block), and ends with a line holding
    only ``.`` or with end of input.
``human:DIR``
    Request N is written to ``DIR/req-N.txt`` (N = 1, 2, …; the system prompt in req-1 and
    whenever it changes, else a line saying it is unchanged) and the backend waits, polling,
    for ``DIR/rep-N.txt``, whose whole text is the reply. A folder that already holds
    requests or replies of an earlier game is refused (a stale reply would be read as new).

A reply goes through the same parsing as a model's, and an unusable one gets the same
one-line error back in the next request. When a call is a retry, the request shows only
what is new (the harness's echo of the reply and its error); the rest is in the request
before. End of input before any reply (Ctrl-D on the terminal, an empty ``rep-N.txt``) ends
the game: ``on_end`` (``Agent.request_stop`` under ``hackwright play``) is called, so the
episode is recorded as interrupted; without it, :class:`PlayerEnded` is raised as a failed
model call. Ctrl-C stops the game as it stops any other. Replies have no tokens and no cost;
``latency_s`` is the time the player took.
"""

from __future__ import annotations

import asyncio
import os
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional, TextIO

from .base import BackendError, Message, ModelReply

# What make_backend passes on to HumanBackend (model call settings do not apply).
HUMAN_OPTIONS = ("input", "output", "status", "poll_s", "on_end")
END_LINE = "."

DECISION_HOW = ("Reply as the model would: one JSON decision, e.g. "
                '{"action": "invoke", "skill": "explore_level", "params": {}} or {"action": "direct", "key": "s"}; '
                'for "create", the JSON and then the skill\'s code in a ```python block. The DECISION FORMAT '
                "section of the system prompt has every form.")
TEXT_HOW = "Reply with a short plain-text answer: this call asks for a summary, not a decision."


class PlayerEnded(BackendError):
    """The player ended the game (end of input); raised when no ``on_end`` stops it first."""


class HumanBackend:
    """A person or a script as the model: on the terminal (``folder=None``) or through
    request and reply files in ``folder``. ``input``/``output``: the terminal's streams
    (default stdin and stderr); ``status``: where the one-line waiting status goes (default
    stderr); ``poll_s``: how often the reply file is looked for; ``on_end``: called when the
    player ends the game."""

    name = "human"

    def __init__(self, folder: Optional[str] = None, *, input: Optional[TextIO] = None,
                 output: Optional[TextIO] = None, status: Optional[TextIO] = None, poll_s: float = 0.2,
                 on_end: Optional[Callable[[], None]] = None):
        self.folder = Path(folder) if folder else None
        self.model = str(folder) if folder else ""  # the strategist is "human" or "human:DIR"
        self.input = input
        self.output = output
        self.status = status
        self.poll_s = poll_s
        self.on_end = on_end
        self.requests = 0
        self.ended = False
        self._system: Optional[str] = None
        self._system_in = 0  # the request that showed the current system prompt
        self._last: list[Message] = []
        self._reader: Optional[_LineReader] = None
        if self.folder is not None:
            self._prepare_folder(self.folder)

    @staticmethod
    def _prepare_folder(folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise BackendError(f"human:{folder}: cannot make the folder ({e.strerror})") from None
        if not folder.is_dir():
            raise BackendError(f"human:{folder} is not a folder: give a folder for the req-N.txt and rep-N.txt files")
        old = sorted(p.name for p in folder.iterdir() if p.name.startswith(("req-", "rep-")))
        if old:
            raise BackendError(f"human:{folder} already holds {', '.join(old[:3])}{' …' if len(old) > 3 else ''} "
                               "of an earlier game: give an empty or new folder")

    # ------------------------------------------------------------------ one call
    async def complete(self, system: str, messages: list[Message], *, use_tools: bool = True) -> ModelReply:
        if self.ended:
            raise PlayerEnded("the player ended the game (end of input)")
        if not messages:
            raise BackendError("a model call needs at least one message")
        self.requests += 1
        text = self.render(self.requests, system, messages, decision=use_tools)
        start = time.perf_counter()
        reply = await (self._by_file(self.requests, text) if self.folder is not None
                       else self._by_terminal(self.requests, text))
        if reply is None:
            await self._end()
        return ModelReply(text=reply or "", model="human", latency_s=time.perf_counter() - start,
                          stop_reason="human")

    def render(self, n: int, system: str, messages: list[Message], *, decision: bool = True) -> str:
        """Request ``n`` as the player reads it (and remembers what it showed)."""
        where = "req-{}.txt" if self.folder is not None else "request {}"
        out = [f"Hackwright request {n} to {self.name}{':' + self.model if self.model else ''}",
               DECISION_HOW if decision else TEXT_HOW, ""]
        if system != self._system:
            self._system, self._system_in = system, n
            out += [f"===== SYSTEM PROMPT ({len(system):,} characters) =====", system]
        else:
            out.append(f"===== SYSTEM PROMPT: unchanged since {where.format(self._system_in)} =====")
        last = self._last
        new = messages
        if last and len(messages) > len(last) and messages[:len(last)] == last:
            new = messages[len(last):]
            out.append(f"(this call continues {where.format(n - 1)}: only what is new is shown)")
        for m in new:
            title = "USER" if m.role == "user" else "YOUR REPLY, AS THE HARNESS SENDS IT BACK"
            out += [f"===== {title} ({len(m.content):,} characters) =====", m.content]
        out.append(f"===== END OF REQUEST {n} =====")
        self._last = list(messages)
        return "\n".join(out) + "\n"

    async def _end(self) -> None:
        self.ended = True
        self._say("end of input: the player ended the game")
        if self.on_end is not None:
            self.on_end()
            for _ in range(3):  # the stop it asks for cancels this call here
                await asyncio.sleep(0)
        raise PlayerEnded("the player ended the game (end of input)")

    def _say(self, line: str) -> None:
        stream = self.status or sys.stderr
        try:
            stream.write(f"human: {line}\n")
            stream.flush()
        except (OSError, ValueError):
            pass  # a closed terminal must not end the game

    # ------------------------------------------------------------------ the terminal
    async def _by_terminal(self, n: int, text: str) -> Optional[str]:
        out = self.output or sys.stderr
        if n == 1:
            out.write("You are the model. Each request below is exactly what a model would be sent. End each "
                      f"reply with a line holding only '{END_LINE}' (or with end of input, Ctrl-D). End of input "
                      "before any reply ends the game; Ctrl-C stops it. Both are recorded.\n\n")
        out.write(text)
        out.write(f"Your reply (end with a line holding only '{END_LINE}'):\n")
        out.flush()
        if self._reader is None:
            self._reader = _LineReader(self.input or sys.stdin)
        return await self._reader.reply(min(self.poll_s, 0.05))

    # ------------------------------------------------------------------ files
    async def _by_file(self, n: int, text: str) -> Optional[str]:
        assert self.folder is not None
        request, reply = self.folder / f"req-{n}.txt", self.folder / f"rep-{n}.txt"
        temporary = request.with_name(request.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, request)  # a polling script never reads half a request
        self._say(f"wrote {request}; waiting for {reply} (its whole text is the reply; an empty file ends the "
                  "game; Ctrl-C stops)")
        seen: Optional[tuple[int, int]] = None
        while True:
            try:
                st = reply.stat()
            except FileNotFoundError:
                st = None
            if st is not None:
                size = (st.st_size, st.st_mtime_ns)
                if size == seen:  # unchanged since the last look: written whole
                    break
                seen = size
            await asyncio.sleep(self.poll_s)
        answer = reply.read_text(encoding="utf-8", errors="replace")
        return answer if answer.strip() else None

    async def aclose(self) -> None:
        return None


class _LineReader:
    """Lines of a stream, read by a daemon thread so that waiting for them can be cancelled
    (Ctrl-C) and never holds the process open at its end."""

    def __init__(self, stream: TextIO):
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.closed = False
        thread = threading.Thread(target=self._read, args=(stream,), name="human-input", daemon=True)
        thread.start()

    def _read(self, stream: TextIO) -> None:
        try:
            for line in iter(stream.readline, ""):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    async def reply(self, poll_s: float) -> Optional[str]:
        """The lines up to one holding only ``.`` (or to end of input); None at end of
        input with nothing typed."""
        got: list[str] = []
        while not self.closed:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                await asyncio.sleep(poll_s)
                continue
            if line is None:
                self.closed = True
                break
            if line.strip() == END_LINE:
                return "".join(got)
            got.append(line)
        text = "".join(got)
        return text if text.strip() else None

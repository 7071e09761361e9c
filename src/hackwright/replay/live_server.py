"""The live web page: the replay viewer fed from a running game, served on 127.0.0.1.

``GET /`` is the viewer page of :mod:`hackwright.replay.html` (the same template,
style, tile drawing and decision panel) with a script that follows the game
instead of a recording, and two more panel sections: the skill running now
and the inventory. The page carries the whole tile atlas (every tile id, 32 to
a row), so frames are sent as tile ids.

``GET /feed?after=SEQ`` is a long poll: it answers with the first state newer
than ``SEQ`` (or the latest one after about 15 seconds) as JSON — the frame
(tile ids, terminal text, turn, depth, HP, score, message), the step, the
running skill, the decision with its reasoning and code, recent messages, the
inventory, ``finished`` once the game is over, the ``--delay`` and the pauses
made so far. Only the standard library serves it (``http.server`` in a thread).
"""

from __future__ import annotations

import base64
import html as html_escape
import json
import threading
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional
from urllib.parse import parse_qs, urlparse

import numpy as np

from .html import ATLAS_COLUMNS, JS_DECISION, JS_VIEW, _png, fill_page
from .live import LiveWatch
from .tiles import TILE, tileset

POLL_SECONDS = 15.0  # a long poll's longest wait


@lru_cache(maxsize=1)
def _atlas_base64() -> str:
    ts = tileset()
    return base64.b64encode(_png(ts.atlas(np.arange(len(ts.tiles)), ATLAS_COLUMNS), ts.palette)).decode("ascii")


def live_page(title: str = "Hackwright · live") -> str:
    """The live viewer page (HTML)."""
    geometry = {"rows": 21, "cols": 79, "tile": TILE, "atlas_cols": ATLAS_COLUMNS}
    return fill_page({"TITLE": html_escape.escape(title), "ATLAS": _atlas_base64(), "ENCODING": "live",
                      "RUN": "{}", "FRAMES": json.dumps(geometry), "SCRIPT": _LIVE_SCRIPT, "PANEL": _PANEL})


_PANEL = """  <section><h2>Skill now</h2><p id="hw-skill">—</p></section>
  <section><h2>Inventory</h2><ul id="hw-inventory"></ul></section>
"""

_LIVE_SCRIPT = r"""
(async function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const F = JSON.parse($('hw-frames').textContent);
  const T = F.tile, AC = F.atlas_cols;
  const canvas = $('hw-map'), ctx = canvas.getContext('2d');
  canvas.width = F.cols * T; canvas.height = F.rows * T; ctx.imageSmoothingEnabled = false;
  const atlas = $('hw-atlas');
  if (!atlas.complete) await new Promise((ok) => { atlas.onload = ok; atlas.onerror = ok; });
  const shown = new Int32Array(F.rows * F.cols).fill(-1);
  let textView = false, over = false;
""" + JS_VIEW + r"""
  function showDecision(d) {
""" + JS_DECISION + r"""  }
  // A live game has no scrubber: only the tiles/text switch stays.
  for (const id of ['hw-pstep', 'hw-prev', 'hw-play', 'hw-next', 'hw-nstep', 'hw-slider', 'hw-fps']) $(id).hidden = true;
  $('hw-steps-box').hidden = true;
  function showView() {
    const asText = textView || over;
    $('hw-text').style.display = asText ? 'block' : 'none'; canvas.style.display = asText ? 'none' : 'block';
    $('hw-view').textContent = textView ? 'tiles' : 'text';
  }
  $('hw-view').onclick = () => { textView = !textView; showView(); };
  function fillList(id, items) {
    const ul = $(id); ul.textContent = '';
    for (const m of items.length ? items : ['(none)']) {
      const li = document.createElement('li'); li.textContent = m; ul.appendChild(li);
    }
  }
  function render(s) {
    document.title = s.title; setText('hw-title', s.title);
    const f = s.frame;
    if (f) {
      draw(f.tiles); $('hw-text').textContent = f.text.join('\n'); over = f.over; showView();
      $('hw-status').textContent = 'T:' + f.turn + '  Dlvl:' + f.dlvl + '  HP:' + f.hp + '(' + f.hpmax + ')  S:' + f.score;
      $('hw-where').textContent = 'key ' + f.index + ' (' + keyName(f.key) + ')  ·  step ' + s.step +
        (s.delay_ms ? '  ·  delay ' + s.delay_ms + ' ms' : '') + (f.over ? '  ·  game over' : '') +
        (s.finished ? '  ·  finished' : '  ·  live');
      $('hw-msg').textContent = f.msg || '';
    }
    setText('hw-skill', s.skill || '—');
    const d = s.decision;
    $('hw-decision').hidden = !d; $('hw-nodecision').hidden = !!d;
    $('hw-nodecision').textContent = 'Waiting for the first decision.';
    if (d) {
      showDecision(d);
      if (d.running) { $('hw-d-outcome').textContent = 'running…'; $('hw-d-outcome').className = ''; }
    }
    fillList('hw-messages', s.messages); fillList('hw-inventory', s.inventory);
    $('hw-facts').textContent = 'watching live' + (s.finished ? ' (the game has ended)' : '');
  }
  let after = -1;
  for (;;) {
    let s = null;
    try {
      const r = await fetch('feed?after=' + after, {cache: 'no-store'});
      s = await r.json();
    } catch (e) {
      $('hw-facts').textContent = 'the game server is gone (' + e + ')';
      break;
    }
    if (s && s.seq > after) { after = s.seq; render(s); document.body.dataset.ready = '1'; }
    if (s && s.finished) break;
  }
})();
"""


class LiveServer:
    """Serves the live page and its feed for ``watch`` on ``host:port`` (port 0: a free one)."""

    def __init__(self, watch: LiveWatch, port: int = 0, host: str = "127.0.0.1"):
        self.watch = watch
        page = live_page().encode("utf-8")
        server_ref = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                url = urlparse(self.path)
                if url.path in ("/", "/index.html"):
                    self._send(200, "text/html; charset=utf-8", page)
                elif url.path == "/feed":
                    try:
                        after = int(parse_qs(url.query).get("after", ["-1"])[0])
                    except ValueError:
                        after = -1
                    state = server_ref.watch.wait(after, POLL_SECONDS)
                    body = {"seq": -1, "finished": False, "frame": None} if state is None else \
                        state.to_json(tileset().tile_ids)
                    self._send(200, "application/json", json.dumps(body, default=str).encode("utf-8"))
                else:
                    self._send(404, "text/plain; charset=utf-8", b"not here: / is the page, /feed its data\n")

            def _send(self, code: int, ctype: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the browser went away

            def log_message(self, *args) -> None:  # the game's terminal is not the server's log
                pass

        self._httpd = ThreadingHTTPServer((host, int(port)), Handler)
        self._httpd.daemon_threads = True
        self._thread: Optional[threading.Thread] = None

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8765/``."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> "LiveServer":
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="hackwright-live", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving (readers waiting on the feed are answered first)."""
        self.watch.finish()
        self._httpd.shutdown()
        self._httpd.server_close()

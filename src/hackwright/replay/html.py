"""A self-contained HTML viewer of a recording: tiles on a canvas, a scrubber, the decisions.

The file holds no copy of any rendered image. It carries

* a tile atlas: one small PNG (base64) with only the tiles the episode shows;
* the frames, as atlas indices: the first map in full, then per frame only the
  cells that changed (and, for the text view, the terminal rows that changed),
  plus turn, depth, HP, score, key, message and agent step per frame, and
  which frames come after the game was over (shown as the terminal: the
  tombstone is text, not tiles) —
  JSON, gzip-compressed and base64-encoded (the browser unpacks it with
  ``DecompressionStream``; ``compress=False`` writes plain JSON instead);
* the run: decisions (type, skill, parameters, reasoning, code, outcome) and
  events per step, as plain JSON.

A small inline script rebuilds any frame from the nearest of its key snapshots
(one per 64 frames) and draws it. Everything dynamic is set with
``textContent``, so model-written code and messages are shown, never run.
"""

from __future__ import annotations

import base64
import gzip
import html
import io
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from .frames import BLSTATS, FrameLog, tty_lines
from .gif import RenderError
from .run import RunRecord
from .tiles import TILE, TileSet, tileset

ATLAS_COLUMNS = 32
_SUMMARY_KEYS = ("episode_id", "seed", "role", "strategist", "end_reason", "death_reason", "score", "depth",
                 "max_depth", "xp_level", "max_xp_level", "turns", "progression", "decisions", "model_calls",
                 "cost_usd", "skills_created", "goal_reached")


@dataclass
class HtmlReport:
    """What was written."""

    path: Path
    frames: int
    tiles: int  # distinct tiles in the atlas
    bytes: int


def _png(img: np.ndarray, palette: np.ndarray) -> bytes:
    from PIL import Image

    im = Image.fromarray(img, mode="P")
    im.putpalette(palette.reshape(-1).tolist())
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _script_json(data: Any) -> str:
    """JSON that is safe inside a <script> element (no '</script>' can appear)."""
    return json.dumps(data, separators=(",", ":"), default=str).replace("<", "\\u003c")


def frames_payload(frames: FrameLog, tiles: TileSet) -> tuple[dict, np.ndarray]:
    """The frame data the viewer reads, and the ids of the tiles its atlas must hold."""
    assert frames.glyphs is not None
    n = len(frames)
    tile_ids = tiles.tile_ids(frames.glyphs)  # (N, R, C)
    used, atlas_index = np.unique(tile_ids, return_inverse=True)
    cells = atlas_index.reshape(n, -1).astype(np.int32)
    gd: list[list[int]] = [[]]
    for i in range(1, n):
        pos = np.nonzero(cells[i] != cells[i - 1])[0]
        pair = np.empty(2 * len(pos), dtype=np.int64)
        pair[0::2], pair[1::2] = pos, cells[i, pos]
        gd.append(pair.tolist())
    lines = [tty_lines(frames.tty_chars[i]) for i in range(n)]
    td: list[list[Any]] = [[]]
    for i in range(1, n):
        row: list[Any] = []
        for r, (a, b) in enumerate(zip(lines[i - 1], lines[i])):
            if a != b:
                row += [r, b]
        td.append(row)
    bl = frames.blstats

    def stat(name: str) -> list[int]:
        return bl[:, BLSTATS[name]].tolist() if bl is not None else [0] * n

    payload = {
        "n": n, "rows": int(frames.glyphs.shape[1]), "cols": int(frames.glyphs.shape[2]), "tile": TILE,
        "atlas_cols": ATLAS_COLUMNS, "total": int(frames.total or n),
        "g0": cells[0].tolist() if n else [], "gd": gd, "t0": lines[0] if n else [], "td": td,
        "index": frames.indices.tolist(), "step": frames.steps.tolist(), "key": frames.keys.tolist(),
        "time": [round(float(t), 3) for t in frames.times],
        "turn": stat("turn"), "dlvl": stat("depth"), "hp": stat("hp"), "hpmax": stat("hpmax"),
        "score": stat("score"), "msg": list(frames.messages),
        "over": [] if frames.over is None else np.nonzero(frames.over)[0].tolist(),
    }
    return payload, used


def run_payload(run: Optional[RunRecord], frames: FrameLog) -> dict:
    """The run's title, summary, warnings, decisions and events, for the side panel."""
    if run is None:
        return {"title": "replay", "summary": {}, "warnings": [], "decisions": [], "events": []}
    summary = {k: run.summary[k] for k in _SUMMARY_KEYS if run.summary and k in run.summary}
    warnings = list(run.warnings)
    if frames.truncated:
        warnings.append("the frame file ends inside a frame (the run was cut short)")
    return {
        "title": run.title(), "summary": summary, "warnings": warnings,
        "decisions": [asdict(d) for d in run.decisions],
        "events": [{"step": e.step, "turn": e.turn, "kind": e.kind, "message": e.message} for e in run.events],
    }


def render_html(frames: FrameLog, path: Union[str, Path], *, run: Optional[RunRecord] = None,
                compress: bool = True, tiles: Optional[TileSet] = None) -> HtmlReport:
    """Write the viewer for ``frames`` (already thinned by the caller) to ``path``."""
    if frames.glyphs is None:
        raise RenderError("this recording has no glyphs (a ttyrec): tiles need frames.bin")
    if not len(frames):
        raise RenderError("the recording has no frames")
    ts = tiles or tileset()
    payload, used = frames_payload(frames, ts)
    atlas = base64.b64encode(_png(ts.atlas(used, ATLAS_COLUMNS), ts.palette)).decode("ascii")
    raw = json.dumps(payload, separators=(",", ":")).encode("utf-8")
    if compress:
        encoding = "gzip-base64"
        blob = base64.b64encode(gzip.compress(raw, 9, mtime=0)).decode("ascii")
    else:
        encoding = "json"
        blob = raw.decode("utf-8").replace("<", "\\u003c")
    info = run_payload(run, frames)
    page = fill_page({"TITLE": html.escape(info["title"]), "ATLAS": atlas, "ENCODING": encoding,
                      "RUN": _script_json(info), "FRAMES": blob, "SCRIPT": _SCRIPT})
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return HtmlReport(out, len(frames), len(used), out.stat().st_size)


def fill_page(fills: dict[str, str]) -> str:
    """The viewer page with ``fills`` put in: TITLE, ATLAS (PNG, base64), ENCODING, RUN, FRAMES,
    SCRIPT, and optionally STYLE (default: the viewer's) and PANEL (more side-panel sections)."""
    fills = {"STYLE": _STYLE, "PANEL": "", **fills}
    # One pass over the template: text put in (model code, messages) is never searched for placeholders.
    return re.sub(r"@([A-Z]+)@", lambda m: fills.get(m.group(1), m.group(0)), _TEMPLATE)


_STYLE = """
:root { color-scheme: dark; }
[hidden] { display:none !important; }
body { background:#111; color:#ddd; font:14px/1.4 system-ui, sans-serif; margin:12px; }
h1 { font-size:16px; margin:0 0 8px; font-weight:600; }
.warn { color:#fb4; margin:2px 0; }
#hw-main { display:flex; gap:14px; flex-wrap:wrap; align-items:flex-start; }
#hw-left { flex:1 1 760px; min-width:320px; max-width:1264px; }
#hw-panel { flex:1 1 380px; min-width:300px; max-width:620px; }
#hw-status { font-family:ui-monospace, monospace; white-space:pre; margin:4px 0; color:#fff; }
#hw-where { font-family:ui-monospace, monospace; color:#9ab; margin:2px 0 6px; }
#hw-map { width:100%; image-rendering:pixelated; background:#000; display:block; }
#hw-text { background:#000; color:#ccc; font:12px/1.15 ui-monospace, monospace; margin:0; padding:4px;
           overflow:auto; display:none; }
#hw-controls { display:flex; gap:6px; align-items:center; margin:8px 0; flex-wrap:wrap; }
#hw-controls button, #hw-controls select { background:#222; color:#ddd; border:1px solid #444;
           border-radius:4px; padding:3px 9px; font-size:14px; }
#hw-slider { flex:1 1 200px; }
#hw-msg { font-family:ui-monospace, monospace; min-height:1.4em; color:#fe8; }
section { background:#1a1a1a; border:1px solid #333; border-radius:6px; padding:8px 10px; margin-bottom:10px; }
section h2 { font-size:13px; margin:0 0 6px; color:#9ab; text-transform:uppercase; letter-spacing:.05em; }
dl { display:grid; grid-template-columns:max-content 1fr; gap:2px 10px; margin:0; }
dt { color:#889; } dd { margin:0; word-break:break-word; }
pre { white-space:pre-wrap; word-break:break-word; }
#hw-code { background:#000; padding:6px; margin:4px 0 0; font:12px/1.3 ui-monospace, monospace;
           max-height:360px; overflow:auto; }
#hw-messages li.now { color:#fe8; font-weight:600; }
#hw-messages, #hw-events { margin:0; padding-left:18px; font-family:ui-monospace, monospace; font-size:12px; }
#hw-steps { max-height:260px; overflow:auto; margin:0; padding-left:0; list-style:none;
            font-family:ui-monospace, monospace; font-size:12px; }
#hw-steps li { cursor:pointer; padding:1px 4px; border-radius:3px; }
#hw-steps li:hover { background:#333; }
#hw-steps li.now { background:#2a3f55; }
.ok { color:#7d7; } .bad { color:#f77; }
"""

# The viewer's script in parts: the drawing and the decision panel are shared with the
# live page (replay/live_server.py), so both show a game the same way.
_SCRIPT_HEAD = r"""
(async function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const run = JSON.parse($('hw-run').textContent);
  const box = $('hw-frames');
  let F;
  try {
    if (box.dataset.encoding === 'gzip-base64') {
      const bin = atob(box.textContent.trim());
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      F = JSON.parse(await new Response(stream).text());
    } else {
      F = JSON.parse(box.textContent);
    }
  } catch (e) {
    $('hw-status').textContent = 'cannot read the frames: ' + e + ' (a browser with DecompressionStream is needed)';
    return;
  }
  document.title = run.title;
  $('hw-title').textContent = run.title;
  for (const w of run.warnings) {
    const p = document.createElement('p'); p.className = 'warn'; p.textContent = w; $('hw-warnings').appendChild(p);
  }

  // Snapshots every K frames; any frame = nearest snapshot + the deltas after it.
  const N = F.n, K = 64, T = F.tile, AC = F.atlas_cols;
  const snaps = [];
  {
    const g = Int32Array.from(F.g0); const t = F.t0.slice();
    for (let i = 0; i < N; i++) {
      if (i > 0) applyDelta(g, t, i);
      if (i % K === 0) snaps.push([g.slice(), t.slice()]);
    }
  }
  function applyDelta(g, t, i) {
    const d = F.gd[i]; for (let j = 0; j < d.length; j += 2) g[d[j]] = d[j + 1];
    const r = F.td[i]; for (let j = 0; j < r.length; j += 2) t[r[j]] = r[j + 1];
  }
  function frameAt(i) {
    const k = Math.floor(i / K), s = snaps[k];
    const g = s[0].slice(), t = s[1].slice();
    for (let j = k * K + 1; j <= i; j++) applyDelta(g, t, j);
    return [g, t];
  }

  // Steps: first frame of each, decision and events of each. A decision that sent no
  // key has no frame of its own: it points at the next frame.
  const firstOf = new Map();
  F.step.forEach((s, i) => { if (!firstOf.has(s)) firstOf.set(s, i); });
  const decisionOf = new Map(run.decisions.map((d) => [d.step, d]));
  for (const d of run.decisions) {
    if (firstOf.has(d.step)) continue;
    let i = F.step.findIndex((s) => s > d.step); firstOf.set(d.step, i < 0 ? N - 1 : i);
  }
  const stepOrder = [...firstOf.keys()].sort((a, b) => a - b);
  const eventsOf = new Map();
  for (const e of run.events) { if (!eventsOf.has(e.step)) eventsOf.set(e.step, []); eventsOf.get(e.step).push(e); }

  const canvas = $('hw-map'), ctx = canvas.getContext('2d');
  canvas.width = F.cols * T; canvas.height = F.rows * T; ctx.imageSmoothingEnabled = false;
  const atlas = $('hw-atlas');
  if (!atlas.complete) await new Promise((ok) => { atlas.onload = ok; atlas.onerror = ok; });
  const shown = new Int32Array(F.rows * F.cols).fill(-1);
  const slider = $('hw-slider'); slider.max = Math.max(0, N - 1);
  let cur = -1, curStep = null, timer = null, textView = false;
  const over = new Set(F.over || []);  // after the game ended: the terminal shows it, the tiles cannot

"""

JS_VIEW = r"""  function keyName(k) {
    if (k === -1) return 'start'; if (k === -2) return 'attach'; if (k === -3) return 'end';
    if (k === 27) return 'Esc'; if (k === 13 || k === 10) return 'Enter'; if (k === 32) return 'Space';
    if (k < 32) return '^' + String.fromCharCode(k + 64);
    if (k >= 128) return 'M-' + String.fromCharCode(k - 128);
    return "'" + String.fromCharCode(k) + "'";
  }
  function draw(g) {
    for (let c = 0; c < g.length; c++) {
      const a = g[c]; if (shown[c] === a) continue; shown[c] = a;
      const x = (c % F.cols) * T, y = Math.floor(c / F.cols) * T;
      ctx.drawImage(atlas, (a % AC) * T, Math.floor(a / AC) * T, T, T, x, y, T, T);
    }
  }
  function setText(id, v) { $(id).textContent = (v === null || v === undefined) ? '' : String(v); }
"""  # keyName(k), draw(g), setText(id, v): needs F, T, AC, ctx, atlas, shown

_SCRIPT_STEP = r"""  function showStep(s, i) {
    const d = decisionOf.get(s);
    $('hw-decision').hidden = !d; $('hw-nodecision').hidden = !!d;
    $('hw-nodecision').textContent = s === 0 ? 'Before the first decision.' : 'No decision recorded for step ' + s + '.';
"""

JS_DECISION = r"""    if (d) {
      setText('hw-d-step', d.step + (d.turn !== null ? '  (turn ' + d.turn + ')' : ''));
      setText('hw-d-type', d.type); setText('hw-d-skill', d.skill_name || '—');
      setText('hw-d-params', d.params === null ? '—' : JSON.stringify(d.params));
      const out = $('hw-d-outcome'); out.textContent = (d.success ? 'success' : 'failure') +
        (d.stopped_reason ? ' — ' + d.stopped_reason : ''); out.className = d.success ? 'ok' : 'bad';
      setText('hw-d-error', d.error || '—'); setText('hw-d-reasoning', d.reasoning || '—');
      $('hw-code-box').hidden = !d.code; setText('hw-code', d.code || '');
    }
"""  # fills the decision panel from d (a DecisionRow as JSON)

_SCRIPT_TAIL = r"""    const ul = $('hw-messages'); ul.textContent = '';
    const first = firstOf.get(s); let prev = null;
    for (let j = first; j < N && F.step[j] === s; j++) {
      const m = F.msg[j]; if (!m || m === prev) continue; prev = m;
      const li = document.createElement('li'); li.textContent = m; li.dataset.frame = j; ul.appendChild(li);
    }
    if (!ul.children.length) { const li = document.createElement('li'); li.textContent = '(none)'; ul.appendChild(li); }
    const ev = $('hw-events'); ev.textContent = '';
    for (const e of eventsOf.get(s) || []) {
      const li = document.createElement('li'); li.textContent = '[' + e.kind + '] ' + (e.message || ''); ev.appendChild(li);
    }
    $('hw-events-box').hidden = !(eventsOf.get(s) || []).length;
    for (const li of $('hw-steps').children) li.classList.toggle('now', Number(li.dataset.step) === s);
    const now = $('hw-steps').querySelector('li.now'); if (now && now.scrollIntoView) now.scrollIntoView({block: 'nearest'});
  }
  function show(i) {
    i = Math.max(0, Math.min(N - 1, i)); if (i === cur) return; cur = i;
    const [g, t] = frameAt(i);
    draw(g); $('hw-text').textContent = t.join('\n');
    showView();
    slider.value = i;
    $('hw-status').textContent = 'T:' + F.turn[i] + '  Dlvl:' + F.dlvl[i] + '  HP:' + F.hp[i] + '(' + F.hpmax[i] +
      ')  S:' + F.score[i];
    $('hw-where').textContent = 'frame ' + (F.index[i] + 1) + '/' + F.total + '  ·  step ' + F.step[i] +
      '  ·  key ' + keyName(F.key[i]) + '  ·  ' + F.time[i].toFixed(1) + ' s' + (over.has(i) ? '  ·  game over' : '');
    $('hw-msg').textContent = F.msg[i] || '';
    if (F.step[i] !== curStep) { curStep = F.step[i]; showStep(curStep, i); }
    let latest = null;  // the step's message on screen now: the last one shown so far
    for (const li of $('hw-messages').children) {
      li.classList.remove('now');
      if (li.dataset.frame !== undefined && Number(li.dataset.frame) <= i) latest = li;
    }
    if (latest) latest.classList.add('now');
  }
  function stepJump(dir) {
    const k = stepOrder.indexOf(F.step[cur]);
    const target = dir < 0 && cur > firstOf.get(F.step[cur]) ? F.step[cur] : stepOrder[k + dir];
    if (target !== undefined) show(firstOf.get(target));
  }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      if (cur >= N - 1) show(0);
      timer = setInterval(() => { if (cur >= N - 1) play(false); else show(cur + 1); }, 1000 / Number($('hw-fps').value));
    }
    $('hw-play').textContent = timer ? '❚❚ pause' : '▶ play';
  }

  const list = $('hw-steps');
  for (const s of stepOrder) {
    const d = decisionOf.get(s), li = document.createElement('li');
    li.dataset.step = s;
    li.textContent = s === 0 ? '#0  start' : '#' + s + '  T:' + (d && d.turn !== null ? d.turn : '?') + '  ' +
      (d ? (d.skill_name || d.type) + (d.success ? '  ✓' : '  ✗') : '');
    li.onclick = () => {
      play(false); show(firstOf.get(s));
      if (curStep !== s) { curStep = s; showStep(s); }  // a step without frames of its own
    };
    list.appendChild(li);
  }
  $('hw-steps-box').hidden = stepOrder.length < 2;
  slider.oninput = () => show(Number(slider.value));
  $('hw-prev').onclick = () => { play(false); show(cur - 1); };
  $('hw-next').onclick = () => { play(false); show(cur + 1); };
  $('hw-pstep').onclick = () => { play(false); stepJump(-1); };
  $('hw-nstep').onclick = () => { play(false); stepJump(1); };
  $('hw-play').onclick = () => play(!timer);
  $('hw-fps').onchange = () => { if (timer) play(true); };
  function showView() {
    const asText = textView || over.has(cur);
    $('hw-text').style.display = asText ? 'block' : 'none'; canvas.style.display = asText ? 'none' : 'block';
    $('hw-view').textContent = textView ? 'tiles' : 'text';
  }
  $('hw-view').onclick = () => { textView = !textView; showView(); };
  document.addEventListener('keydown', (e) => {
    if (e.target && e.target.tagName === 'SELECT') return;
    const k = e.key;
    if (k === 'ArrowRight') show(cur + 1); else if (k === 'ArrowLeft') show(cur - 1);
    else if (k === 'ArrowDown' || k === 'PageDown') stepJump(1); else if (k === 'ArrowUp' || k === 'PageUp') stepJump(-1);
    else if (k === ' ') play(!timer); else if (k === 'Home') show(0); else if (k === 'End') show(N - 1);
    else return;
    e.preventDefault();
  });
  const s = run.summary, facts = [];
  for (const [k, label] of [['score', 'score'], ['max_depth', 'max depth'], ['max_xp_level', 'max XL'],
                            ['turns', 'turns'], ['decisions', 'decisions'], ['progression', 'progression']]) {
    if (s[k] !== undefined && s[k] !== null) facts.push(label + ' ' + (k === 'progression' ? (100 * s[k]).toFixed(2) + '%' : s[k]));
  }
  $('hw-facts').textContent = facts.join('  ·  ');
  show(0);
  document.body.dataset.ready = '1';
})();
"""

_SCRIPT = _SCRIPT_HEAD + JS_VIEW + _SCRIPT_STEP + JS_DECISION + _SCRIPT_TAIL

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="hackwright render">
<title>@TITLE@</title>
<style>@STYLE@</style>
</head>
<body>
<h1 id="hw-title">@TITLE@</h1>
<div id="hw-facts"></div>
<div id="hw-warnings"></div>
<div id="hw-main">
 <div id="hw-left">
  <div id="hw-status">loading…</div>
  <div id="hw-where"></div>
  <canvas id="hw-map" aria-label="map"></canvas>
  <pre id="hw-text" aria-label="terminal"></pre>
  <div id="hw-msg"></div>
  <div id="hw-controls" role="toolbar" aria-label="scrubber">
   <button id="hw-pstep" title="previous step (↑)">⏮ step</button>
   <button id="hw-prev" title="previous frame (←)">◀</button>
   <button id="hw-play" title="play / pause (space)">▶ play</button>
   <button id="hw-next" title="next frame (→)">▶</button>
   <button id="hw-nstep" title="next step (↓)">step ⏭</button>
   <input id="hw-slider" type="range" min="0" max="0" value="0" aria-label="frame">
   <select id="hw-fps" title="frames per second"><option>2</option><option>5</option><option selected>10</option>
    <option>25</option><option>60</option></select>
   <button id="hw-view" title="show the terminal text (menus, prompts) instead of the tiles">text</button>
  </div>
  <section id="hw-steps-box"><h2>Steps</h2><ol id="hw-steps"></ol></section>
 </div>
 <div id="hw-panel">
  <section><h2>Decision</h2>
   <p id="hw-nodecision"></p>
   <dl id="hw-decision" hidden>
    <dt>step</dt><dd id="hw-d-step"></dd>
    <dt>type</dt><dd id="hw-d-type"></dd>
    <dt>skill</dt><dd id="hw-d-skill"></dd>
    <dt>params</dt><dd id="hw-d-params"></dd>
    <dt>outcome</dt><dd id="hw-d-outcome"></dd>
    <dt>error</dt><dd id="hw-d-error"></dd>
    <dt>reasoning</dt><dd><pre id="hw-d-reasoning"></pre></dd>
   </dl>
  </section>
  <section id="hw-code-box" hidden><h2>Skill code</h2><pre id="hw-code"></pre></section>
@PANEL@  <section><h2>Messages</h2><ul id="hw-messages"></ul></section>
  <section id="hw-events-box" hidden><h2>Events</h2><ul id="hw-events"></ul></section>
 </div>
</div>
<img id="hw-atlas" alt="" hidden src="data:image/png;base64,@ATLAS@">
<script type="application/json" id="hw-run">@RUN@</script>
<script type="application/octet-stream" id="hw-frames" data-encoding="@ENCODING@">@FRAMES@</script>
<script>@SCRIPT@</script>
</body>
</html>
"""

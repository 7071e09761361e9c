// Runs the inline script of a `hackwright render --html` page under Node with a
// minimal stand-in for the few DOM calls it makes, drives the scrubber, and prints
// what the page shows as JSON. Usage: node viewer_harness.js PAGE.html
'use strict';
const fs = require('fs');

const page = fs.readFileSync(process.argv[2], 'utf8');
const scriptOf = (id) => {
  const m = page.match(new RegExp('<script[^>]*id="' + id + '"[^>]*>([\\s\\S]*?)</script>'));
  if (!m) throw new Error('no script ' + id);
  return m[1];
};
const encoding = page.match(/id="hw-frames" data-encoding="([^"]+)"/)[1];
const inline = page.match(/<script>([\s\S]*?)<\/script>/)[1];

class El {
  constructor(tag, id) {
    this.tagName = tag.toUpperCase(); this.id = id; this.children = []; this.parent = null;
    this._text = ''; this.dataset = {}; this.hidden = false; this.style = {}; this.className = '';
    this.value = '0'; this.max = '0'; this.complete = true; this.drawn = 0;
    const cls = new Set();
    this.classList = {
      add: (c) => cls.add(c), remove: (c) => cls.delete(c), contains: (c) => cls.has(c),
      toggle: (c, on) => { if (on === undefined ? !cls.has(c) : on) cls.add(c); else cls.delete(c); },
    };
  }
  get textContent() { return this._text + this.children.map((c) => c.textContent).join(''); }
  set textContent(v) { this._text = String(v); this.children = []; }
  get nextSibling() {
    if (!this.parent) return null;
    const s = this.parent.children; return s[s.indexOf(this) + 1] || null;
  }
  appendChild(c) { c.parent = this; this.children.push(c); return c; }
  querySelector(sel) {
    const [tag, cls] = sel.split('.');
    return this.children.find((c) => c.tagName === tag.toUpperCase() && c.classList.contains(cls)) || null;
  }
  scrollIntoView() {}
  getContext() {
    const el = this;
    return { imageSmoothingEnabled: true, drawImage() { el.drawn++; } };
  }
}

const els = {};
for (const m of page.matchAll(/<(\w+)[^>]*\sid="([^"]+)"/g)) els[m[2]] = new El(m[1], m[2]);
els['hw-run']._text = scriptOf('hw-run');
els['hw-frames']._text = scriptOf('hw-frames');
els['hw-frames'].dataset.encoding = encoding;
const listeners = {};
global.document = {
  title: '', body: { dataset: {} },
  getElementById: (id) => els[id] || null,
  createElement: (tag) => new El(tag, null),
  addEventListener: (type, fn) => { listeners[type] = fn; },
};

(async () => {
  await eval(inline);  // the page's own script, unchanged
  for (let i = 0; i < 200 && document.body.dataset.ready !== '1'; i++) await new Promise((r) => setTimeout(r, 10));
  const t = (id) => els[id].textContent;
  const snap = () => ({
    status: t('hw-status'), where: t('hw-where'), slider: els['hw-slider'].value, skill: t('hw-d-skill'),
    type: t('hw-d-type'), params: t('hw-d-params'), outcome: t('hw-d-outcome'), reasoning: t('hw-d-reasoning'),
    code: t('hw-code'), codeHidden: els['hw-code-box'].hidden, decisionHidden: els['hw-decision'].hidden,
    nodecision: t('hw-nodecision'), messages: els['hw-messages'].children.map((c) => c.textContent),
    text: t('hw-text'), drawn: els['hw-map'].drawn, textShown: els['hw-text'].style.display === 'block',
  });
  const out = { ready: document.body.dataset.ready === '1', title: document.title, max: els['hw-slider'].max,
                steps: els['hw-steps'].children.map((c) => c.textContent), facts: t('hw-facts') };
  out.first = snap();
  els['hw-nstep'].onclick(); out.afterNextStep = snap();
  els['hw-nstep'].onclick(); out.afterNextStep2 = snap();
  els['hw-next'].onclick(); out.afterNext = snap();
  els['hw-pstep'].onclick(); out.afterPrevStep = snap();
  els['hw-slider'].value = els['hw-slider'].max; els['hw-slider'].oninput(); out.last = snap();
  listeners.keydown({ key: 'Home', target: {}, preventDefault() {} }); out.home = snap();
  els['hw-steps'].children[els['hw-steps'].children.length - 1].onclick(); out.lastStep = snap();
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });

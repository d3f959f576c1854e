// The pair browser's part of the page: a static section (escaped here) and a plain-DOM script that builds one card
// per pair from the JSON data island. Every store text reaches the page through textContent or an attribute set by
// the DOM, never through innerHTML, so it stays text.
import { escapeHtml } from './escape.js';
import type { PairBrowser } from './types.js';

/** The browser's styles, added to the page's. */
export const BROWSER_CSS = `
#pairs .filters { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; margin: 8px 0 12px; position: sticky; top: 0; background: #fff; padding: 6px 0; border-bottom: 1px solid #eee; z-index: 1; }
#pairs .filters button { font: inherit; font-size: 13px; border: 1px solid #bbb; background: #f6f6f6; border-radius: 12px; padding: 1px 10px; cursor: pointer; }
#pairs .filters button[aria-pressed="true"] { background: #2f6fb3; border-color: #2f6fb3; color: #fff; }
article.pair { border: 1px solid #ddd; border-radius: 6px; padding: 10px 12px; margin: 0 0 14px; }
article.pair > header { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 13px; color: #555; margin-bottom: 8px; }
article.pair > header b { color: #222; } .badge { border-radius: 8px; padding: 0 7px; font-size: 12px; }
.badge.kept { background: #e3f3e3; color: #185c18; } .badge.off-policy { background: #fbe3d6; color: #8a3a0c; } .badge.dropped, .badge.gated { background: #fbe3d6; color: #8a3a0c; } .badge.unbalanced { background: #eee; }
details.judge { font-size: 13px; margin: 0 0 8px; } details.judge pre { max-width: none; }
.pair-top { display: flex; gap: 14px; align-items: flex-start; margin-bottom: 8px; }
.pair-top img { width: 160px; height: auto; image-rendering: pixelated; border: 1px solid #ccc; flex: none; }
.pair-top .noimg { width: 160px; flex: none; font-size: 12px; color: #8a3a0c; border: 1px dashed #c99; padding: 6px; word-break: break-all; }
.turn { margin: 0 0 4px; white-space: pre-wrap; } .turn .role { font-weight: 600; color: #666; margin-right: 6px; }
.instruction { font-weight: 600; white-space: pre-wrap; } .truth-title { font-size: 12px; margin-top: 6px; } .truth { font-size: 12px; color: #555; margin: 2px 0 0; padding-left: 18px; }
.answers { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.answer { border-radius: 6px; padding: 8px 10px; } .answer.chosen { background: #f3f9f3; } .answer.rejected { background: #fbf4f1; }
.answer h4 { margin: 0 0 6px; font-size: 13px; } .answer h4 span { font-weight: 400; color: #555; margin-left: 8px; }
.answer .text { white-space: pre-wrap; margin: 0 0 8px; }
mark { border-radius: 3px; padding: 0 1px; } mark.acc { background: #cdeccd; } mark.rej { background: #f7c6c0; } mark.unj { background: #e6e6e6; }
ol.claims { margin: 0; padding-left: 20px; font-size: 13px; } ol.claims li { margin: 2px 0; }
.verdict { font-size: 11px; font-weight: 700; text-transform: uppercase; margin-right: 6px; }
li.acc .verdict { color: #185c18; } li.rej .verdict { color: #a11; } li.unj .verdict { color: #777; }
.edit { font-family: ui-monospace, monospace; font-size: 13px; margin: 6px 0 0; padding: 6px 10px; background: #fafafa; border-radius: 6px; }
.edit del { background: #fbe3d6; color: #8a3a0c; text-decoration: line-through; display: block; } .edit ins { background: #e3f3e3; color: #185c18; text-decoration: none; display: block; }
.badge.correction { background: #e6eefb; color: #1d3f7a; }
.probs { color: #555; font-variant-numeric: tabular-nums; margin-left: 6px; white-space: nowrap; } .notfound { color: #8a3a0c; font-size: 12px; }
@media (max-width: 800px) { .answers { grid-template-columns: 1fr; } }
`;

/** The browser's section: a heading, how many of how many pairs it shows, the filter bars and an empty list. */
export function pairBrowserSection(b: PairBrowser | null, roundPairs: number): string {
  if (!b) return `<h2 id="pairs-title">Pairs</h2><p id="pairs" class="muted">Pair browser off (<code>--pairs 0</code>); the round has ${roundPairs} pairs.</p>`;
  const sampled =
    b.shown < b.total
      ? `${b.shown} of the round's ${b.total} pairs, sampled with the round's seed (${b.seed})`
      : `all ${b.total} of the round's pairs`;
  return `<h2 id="pairs-title">Pairs</h2>
<div id="pairs" data-shown="${b.shown}" data-total="${b.total}">
<p class="muted">Shows ${escapeHtml(sampled)} (method ${escapeHtml(b.method)}, accept rule "${escapeHtml(b.accept_rule)}"; <code>rlaifv report --pairs N</code> sets how many).
Marked in each answer: the sentence each claim came from, green when the labeler accepted it, red when it rejected it.
A correction pair (<code>pair.corrections</code>) shows its edit: each sentence of the original the editor struck, and what it wrote instead.</p>
<div class="filters"><span>kind:</span><span id="pb-kind"></span><span>pair:</span><span id="pb-pair"></span><span>length balance:</span><span id="pb-kept"></span><span id="pb-count" class="muted"></span></div>
<p id="pb-empty" class="muted" hidden>No pair of this sample matches the filters.</p>
<div id="pb-list"></div>
</div>`;
}

/** The browser's script (plain DOM, no framework); it reads `payload.browser` from the data island. */
export const BROWSER_CLIENT = `(function () {
  var b = JSON.parse(document.getElementById('rlaifv-data').textContent).browser;
  if (!b) return;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function num(x, d) { return x === null || x === undefined ? '–' : Number(x).toFixed(d); }
  function verdictClass(r) { return r === true ? 'rej' : r === false ? 'acc' : 'unj'; }
  function keptOf(p) { return p.gate && !p.gate.kept ? 'gated' : p.balance_kept === true ? 'kept' : p.balance_kept === false ? 'dropped' : 'unbalanced'; }
  function truthList(t) {
    var ul = el('ul', 'truth');
    var objs = t && Array.isArray(t.objects) ? t.objects : null;
    if (!objs) { ul.appendChild(el('li', '', 'truth: ' + JSON.stringify(t))); return ul; }
    if (objs.length === 0) ul.appendChild(el('li', '', 'truth: no objects'));
    objs.forEach(function (o) {
      var words = o && typeof o === 'object' ? [o.size, o.color, o.shape].filter(function (x) { return x !== undefined; }).join(' ') : '';
      var text = words && o.position !== undefined ? words + ', ' + o.position : JSON.stringify(o);
      ul.appendChild(el('li', '', text));
    });
    return ul;
  }
  function answer(a, role) {
    var s = el('section', 'answer ' + role);
    var h = el('h4', '', role === 'chosen' ? 'Chosen' : 'Rejected');
    h.appendChild(el('span', 'score', 'REJ-C ' + num(a.rej_c, 0) + ' · REJ-P ' + num(a.rej_p, 2) + ' · ' +
      (a.n_rejected === null ? '–' : a.n_rejected) + ' of ' + a.claims.length + ' claims rejected · ' + a.words + ' words' +
      (a.finish_reason !== 'stop' ? ' · finish ' + a.finish_reason : '')));
    s.appendChild(h);
    var text = el('p', 'text');
    a.segments.forEach(function (seg) {
      if (seg.claims.length === 0) { text.appendChild(document.createTextNode(seg.text)); return; }
      var rej = seg.claims.some(function (i) { return a.claims[i].rejected === true; });
      var acc = seg.claims.every(function (i) { return a.claims[i].rejected === false; });
      var m = el('mark', rej ? 'rej' : acc ? 'acc' : 'unj', seg.text);
      m.title = seg.claims.map(function (i) { return '#' + (i + 1) + ' ' + a.claims[i].claim; }).join('\\n');
      text.appendChild(m);
    });
    s.appendChild(text);
    var ol = el('ol', 'claims');
    a.claims.forEach(function (c) {
      var li = el('li', verdictClass(c.rejected));
      li.setAttribute('data-verdict', c.rejected === true ? 'rejected' : c.rejected === false ? 'accepted' : 'unjudged');
      li.appendChild(el('span', 'verdict', c.rejected === true ? 'rejected' : c.rejected === false ? 'accepted' : 'unjudged'));
      li.appendChild(el('span', 'claim', c.claim));
      var pr = el('span', 'probs');
      pr.appendChild(document.createTextNode('p(yes) '));
      pr.appendChild(el('span', 'p-yes', num(c.p_yes, 3)));
      pr.appendChild(document.createTextNode(' p(no) '));
      pr.appendChild(el('span', 'p-no', num(c.p_no, 3)));
      li.appendChild(pr);
      li.title = 'question: ' + c.question;
      if (c.missing_sentence !== null) li.appendChild(el('span', 'notfound', ' (sentence not found in the answer: ' + c.missing_sentence + ')'));
      ol.appendChild(li);
    });
    s.appendChild(ol);
    return s;
  }
  function card(p, i) {
    var art = el('article', 'pair');
    art.setAttribute('data-pair-id', p.id);
    art.setAttribute('data-kind', p.kind);
    art.setAttribute('data-kept', keptOf(p));
    art.setAttribute('data-pair', p.pair_kind);
    var hd = el('header');
    hd.appendChild(el('b', '', '#' + (i + 1)));
    hd.appendChild(el('span', 'prompt-id', 'prompt ' + p.prompt_id));
    hd.appendChild(el('span', 'kind', 'kind ' + p.kind));
    hd.appendChild(el('span', 'scores', b.method + ' score: chosen ' + num(p.chosen_score, 3) + ', rejected ' + num(p.rejected_score, 3)));
    hd.appendChild(el('span', 'margin', 'margin ' + num(p.margin, 3)));
    var k = keptOf(p);
    hd.appendChild(el('span', 'badge ' + k, k === 'kept' ? 'kept by length balance' : k === 'dropped' ? 'dropped by length balance' : k === 'gated' ? 'dropped by the quality gate' : 'length balance not run'));
    if (p.gate) hd.appendChild(el('span', 'gate', 'gate confidence ' + num(p.gate.confidence, 2)));
    if (p.pair_kind === 'correction') hd.appendChild(el('span', 'badge correction', 'correction by ' + p.editor));
    if (p.difficulty) {
      hd.appendChild(el('span', 'difficulty', 'decided by a ' + p.difficulty.deciding_form + ' claim; claim sets differ by ' + p.difficulty.claim_diff + ', ' + p.difficulty.edit_distance + ' words edited'));
      art.setAttribute('data-deciding', p.difficulty.deciding_form);
    }
    if (p.on_policy) {
      var op = el('span', 'on-policy' + (p.on_policy.off_policy ? ' badge off-policy' : ''),
        (p.on_policy.off_policy ? 'off-policy: ' : '') + 'chosen at percentile ' + num(p.on_policy.percentile, 1) + ' of ' + p.on_policy.siblings +
        ' siblings (mean log-prob ' + num(p.on_policy.chosen_mean, 3) + ')');
      art.setAttribute('data-off-policy', String(p.on_policy.off_policy));
      hd.appendChild(op);
    }
    art.appendChild(hd);
    if (p.gate && p.gate.judge) {
      var jd = el('details', 'judge');
      jd.appendChild(el('summary', '', 'judge ' + p.gate.judge.model + ': ' + p.gate.judge.score + '/10'));
      jd.appendChild(el('pre', '', p.gate.judge.reply));
      art.appendChild(jd);
    }
    var top = el('div', 'pair-top');
    var src = b.images[p.image_id];
    if (src) {
      var img = el('img');
      img.alt = 'image ' + p.image_id;
      img.src = src;
      top.appendChild(img);
    } else top.appendChild(el('div', 'noimg', 'image not embedded (file missing or not PNG/JPEG/WebP/GIF): ' + p.image_path));
    var pr = el('div', 'prompt');
    p.history.forEach(function (t) {
      var d = el('p', 'turn');
      d.appendChild(el('span', 'role', t.role));
      d.appendChild(document.createTextNode(t.content));
      pr.appendChild(d);
    });
    pr.appendChild(el('div', 'instruction', p.instruction));
    if (p.truth !== null && p.truth !== undefined) {
      pr.appendChild(el('div', 'truth-title muted', 'truth (meta.truth):'));
      pr.appendChild(truthList(p.truth));
    }
    top.appendChild(pr);
    art.appendChild(top);
    var ans = el('div', 'answers');
    ans.appendChild(answer(p.chosen, 'chosen'));
    ans.appendChild(answer(p.rejected, 'rejected'));
    art.appendChild(ans);
    if (p.edits.length) {
      // The edit as a diff: the original's sentence struck, the editor's sentence (if any) below it.
      var ed = el('div', 'edit');
      ed.appendChild(el('div', 'muted', 'edit (' + p.editor + '), original → chosen:'));
      p.edits.forEach(function (e) {
        ed.appendChild(el('del', '', '− [' + (e.sentence + 1) + '] ' + e.old));
        ed.appendChild(el('ins', '', e.new === null ? '+ (dropped)' : '+ ' + e.new));
      });
      art.appendChild(ed);
    }
    return art;
  }
  var list = document.getElementById('pb-list');
  var cards = b.pairs.map(function (p, i) { var c = card(p, i); list.appendChild(c); return c; });
  var state = { kind: 'all', pair: 'all', kept: 'all' };
  function apply() {
    var n = 0;
    cards.forEach(function (c) {
      var on = (state.kind === 'all' || c.getAttribute('data-kind') === state.kind) && (state.kept === 'all' || c.getAttribute('data-kept') === state.kept) &&
        (state.pair === 'all' || c.getAttribute('data-pair') === state.pair);
      c.hidden = !on;
      if (on) n++;
    });
    document.getElementById('pb-count').textContent = 'showing ' + n + ' of ' + cards.length;
    document.getElementById('pb-empty').hidden = n > 0;
    document.getElementById('pairs').setAttribute('data-visible', String(n));
  }
  function bar(id, key, values, label) {
    var holder = document.getElementById(id);
    var buttons = ['all'].concat(values).map(function (v) {
      var count = v === 'all' ? b.pairs.length : b.pairs.filter(function (p) { return (key === 'kind' ? p.kind : key === 'pair' ? p.pair_kind : keptOf(p)) === v; }).length;
      var btn = el('button', '', (v === 'all' ? 'all' : label(v)) + ' (' + count + ')');
      btn.type = 'button';
      btn.setAttribute('data-value', v);
      btn.setAttribute('aria-pressed', String(v === state[key]));
      btn.addEventListener('click', function () {
        state[key] = v;
        buttons.forEach(function (o) { o.setAttribute('aria-pressed', String(o === btn)); });
        apply();
      });
      holder.appendChild(btn);
      return btn;
    });
  }
  function distinct(f) { var s = []; b.pairs.forEach(function (p) { var v = f(p); if (s.indexOf(v) < 0) s.push(v); }); return s.sort(); }
  bar('pb-kind', 'kind', distinct(function (p) { return p.kind; }), function (v) { return v; });
  bar('pb-pair', 'pair', distinct(function (p) { return p.pair_kind; }), function (v) { return v; });
  bar('pb-kept', 'kept', ['kept', 'dropped', 'unbalanced', 'gated'].filter(function (v) { return b.pairs.some(function (p) { return keptOf(p) === v; }); }),
    function (v) { return v === 'unbalanced' ? 'not run' : v === 'gated' ? 'quality gate' : v; });
  apply();
})();`;

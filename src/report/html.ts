// The report as one self-contained HTML page: tables rendered here (escaped), charts drawn in the page by the
// inlined Chart.js from a JSON data island. No URL is ever fetched: a Content-Security-Policy allows only the page's
// own scripts (by hash), so even a text that slipped through escaping could not load or run anything.
import { createHash } from 'node:crypto';
import type { ReportData } from './data.js';
import type { ReportChart } from './charts.js';
import type { PairBrowser } from './types.js';
import { escapeHtml, jsonForScript } from './escape.js';
import { BROWSER_CLIENT, BROWSER_CSS, pairBrowserSection } from './browser.js';

export { escapeHtml, jsonForScript };

const CLIENT = `(function () {
  var payload = JSON.parse(document.getElementById('rlaifv-data').textContent);
  Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  payload.charts.forEach(function (c) { new Chart(document.getElementById('chart-' + c.id), c.config); });
  document.documentElement.setAttribute('data-charts', String(payload.charts.length));
})();`;

const CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; margin: 0 auto; max-width: 1240px; padding: 0 20px 40px; }
h1 { font-size: 22px; margin: 24px 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; } .muted { color: #666; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(370px, 1fr)); gap: 16px; }
figure.wide { grid-column: 1 / -1; } figure { margin: 0; border: 1px solid #e3e3e3; border-radius: 6px; padding: 10px; }
figcaption { font-weight: 600; } figcaption small { display: block; font-weight: 400; color: #666; }
.box { position: relative; height: 260px; } .box.tall { height: 420px; }
table { border-collapse: collapse; margin: 6px 0 12px; } th, td { border-bottom: 1px solid #eee; padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } pre { margin: 0; white-space: pre-wrap; word-break: break-all; max-width: 520px; font-size: 12px; }
`;

const int = (n: number) => String(n);
const dec = (x: number | null, digits = 3) => (x === null ? '–' : x.toFixed(digits));
const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
const td = (v: string, numeric = false) => `<td${numeric ? ' class="n"' : ''}>${v}</td>`;

function table(head: string[], rows: string[][], cls = ''): string {
  const numeric = (i: number) => i > 0;
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => td(c, numeric(i))).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function figures(charts: ReportChart[], section: ReportChart['section']): string {
  return `<div class="grid">${charts
    .filter((c) => c.section === section)
    .map(
      (c) =>
        `<figure id="fig-${c.id}"${c.wide ? ' class="wide"' : ''}><figcaption>${escapeHtml(c.title)}<small>${escapeHtml(c.note)}</small></figcaption>` +
        `<div class="box${c.tall ? ' tall' : ''}"><canvas id="chart-${c.id}" role="img" aria-label="${escapeHtml(c.title)}"></canvas></div></figure>`,
    )
    .join('')}</div>`;
}

function header(d: ReportData): string {
  const r = d.round;
  const rows: [string, string][] = [
    ['round', int(r.id)],
    ['status', r.status],
    ['policy', r.policy_model],
    ['labeler', r.labeler_model],
    ['divider', r.divider],
    ['config hash', r.config_hash],
    ['seed', int(r.seed)],
    ['samples per prompt', r.samples === null ? '–' : int(r.samples)],
    ['accept rule', r.accept_rule],
    ['feedback method', r.feedback_method],
    ['score method', r.pair_method],
    ['started', r.started_at],
    ['finished', r.finished_at ?? '–'],
  ];
  const secs = Object.entries(d.seconds_by_stage).map(([s, v]) => `${s} ${v.toFixed(1)} s`).join(', ');
  return `<table id="round">${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}` +
    `<tr><th>time by stage</th><td>${escapeHtml(secs || '–')}</td></tr></table>`;
}

function countsTable(d: ReportData): string {
  const c = d.counts;
  const rows: [string, string, number, string][] = [
    ['prompts', 'prompts', c.prompts, ''],
    ['answers', 'answers', c.answers, ''],
    ['divided', 'divided answers', c.divided, ''],
    ['claims', 'claims', c.claims, ''],
    ['questions', 'distinct questions', c.questions, ''],
    ['judged_claims', 'judged claims (labeled yes/no)', c.judged_claims, pct(c.judged_claims, c.claims)],
    ['rejected_claims', `rejected claims (accept rule "${d.round.accept_rule}")`, c.rejected_claims, pct(c.rejected_claims, c.judged_claims)],
    ['unscored_questions', 'unscored questions', c.unscored_questions, ''],
    ['scored_answers', 'scored answers (≥ 1 claim)', c.scored_answers, ''],
    ['pairs', `pairs before length balance (${d.round.pair_method})`, c.pairs, ''],
    ['pairs_after_balance', `pairs after length balance (r = ${c.balance_r ?? '–'})`, c.pairs_after_balance, pct(c.pairs_after_balance, c.pairs)],
    // Correction pairs (pair.corrections): the editor's corrected answers, and the pairs they made (of the above).
    ...Object.entries(c.corrections ?? {}).flatMap(([e, x]): [string, string, number, string][] => [
      [`corrections_${e}`, `answers corrected by ${e} (free of rejected claims)`, x.answers, pct(x.free_of_rejected, x.answers)],
      [`correction_pairs_${e}`, `correction pairs by ${e} (of the pairs)`, x.pairs, pct(x.pairs, c.pairs)],
    ]),
    ['failures', 'failures', c.failures, ''],
  ];
  return `<table id="counts"><tbody>${rows
    .map(([key, label, n, share]) => `<tr data-key="${key}"><th>${escapeHtml(label)}</th>${td(int(n), true)}${td(share, true)}</tr>`)
    .join('')}</tbody></table>`;
}

function failuresSection(d: ReportData): string {
  if (d.failures.length === 0) return '<p id="failures">No failures.</p>';
  return `<div id="failures">${d.failures
    .map(
      (f) =>
        `<h3>${escapeHtml(f.stage)}: ${f.count}</h3>` +
        table(
          ['reason', 'count', 'example item', 'raw output (start)'],
          f.reasons.map((r) => [escapeHtml(r.reason), int(r.count), escapeHtml(r.example_item), r.example_raw === null ? '–' : `<pre>${escapeHtml(r.example_raw)}</pre>`]),
        ),
    )
    .join('')}</div>`;
}

function unscoredSection(d: ReportData): string {
  const u = d.unscored;
  const rec = (o: Record<string, number>) => escapeHtml(Object.entries(o).map(([k, v]) => `${k}: ${v}`).join(', ') || '–');
  const rows: [string, string][] = [
    ['answers not divided', int(u.answers_not_divided)],
    ['answers divided but not scored', int(u.answers_not_scored)],
    ['answers without claims (never scored or paired)', int(u.answers_without_claims)],
    ['scored answers with an unjudged claim (not paired)', int(u.answers_partly_judged)],
    ['claims without a label (pending or failed)', int(u.unlabeled_claims)],
    ['claims with an unscored label', int(u.unscored_claims)],
    ['answers cut before dividing', int(u.truncated_answers)],
    ['answers by finish reason', rec(u.finish_reasons)],
    ['sentences the divider skipped, by reason', rec(u.skipped_sentences)],
  ];
  const qs = u.questions.length
    ? `<h3>Unscored questions (${d.counts.unscored_questions}${d.counts.unscored_questions > u.questions.length ? `, first ${u.questions.length}` : ''})</h3>` +
      table(['question', 'id'], u.questions.map((q) => [escapeHtml(q.text), escapeHtml(q.question_id)]))
    : '';
  return `<table id="unscored"><tbody>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th>${td(v, true)}</tr>`).join('')}</tbody></table>${qs}`;
}

function pairsTables(d: ReportData): string {
  const l = d.lengths;
  const dropped = Object.entries(d.pairing.dropped).map(([k, v]) => [escapeHtml(k), int(v)]);
  return (
    table(
      ['pairs', 'n', 'mean chosen words', 'mean rejected words'],
      [
        ['before length balance', int(l.before.n), dec(l.before.avgChosen, 1), dec(l.before.avgRejected, 1)],
        ['after length balance', int(l.after.n), dec(l.after.avgChosen, 1), dec(l.after.avgRejected, 1)],
      ],
    ) +
    table(
      ['pairing', 'pairs'],
      [['candidate pairs considered', int(d.pairing.considered)], ...dropped.map(([k, v]) => [`dropped: ${k}`, v!]), ['stored', int(d.counts.pairs)]],
    )
  );
}

function onPolicySection(d: ReportData, charts: ReportChart[]): string {
  const o = d.on_policy;
  if (!o) return '';
  const median = o.median_percentile === null ? '–' : o.median_percentile.toFixed(1);
  const flagged = o.flagged.length
    ? `<h3>Off-policy pairs (${o.off_policy}${o.off_policy > o.flagged.length ? `, first ${o.flagged.length}` : ''})</h3>` +
      table(
        ['pair', 'prompt', 'percentile', 'siblings', 'chosen mean log-prob'],
        o.flagged.map((f) => [escapeHtml(f.pair_id), escapeHtml(f.prompt_id), dec(f.percentile, 1), int(f.siblings), dec(f.chosen_mean)]),
        'off-policy',
      )
    : '';
  return `<h2 id="on-policy">On-policy check</h2>
<p id="on-policy-summary">${int(o.pairs)} kept pairs checked; the chosen answers' median percentile among their siblings is ${escapeHtml(median)}; ` +
    `<b>${int(o.off_policy)}</b> off-policy (${escapeHtml(pct(o.off_policy, o.pairs))}).</p>
<p class="muted">${escapeHtml(o.rule)}. Log-probs from pair.reference_logprobs: every sampled answer of each paired prompt teacher-forced under the round's policy.</p>
${figures(charts, 'on-policy')}
${flagged}`;
}

function loopTable(d: ReportData): string {
  const l = d.loop!;
  const p = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
  const w = (x: number | null, ci: [number, number] | null) => (x === null ? '–' : `${p(x)} [${p(ci![0])}, ${p(ci![1])}]`);
  return table(
    ['policy', 'pairs trained on', 'false claims', 'rejected (labeler)', 'greedy', 'answers with a false claim', 'true claims / answer', 'accepted / answer', 'objects mentioned', 'distinct / prompt', 'win vs previous', 'win vs start'],
    l.labels.map((label, i) => [
      escapeHtml(label),
      l.pairs[i] === null ? '–' : int(l.pairs[i]!),
      p(l.false_claim_rate[i]!),
      p(l.rejected_claim_rate[i]!),
      p(l.greedy_false_claim_rate[i]!),
      p(l.response_hallucination_rate[i]!),
      dec(l.true_claims_per_answer[i]!, 2),
      dec(l.accepted_claims_per_answer[i]!, 2),
      p(l.object_coverage[i]!),
      dec(l.distinct_answers_per_prompt[i]!, 1),
      w(l.win_rate_vs_previous[i]!, l.win_rate_vs_previous_ci[i]!),
      w(l.win_rate_vs_start[i]!, l.win_rate_vs_start_ci[i]!),
    ]),
    'loop',
  );
}

/**
 * Renders the whole page; `chartJs` is the Chart.js UMD build's source, inlined as is; `browser` the sampled pairs
 * (null: no pair browser).
 */
export function renderReportHtml(d: ReportData, charts: ReportChart[], chartJs: string, browser: PairBrowser | null = null): string {
  const sha = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
  const scripts = browser ? [chartJs, CLIENT, BROWSER_CLIENT] : [chartJs, CLIENT];
  const csp = `default-src 'none'; script-src ${scripts.map(sha).join(' ')}; style-src 'unsafe-inline'; img-src data:`;
  const title = `rlaifv round ${d.round.id} report`;
  const kinds = table(
    ['kind', 'prompts', 'answers', 'claims', 'judged', 'rejected', 'rate'],
    d.kinds.map((k) => [escapeHtml(k.kind), int(k.prompts), int(k.answers), int(k.claims), int(k.judged), int(k.rejected), k.rate === null ? '–' : pct(k.rejected, k.judged)]),
    'kinds',
  );
  const top = table(
    ['claim', 'rejected', 'judged', 'rejected share', 'mean p(yes)', 'mean p(no)'],
    d.top_rejected.map((t) => [escapeHtml(t.claim), int(t.rejected), int(t.judged), pct(t.rejected, t.judged), dec(t.mean_p_yes), dec(t.mean_p_no)]),
    'top-rejected',
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}${browser ? BROWSER_CSS : ''}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="muted">Generated ${escapeHtml(d.generated_at)} by rlaifv. Self-contained: charts by the inlined Chart.js, nothing fetched.
<a href="#pairs-title">Browse the pairs</a>.</p>
${header(d)}
${d.loop ? `<h2 id="loop">The loop</h2>\n<p class="muted">This is round ${d.loop.this_round} of loop ${d.loop.loop}; its policies on held-out prompts (rlaifv eval).</p>\n${figures(charts, 'loop')}\n${loopTable(d)}` : ''}
<h2>Counts and failures</h2>
${countsTable(d)}
${figures(charts, 'counts')}
<h2>Answer scores</h2>
${figures(charts, 'scores')}
<h2>Labels</h2>
${figures(charts, 'labels')}
<h3>Rejection by instruction kind</h3>
${kinds}
<h2>Pairs and length balance</h2>
${figures(charts, 'pairs')}
${pairsTables(d)}
${onPolicySection(d, charts)}
<h2>Most rejected claims</h2>
${figures(charts, 'claims')}
${top}
<h2>Unscored and failures</h2>
${unscoredSection(d)}
<h3>Failures by stage</h3>
${failuresSection(d)}
${pairBrowserSection(browser, d.counts.pairs)}
<script type="application/json" id="rlaifv-data">${jsonForScript({ report: d, charts, browser })}</script>
<script>${chartJs}</script>
<script>${CLIENT}</script>${browser ? `\n<script>${BROWSER_CLIENT}</script>` : ''}
</body></html>
`;
}

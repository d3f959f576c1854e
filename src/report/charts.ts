// The report's charts as Chart.js configurations: plain JSON (no callbacks), so they travel inside the page as data.
import type { ChartConfiguration } from 'chart.js';
import { FAILURE_STAGES, type ReportData } from './data.js';

/** One chart of the report: where it goes, its title and its Chart.js configuration. */
export interface ReportChart {
  id: string;
  section: 'counts' | 'scores' | 'labels' | 'pairs' | 'on-policy' | 'claims' | 'loop';
  title: string;
  /** What the chart counts, for readers and screen readers. */
  note: string;
  config: ChartConfiguration<'bar'> | ChartConfiguration<'line'>;
  /** Taller box for charts with many category rows. */
  tall?: boolean;
  /** The whole width of the page (long category labels). */
  wide?: boolean;
}

const COLORS = { blue: '#4e79a7', orange: '#f28e2b', red: '#e15759', green: '#59a14f', grey: '#9c9c9c', teal: '#76b7b2', purple: '#b07aa1' };

interface BarSeries {
  label: string;
  data: number[];
  color: string;
  stack?: string;
}

function bar(
  labels: string[],
  series: BarSeries[],
  axes: { x: string; y: string },
  opts: { horizontal?: boolean; stacked?: boolean; max?: number } = {},
): ChartConfiguration<'bar'> {
  const [cat, val] = opts.horizontal ? (['y', 'x'] as const) : (['x', 'y'] as const);
  const valueAxis = { beginAtZero: true, stacked: !!opts.stacked, title: { display: true, text: opts.horizontal ? axes.x : axes.y }, ...(opts.max !== undefined ? { max: opts.max } : {}) };
  const catAxis = { stacked: !!opts.stacked, title: { display: true, text: opts.horizontal ? axes.y : axes.x } };
  return {
    type: 'bar',
    data: {
      labels,
      datasets: series.map((s) => ({ label: s.label, data: s.data, backgroundColor: s.color, ...(s.stack ? { stack: s.stack } : {}) })),
    },
    options: {
      indexAxis: cat,
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: series.length > 1 } },
      scales: { [cat]: catAxis, [val]: valueAxis },
    },
  };
}

const round1 = (x: number | null) => (x === null ? 0 : Math.round(x * 10) / 10);
const short = (s: string, n = 60) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

function line(labels: string[], series: { label: string; data: (number | null)[]; color: string }[], axes: { x: string; y: string }, max?: number): ChartConfiguration<'line'> {
  return {
    type: 'line',
    data: { labels, datasets: series.map((s) => ({ label: s.label, data: s.data, borderColor: s.color, backgroundColor: s.color, spanGaps: true })) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: true } },
      scales: { x: { title: { display: true, text: axes.x } }, y: { beginAtZero: true, ...(max !== undefined ? { max } : {}), title: { display: true, text: axes.y } } },
    },
  };
}

const percent = (xs: (number | null)[]) => xs.map((x) => (x === null ? null : Math.round(x * 1000) / 10));
const rounded = (xs: (number | null)[]) => xs.map((x) => (x === null ? null : Math.round(x * 100) / 100));

/** The loop's charts: hallucination and informativeness of its policies on held-out prompts, round after round. */
function loopCharts(d: ReportData): ReportChart[] {
  const l = d.loop;
  if (!l) return [];
  return [
    {
      id: 'loop-hallucination',
      section: 'loop',
      title: 'Hallucination over the loop',
      note: `loop ${l.loop}: each round's checkpoint on held-out prompts; % of claims false by the truth (sampled, greedy; none without truth), % rejected by the labeler (truth-free), and % of sampled answers with a false claim`,
      config: line(
        l.labels,
        [
          { label: 'false claims, sampled', data: percent(l.false_claim_rate), color: COLORS.red },
          { label: 'rejected claims (labeler, truth-free)', data: percent(l.rejected_claim_rate), color: COLORS.purple },
          { label: 'false claims, greedy', data: percent(l.greedy_false_claim_rate), color: COLORS.orange },
          { label: 'answers with a false claim', data: percent(l.response_hallucination_rate), color: COLORS.grey },
        ],
        { x: 'policy', y: '%' },
      ),
    },
    {
      id: 'loop-informativeness',
      section: 'loop',
      title: 'Informativeness and variety over the loop',
      note: 'true claims per sampled answer, distinct answers per prompt (a collapse detector), and objects mentioned (detailed descriptions, share)',
      config: line(
        l.labels,
        [
          { label: 'true claims per answer', data: rounded(l.true_claims_per_answer), color: COLORS.green },
          { label: 'distinct answers per prompt', data: rounded(l.distinct_answers_per_prompt), color: COLORS.blue },
          { label: 'objects mentioned (share)', data: rounded(l.object_coverage), color: COLORS.teal },
        ],
        { x: 'policy', y: '' },
      ),
    },
    {
      id: 'loop-win-rates',
      section: 'loop',
      title: 'Held-out win rates over the loop',
      note: `each checkpoint against the previous policy and against the start, same prompts and seeds, judge ${l.judge ?? '–'} (ties count half; 50% is no difference); the table gives the 95% intervals`,
      config: line(
        l.labels,
        [
          { label: 'win rate vs previous', data: percent(l.win_rate_vs_previous), color: COLORS.blue },
          { label: 'win rate vs start', data: percent(l.win_rate_vs_start), color: COLORS.green },
          { label: 'no difference (50%)', data: l.labels.map(() => 50), color: COLORS.grey },
        ],
        { x: 'policy', y: '%' },
        100,
      ),
    },
  ];
}

/** Every chart of the report, in page order. */
export function reportCharts(d: ReportData): ReportChart[] {
  return [...baseCharts(d), ...loopCharts(d)];
}

function baseCharts(d: ReportData): ReportChart[] {
  const c = d.counts;
  const rule = d.round.accept_rule;
  const failureStages = [...FAILURE_STAGES];
  for (const f of d.failures) if (!failureStages.includes(f.stage)) failureStages.push(f.stage);
  const lengthBins = (which: 'before' | 'after'): BarSeries[] => [
    { label: 'chosen', data: d.lengths[`${which}_chosen`], color: COLORS.green },
    { label: 'rejected', data: d.lengths[`${which}_rejected`], color: COLORS.red },
  ];
  const top = d.top_rejected.slice(0, 15);
  return [
    {
      id: 'counts',
      section: 'counts',
      title: 'Counts',
      note: 'rows of each stage of the round',
      tall: true,
      config: bar(
        ['prompts', 'answers', 'divided answers', 'claims', 'distinct questions', 'judged claims', 'rejected claims', 'scored answers', 'pairs', 'pairs after balance', 'failures'],
        [{ label: 'rows', color: COLORS.blue, data: [c.prompts, c.answers, c.divided, c.claims, c.questions, c.judged_claims, c.rejected_claims, c.scored_answers, c.pairs, c.pairs_after_balance, c.failures] }],
        { x: 'rows', y: '' },
        { horizontal: true },
      ),
    },
    {
      id: 'failures',
      section: 'counts',
      title: 'Failures by stage',
      note: 'failed items recorded per stage',
      config: bar(
        failureStages,
        [{ label: 'failures', color: COLORS.red, data: failureStages.map((s) => d.failures.find((f) => f.stage === s)?.count ?? 0) }],
        { x: 'stage', y: 'failed items' },
      ),
    },
    {
      id: 'rejc',
      section: 'scores',
      title: 'REJ-C: rejected claims per answer',
      note: 'answers with at least one claim, by number of rejected claims (REJ-C = −number)',
      config: bar(d.rejc.labels, [{ label: 'answers', color: COLORS.blue, data: d.rejc.counts }], { x: 'rejected claims', y: 'answers' }),
    },
    {
      id: 'rejp',
      section: 'scores',
      title: 'REJ-P: share of rejected claims per answer',
      note: 'answers with at least one claim, by rejected share (the last bin includes 100%)',
      config: bar(d.rejp.labels, [{ label: 'answers', color: COLORS.orange, data: d.rejp.counts }], { x: 'rejected share', y: 'answers' }),
    },
    {
      id: 'claims',
      section: 'scores',
      title: 'Claims per answer',
      note: 'divided answers by number of claims',
      config: bar(d.claims_per_answer.labels, [{ label: 'answers', color: COLORS.teal, data: d.claims_per_answer.counts }], { x: 'claims', y: 'answers' }),
    },
    {
      id: 'pyes',
      section: 'labels',
      title: 'p(yes) per question',
      note: `distinct labeled questions by the labeler's p(yes), coloured by the round's verdict (accept rule "${rule}")`,
      config: bar(
        d.p_yes.labels,
        [
          { label: 'accepted', color: COLORS.green, data: d.p_yes.accepted, stack: 'v' },
          { label: 'rejected', color: COLORS.red, data: d.p_yes.rejected, stack: 'v' },
        ],
        { x: 'p(yes)', y: 'questions' },
        { stacked: true },
      ),
    },
    {
      id: 'kinds',
      section: 'labels',
      title: 'Rejection rate by instruction kind',
      note: 'rejected share of judged claims, by the prompt\'s meta.kind ("other" when it has none)',
      config: bar(
        d.kinds.map((k) => `${k.kind} (${k.judged})`),
        [{ label: 'rejected %', color: COLORS.red, data: d.kinds.map((k) => round1(k.rate === null ? null : k.rate * 100)) }],
        { x: 'instruction kind (judged claims)', y: 'rejected claims, %' },
        { max: 100 },
      ),
    },
    {
      id: 'length-means',
      section: 'pairs',
      title: 'Mean length of chosen vs rejected answers',
      note: 'mean words of the pairs before and after length balance',
      config: bar(
        [`before balance (${d.lengths.before.n} pairs)`, `after balance (${d.lengths.after.n} pairs)`],
        [
          { label: 'chosen', color: COLORS.green, data: [round1(d.lengths.before.avgChosen), round1(d.lengths.after.avgChosen)] },
          { label: 'rejected', color: COLORS.red, data: [round1(d.lengths.before.avgRejected), round1(d.lengths.after.avgRejected)] },
        ],
        { x: '', y: 'mean words' },
      ),
    },
    {
      id: 'lengths-before',
      section: 'pairs',
      title: 'Pair lengths before balance',
      note: 'chosen and rejected answers of every pair, by words',
      config: bar(d.lengths.labels, lengthBins('before'), { x: 'words', y: 'answers' }),
    },
    {
      id: 'lengths-after',
      section: 'pairs',
      title: 'Pair lengths after balance',
      note: 'chosen and rejected answers of the pairs length balance kept, by words',
      config: bar(d.lengths.labels, lengthBins('after'), { x: 'words', y: 'answers' }),
    },
    ...(d.on_policy
      ? [
          {
            id: 'on-policy',
            section: 'on-policy' as const,
            title: "Chosen answers among their prompt's samples",
            note: `the kept pairs by where the chosen answer's mean token log-prob under the round's policy falls among its siblings' (percentile); under 10: off-policy`,
            config: bar(d.on_policy.labels, [{ label: 'pairs', color: COLORS.blue, data: d.on_policy.counts }], { x: 'percentile among siblings', y: 'kept pairs' }),
          },
        ]
      : []),
    {
      id: 'top-rejected',
      section: 'claims',
      title: 'Most rejected claims',
      note: `the ${top.length} claim texts rejected most often over all answers of the round`,
      tall: true,
      wide: true,
      config: bar(
        top.map((t) => short(t.claim)),
        [
          { label: 'rejected', color: COLORS.red, data: top.map((t) => t.rejected) },
          { label: 'accepted', color: COLORS.grey, data: top.map((t) => t.judged - t.rejected) },
        ],
        { x: 'claims', y: '' },
        { horizontal: true, stacked: true },
      ),
    },
  ];
}

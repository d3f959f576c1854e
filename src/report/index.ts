// The round report: gather from the store, chart, render one self-contained HTML page, write it atomically.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getRound, type Db } from '../store/index.js';
import { gatherReport } from './data.js';
import { reportCharts } from './charts.js';
import { renderReportHtml } from './html.js';
import { DEFAULT_REPORT_PAIRS } from './defaults.js';
import { gatherPairBrowser } from './pairs.js';

export { gatherReport, promptKind, type ReportData } from './data.js';
export { reportCharts, type ReportChart } from './charts.js';
export { escapeHtml, jsonForScript, renderReportHtml } from './html.js';
export { DEFAULT_REPORT_PAIRS } from './defaults.js';
export { gatherPairBrowser, samplePairIds } from './pairs.js';
export { sentenceSegments, type Segment } from './highlight.js';
export type { BrowserAnswer, BrowserClaim, BrowserPair, PairBrowser, Turn } from './types.js';

let chartJs: string | undefined;

/**
 * The installed Chart.js UMD build's source (read once), ready to inline. Its package exports no path to the UMD
 * file, so it is found next to the CommonJS entry; the source-map comment is dropped (it names a file the page
 * does not have).
 */
export function chartJsSource(): string {
  if (chartJs === undefined) {
    const entry = createRequire(import.meta.url).resolve('chart.js');
    const file = path.join(path.dirname(entry), 'chart.umd.min.js');
    const src = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
    // Inlined as is, the source must not end its own <script> element or open an HTML comment inside it.
    if (/<\/script|<!--/i.test(src)) throw new Error(`${file} contains "</script" or "<!--"; it cannot be inlined.`);
    chartJs = src;
  }
  return chartJs;
}

/**
 * One round's report as a complete HTML page, with a browser of `pairs` of its pairs sampled with the round's seed
 * (0: no browser).
 * @example writeFileAtomic('report.html', buildReport(openDb('db/rlaifv.sqlite', { readonly: true }), 1))
 */
export function buildReport(db: Db, roundId: number, opts: { pairs?: number } = {}): string {
  const pairs = opts.pairs ?? DEFAULT_REPORT_PAIRS;
  if (!Number.isInteger(pairs) || pairs < 0) throw new RangeError(`buildReport: pairs must be a non-negative integer, got ${pairs}.`);
  const data = gatherReport(db, roundId);
  const browser = pairs > 0 ? gatherPairBrowser(db, getRound(db, roundId)!, pairs) : null;
  return renderReportHtml(data, reportCharts(data), chartJsSource(), browser);
}

/**
 * What a page's main thread did, from a Chrome trace written by `BENCH_TRACE=dir npm run bench:lcp`:
 * each task of 5 ms or more after navigation (ms from navigation start), with the work inside it that took
 * longest (script evaluated and by which file, HTML parsed, style, layout, paint), then the paints.
 *   tsx bench/trace-summary.ts /tmp/traces/02-_ops_costs_repeat_1.json
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; frame?: string };
}

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx bench/trace-summary.ts TRACE.json');
  process.exit(2);
}
const raw = JSON.parse(readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
const events = Array.isArray(raw) ? raw : raw.traceEvents;

const mainThreads = events.filter(
  (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
);
const navigation = events.find(
  (e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame === true,
);
if (!navigation) throw new Error('no navigationStart of the main frame in this trace');
const main = mainThreads.find((t) => t.pid === navigation.pid) ?? mainThreads[0];
if (!main) throw new Error('no renderer main thread in this trace');
const t0 = navigation.ts;
const at = (ts: number) => Math.round((ts - t0) / 1000);
const onMain = events
  .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts >= t0)
  .sort((a, b) => a.ts - b.ts);

const TASK = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const WORK = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.compileModule',
  'v8.compile',
  'FunctionCall',
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'PrePaint',
  'Commit',
  'TimerFire',
  'EventDispatch',
  'RunMicrotasks',
  'ParseAuthorStyleSheet',
  'XHRReadyStateChange',
  'V8.GC_MARK_COMPACTOR',
  'MajorGC',
  'MinorGC',
]);
const label = (e: TraceEvent) => {
  const d = e.args?.data ?? {};
  const url = String(d.url ?? d.fileName ?? '');
  const where = url ? ` ${new URL(url, 'http://x').pathname.split('/').pop()}` : '';
  return `${e.name}${where}`;
};

let lastEnd = 0;
for (const task of onMain.filter((e) => TASK.has(e.name))) {
  if (task.ts < lastEnd) continue;
  lastEnd = task.ts + (task.dur ?? 0);
  const ms = (task.dur ?? 0) / 1000;
  if (ms < 5) continue;
  const inside = onMain
    .filter((e) => WORK.has(e.name) && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= lastEnd)
    .map((e) => ({ what: label(e), ms: (e.dur ?? 0) / 1000 }));
  const byWhat = new Map<string, number>();
  for (const w of inside) byWhat.set(w.what, Math.max(byWhat.get(w.what) ?? 0, w.ms));
  const top = [...byWhat]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([w, m]) => `${w} ${m.toFixed(0)}`)
    .join(', ');
  console.log(`${at(task.ts)}–${at(lastEnd)} ms task ${ms.toFixed(0)} ms: ${top}`);
}
for (const e of events.filter(
  (e) =>
    e.pid === main.pid &&
    [
      'firstPaint',
      'firstContentfulPaint',
      'largestContentfulPaint::Candidate',
      'MarkDOMContent',
      'MarkLoad',
    ].includes(e.name),
))
  console.log(`${at(e.ts)} ms ${e.name}`);

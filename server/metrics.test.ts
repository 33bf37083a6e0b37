import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayOutbox } from '../core/jobs/outbox-relay';
import { writeOutbox } from '../drizzle/outbox';
import { backupRuns, mpesaCallbacks } from '../drizzle/schema';
import { makeTruck, unique } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;

beforeAll(async () => {
  // The outbox is relayed by hand, so a row can be seen waiting.
  t = await createTestApp({
    settings: { metrics: { token: TOKEN, workerPort: undefined } },
    relayOutbox: false,
  });
});
afterAll(() => t.close());

async function scrape(): Promise<Map<string, ParsedFamily>> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f]));
  // The parser folds a labelled histogram into one unlabelled sample (prom2json's shape): its series are
  // read again without the TYPE line, each `_bucket`/`_count`/`_sum` as a family of its own.
  const histogramSeries = res.body
    .split('\n')
    .filter((l) => l.startsWith('mchanga_http_request_duration_seconds_'))
    .sort((a, b) => a.split('{')[0]!.localeCompare(b.split('{')[0]!))
    .join('\n');
  for (const f of parsePrometheusTextFormat(histogramSeries)) families.set(f.name, f);
  return families;
}

function sample(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}) {
  const family = families.get(name);
  return family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}
const value = (families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}) => {
  const s = sample(families, name, labels);
  return s?.value === undefined ? undefined : Number(s.value);
};

describe('GET /metrics (issue 25)', () => {
  it('answers 404 while METRICS_TOKEN is unset, and 401 without the right bearer token', async () => {
    const off = await createTestApp({ database: undefined });
    try {
      const res = await off.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer x' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found.' });
    } finally {
      await off.close();
    }
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toEqual({ error: 'A valid metrics token is required (Authorization: Bearer).' });
    }
  });

  it('times HTTP requests by route and status', async () => {
    await t.call('GET', '/api/pricing');
    await t.call('GET', '/api/pricing');
    await t.call('GET', '/api/uploads/no-such-file.jpg', await t.signIn('ADMIN'));
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    await t.app.inject({ method: 'GET', url: '/trpc/pricing.get' });
    const m = await scrape();
    expect(m.get('mchanga_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const H = 'mchanga_http_request_duration_seconds';
    const pricing = { method: 'GET', route: '/api/pricing', status: '200' };
    expect(value(m, `${H}_count`, pricing)).toBe(2);
    expect(value(m, `${H}_bucket`, { ...pricing, le: '+Inf' })).toBe(2);
    expect(value(m, `${H}_sum`, pricing)).toBeGreaterThan(0);
    expect(value(m, `${H}_count`, { route: '/api/uploads/:name', status: '404' })).toBe(1);
    expect(value(m, `${H}_count`, { route: 'unmatched', status: '404' })).toBe(1);
    expect(value(m, `${H}_count`, { route: '/trpc/pricing.get', status: '200' })).toBe(1);
    // A scrape is not timed (it would count itself).
    expect(sample(m, `${H}_count`, { route: '/metrics' })).toBeUndefined();
  });

  it('counts jobs per state, the outbox backlog and its age, M-Pesa callbacks and the last backup', async () => {
    await t.jobs.enqueue('system.heartbeat', {}, { jobId: 'metrics-delayed', delayMs: 2_000 });
    await writeOutbox(t.database.db, 'system.heartbeat', {});
    await t.database.db.insert(mpesaCallbacks).values([
      { kind: 'C2B_CONFIRMATION', body: '{}' },
      { kind: 'C2B_CONFIRMATION', body: '{}', processedAt: new Date() },
    ]);
    const finishedAt = new Date(Date.now() - 120_000);
    await t.database.db.insert(backupRuns).values([
      {
        status: 'ok',
        startedAt: new Date(Date.now() - 130_000),
        finishedAt,
        file: 'a.tar.gz',
        sizeBytes: 123_456,
      },
      {
        status: 'failed',
        startedAt: new Date(Date.now() - 60_000),
        finishedAt: new Date(),
        error: 'disk full',
      },
    ]);

    const m = await scrape();
    expect(value(m, 'mchanga_jobs', { name: 'system.heartbeat', state: 'delayed' })).toBe(1);
    expect(value(m, 'mchanga_outbox_backlog')).toBe(1);
    expect(value(m, 'mchanga_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(m, 'mchanga_mpesa_callbacks_total', { kind: 'C2B_CONFIRMATION' })).toBe(2);
    expect(value(m, 'mchanga_mpesa_callbacks_pending', { kind: 'C2B_CONFIRMATION' })).toBe(1);
    expect(value(m, 'mchanga_backup_last_size_bytes')).toBe(123_456);
    expect(value(m, 'mchanga_backup_last_success_timestamp_seconds')).toBe(finishedAt.getTime() / 1000);
    const age = value(m, 'mchanga_backup_last_age_seconds')!;
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(180);
    expect(value(m, 'mchanga_backup_last_run_failed')).toBe(1);
    for (const source of ['jobs', 'outbox', 'mpesa', 'etims', 'backups'])
      expect(value(m, 'mchanga_metrics_source_up', { source }), source).toBe(1);

    await relayOutbox(t.database.db, (name, payload, opts) => t.jobs.enqueue(name, payload, opts));
    await t.jobs.drain();
    const after = await scrape();
    expect(value(after, 'mchanga_outbox_backlog')).toBe(0);
    expect(value(after, 'mchanga_outbox_oldest_age_seconds')).toBe(0);
  });

  it('counts telemetry fixes accepted and written', async () => {
    const before = await scrape();
    const accepted0 = value(before, 'mchanga_telemetry_fixes_accepted_total') ?? 0;
    const written0 = value(before, 'mchanga_telemetry_fixes_written_total') ?? 0;
    const truck = await makeTruck(t.database.db, { deviceId: unique('dev-').toLowerCase() });
    const ts = Math.floor(Date.now() / 1000) - 60;
    for (const [i, lat] of [-1.1466, -1.1467, -1.1468].entries())
      expect(
        (
          await t.call(
            'POST',
            `/api/telemetry/osmand?id=${truck.deviceId}&lat=${lat}&lon=36.96&timestamp=${ts + i}`,
          )
        ).statusCode,
      ).toBe(200);
    await t.jobs.drain();
    const m = await scrape();
    expect(value(m, 'mchanga_telemetry_fixes_accepted_total')).toBe(accepted0 + 3);
    expect(value(m, 'mchanga_telemetry_fixes_written_total')).toBe(written0 + 3);
  });

  it('reports an unreadable source as down and still answers', async () => {
    const jobs = t.deps.jobs;
    const counts = jobs.counts;
    jobs.counts = async () => {
      throw new Error('queue away');
    };
    try {
      const m = await scrape();
      expect(value(m, 'mchanga_metrics_source_up', { source: 'jobs' })).toBe(0);
      expect(sample(m, 'mchanga_jobs')).toBeUndefined();
      expect(value(m, 'mchanga_metrics_source_up', { source: 'outbox' })).toBe(1);
    } finally {
      jobs.counts = counts;
    }
  });
});

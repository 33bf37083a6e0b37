import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, Histogram, Registry } from 'prom-client';
import { lastBackups } from '../core/backup/backup.queries';
import { metricsRefusal } from '../core/metrics/auth';
import { processMetrics } from '../core/metrics/counters';
import { etimsQueue, mpesaCallbackCounts, outboxBacklog } from '../core/metrics/metrics.queries';
import type { AppDeps } from './context';
import { appRouter } from './router';

/** Seconds; from a cached answer to a slow report. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const PROCEDURES = new Set(Object.keys(appRouter._def.procedures));

/**
 * The route a request matched, as registered (`/api/orders/:id`), so the label set stays bounded: tRPC
 * calls by procedure (a batch of several as `/trpc (batch)`), unmatched paths as `unmatched`.
 */
function routeOf(req: FastifyRequest): string {
  const url = req.routeOptions.url;
  if (!url) return 'unmatched';
  if (url.startsWith('/trpc/')) {
    const names = decodeURIComponent(req.url.slice('/trpc/'.length).split('?')[0] ?? '').split(',');
    if (names.length > 1) return '/trpc (batch)';
    return PROCEDURES.has(names[0]!) ? `/trpc/${names[0]}` : '/trpc (unknown)';
  }
  return url;
}

/**
 * GET /metrics in Prometheus text format (issue 25): HTTP durations by route and status, the job queue per
 * state, the outbox backlog and age, telemetry fixes accepted and written, M-Pesa callbacks, the eTIMS
 * queue and the last backup. The database figures are read at each scrape; one that cannot be read leaves
 * its gauge out and sets `mchanga_metrics_source_up{source}` to 0 (the scrape itself still answers).
 */
export function registerMetrics(app: FastifyInstance, deps: AppDeps) {
  // Durations accumulate; the gauges are read afresh at each scrape.
  const httpRegistry = new Registry();
  const registry = new Registry();
  const db = () => deps.database.db;

  const httpDuration = new Histogram({
    name: 'mchanga_http_request_duration_seconds',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [httpRegistry],
  });
  app.addHook('onResponse', (req, reply, done) => {
    if (req.routeOptions.url !== '/metrics')
      httpDuration.observe(
        { method: req.method, route: routeOf(req), status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    done();
  });

  const sourceUp = new Gauge({
    name: 'mchanga_metrics_source_up',
    help: 'Whether a source of these metrics could be read at this scrape (1) or not (0)',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  /** Reads one source; a failure is reported, not thrown (a scrape during an outage shows the outage). */
  const read = async <T>(source: string, fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await fn();
      sourceUp.set({ source }, 1);
      return value;
    } catch {
      sourceUp.set({ source }, 0);
      return undefined;
    }
  };

  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const jobs = gauge(
    'mchanga_jobs',
    `Jobs per job name and state (${deps.jobs.transport === 'bullmq' ? 'BullMQ queues' : 'the in-process runner'})`,
    ['name', 'state'],
  );
  const outboxBacklogGauge = gauge('mchanga_outbox_backlog', 'Outbox rows not yet handed to the job queue');
  const outboxAge = gauge(
    'mchanga_outbox_oldest_age_seconds',
    'Age of the oldest outbox row not yet handed to the job queue (0 when none)',
  );
  const mpesaTotal = gauge(
    'mchanga_mpesa_callbacks_total',
    'M-Pesa callbacks received (stored), per kind; rate() gives callbacks per second',
    ['kind'],
  );
  const mpesaPending = gauge(
    'mchanga_mpesa_callbacks_pending',
    'M-Pesa callbacks stored and not yet processed, per kind',
    ['kind'],
  );
  const etims = gauge(
    'mchanga_etims_queue',
    'Invoices not yet signed by KRA eTIMS, per status (pending, sent, failed)',
    ['status'],
  );
  const etimsAge = gauge(
    'mchanga_etims_queue_oldest_age_seconds',
    'Age of the oldest invoice not yet signed by KRA, per status',
    ['status'],
  );
  const backupAge = gauge(
    'mchanga_backup_last_age_seconds',
    'Seconds since the last successful backup finished (absent when there has been none)',
  );
  const backupAt = gauge(
    'mchanga_backup_last_success_timestamp_seconds',
    'When the last successful backup finished (Unix time)',
  );
  const backupSize = gauge('mchanga_backup_last_size_bytes', 'Size of the last successful backup file');
  const backupFailed = gauge(
    'mchanga_backup_last_run_failed',
    '1 when the newest backup run failed (an alert was raised), else 0',
  );

  /** Reads every source for one scrape (in parallel); what cannot be read is left out. */
  async function refresh() {
    registry.resetMetrics();
    await Promise.all([
      read('jobs', async () => {
        for (const c of (await deps.jobs.counts?.()) ?? [])
          jobs.set({ name: c.name, state: c.state }, c.count);
      }),
      read('outbox', async () => {
        const backlog = await outboxBacklog(db());
        outboxBacklogGauge.set(backlog.count);
        outboxAge.set(backlog.ageSeconds);
      }),
      read('mpesa', async () => {
        for (const r of await mpesaCallbackCounts(db())) {
          mpesaTotal.set({ kind: r.kind }, r.total);
          mpesaPending.set({ kind: r.kind }, r.pending);
        }
      }),
      read('etims', async () => {
        for (const r of await etimsQueue(db())) {
          etims.set({ status: r.status }, r.count);
          etimsAge.set({ status: r.status }, Math.max(0, r.age ?? 0));
        }
      }),
      read('backups', async () => {
        const last = await lastBackups(db());
        backupFailed.set(last.latest?.status === 'failed' ? 1 : 0);
        const at = last.lastOk?.finishedAt;
        if (!at) return;
        backupAge.set(Math.max(0, (Date.now() - at.getTime()) / 1000));
        backupAt.set(at.getTime() / 1000);
        backupSize.set(last.lastOk?.sizeBytes ?? 0);
      }),
    ]);
  }

  let scraping: Promise<string> | undefined;
  app.get('/metrics', async (req, reply) => {
    const refused = metricsRefusal(deps.settings, req.headers.authorization);
    if (refused) return reply.code(refused.status).send(refused.body);
    // Scrapes at the same moment share one reading (each resets and sets the gauges).
    scraping ??= refresh()
      .then(async () =>
        [await httpRegistry.metrics(), await registry.metrics(), await processMetrics.metrics()].join('\n'),
      )
      .finally(() => {
        scraping = undefined;
      });
    const text = await scraping;
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}

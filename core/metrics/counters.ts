import { Counter, Registry } from 'prom-client';

/**
 * Counters of things that happen in a process (the server, or the worker in services mode), served at
 * /metrics by the server and, with METRICS_PORT, by the worker. Prometheus sums them over instances and
 * `rate()` turns them into per-minute figures.
 */
export const processMetrics = new Registry();

export const telemetryFixesAccepted = new Counter({
  name: 'mchanga_telemetry_fixes_accepted_total',
  help: 'Tracker fixes acknowledged to devices (queued for writing)',
  registers: [processMetrics],
});

export const telemetryFixesWritten = new Counter({
  name: 'mchanga_telemetry_fixes_written_total',
  help: 'Tracker fixes written to the position history (a re-run batch counts again; quarantined ones not)',
  registers: [processMetrics],
});

export const telemetryFixesQuarantined = new Counter({
  name: 'mchanga_telemetry_fixes_quarantined_total',
  help: 'Tracker fixes the database refused, kept in telemetry_quarantine',
  registers: [processMetrics],
});

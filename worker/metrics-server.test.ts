import type { AddressInfo } from 'node:net';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { testSettings } from '../test/settings';
import { startWorkerMetrics } from './metrics-server';

const TOKEN = 'worker-metrics-token-0123456789';

describe("the worker's /metrics (services mode, METRICS_PORT)", () => {
  it('is off without a port or a token', async () => {
    expect(await startWorkerMetrics(testSettings())).toBeUndefined();
    expect(
      await startWorkerMetrics(testSettings({ metrics: { token: undefined, workerPort: 39_111 } })),
    ).toBeUndefined();
  });

  it("serves the worker's counters to the bearer of METRICS_TOKEN only", async () => {
    const port = 39_000 + Math.floor(Math.random() * 900);
    const server = await startWorkerMetrics(testSettings({ metrics: { token: TOKEN, workerPort: port } }));
    try {
      const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(
        401,
      );
      expect((await fetch(`${base}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        404,
      );
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      const names = parsePrometheusTextFormat(await res.text()).map((f) => f.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'mchanga_telemetry_fixes_accepted_total',
          'mchanga_telemetry_fixes_written_total',
          'mchanga_telemetry_fixes_quarantined_total',
        ]),
      );
    } finally {
      server?.close();
    }
  });
});

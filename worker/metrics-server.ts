import { createServer, type Server } from 'node:http';
import { metricsRefusal } from '../core/metrics/auth';
import { processMetrics } from '../core/metrics/counters';
import type { Settings } from '../shared/settings';

/**
 * Services mode: the worker's own counters (telemetry fixes written, quarantined) at
 * `http://<worker>:METRICS_PORT/metrics`, behind the same bearer token as the server's /metrics. The
 * queue, outbox, M-Pesa, eTIMS and backup figures are cluster-wide and come from the server's /metrics.
 */
export async function startWorkerMetrics(settings: Settings): Promise<Server | undefined> {
  const port = settings.metrics.workerPort;
  if (!port || !settings.metrics.token) return undefined;
  const server = createServer((req, res) => {
    const send = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics')
      return send(404, JSON.stringify({ error: 'Not found.' }));
    const refused = metricsRefusal(settings, req.headers.authorization);
    if (refused) return send(refused.status, JSON.stringify(refused.body));
    processMetrics.metrics().then(
      (text) => send(200, text, processMetrics.contentType),
      () => send(503, JSON.stringify({ error: 'Metrics are not available right now.' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, settings.host, resolve);
  });
  return server;
}

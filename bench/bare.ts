/** The baseline of the HTTP benches: a bare Fastify route answering a constant quote, GET and POST. */
import Fastify from 'fastify';

const quote = { perTruck: 32000, total: 64000, truckCount: 2, distanceKm: 12, distanceSource: 'manual' };
const app = Fastify();
app.get('/bare', async () => quote);
app.post('/bare', async () => quote);
// The harness waits for this path to answer, as it does for the real server.
app.get('/api/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// Closes cleanly on SIGTERM, so a `--cpu-prof` run writes its profile.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));

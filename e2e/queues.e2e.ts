/**
 * Issue 22, item 11: the queue dashboard (bull-board at /admin/queues) took state changes from a page of
 * another origin: only its SameSite cookie stood in the way, and a page on another port of the same host
 * is the same site, so the cookie went along. And an ADMIN could add any job to any queue from it.
 *
 * In a real browser, against the app in services mode (its own Redis): an ADMIN opens the dashboard; a
 * request with this browser's cookie and another origin (pause) is refused; a page served from another
 * port of the same host posts a job (the "simple" cross-origin POST a page may send without asking) and
 * nothing reaches the queue. From the dashboard's own origin, cleaning works and adding a job is refused.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueNameFor } from '../shared/jobs';
import { privateRedis } from '../test/redis-server';
import { adminTokenFor } from './support/admin';
import { launchBrowser, newPage, storeSession } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';

// Services mode needs Redis: run with the services half of the suite (REDIS_URL set), on a private one.
describe.skipIf(!process.env.REDIS_URL)('the queue dashboard and a page of another origin', () => {
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let app: RunningApp;
  let browser: Browser;
  let foreign: Server;
  let foreignUrl = '';
  let queue: Queue;
  const QUEUE = queueNameFor('system.heartbeat');

  beforeAll(async () => {
    redis = await privateRedis();
    await redis.start();
    app = await startApp(() => ({ REDIS_URL: redis.url, JWT_SECRET: randomBytes(32).toString('hex') }));
    browser = await launchBrowser();
    queue = new Queue(QUEUE, { connection: { url: redis.url } });
    const appUrl = app.baseURL;
    // Another origin of the same site: the same host, another port.
    foreign = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>waiting</title><script>
        fetch(${JSON.stringify(`${appUrl}/admin/queues/api/queues/${QUEUE}/add`)}, {
          method: 'POST', mode: 'no-cors', credentials: 'include',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ name: 'system.heartbeat', data: { scheduledFor: 'from-another-site' } }),
        }).then(() => { document.title = 'sent'; }, () => { document.title = 'failed'; });
      </script>`);
    });
    await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', () => r()));
    foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (foreign ? foreign.close(() => r()) : r()));
    await queue?.close();
    await app?.stop();
    await redis?.stop();
  });

  it('refuses changes from another origin, and adding jobs at all', async () => {
    const token = await adminTokenFor(app.baseURL, ADMIN_EMAIL, ADMIN_PASSWORD);
    const { context, page } = await newPage(browser, app.baseURL);
    try {
      await page.goto('/');
      await storeSession(page, token, { role: 'ADMIN', name: 'Admin', email: ADMIN_EMAIL });
      // What the AI tab's "Queue dashboard" button does: the dashboard cookie, then the dashboard.
      const opened = await page.evaluate(
        async (bearer) =>
          (
            await fetch('/api/admin/queues/session', {
              method: 'POST',
              headers: { authorization: `Bearer ${bearer}` },
            })
          ).status,
        token,
      );
      expect(opened).toBe(200);
      const dashboard = await page.goto('/admin/queues');
      expect(dashboard?.status()).toBe(200);
      const before = await queue.count();

      // A request carrying the ADMIN's dashboard cookie (this browser's) and another origin: pausing a
      // queue, as the issue found it accepted (a page of another port of this host is the same site, so
      // the SameSite cookie goes along).
      const foreignOrigin = new URL(foreignUrl).origin;
      const paused = await context.request.put(`${app.baseURL}/admin/queues/api/queues/${QUEUE}/pause`, {
        headers: { origin: foreignOrigin, 'sec-fetch-site': 'same-site' },
      });
      expect(paused.status()).toBe(403);
      expect(await queue.isPaused()).toBe(false);
      const resumedAll = await context.request.put(`${app.baseURL}/admin/queues/api/queues/pause`, {
        headers: { origin: foreignOrigin },
      });
      expect(resumedAll.status()).toBe(403);
      expect(await queue.isPaused()).toBe(false);

      // The ADMIN visits a page of another origin (same host, another port) that posts a job.
      await page.goto(foreignUrl);
      // The request goes out and the server acts on it; the page may not read the answer (the app's
      // Cross-Origin-Resource-Policy makes the fetch fail afterwards), which changes nothing here.
      await expect.poll(() => page.title(), { timeout: 10_000 }).not.toBe('waiting');
      await new Promise((r) => setTimeout(r, 500));
      expect(await queue.count()).toBe(before);

      // From the dashboard's own origin: cleaning is allowed, adding a job is not.
      await page.goto('/admin/queues');
      const own = await page.evaluate(async (name) => {
        const put = await fetch(`/admin/queues/api/queues/${name}/clean/completed`, { method: 'PUT' });
        const add = await fetch(`/admin/queues/api/queues/${name}/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'system.heartbeat', data: {} }),
        });
        return { clean: put.status, add: add.status, addBody: await add.json() };
      }, QUEUE);
      expect(own).toEqual({
        clean: 200,
        add: 403,
        addBody: { error: 'The queue dashboard allows retrying, promoting and cleaning jobs only.' },
      });
      expect(await queue.count()).toBe(before);
    } finally {
      await context.close();
    }
  });
});

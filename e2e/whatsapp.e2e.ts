import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGraph } from '../test/fake-graph';
import { messageWebhook } from '../test/fixtures/whatsapp';
import { api, launchBrowser, newPage, scrollIntoView, storeSession } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';

// Issue 29 in the browser: a customer orders on WhatsApp (signed webhooks to the running app, replies to a
// fake Graph API); ops open the order on a 360 px phone, read the conversation, take it over from the bot
// and reply by hand.

const PHONE_360 = { width: 360, height: 740 };
const WA = {
  phoneNumberId: '106540352242922',
  accessToken: 'e2e-graph-token',
  appSecret: 'e2e-meta-app-secret',
  verifyToken: 'e2e-verify-token',
};
const CUSTOMER = '254712345600';

let app: RunningApp;
let browser: Browser;
const graph = fakeGraph({
  ...WA,
  templates: [{ name: 'order_update', language: 'en' }],
  deliver: async (raw, signature) => {
    await fetch(`${app.baseURL}/api/whatsapp/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body: raw,
    });
  },
});

beforeAll(async () => {
  const graphUrl = await graph.start();
  app = await startApp(() => ({
    WHATSAPP_PHONE_NUMBER_ID: WA.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: WA.accessToken,
    WHATSAPP_APP_SECRET: WA.appSecret,
    WHATSAPP_VERIFY_TOKEN: WA.verifyToken,
    WHATSAPP_GRAPH_URL: graphUrl,
  }));
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await graph.stop();
});

let seq = 0;
/** The customer writes: Meta's webhook, signed with the app secret, as Meta posts it. */
async function customerSays(m: Parameters<typeof messageWebhook>[3]) {
  seq += 1;
  const raw = JSON.stringify(messageWebhook(WA.phoneNumberId, CUSTOMER, `wamid.E2E${seq}`, m));
  graph.openWindow(CUSTOMER);
  const res = await fetch(`${app.baseURL}/api/whatsapp/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': graph.sign(raw) },
    body: raw,
  });
  expect(res.status).toBe(200);
}

const bodies = () =>
  graph.messages
    .filter((m) => m.to === CUSTOMER)
    .map(
      (m) =>
        (m.text as { body?: string } | undefined)?.body ??
        (m.interactive as { body: { text: string } })?.body.text,
    );

describe('the WhatsApp conversation on the order', () => {
  it('ops read it at 360 px, take it over and reply', async () => {
    await customerSays({ type: 'text', text: 'I need 2 trucks of coarse sand to Ruiru' });
    await expect
      .poll(() => bodies().some((b) => b?.startsWith('Quote: 2 trucks')), { timeout: 30_000 })
      .toBe(true);
    await customerSays({ type: 'button_reply', id: 'confirm', title: 'Confirm order' });
    await expect.poll(() => bodies().some((b) => b?.startsWith('Order #')), { timeout: 30_000 }).toBe(true);
    const orderId = Number(/Order #(\d+)/.exec(bodies().find((b) => b?.startsWith('Order #'))!)![1]);

    const login = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      app.baseURL,
      'POST',
      '/api/auth/login',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    );
    const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, login.token, login.user);
    await page.goto('/ops');
    await page.getByRole('tab', { name: 'Orders', exact: true }).click();
    const card = page.getByRole('listitem').filter({ hasText: `#${orderId} ·` });
    await expect.poll(() => card.isVisible(), { timeout: 30_000 }).toBe(true);
    const summary = card.getByText('Customer messages (WhatsApp, SMS)');
    await scrollIntoView(summary);
    await summary.click();
    const conversation = card.getByRole('region', { name: `Conversation with +${CUSTOMER}` });
    await expect
      .poll(() => conversation.getByText('I need 2 trucks of coarse sand to Ruiru').isVisible(), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect.poll(() => conversation.getByText('The bot answers').isVisible()).toBe(true);
    await expect.poll(() => conversation.getByText('Free replies open (24 h)').isVisible()).toBe(true);

    await conversation.getByRole('button', { name: 'Take over from the bot' }).click();
    await expect
      .poll(() => conversation.getByText(/^Answered by hand/).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await conversation.getByLabel('Reply to the customer').fill('Habari Mary, the truck leaves at 2 pm.');
    await conversation.getByRole('button', { name: 'Send reply' }).click();
    await expect
      .poll(() => bodies().includes('Habari Mary, the truck leaves at 2 pm.'), { timeout: 30_000 })
      .toBe(true);
    await expect
      .poll(() => conversation.getByText('Habari Mary, the truck leaves at 2 pm.').isVisible(), {
        timeout: 30_000,
      })
      .toBe(true);
    await scrollIntoView(conversation.getByRole('button', { name: 'Send reply' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/whatsapp-ops-conversation.png' });

    // Taken over: the customer's next message gets no bot answer.
    const before = bodies().length;
    await customerSays({ type: 'text', text: 'Asante sana' });
    await expect
      .poll(() => conversation.getByText('Asante sana').isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(bodies().length).toBe(before);
    await context.close();
  }, 180_000);
});

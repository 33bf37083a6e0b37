import { execFileSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, users } from '../../../drizzle/schema';
import { makeOrder, unique } from '../../../test/factories';
import { fakeKra } from '../../../test/fake-kra';
import { c2b } from '../../../test/fixtures/daraja';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

// Receipts, credit notes and the finance view over HTTP (issue 23), with eTIMS on against the fake KRA:
// the outbox and the `etims.send` job run as in production (the in-process runner, drained by hand).

const SECRET = 'test-callback-secret-0123456789';
const TIN = 'P051234567X';
const kra = fakeKra({
  consumerKey: 'kra-key',
  consumerSecret: 'kra-secret',
  tin: TIN,
  bhfId: '00',
  deviceSerial: 'DVC-MCHANGA-1',
});

let t: TestApp;
let admin: SignedIn;
let ops: SignedIn;
beforeAll(async () => {
  const urls = await kra.start();
  t = await createTestApp({
    settings: {
      mpesa: {
        baseUrl: 'https://sandbox.safaricom.co.ke',
        consumerKey: undefined,
        consumerSecret: undefined,
        shortcode: undefined,
        passkey: undefined,
        callbackSecret: SECRET,
        validateAccount: false,
        callbackIps: [],
      },
      etims: {
        ...urls,
        consumerKey: 'kra-key',
        consumerSecret: 'kra-secret',
        tin: TIN,
        bhfId: '00',
        deviceSerial: 'DVC-MCHANGA-1',
        vatRegistered: true,
      },
    },
  });
  admin = await t.signIn('ADMIN');
  ops = await t.signIn('OPS');
});
afterAll(async () => {
  await t?.close();
  await kra.stop();
});

/** The text of a PDF as poppler's pdftotext reads it (one line per line, layout kept). */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

async function customerOrder(over: Parameters<typeof makeOrder>[1] = {}) {
  const customer = await t.signIn('CUSTOMER');
  const order = await makeOrder(t.database.db, {
    customerId: customer.user.id,
    trucks: 2,
    perTruckCents: 3_200_000,
    ...over,
  });
  return { customer, order };
}

/** Paid in full by a paybill payment to the order's account number, settled and sent to KRA. */
async function paidByC2b(orderId: number, amountKes = 64_000) {
  const res = await t.call(
    'POST',
    `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
    null,
    c2b({ account: `MCH${orderId}`, amountKes }),
  );
  expect(res.statusCode).toBe(200);
  await t.jobs.drain();
}

const saleOf = async (orderId: number) =>
  (await t.database.db.select().from(invoices).where(eq(invoices.orderId, orderId))).find(
    (i) => i.kind === 'S',
  );

async function listed(customer: SignedIn, id: number) {
  const mine = await t.call('GET', '/api/orders/my', customer);
  return (mine.json() as Array<Record<string, unknown>>).find((o) => o.id === id)!;
}

describe('the invoice-able event: a cash order paid in full', () => {
  it('a paybill payment that clears the order issues its sale, sent to KRA and signed', async () => {
    const { customer, order } = await customerOrder();
    expect(await saleOf(order.id)).toBeUndefined();
    expect(await listed(customer, order.id)).toMatchObject({ receiptUrl: null, etimsStatus: null });
    await paidByC2b(order.id);
    const sale = await saleOf(order.id);
    expect(sale).toMatchObject({ status: 'signed', paymentType: '06', taxType: 'B', totalCents: 6_400_000 });
    expect(kra.sales.get(sale!.number)!.body).toMatchObject({ rcptTyCd: 'S', pmtTyCd: '06', totAmt: 64_000 });
    expect(await listed(customer, order.id)).toMatchObject({
      receiptUrl: `/api/orders/${order.id}/receipt?token=${order.trackingToken}`,
      etimsStatus: 'signed',
      creditNotes: [],
    });
  });

  it('a part payment issues nothing; the payment that clears the balance does', async () => {
    const { order } = await customerOrder();
    await paidByC2b(order.id, 30_000);
    expect(await saleOf(order.id)).toBeUndefined();
    await paidByC2b(order.id, 34_000);
    expect((await saleOf(order.id))!.status).toBe('signed');
  });

  it('a typed reference confirmed by ops issues it too (bank: payment type 07), once', async () => {
    const { customer, order } = await customerOrder();
    await t.call('POST', `/api/orders/${order.id}/payment`, customer, {
      method: 'Equity',
      reference: unique('EQ'),
    });
    const review = await t.call('POST', `/api/admin/orders/${order.id}/payment-review`, admin, {
      decision: 'confirm',
    });
    expect(review.statusCode).toBe(200);
    await t.jobs.drain();
    const sale = await saleOf(order.id);
    expect(sale).toMatchObject({ status: 'signed', paymentType: '07' });
    // The admin listing carries the same fields.
    const all = (await t.call('GET', '/api/admin/orders', admin)).json() as Array<Record<string, unknown>>;
    expect(all.find((o) => o.id === order.id)).toMatchObject({
      etimsStatus: 'signed',
      receiptUrl: expect.stringContaining('/receipt?token='),
    });
  });
});

describe('GET /api/orders/{id}/receipt', () => {
  let order: Awaited<ReturnType<typeof customerOrder>>['order'];
  let customer: SignedIn;
  beforeAll(async () => {
    ({ order, customer } = await customerOrder({ customerPin: 'A123456789B' }));
    await paidByC2b(order.id);
  });

  it('is the tax invoice PDF: amounts, VAT, the M-Pesa reference, the SCU block, the signature and the QR URL', async () => {
    const res = await t.call('GET', `/api/orders/${order.id}/receipt`, customer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="receipt-INV-\d+-order-\d+\.pdf"$/,
    );
    const text = pdfText(res.rawPayload);
    const sale = (await saleOf(order.id))!;
    expect(text).toContain('TAX INVOICE');
    expect(text).toContain(`KRA PIN: ${TIN}`);
    expect(text).toContain(`INV-${sale.number}`);
    expect(text).toContain('Customer KRA PIN: A123456789B');
    expect(text).toContain('KES 64,000');
    expect(text).toContain('KES 8,827.59'); // the 16 % VAT inside 64,000
    expect(text).toContain('KES 1,600'); // per tonne, 40 t
    expect(text).toMatch(/M-Pesa · Reference [A-Z0-9]{10}/);
    expect(text).toContain('SCU INFORMATION');
    expect(text).toContain(`KRACU0300000123/${sale.receiptNo}`);
    expect(text).toContain(sale.receiptSignature!.match(/.{1,4}/g)!.join('-'));
    expect(text).toContain(
      `https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=${TIN}00${sale.receiptSignature}`,
    );
  });

  it('opens for ADMIN, OPS and the tracking token holder; 404 for anyone else', async () => {
    for (const who of [admin, ops])
      expect((await t.call('GET', `/api/orders/${order.id}/receipt`, who)).statusCode).toBe(200);
    const byToken = await t.call('GET', `/api/orders/${order.id}/receipt?token=${order.trackingToken}`);
    expect(byToken.statusCode).toBe(200);
    const refused = [
      await t.call('GET', `/api/orders/${order.id}/receipt`),
      await t.call('GET', `/api/orders/${order.id}/receipt?token=${'0'.repeat(32)}`),
      await t.call('GET', `/api/orders/${order.id}/receipt`, await t.signIn('CUSTOMER')),
      await t.call('GET', `/api/orders/${order.id}/receipt`, await t.signIn('DRIVER')),
      await t.call('GET', `/api/orders/${order.id}/receipt`, await t.signIn('FUEL')),
      await t.call('GET', `/api/orders/999999/receipt?token=${order.trackingToken}`),
      await t.call('GET', '/api/orders/abc/receipt'),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('an order not paid yet has no receipt (404); a bad language is 400', async () => {
    const unpaid = await customerOrder();
    const res = await t.call('GET', `/api/orders/${unpaid.order.id}/receipt`, unpaid.customer);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/issued once the order is paid in full/);
    const lang = await t.call('GET', `/api/orders/${order.id}/receipt?lang=fr`, customer);
    expect(lang.statusCode).toBe(400);
    expect(lang.json()).toEqual({ error: 'Choose the language en or sw.' });
  });

  it("is in the customer's language (Kiswahili), or the one asked for", async () => {
    await t.database.db.update(users).set({ language: 'sw' }).where(eq(users.id, customer.user.id));
    const sw = pdfText((await t.call('GET', `/api/orders/${order.id}/receipt`, customer)).rawPayload);
    expect(sw).toContain('ANKARA YA KODI');
    expect(sw).toContain('JUMLA');
    expect(sw).toContain('Sahihi ya risiti');
    const en = pdfText((await t.call('GET', `/api/orders/${order.id}/receipt?lang=en`, customer)).rawPayload);
    expect(en).toContain('TAX INVOICE');
  });

  it('says "eTIMS invoice pending" while KRA has not signed it', async () => {
    const { customer: c, order: o } = await customerOrder();
    kra.outage503 = true;
    try {
      await paidByC2b(o.id);
      const text = pdfText((await t.call('GET', `/api/orders/${o.id}/receipt`, c)).rawPayload);
      expect(text).toContain('eTIMS invoice pending');
      expect(text).not.toContain('SCU INFORMATION');
      expect((await listed(c, o.id)).etimsStatus).toMatch(/pending|sent/);
    } finally {
      kra.outage503 = false;
    }
    // KRA back: "send again" sends it at once (no waiting for the back-off), and twice is harmless.
    const sale = (await saleOf(o.id))!;
    const first = await t.call('POST', `/api/admin/invoices/${sale.id}/send`, admin, {});
    const second = await t.call('POST', `/api/admin/invoices/${sale.id}/send`, admin, {});
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    await t.jobs.drain();
    expect((await saleOf(o.id))!.status).toBe('signed');
    expect([...kra.sales.values()].filter((s) => s.body.invcNo === sale.number)).toHaveLength(1);
    const again = await t.call('POST', `/api/admin/invoices/${sale.id}/send`, admin, {});
    expect(again.json()).toEqual({ id: sale.id, status: 'signed', queued: false });
  });
});

describe('POST /api/admin/orders/{id}/credit-note', () => {
  it('credits part, then the rest; never more than the original; its PDF and the listing follow', async () => {
    const { customer, order } = await customerOrder();
    await paidByC2b(order.id);
    const part = await t.call('POST', `/api/admin/orders/${order.id}/credit-note`, admin, {
      amount: 16_000,
      reason: '06',
    });
    expect(part.statusCode).toBe(201);
    expect(part.json()).toMatchObject({
      amount: 16_000,
      status: 'pending',
      label: expect.stringMatching(/^CN-\d+$/),
    });
    const over = await t.call('POST', `/api/admin/orders/${order.id}/credit-note`, admin, {
      amount: 48_001,
      reason: '06',
    });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      error: 'A credit note cannot be more than what is left of the sale (KES 48,000).',
    });
    const rest = await t.call('POST', `/api/admin/orders/${order.id}/credit-note`, admin, { reason: '01' });
    expect(rest.json()).toMatchObject({ amount: 48_000 });
    const none = await t.call('POST', `/api/admin/orders/${order.id}/credit-note`, admin, { reason: '06' });
    expect(none.statusCode).toBe(409);
    await t.jobs.drain();
    const notes = (await listed(customer, order.id)).creditNotes as Array<{
      url: string;
      etimsStatus: string;
      amount: number;
    }>;
    expect(notes.map((n) => [n.amount, n.etimsStatus])).toEqual([
      [16_000, 'signed'],
      [48_000, 'signed'],
    ]);
    const pdf = await t.call('GET', notes[0]!.url);
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('CREDIT NOTE');
    expect(text).toContain('KES 16,000');
    expect(text).toMatch(/Credit note for invoice: INV-\d+/);
    expect(text).toContain('Reason: Refund');
    expect(text).toContain('indexEtimsReceiptData?Data=');
  });

  it.each([
    [{ reason: '09' }, 400, /reason/],
    [{ reason: '06', amount: 0 }, 400, /greater than zero/],
    [{ reason: '06', amount: 'lots' }, 400, /.+/],
    [{}, 400, /reason/],
  ])('bad input %j is %i with { error }', async (body, status, message) => {
    const { order } = await customerOrder();
    await paidByC2b(order.id);
    const res = await t.call('POST', `/api/admin/orders/${order.id}/credit-note`, admin, body);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toMatch(message);
  });

  it('an unpaid order has nothing to credit (409); an unknown one is 404', async () => {
    const { order } = await customerOrder();
    const unpaid = await t.call('POST', `/api/admin/orders/${order.id}/credit-note`, admin, { reason: '06' });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error).toMatch(/paid in full/);
    const unknown = await t.call('POST', '/api/admin/orders/999999/credit-note', admin, { reason: '06' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the finance view', () => {
  it('lists invoices by status with KRA’s reason, and the eTIMS link', async () => {
    const res = await t.call('GET', '/api/admin/invoices', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.etims).toMatchObject({
      status: 'ok',
      tin: TIN,
      bhfId: '00',
      sdcId: 'KRACU0300000123',
      vatRegistered: true,
    });
    expect(body.invoices.length).toBeGreaterThan(3);
    expect(body.invoices[0]).toMatchObject({
      label: expect.stringMatching(/^(INV|CN)-\d+$/),
      documentUrl: expect.any(String),
    });
    const signed = await t.call('GET', '/api/admin/invoices?status=signed', admin);
    expect((signed.json().invoices as Array<{ status: string }>).every((i) => i.status === 'signed')).toBe(
      true,
    );
    expect((await t.call('GET', '/api/admin/invoices?status=nope', admin)).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents the receipt, the credit note PDF, the credit note call and the finance calls', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).json();
    expect(doc.paths['/api/orders/{id}/receipt'].get.responses['200'].content).toHaveProperty(
      'application/pdf',
    );
    expect(doc.paths['/api/orders/{id}/credit-notes/{number}'].get).toBeDefined();
    const credit = doc.paths['/api/admin/orders/{id}/credit-note'].post;
    expect(Object.keys(credit.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404', '409']),
    );
    expect(doc.paths['/api/admin/invoices'].get).toBeDefined();
    expect(doc.paths['/api/admin/invoices/{id}/send'].post).toBeDefined();
  });
});

describeRoleMatrix('invoices', () => t, [
  ['GET', '/api/admin/invoices', ['ADMIN']],
  ['POST', '/api/admin/invoices/1/send', ['ADMIN']],
  ['POST', '/api/admin/orders/1/credit-note', ['ADMIN']],
]);

import { execFileSync } from 'node:child_process';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overdueReminder } from '../../../core/accounts/reminders';
import {
  accountAllocations,
  alertDeliveries,
  assignments,
  customerAccounts,
  invoices,
  orders,
  payments,
  receivables,
} from '../../../drizzle/schema';
import { addDays, localDate, startOfLocalDate } from '../../../shared/domain/time';
import { makeDriver, makeOrder, makeTruck, unique } from '../../../test/factories';
import { c2b } from '../../../test/fixtures/daraja';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

// Contractor accounts on credit terms (issue 24) over HTTP: terms and limits, scheduling on credit (the
// limit under racing assignments), a delivered load invoiced, payments allocated (C2B by account number,
// ops' bank confirmations, 20 racing paybill payments), credit left over, reversals. PGlite by default;
// with DATABASE_URL the same tests run on PostgreSQL, where the races are real.

const SECRET = 'test-callback-secret-0123456789';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
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
    },
  });
  admin = await t.signIn('ADMIN');
});
afterAll(() => t?.close());

const db = () => t.database.db;

async function accountCustomer(creditLimit: number, termsDays = 30) {
  const customer = await t.signIn('CUSTOMER');
  const res = await t.call('PUT', `/api/admin/customers/${customer.user.id}/account`, admin, {
    creditLimit,
    termsDays,
  });
  expect(res.statusCode).toBe(200);
  return customer;
}

async function truckAndDriver() {
  const truck = await makeTruck(db());
  const driver = await makeDriver(db());
  return { truckId: truck.id, driverId: driver.id };
}

function assign(orderId: number, body: Record<string, unknown>) {
  return t.call('POST', `/api/admin/orders/${orderId}/assignments`, admin, body);
}

async function deliver(loadId: number) {
  for (const status of ['IN_TRANSIT', 'ARRIVED', 'DELIVERED']) {
    const res = await t.call('PATCH', `/api/admin/assignments/${loadId}`, admin, {
      status,
      reason: 'Delivered, receiver signed the paper note',
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

const account = async (customerId: number) =>
  (await t.call('GET', `/api/admin/customers/${customerId}/account`, admin)).json();

async function paybill(
  customerId: number,
  amountKes: number,
  receipt = unique('R').slice(0, 10).toUpperCase(),
) {
  const res = await t.call(
    'POST',
    `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
    null,
    c2b({ account: `MCA${customerId}`, amountKes, receipt }),
  );
  expect(res.statusCode).toBe(200);
  return receipt;
}

describeRoleMatrix('accounts', () => t, [
  ['GET', '/api/admin/customers/1/account', ['ADMIN']],
  ['PUT', '/api/admin/customers/1/account', ['ADMIN']],
  ['POST', '/api/admin/customers/1/account/payments', ['ADMIN']],
  ['POST', '/api/admin/account-payments/1/reverse', ['ADMIN']],
  ['GET', '/api/admin/receivables', ['ADMIN']],
  ['GET', '/api/admin/customers?q=ab', ['ADMIN']],
  ['GET', '/api/customers/me/account', ['CUSTOMER']],
  ['POST', '/api/admin/invoices/1/credit-note', ['ADMIN']],
]);

describe('GET /api/admin/customers: finding a customer to give terms to', () => {
  it('finds customers (only) by part of the name, e-mail or phone digits, by name, with MCA<id> and whether on terms', async () => {
    const tag = unique('zx');
    const wanjiru = await t.signIn('CUSTOMER', { name: `Wanjiru ${tag} Builders` });
    const otieno = await t.signIn('CUSTOMER', {
      name: `Otieno ${tag} Hardware`,
      email: `${tag}-otieno@example.co.ke`,
    });
    await t.signIn('OPS', { name: `Ops ${tag} Person` });
    await t.call('PUT', `/api/admin/customers/${otieno.user.id}/account`, admin, {
      creditLimit: 50_000,
      termsDays: 30,
    });
    const find = async (q: string) => {
      const res = await t.call('GET', `/api/admin/customers?q=${encodeURIComponent(q)}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; name: string; accountRef: string; onTerms: boolean }[];
    };
    // By name (case does not matter): the two customers, not the OPS account, by name.
    expect(await find(tag.toUpperCase())).toEqual([
      expect.objectContaining({ id: otieno.user.id, accountRef: `MCA${otieno.user.id}`, onTerms: true }),
      expect.objectContaining({ id: wanjiru.user.id, accountRef: `MCA${wanjiru.user.id}`, onTerms: false }),
    ]);
    // By e-mail.
    expect((await find(`${tag}-otieno@`)).map((c) => c.id)).toEqual([otieno.user.id]);
    // By phone, typed as 0712… or +254712… (test accounts have 0712345678).
    expect((await find('+254 712 345')).map((c) => c.id)).toContain(wanjiru.user.id);
    // Digits among letters are not a phone number: no name or e-mail holds this, so nobody is found.
    expect(await find('ab 712')).toEqual([]);
    // A % or _ typed is a letter, not a wildcard.
    expect(await find('%%')).toEqual([]);
    expect(await find('__')).toEqual([]);
    // Too short, or a control character: 400 with the message.
    for (const q of ['a', ' b ', 'ab\u0007'])
      expect((await t.call('GET', `/api/admin/customers?q=${encodeURIComponent(q)}`, admin)).json()).toEqual({
        error: 'Type at least 2 letters or digits of a name, e-mail or phone.',
      });
  });
});

describe('PUT and GET /api/admin/customers/{id}/account', () => {
  it('sets terms, a KRA PIN and a billing contact, and reads them back with the balance and MCA<id>', async () => {
    const customer = await t.signIn('CUSTOMER');
    const id = customer.user.id;
    expect((await t.call('GET', `/api/admin/customers/${id}/account`, admin)).statusCode).toBe(404);
    const put = await t.call('PUT', `/api/admin/customers/${id}/account`, admin, {
      creditLimit: 500_000,
      termsDays: 30,
      kraPin: ' p051234567x ',
      billingEmail: 'accounts@wanjiru.co.ke',
      billingPhone: '0722000111',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      customerId: id,
      creditLimit: 500_000,
      termsDays: 30,
      kraPin: 'P051234567X',
      billingEmail: 'accounts@wanjiru.co.ke',
      accountRef: `MCA${id}`,
      balance: 0,
      overdue: 0,
      available: 500_000,
      ageing: { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 },
    });
    const changed = await t.call('PUT', `/api/admin/customers/${id}/account`, admin, {
      creditLimit: 250_000.5,
      termsDays: 14,
    });
    expect(changed.json()).toMatchObject({ creditLimit: 250_000.5, termsDays: 14, kraPin: null });
    expect((await account(id)).available).toBe(250_000.5);
  });

  it.each([
    [{ creditLimit: -1, termsDays: 30 }, 400],
    [{ creditLimit: 1000, termsDays: 366 }, 400],
    [{ creditLimit: 1000, termsDays: 1.5 }, 400],
    [{ creditLimit: 1000.001, termsDays: 30 }, 400],
    [{ creditLimit: 1000, termsDays: 30, kraPin: 'A12' }, 400],
    [{ creditLimit: 1000, termsDays: 30, billingEmail: 'not-an-email' }, 400],
    [{ termsDays: 30 }, 400],
  ])('refuses %j with %i and a message', async (body, status) => {
    const customer = await t.signIn('CUSTOMER');
    const res = await t.call('PUT', `/api/admin/customers/${customer.user.id}/account`, admin, body);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toEqual(expect.any(String));
  });

  it('only a customer has an account: unknown ids 404, staff 400', async () => {
    const ops = await t.signIn('OPS');
    const body = { creditLimit: 1000, termsDays: 30 };
    expect((await t.call('PUT', '/api/admin/customers/999999/account', admin, body)).statusCode).toBe(404);
    const staff = await t.call('PUT', `/api/admin/customers/${ops.user.id}/account`, admin, body);
    expect(staff.statusCode).toBe(400);
    expect(staff.json().error).toBe('Only a customer can have an account on terms.');
  });
});

describe('scheduling on credit', () => {
  it('schedules without payment within the limit, refuses past it with 409 naming limit, balance and overdue; ADMIN overrides with a reason', async () => {
    const customer = await accountCustomer(90_000);
    const order = await makeOrder(db(), {
      customerId: customer.user.id,
      trucks: 4,
      perTruckCents: 3_200_000,
    });
    const fleet = await truckAndDriver();
    for (let i = 0; i < 2; i++) expect((await assign(order.id, fleet)).statusCode).toBe(201);
    expect(await account(customer.user.id)).toMatchObject({
      scheduled: 64_000,
      available: 26_000,
      balance: 0,
    });

    const refused = await assign(order.id, fleet);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'Over the credit limit: the limit is KES 90,000, the balance KES 0 (KES 0 overdue) and this load KES 32,000 would take it past the limit. An ADMIN may override it with a reason.',
    );
    // confirmUnpaid is no way around the limit.
    expect((await assign(order.id, { ...fleet, confirmUnpaid: true })).statusCode).toBe(409);
    const noReason = await assign(order.id, { ...fleet, overrideCreditLimit: true });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('Give the reason for scheduling past the credit limit.');
    const overridden = await assign(order.id, {
      ...fleet,
      overrideCreditLimit: true,
      overrideReason: 'Director approved: cheque in the post',
    });
    expect(overridden.statusCode).toBe(201);
    const [row] = await db().select().from(assignments).where(eq(assignments.id, overridden.json().id));
    expect(row).toMatchObject({
      overrideCreditLimit: true,
      creditOverrideReason: 'Director approved: cheque in the post',
      scheduledBeforePayment: false,
    });
    const [o] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(o!.onTerms).toBe(true);
  });

  it('a customer without an account still needs confirmUnpaid', async () => {
    const customer = await t.signIn('CUSTOMER');
    const order = await makeOrder(db(), { customerId: customer.user.id });
    const res = await assign(order.id, await truckAndDriver());
    expect(res.statusCode).toBe(409);
    expect(res.json().unpaid).toBe(true);
  });

  it('20 racing assignments never pass the limit: exactly as many as fit are scheduled', async () => {
    // 20 loads of KES 32,000 against a limit of KES 200,000: 6 fit (192,000), 14 are refused.
    const customer = await accountCustomer(200_000);
    const orderIds: number[] = [];
    for (let i = 0; i < 5; i++)
      orderIds.push((await makeOrder(db(), { customerId: customer.user.id, trucks: 4 })).id);
    const fleet = await truckAndDriver();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => assign(orderIds[i % 5]!, fleet)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(6);
    expect(codes.filter((c) => c === 409)).toHaveLength(14);
    expect(await account(customer.user.id)).toMatchObject({ scheduled: 192_000, available: 8_000 });
  });
});

describe('what is owed: a delivered load is an invoice, payments are allocated', () => {
  it('invoices each delivered load, pays it from a paybill payment to MCA<id> and keeps the rest as credit', async () => {
    const customer = await accountCustomer(200_000, 30);
    const id = customer.user.id;
    const order = await makeOrder(db(), { customerId: id, trucks: 3, perTruckCents: 3_200_000 });
    const fleet = await truckAndDriver();
    const first = (await assign(order.id, { ...fleet, tonnes: 20 })).json();
    const second = (await assign(order.id, { ...fleet, tonnes: 13.5 })).json();
    await deliver(first.id);

    const [sale] = await db().select().from(invoices).where(eq(invoices.assignmentId, first.id));
    expect(sale).toMatchObject({
      kind: 'S',
      source: 'load',
      orderId: order.id,
      totalCents: 3_200_000,
      paymentType: '02',
    });
    const [owed] = await db().select().from(receivables).where(eq(receivables.invoiceId, sale!.id));
    expect(owed).toMatchObject({ customerId: id, totalCents: 3_200_000, allocatedCents: 0 });
    expect(await account(id)).toMatchObject({ balance: 32_000, scheduled: 21_600, overdue: 0 });

    await paybill(id, 40_000.5);
    await t.jobs.drain();
    expect(await account(id)).toMatchObject({ balance: -8_000.5, credit: 8_000.5 });
    const [paid] = await db().select().from(receivables).where(eq(receivables.invoiceId, sale!.id));
    expect(paid!.allocatedCents).toBe(3_200_000);

    // The next load's invoice takes the credit first.
    await deliver(second.id);
    const [next] = await db().select().from(invoices).where(eq(invoices.assignmentId, second.id));
    expect(next!.totalCents).toBe(2_160_000);
    const [nextOwed] = await db().select().from(receivables).where(eq(receivables.invoiceId, next!.id));
    expect(nextOwed!.allocatedCents).toBe(800_050);
    expect(await account(id)).toMatchObject({ balance: 13_599.5, credit: 0, scheduled: 0 });
    // A cash order's receipt is never issued for an order on terms.
    expect(
      await db()
        .select()
        .from(invoices)
        .where(and(eq(invoices.orderId, order.id), eq(invoices.source, 'order'))),
    ).toEqual([]);
  });

  it('a paybill payment to MCH<order> of an order on terms goes to the account', async () => {
    const customer = await accountCustomer(100_000);
    const order = await makeOrder(db(), { customerId: customer.user.id, trucks: 1 });
    const load = (await assign(order.id, await truckAndDriver())).json();
    await deliver(load.id);
    const res = await t.call(
      'POST',
      `/api/payments/mpesa/c2b/confirmation/${SECRET}`,
      null,
      c2b({ account: `MCH${order.id}`, amountKes: 32_000 }),
    );
    expect(res.statusCode).toBe(200);
    await t.jobs.drain();
    expect(await account(customer.user.id)).toMatchObject({ balance: 0, credit: 0 });
    const [p] = await db().select().from(payments).where(eq(payments.orderId, order.id));
    expect(p).toMatchObject({
      status: 'CONFIRMED',
      accountCustomerId: customer.user.id,
      unallocatedCents: 0,
    });
  });

  it('ops confirm a bank transfer naming an invoice; a reversal opens it again', async () => {
    const customer = await accountCustomer(500_000);
    const id = customer.user.id;
    const order = await makeOrder(db(), { customerId: id, trucks: 2 });
    const fleet = await truckAndDriver();
    const a = (await assign(order.id, fleet)).json();
    const b = (await assign(order.id, fleet)).json();
    await deliver(a.id);
    await deliver(b.id);
    const [older] = await db().select().from(invoices).where(eq(invoices.assignmentId, a.id));
    const [newer] = await db().select().from(invoices).where(eq(invoices.assignmentId, b.id));

    const named = await t.call('POST', `/api/admin/customers/${id}/account/payments`, admin, {
      amount: 40_000,
      method: 'Equity',
      reference: 'EQ2611240001',
      invoiceId: newer!.id,
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json()).toMatchObject({
      amount: 40_000,
      credit: 0,
      allocations: [
        { invoiceId: newer!.id, amount: 32_000 },
        { invoiceId: older!.id, amount: 8_000 },
      ],
    });
    const again = await t.call('POST', `/api/admin/customers/${id}/account/payments`, admin, {
      amount: 1,
      method: 'Equity',
      reference: 'eq2611240001',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This reference is recorded on this account already.');
    expect(await account(id)).toMatchObject({ balance: 24_000 });

    const reversed = await t.call('POST', `/api/admin/account-payments/${named.json().id}/reverse`, admin, {
      reason: 'Cheque returned unpaid',
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json()).toMatchObject({ allocations: [], credit: 0, reversedAt: expect.any(String) });
    expect(await account(id)).toMatchObject({ balance: 64_000 });
    const twice = await t.call('POST', `/api/admin/account-payments/${named.json().id}/reverse`, admin, {
      reason: 'Again',
    });
    expect(twice.statusCode).toBe(409);
  });

  it('20 racing payments (paybill and bank) are allocated exactly to the cent, oldest invoice first', async () => {
    const customer = await accountCustomer(1_000_000);
    const id = customer.user.id;
    const order = await makeOrder(db(), { customerId: id, trucks: 5, perTruckCents: 3_333_333 });
    const fleet = await truckAndDriver();
    for (let i = 0; i < 5; i++) await deliver((await assign(order.id, fleet)).json().id);
    // 5 invoices of KES 33,333.33 = 166,666.65; 20 payments of KES 9,000.01 = 180,000.20.
    // Half by paybill (MCA<id>), half bank transfers ops confirm, all at once.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? paybill(id, 9_000.01)
          : t
              .call('POST', `/api/admin/customers/${id}/account/payments`, admin, {
                amount: 9_000.01,
                method: 'KCB',
                reference: `KCB-RACE-${i}`,
              })
              .then((res) => expect(res.statusCode, res.body).toBe(201)),
      ),
    );
    await t.jobs.drain();
    const paid = await db().select().from(payments).where(eq(payments.accountCustomerId, id));
    expect(paid).toHaveLength(20);
    const parts = await db().select().from(accountAllocations).where(isNull(accountAllocations.releasedAt));
    for (const p of paid) {
      const allocated = parts.filter((a) => a.paymentId === p.id).reduce((s, a) => s + a.cents, 0);
      expect(allocated + p.unallocatedCents).toBe(900_001);
    }
    const owed = await db().select().from(receivables).where(eq(receivables.customerId, id));
    expect(owed.map((r) => r.totalCents - r.allocatedCents)).toEqual([0, 0, 0, 0, 0]);
    expect(paid.reduce((s, p) => s + p.unallocatedCents, 0)).toBe(18_000_020 - 16_666_665);
    expect(await account(id)).toMatchObject({ balance: -13_333.55, credit: 13_333.55 });
  });
});

describe('GET /api/customers/me/account', () => {
  it('answers the customer their own account, and null without one', async () => {
    const customer = await accountCustomer(50_000, 7);
    expect((await t.call('GET', '/api/customers/me/account', customer)).json()).toEqual({
      accountRef: `MCA${customer.user.id}`,
      balance: 0,
      overdue: 0,
      creditLimit: 50_000,
      available: 50_000,
      termsDays: 7,
    });
    const other = await t.signIn('CUSTOMER');
    expect((await t.call('GET', '/api/customers/me/account', other)).json()).toBeNull();
  });
});

describe('credit notes on an account invoice', () => {
  it('lower what is owed; past what is open, the payment on it goes back as credit and pays the next invoice', async () => {
    const customer = await accountCustomer(500_000);
    const id = customer.user.id;
    const order = await makeOrder(db(), { customerId: id, trucks: 2 });
    const fleet = await truckAndDriver();
    const a = (await assign(order.id, fleet)).json();
    await deliver(a.id);
    const [sale] = await db().select().from(invoices).where(eq(invoices.assignmentId, a.id));
    await paybill(id, 20_000);
    await t.jobs.drain();
    expect(await account(id)).toMatchObject({ balance: 12_000 });

    const part = await t.call('POST', `/api/admin/invoices/${sale!.id}/credit-note`, admin, {
      amount: 2_000,
      reason: '01',
      note: 'One tonne short',
    });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json()).toMatchObject({ amount: 2_000, label: expect.stringMatching(/^CN-/) });
    expect(await account(id)).toMatchObject({ balance: 10_000, credit: 0 });

    // KES 25,000 against the 10,000 open: 15,000 of the payment on it goes back to the account as credit.
    const rest = await t.call('POST', `/api/admin/invoices/${sale!.id}/credit-note`, admin, {
      amount: 25_000,
      reason: '06',
    });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(await account(id)).toMatchObject({ balance: -15_000, credit: 15_000 });
    const [r] = await db().select().from(receivables).where(eq(receivables.invoiceId, sale!.id));
    expect(r).toMatchObject({ creditedCents: 2_700_000, allocatedCents: 500_000 });

    // The next load's invoice takes that credit.
    const b = (await assign(order.id, fleet)).json();
    await deliver(b.id);
    expect(await account(id)).toMatchObject({ balance: 17_000, credit: 0 });

    const tooMuch = await t.call('POST', `/api/admin/invoices/${sale!.id}/credit-note`, admin, {
      amount: 5_000.01,
      reason: '06',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe(
      'A credit note cannot be more than what is left of the sale (KES 5,000).',
    );
    const unknown = await t.call('POST', '/api/admin/invoices/999999/credit-note', admin, { reason: '06' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('statements', () => {
  const pdfText = (pdf: Buffer) =>
    execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');

  async function accountWithHistory() {
    const customer = await accountCustomer(500_000, 30);
    const id = customer.user.id;
    const order = await makeOrder(db(), { customerId: id, trucks: 3 });
    const fleet = await truckAndDriver();
    for (let i = 0; i < 3; i++) await deliver((await assign(order.id, fleet)).json().id);
    await paybill(id, 50_000);
    await t.jobs.drain();
    const [sale] = await db().select().from(invoices).where(eq(invoices.orderId, order.id)).limit(1);
    await t.call('POST', `/api/admin/invoices/${sale!.id}/credit-note`, admin, {
      amount: 1_000,
      reason: '01',
    });
    return { customer, id };
  }

  it('JSON: opening, lines with running balances, closing = opening + invoices − payments − credits, and = the account balance', async () => {
    const { customer, id } = await accountWithHistory();
    const today = localDate(new Date());
    const res = await t.call('GET', `/api/customers/${id}/statement?from=2026-01-01&to=2099-12-31`, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('A statement covers at most 366 days.');
    const from = addDays(today, -30);
    const ok = await t.call('GET', `/api/customers/${id}/statement?from=${from}&to=${today}`, admin);
    expect(ok.statusCode, ok.body).toBe(200);
    const s = ok.json();
    expect(s).toMatchObject({
      opening: 0,
      invoices: 96_000,
      payments: 50_000,
      credits: 1_000,
      reversals: 0,
      closing: 45_000,
    });
    expect(s.closing).toBe(s.opening + s.invoices - s.payments - s.credits + s.reversals);
    // In date order: the paybill payment carries M-Pesa's own time (the fixture's 23 November).
    expect(s.lines.map((l: { kind: string }) => l.kind)).toEqual([
      'payment',
      'invoice',
      'invoice',
      'invoice',
      'credit',
    ]);
    expect(s.lines.at(-1).balance).toBe(45_000);
    expect(s.ageing).toEqual({ current: 45_000, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 });
    expect((await account(id)).balance).toBe(s.closing);

    // The customer reads the same through /me; another customer's is 404, OPS 403.
    const mine = await t.call('GET', `/api/customers/me/statement?from=${from}&to=${today}`, customer);
    expect(mine.json()).toEqual(s);
    const other = await t.signIn('CUSTOMER');
    expect(
      (await t.call('GET', `/api/customers/${id}/statement?from=${from}&to=${today}`, other)).statusCode,
    ).toBe(404);
    expect(
      (await t.call('GET', `/api/customers/me/statement?from=${from}&to=${today}`, other)).statusCode,
    ).toBe(404);
    const ops = await t.signIn('OPS');
    expect(
      (await t.call('GET', `/api/customers/${id}/statement?from=${from}&to=${today}`, ops)).statusCode,
    ).toBe(403);
    expect(
      (await t.call('GET', `/api/customers/${id}/statement?from=${today}&to=${from}`, admin)).json().error,
    ).toBe('The statement ends before it starts.');

    // Before the period: all of it is the opening balance.
    const later = await t.call('GET', `/api/customers/${id}/statement?from=2099-01-01&to=2099-01-31`, admin);
    expect(later.json()).toMatchObject({ opening: 45_000, closing: 45_000, lines: [] });
  });

  it('CSV and PDF (English and Kiswahili) carry the same figures', async () => {
    const { customer, id } = await accountWithHistory();
    const today = localDate(new Date());
    const from = addDays(today, -30);
    const csv = await t.call(
      'GET',
      `/api/customers/me/statement?from=${from}&to=${today}&format=csv`,
      customer,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="statement-MCA${id}-${from}-${today}.csv"`,
    );
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('Date,Entry,Reference,Order,Due,Debit,Credit,Balance');
    expect(rows[1]).toBe(`${from},Opening balance,,,,,,0`);
    expect(rows.at(-1)).toBe(`${today},Closing balance,,,,96000,51000,45000`);
    expect(rows).toHaveLength(8);

    const pdf = await t.call(
      'GET',
      `/api/customers/${id}/statement?from=${from}&to=${today}&format=pdf`,
      admin,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const en = pdfText(pdf.rawPayload);
    expect(en).toContain('STATEMENT OF ACCOUNT');
    expect(en).toContain(`MCA${id}`);
    expect(en).toMatch(/Closing balance\s+KES 45,000/);
    expect(en).toContain(`account number MCA${id}`);
    const sw = pdfText(
      (
        await t.call(
          'GET',
          `/api/customers/${id}/statement?from=${from}&to=${today}&format=pdf&lang=sw`,
          admin,
        )
      ).rawPayload,
    );
    expect(sw).toContain('TAARIFA YA AKAUNTI');
    expect(sw).toContain('Salio la mwisho');
  });
});

describe('the daily overdue reminder', () => {
  it('tells ops once which accounts went overdue, with the amount; a re-run or a quiet day tells nothing', async () => {
    const customer = await accountCustomer(500_000, 7);
    const id = customer.user.id;
    const order = await makeOrder(db(), { customerId: id, trucks: 2 });
    const fleet = await truckAndDriver();
    await deliver((await assign(order.id, fleet)).json().id);
    const today = localDate(new Date());
    const at = (day: string) => () => new Date(startOfLocalDate(day).getTime() + 8 * 3_600_000);

    // Due in 7 days: nothing is overdue on the 7th day, it is on the 8th.
    const onDue = await overdueReminder({ db: db(), now: at(addDays(today, 7)) });
    const dueDay = addDays(today, 8);
    expect(onDue.accounts).toBeGreaterThanOrEqual(0);
    const [notYet] = await db().select().from(customerAccounts).where(eq(customerAccounts.customerId, id));
    expect(notYet!.overdueNotifiedOn).toBeNull();
    const first = await overdueReminder({ db: db(), now: at(dueDay) });
    expect(first.accounts).toBeGreaterThanOrEqual(1);
    const [told] = await db().select().from(customerAccounts).where(eq(customerAccounts.customerId, id));
    expect(told!.overdueNotifiedOn).toBe(dueDay);
    expect(await overdueReminder({ db: db(), now: at(dueDay) })).toEqual({ accounts: 0 });
    expect(await overdueReminder({ db: db(), now: at(addDays(dueDay, 1)) })).toEqual({ accounts: 0 });
    await t.jobs.drain();
    const sent = await db()
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, `accounts.overdue:${dueDay}`));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]!.text).toMatch(/^Accounts overdue: \d+ accounts? went overdue: /);
    expect(sent[0]!.text).toContain(`(MCA${id}) KES 32,000 overdue`);
    expect(sent[0]!.text).toContain('See Finance → Receivables.');
  });
});

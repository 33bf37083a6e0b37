import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivablesView, statement } from '../../../core/accounts/accounts.service';
import { statementCsv } from '../../../core/documents/statement-pdf';
import {
  QUARTER_LOADS,
  QUARTER_PAYMENTS,
  quarterEnd,
  simulateAccountQuarter,
} from '../../../scripts/account-quarter';
import { toCents } from '../../../shared/domain/money';
import { createTestApp, type TestApp } from '../../../test/helpers';

// Issue 24's "done when": a contractor's simulated quarter (60 loads, 12 payments, 2 credit notes) closes
// at opening + invoices − payments − credits to the cent, and the receivables view and the CSV agree.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ relayOutbox: false });
});
afterAll(() => t?.close());

describe('a simulated quarter of a contractor on terms', () => {
  it('closes at opening + invoices − payments − credits to the cent, as the receivables view and the CSV say', async () => {
    const made = await simulateAccountQuarter(t.database.db, t.deps.settings, '2026-07-01');
    expect(made).toMatchObject({
      loads: QUARTER_LOADS,
      payments: QUARTER_PAYMENTS,
      credits: 2,
      to: '2026-09-30',
    });
    const s = await statement(t.database.db, made.customerId, made.from, made.to);
    expect(s.lines.filter((l) => l.kind === 'invoice')).toHaveLength(60);
    expect(s.lines.filter((l) => l.kind === 'payment')).toHaveLength(12);
    expect(s.lines.filter((l) => l.kind === 'credit')).toHaveLength(2);
    expect(s.opening).toBe(0);
    expect(toCents(s.closing)).toBe(
      toCents(s.opening) +
        toCents(s.invoices) -
        toCents(s.payments) -
        toCents(s.credits) +
        toCents(s.reversals),
    );
    // Each line's balance follows from the one before, to the cent.
    let running = toCents(s.opening);
    for (const l of s.lines) {
      running += toCents(l.debit) - toCents(l.credit);
      expect(toCents(l.balance)).toBe(running);
    }
    expect(running).toBe(toCents(s.closing));
    const ageingTotal = Object.values(s.ageing).reduce((sum, v) => sum + toCents(v), 0);
    expect(ageingTotal).toBeGreaterThanOrEqual(toCents(s.closing));

    const view = await receivablesView(t.database.db, made.to);
    const row = view.rows.find((r) => r.customerId === made.customerId)!;
    expect(row.balance).toBe(s.closing);
    expect(row.ageing).toEqual(s.ageing);
    expect(view.totals.balance).toBe(view.rows.reduce((sum, r) => sum + toCents(r.balance), 0) / 100);

    const csv = statementCsv(s).trim().split('\r\n');
    expect(csv).toHaveLength(1 + 1 + s.lines.length + 1);
    expect(Number(csv.at(-1)!.split(',').at(-1))).toBe(s.closing);
    expect(Number(csv[1]!.split(',').at(-1))).toBe(s.opening);

    // A statement of the whole year carries the quarter's closing into the next quarter's opening.
    const next = await statement(t.database.db, made.customerId, '2026-10-01', quarterEnd('2026-10-01'));
    expect(next.opening).toBe(s.closing);
  });
});

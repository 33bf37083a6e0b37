import { describe, expect, it } from 'vitest';
import {
  type Ageing,
  ageing,
  allocatePayment,
  creditCheck,
  customerAccountRef,
  dueDateOf,
  type LedgerEntry,
  type OpenReceivable,
  overdueOf,
  parseCustomerAccountRef,
  releaseForCredit,
  reversePayment,
  statementOf,
} from './accounts';

const inv = (
  invoiceId: number,
  issuedAt: string,
  openCents: number,
  dueDate = '2026-12-31',
): OpenReceivable => ({
  invoiceId,
  issuedAt,
  openCents,
  dueDate,
});

// Three open invoices, issued out of id order: 12 is the oldest.
const OPEN = [
  inv(10, '2026-09-05T08:00:00.000Z', 3_200_000),
  inv(12, '2026-09-01T08:00:00.000Z', 1_600_000),
  inv(11, '2026-09-05T08:00:00.000Z', 2_000_000),
];

describe('allocatePayment', () => {
  it.each<[string, number, number | null, { invoiceId: number; cents: number }[], number]>([
    ['oldest first, exact', 1_600_000, null, [{ invoiceId: 12, cents: 1_600_000 }], 0],
    [
      'oldest first across invoices, same instant by id',
      5_000_000,
      null,
      [
        { invoiceId: 12, cents: 1_600_000 },
        { invoiceId: 10, cents: 3_200_000 },
        { invoiceId: 11, cents: 200_000 },
      ],
      0,
    ],
    ['partial: the oldest takes all of it', 100_001, null, [{ invoiceId: 12, cents: 100_001 }], 0],
    [
      'the invoice the payer names first, the rest oldest first',
      2_500_000,
      11,
      [
        { invoiceId: 11, cents: 2_000_000 },
        { invoiceId: 12, cents: 500_000 },
      ],
      0,
    ],
    [
      'a named invoice takes only what is open on it',
      1_000_000,
      10,
      [{ invoiceId: 10, cents: 1_000_000 }],
      0,
    ],
    ['a named invoice that is not open is passed over', 1_000, 99, [{ invoiceId: 12, cents: 1_000 }], 0],
    [
      'over: everything paid, the rest a credit on the account',
      7_000_001,
      null,
      [
        { invoiceId: 12, cents: 1_600_000 },
        { invoiceId: 10, cents: 3_200_000 },
        { invoiceId: 11, cents: 2_000_000 },
      ],
      200_001,
    ],
    ['nothing open: all of it a credit', 5_000, null, [], 5_000],
    ['zero pays nothing', 0, null, [], 0],
  ])('%s', (_name, amount, named, allocations, credit) => {
    const open = _name.startsWith('nothing open') ? [] : OPEN;
    const result = allocatePayment(amount, open, named);
    expect(result).toEqual({ allocations, creditCents: credit });
    expect(result.allocations.reduce((s, a) => s + a.cents, 0) + result.creditCents).toBe(amount);
  });

  it('passes over invoices with nothing open and refuses what is not cents', () => {
    expect(
      allocatePayment(10, [inv(1, '2026-01-01T00:00:00Z', 0), inv(2, '2026-01-02T00:00:00Z', 5)]),
    ).toEqual({
      allocations: [{ invoiceId: 2, cents: 5 }],
      creditCents: 5,
    });
    expect(() => allocatePayment(1.5, OPEN)).toThrow(RangeError);
    expect(() => allocatePayment(-1, OPEN)).toThrow(RangeError);
  });
});

describe('releaseForCredit (credit notes)', () => {
  const standing = [
    { id: 1, paymentId: 100, cents: 1_000_000, at: '2026-09-10T00:00:00Z' },
    { id: 2, paymentId: 101, cents: 500_000, at: '2026-09-20T00:00:00Z' },
  ];
  it.each<[string, number, number, { allocationId: number; paymentId: number; cents: number }[]]>([
    ['within what is open: no payment released', 700_000, 700_000, []],
    [
      'past what is open: the newest payment gives back first',
      200_000,
      600_000,
      [{ allocationId: 2, paymentId: 101, cents: 400_000 }],
    ],
    [
      'a fully paid invoice credited in full releases every payment',
      0,
      1_500_000,
      [
        { allocationId: 2, paymentId: 101, cents: 500_000 },
        { allocationId: 1, paymentId: 100, cents: 1_000_000 },
      ],
    ],
  ])('%s', (_name, open, credit, released) => {
    expect(releaseForCredit(open, credit, standing)).toEqual(released);
  });

  it('refuses a credit note larger than the invoice', () => {
    expect(() => releaseForCredit(0, 1_500_001, standing)).toThrow(RangeError);
  });
});

describe('reversePayment', () => {
  it('reopens each invoice by what the payment paid on it', () => {
    expect(
      reversePayment([
        { invoiceId: 12, cents: 1_600_000 },
        { invoiceId: 10, cents: 300_000 },
        { invoiceId: 12, cents: 1 },
      ]),
    ).toEqual([
      { invoiceId: 10, cents: 300_000 },
      { invoiceId: 12, cents: 1_600_001 },
    ]);
    expect(reversePayment([])).toEqual([]);
  });
});

describe('ageing', () => {
  it.each<[string, string, keyof Ageing]>([
    ['2026-10-31', '2026-10-31', 'current'],
    ['2026-11-30', '2026-10-31', 'current'],
    ['2026-10-30', '2026-10-31', 'd1_30'],
    ['2026-10-01', '2026-10-31', 'd1_30'],
    ['2026-09-30', '2026-10-31', 'd31_60'],
    ['2026-09-01', '2026-10-31', 'd31_60'],
    ['2026-08-31', '2026-10-31', 'd61_90'],
    ['2026-08-02', '2026-10-31', 'd61_90'],
    ['2026-08-01', '2026-10-31', 'd90_plus'],
    ['2025-01-01', '2026-10-31', 'd90_plus'],
  ])('due %s, on %s: %s', (due, asOf, bucket) => {
    const result = ageing([{ dueDate: due, openCents: 123 }], asOf);
    expect(result[bucket]).toBe(123);
    expect(Object.values(result).reduce((s, v) => s + v, 0)).toBe(123);
  });

  it('sums per bucket, leaves paid invoices out, and overdue is all but current', () => {
    const a = ageing(
      [
        { dueDate: '2026-11-01', openCents: 100 },
        { dueDate: '2026-10-20', openCents: 250 },
        { dueDate: '2026-10-25', openCents: 50 },
        { dueDate: '2026-06-01', openCents: 7 },
        { dueDate: '2026-06-01', openCents: 0 },
      ],
      '2026-10-31',
    );
    expect(a).toEqual({ current: 100, d1_30: 300, d31_60: 0, d61_90: 0, d90_plus: 7 });
    expect(overdueOf(a)).toBe(307);
  });

  it('due date: the issue day plus the terms, across months', () => {
    expect(dueDateOf('2026-01-31', 30)).toBe('2026-03-02');
    expect(dueDateOf('2026-12-15', 0)).toBe('2026-12-15');
  });
});

describe('creditCheck', () => {
  it.each([
    ['within', 10_000_000, 2_000_000, 3_000_000, 3_200_000, true, 5_000_000],
    ['exactly at the limit', 10_000_000, 3_800_000, 3_000_000, 3_200_000, true, 3_200_000],
    ['one cent over', 10_000_000, 3_800_001, 3_000_000, 3_200_000, false, 3_199_999],
    ['a credit on the account adds room', 3_000_000, -500_000, 0, 3_200_000, true, 3_500_000],
    ['owing more than the limit already', 1_000_000, 2_000_000, 0, 1, false, 0],
    ['no limit: nothing on terms', 0, 0, 0, 1, false, 0],
  ])('%s', (_n, limitCents, balanceCents, scheduledCents, loadCents, fits, available) => {
    expect(creditCheck({ limitCents, balanceCents, scheduledCents, loadCents })).toEqual({
      fits,
      availableCents: available,
    });
  });
});

describe('account reference', () => {
  it.each([
    ['MCA7', 7],
    ['mca 0007', 7],
    ['MCA-42', 42],
    ['Mca.1_2', 12],
    ['MCH7', null],
    ['MCA', null],
    ['MCA0', null],
    ['MCA12345678901', null],
    ['', null],
    [null, null],
  ])('%s → %s', (typed, id) => {
    expect(parseCustomerAccountRef(typed)).toBe(id);
  });
  it('is MCA and the customer id', () => expect(customerAccountRef(31)).toBe('MCA31'));
});

describe('statementOf', () => {
  const e = (kind: LedgerEntry['kind'], at: string, cents: number, seq: number): LedgerEntry => ({
    kind,
    at,
    date: at.slice(0, 10),
    reference: `${kind}-${seq}`,
    cents,
    seq,
  });
  const ledger = [
    e('invoice', '2026-08-20T09:00:00Z', 3_200_000, 1),
    e('payment', '2026-08-30T09:00:00Z', 1_000_000, 2),
    e('invoice', '2026-09-02T09:00:00Z', 1_600_000, 3),
    e('credit', '2026-09-03T09:00:00Z', 160_000, 4),
    e('payment', '2026-09-10T09:00:00Z', 5_000_000, 5),
    e('reversal', '2026-09-12T09:00:00Z', 5_000_000, 6),
    e('payment', '2026-09-30T09:00:00Z', 2_000_000, 7),
    e('invoice', '2026-10-01T09:00:00Z', 999, 8),
  ];

  it('opening from before the period, lines with running balances, closing = opening + invoices − payments − credits (+ reversals)', () => {
    const s = statementOf(ledger, '2026-09-01', '2026-09-30');
    expect(s.openingCents).toBe(2_200_000);
    expect(s.lines.map((l) => [l.kind, l.balanceCents])).toEqual([
      ['invoice', 3_800_000],
      ['credit', 3_640_000],
      ['payment', -1_360_000],
      ['reversal', 3_640_000],
      ['payment', 1_640_000],
    ]);
    expect(s).toMatchObject({
      invoicesCents: 1_600_000,
      paymentsCents: 7_000_000,
      creditsCents: 160_000,
      reversalsCents: 5_000_000,
      closingCents: 1_640_000,
    });
    expect(s.closingCents).toBe(
      s.openingCents + s.invoicesCents - s.paymentsCents - s.creditsCents + s.reversalsCents,
    );
  });

  it('an empty period carries the opening through', () => {
    const s = statementOf(ledger, '2026-09-13', '2026-09-29');
    expect(s.lines).toEqual([]);
    expect(s.openingCents).toBe(3_640_000);
    expect(s.closingCents).toBe(3_640_000);
  });
});

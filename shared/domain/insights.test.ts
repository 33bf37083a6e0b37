import { describe, expect, it } from 'vitest';
import { dailySummary, type InsightFacts, ruleInsights } from './insights';

const quiet: InsightFacts = {
  costSpikes: [],
  paymentReviews: { count: 0, oldestHours: null },
  idleLoadedTrucks: [],
  stock: { tonnes: 400, deliveredPerDay: 0 },
  pendingDuplicates: 0,
  deliveredLast7: { loads: 0, revenue: 0 },
  costsLast7: 0,
};

describe('ruleInsights', () => {
  it.each([
    [0.1, '1 payment confirmation waits for review, the oldest waiting 6 min.'],
    [0.004, '1 payment confirmation waits for review, the oldest waiting < 1 min.'],
    [5, '1 payment confirmation waits for review, the oldest waiting 5 h.'],
  ])('says how long the oldest review has waited (%s h)', (hours, text) => {
    expect(ruleInsights({ ...quiet, paymentReviews: { count: 1, oldestHours: hours } }).alerts).toEqual([
      text,
    ]);
  });

  it('shows a loss and cents as every screen does', () => {
    const r = ruleInsights({ ...quiet, deliveredLast7: { loads: 1, revenue: 1000 }, costsLast7: 1250.5 });
    expect(r.insights).toContain(
      '1 load was delivered for KES 1,000; costs were KES 1,250.50, leaving \u2212KES 250.50 gross.',
    );
  });

  it('says a quiet week plainly, with no alerts', () => {
    const r = ruleInsights(quiet);
    expect(r.alerts).toEqual([]);
    expect(r.insights).toBe(
      'No loads were delivered in the last 7 days; costs were KES 0. Yard stock stands at 400 t.',
    );
  });

  it('turns each problem into a sentence and an alert', () => {
    const r = ruleInsights({
      costSpikes: [{ plate: 'KCX 123A', last7: 48000, usual7: 12000 }],
      paymentReviews: { count: 2, oldestHours: 26.4 },
      idleLoadedTrucks: [{ plate: 'KDA 101S', idleMinutes: 75 }],
      stock: { tonnes: 100, deliveredPerDay: 40 },
      pendingDuplicates: 1,
      deliveredLast7: { loads: 14, revenue: 462000 },
      costsLast7: 120000,
    });
    expect(r.insights).toContain(
      '14 loads were delivered for KES 462,000; costs were KES 120,000, leaving KES 342,000 gross.',
    );
    expect(r.alerts).toEqual([
      '2 payment confirmations wait for review, the oldest waiting 26 h.',
      'KCX 123A spent KES 48,000 in 7 days, 4.0× its usual KES 12,000.',
      'KDA 101S has a load and has not moved for 75 minutes.',
      'Restock soon: Yard stock of 100 t lasts about 2.5 days at the recent 40 t a day.',
      '1 duplicate entry awaits review in the audit console.',
    ]);
  });
});

describe('dailySummary', () => {
  const day = {
    date: '2026-11-22',
    loads: 6,
    tonnes: 120,
    revenue: 198000,
    costs: 45000,
    topDriver: { name: 'Mwangi Kamau', loads: 3 },
    busiestSite: 'Ruiru',
  };

  it('gives staff yesterday in figures, people and places, then what to act on', () => {
    const text = dailySummary(day, {
      ...quiet,
      stock: { tonnes: 340, deliveredPerDay: 0 },
      paymentReviews: { count: 2, oldestHours: 5 },
      idleLoadedTrucks: [{ plate: 'KDA 101S', idleMinutes: 75 }],
      pendingDuplicates: 1,
    });
    expect(text.split('\n')).toEqual([
      'Sunday, 22 November: 6 loads, KES 198,000 delivered.',
      'Crews delivered 120 t in 6 loads for KES 198,000; after KES 45,000 of costs the day closed KES 153,000 gross.',
      'Mwangi Kamau led the drivers with 3 loads.',
      'The busiest destination was Ruiru.',
      'The yard holds 340 t of sand this morning.',
      'To act on today:',
      '- 2 payment confirmations wait for review, the oldest waiting 5 h.',
      '- KDA 101S has a load and has not moved for 75 minutes.',
      '- 1 duplicate entry awaits review in the audit console.',
    ]);
  });

  it('says a quiet day plainly', () => {
    const text = dailySummary(
      { ...day, loads: 0, tonnes: 0, revenue: 0, costs: 1200, topDriver: null, busiestSite: null },
      quiet,
    );
    expect(text).toBe(
      'Sunday, 22 November: no loads delivered.\nCosts came to KES 1,200.\nThe yard holds 400 t of sand this morning.\nNothing waits for review.',
    );
  });
});

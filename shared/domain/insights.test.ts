import { describe, expect, it } from 'vitest';
import { type InsightFacts, ruleInsights } from './insights';

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

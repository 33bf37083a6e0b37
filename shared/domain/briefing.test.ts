import { describe, expect, it } from 'vitest';
import { writeBriefing } from './briefing';

describe('writeBriefing', () => {
  it('writes a busy day from its figures', () => {
    const b = writeBriefing({
      date: '2026-11-22',
      loads: 6,
      tonnes: 120,
      revenue: 198000,
      costs: 45000,
      topDriver: { name: 'Mwangi Kamau', loads: 3 },
      busiestSite: 'Ruiru',
      stockTonnes: 340,
      pendingPayments: 2,
      alerts: ['KDA 101S has a load and has not moved for 75 minutes.'],
    });
    expect(b.title).toBe('Sunday, 22 November: 6 loads, KES 198,000 delivered');
    expect(b.summary).toBe(
      'Crews delivered 120 t in 6 loads for KES 198,000; after KES 45,000 of costs the day closed KES 153,000 gross.',
    );
    expect(b.body).toContain('Mwangi Kamau led the drivers with 3 loads.');
    expect(b.body).toContain('2 payment confirmations wait for review');
    expect(b.body).not.toMatch(/<[a-z]/i);
  });

  it('writes a quiet day honestly', () => {
    const b = writeBriefing({
      date: '2026-11-22',
      loads: 0,
      tonnes: 0,
      revenue: 0,
      costs: 1200,
      topDriver: null,
      busiestSite: null,
      stockTonnes: 80,
      pendingPayments: 0,
      alerts: [],
    });
    expect(b.title).toBe('Sunday, 22 November: a quiet day on the Thika road');
    expect(b.summary).toContain('No loads were delivered; costs came to KES 1,200.');
  });
});

import { describe, expect, it } from 'vitest';
import { PUBLIC_TOPICS, type PublicFacts, publicArticle, publicRewordingGuard } from './briefing';
import { DEFAULT_PRICING } from './pricing';
import { addDays } from './time';

const facts: PublicFacts = {
  pricing: DEFAULT_PRICING,
  yardName: 'Juja Yard',
  hours: '06:30-19:00 daily, with overnight pours on request',
  phone: '+254 700 000 000',
};

const week = (from: string) =>
  Array.from({ length: PUBLIC_TOPICS.length }, (_, i) => publicArticle(addDays(from, i), facts));

describe('publicArticle', () => {
  it('takes one topic a day from the rotation, every topic once a week', () => {
    const topics = week('2026-11-22').map((a) => a.topic);
    expect(new Set(topics)).toEqual(
      new Set([
        'Site preparation',
        'Sand types',
        'Planning a pour',
        'Season and access',
        'Price guide',
        'Ordering and payment',
        'Dispatch hours',
      ]),
    );
    expect(publicArticle('2026-11-29', facts)).toEqual(publicArticle('2026-11-22', facts));
  });

  it('writes plain text whose summary is its first paragraph, with no plate and no KES figure outside the price guide', () => {
    for (const a of week('2026-04-01')) {
      expect(a.body.startsWith(a.summary)).toBe(true);
      expect(a.body).not.toMatch(/<[a-z]/i);
      expect(a.body).not.toMatch(/\bK(?!ES)[A-Z]{2} ?\d{3}/);
      for (const m of a.body.matchAll(/KES ([\d,]+)/g)) {
        const kes = Number(m[1]!.replace(/,/g, ''));
        const steps = (kes - 32_000) / 1_000;
        const guide = Number.isInteger(steps) && steps >= 0 && steps <= 20;
        expect(guide || [1_000, 108_000].includes(kes), `${a.topic}: KES ${m[1]}`).toBe(true);
      }
    }
  });

  it('prices its worked examples through the pricing function', () => {
    const guide = week('2026-11-22').find((a) => a.topic === 'Price guide')!;
    expect(guide.body).toContain(
      'KES 32,000 per truck up to 15 km, plus KES 1,000 for every started 5 km beyond that.',
    );
    expect(guide.body).toContain('A site 12 km away: KES 32,000 per truck, the base price.');
    expect(guide.body).toContain('A site 18 km away: KES 33,000 per truck');
    expect(guide.body).toContain('A site 32 km away: KES 36,000 per truck');
    expect(guide.body).toContain('Three trucks to that site come to KES 108,000.');
    const dear = publicArticle('2026-11-22', {
      ...facts,
      pricing: { ...DEFAULT_PRICING, basePrice: 40_000 },
    });
    expect(dear.topic === 'Price guide' ? dear.body : '').not.toContain('KES 32,000');
  });

  it('follows the season: long rains, short rains, dry months', () => {
    const seasonOf = (from: string) => week(from).find((a) => a.topic === 'Season and access')!;
    expect(seasonOf('2026-04-01').body).toContain('long rains (March to May)');
    expect(seasonOf('2026-11-01').body).toContain('short rains (October to December)');
    expect(seasonOf('2026-07-01').title).toBe('Dry-season building: order before the rains');
    expect(seasonOf('2026-01-10').body).toContain('before the long rains in March');
  });

  it('says the dispatch hours and the overnight pours', () => {
    const hours = week('2026-11-22').find((a) => a.topic === 'Dispatch hours')!;
    expect(hours.body).toContain('Dispatch works 06:30-19:00 daily, with overnight pours on request.');
  });
});

describe('publicRewordingGuard', () => {
  const rule = week('2026-11-22').find((a) => a.topic === 'Price guide')!.body;
  const accept = publicRewordingGuard(rule, facts);
  it.each([
    ['a faithful rewording', `Prices are per truck. ${rule}`, true],
    ['the rule text itself', rule, true],
    ['an internal figure', `${rule} Yesterday costs came to KES 19,800.`, false],
    ['a queue count', `${rule} There are 2 payment confirmations waiting.`, false],
    ['a plate', `${rule} Ask for KCC 789C.`, false],
    ['a person', `${rule} Mwangi Kamau drove the most loads.`, false],
    ['a name opening a sentence', `Wanjiru says: ${rule}`, false],
    ['a link', `${rule} See https://evil.example.`, false],
    ['markup', `<b>${rule}</b>`, false],
    ['an email', `${rule} Write to boss@mchanga.co.ke.`, false],
  ])('%s', (_what, text, ok) => expect(accept(text)).toBe(ok));
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/articles', () => {
  it('answers an empty list, then the newest first within the limit, with unsafe image URLs dropped', async () => {
    expect((await t.app.inject({ url: '/api/articles?limit=3' })).json()).toEqual([]);
    for (let i = 1; i <= 5; i++) {
      await t.database.db.insert(articles).values({
        title: `Briefing ${i}`,
        body: `Body ${i}`,
        imageUrl: i === 5 ? 'javascript:alert(1)' : '/briefings/yard.jpg',
        forDate: `2026-11-1${i}`,
        createdAt: new Date(`2026-11-1${i}T03:00:00Z`),
      });
    }
    const res = await t.app.inject({ url: '/api/articles?limit=3' });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((a: { title: string }) => a.title)).toEqual([
      'Briefing 5',
      'Briefing 4',
      'Briefing 3',
    ]);
    expect(res.json()[0]).toMatchObject({ imageUrl: null, topic: null, summary: null, body: 'Body 5' });
    expect(res.json()[1].imageUrl).toBe('/briefings/yard.jpg');
    expect((await t.app.inject({ url: '/api/articles' })).json()).toHaveLength(5);
    expect((await t.app.inject({ url: '/api/articles?limit=25' })).statusCode).toBe(400);
  });
});

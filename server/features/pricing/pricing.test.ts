import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistanceResolver } from '../../../core/pricing/distance.service';
import { pricingSettings } from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const quote = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/pricing/quote', payload: payload as object });

describe('GET /api/pricing', () => {
  it('answers the live pricing with payment options and dispatch contacts', async () => {
    const res = await t.app.inject({ url: '/api/pricing' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      basePrice: 32000,
      baseDistanceKm: 15,
      incrementKm: 5,
      incrementAmount: 1000,
    });
    expect(
      body.paymentOptions.map((o: { bank: string; paybill: string }) => `${o.bank} ${o.paybill}`),
    ).toEqual(['ABSA 303030', 'Equity 247247', 'KCB 522522', 'NCBA 880100', 'Cooperative 400200']);
    expect(body.dispatch.phone).toEqual(expect.any(String));
  });

  it('follows the pricing settings in the database', async () => {
    const other = await createTestApp();
    try {
      await other.database.db.update(pricingSettings).set({ basePriceCents: 3_500_000 });
      expect((await other.app.inject({ url: '/api/pricing' })).json().basePrice).toBe(35000);
      const q = await other.app.inject({
        method: 'POST',
        url: '/api/pricing/quote',
        payload: { site: 'x', trucks: 1, distanceKm: 10 },
      });
      expect(q.json().perTruck).toBe(35000);
    } finally {
      await other.close();
    }
  });
});

describe('POST /api/pricing/quote', () => {
  it.each([
    [
      { site: 'Ruiru', trucks: 2, sandType: 'coarse', distanceKm: 12 },
      { perTruck: 32000, total: 64000, distanceSource: 'manual' },
    ],
    [
      { site: 'Ruiru', trucks: 1, sandType: 'smooth', distanceKm: 16 },
      { perTruck: 33000, total: 33000, distanceSource: 'manual' },
    ],
    [
      { site: 'Ruiru', trucks: 20, sandType: 'coarse', distanceKm: 21 },
      { perTruck: 34000, total: 680000, truckCount: 20 },
    ],
    [
      { site: 'Membley estate, Ruiru', trucks: 1, sandType: 'coarse' },
      { perTruck: 32000, distanceSource: 'heuristic' },
    ],
    [{ site: 'Nyali, Mombasa', trucks: 1, sandType: 'coarse' }, { distanceSource: 'heuristic' }],
    [
      { site: 'Plot 7 somewhere unknown', trucks: 1, sandType: 'coarse' },
      { distanceKm: 20, distanceSource: 'default' },
    ],
    [{ site: 'Ruiru', trucks: 1, sandType: 'coarse', distanceKm: '' }, { distanceSource: 'heuristic' }],
  ])('%j → %j', async (payload, expected) => {
    const res = await quote(payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(expected);
  });

  it('is a tRPC query keyed on its input (GET /trpc), answering the same quote as REST', async () => {
    const input = { site: 'Ruiru', trucks: 2, sandType: 'coarse', distanceKm: 12 };
    const res = await t.call('GET', `/trpc/pricing.quote?input=${encodeURIComponent(JSON.stringify(input))}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toEqual((await quote(input)).json());
    expect((await t.call('POST', '/trpc/pricing.quote', null, input)).statusCode).toBe(405);
  });

  it('prices Mombasa far above Ruiru', async () => {
    const near = (await quote({ site: 'Ruiru', trucks: 1 })).json();
    const far = (await quote({ site: 'Mombasa', trucks: 1 })).json();
    expect(near.distanceKm).toBeLessThan(15);
    expect(far.distanceKm).toBeGreaterThan(500);
    expect(far.perTruck).toBeGreaterThan(near.perTruck + 90_000);
  });

  it.each([
    [{ trucks: 1 }, 'Site is required.'],
    [{ site: '   ', trucks: 1 }, 'Site is required.'],
    [{ site: 'Juja', trucks: 0 }, 'Trucks must be between 1 and 20.'],
    [{ site: 'Juja', trucks: 21 }, 'Trucks must be between 1 and 20.'],
    [{ site: 'Juja', trucks: 1.5 }, 'Trucks must be between 1 and 20.'],
    [{ site: 'Juja', trucks: 1, sandType: 'gravel' }, 'Choose coarse or smooth sand.'],
    [
      { site: 'Juja', trucks: 1, distanceKm: -3 },
      'Distance must be a number of kilometres greater than zero.',
    ],
    [
      { site: 'Juja', trucks: 1, distanceKm: 'far' },
      'Distance must be a number of kilometres greater than zero.',
    ],
  ])('refuses %j with 400 %s', async (payload, message) => {
    const res = await quote(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });
});

describe('DistanceResolver with a geocoder and a router (local fakes speaking their formats)', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/nominatim/search') {
        const q = url.searchParams.get('q') ?? '';
        if (q.startsWith('Down')) {
          res.statusCode = 503;
          return res.end('{}');
        }
        return res.end(
          JSON.stringify(
            q.startsWith('Nowhere') ? [] : [{ lat: '-1.1466', lon: '36.9609', display_name: 'Ruiru' }],
          ),
        );
      }
      if (url.pathname.startsWith('/osrm/route/v1/driving/')) {
        return res.end(JSON.stringify({ code: 'Ok', routes: [{ distance: 13_456.7, duration: 900 }] }));
      }
      res.statusCode = 404;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const yard = { name: 'Juja Yard', lat: -1.099, lng: 37.014 };

  it('uses OSRM road distance for a geocoded site', async () => {
    const r = new DistanceResolver({ yard, geocoderUrl: `${base}/nominatim`, osrmUrl: `${base}/osrm` });
    expect(await r.resolve('Kwa Mzee Estate')).toEqual({ distanceKm: 13.5, source: 'geocoded' });
    expect(seen.some((u) => u.includes('/osrm/route/v1/driving/37.014,-1.099;36.9609,-1.1466'))).toBe(true);
    expect(seen.some((u) => u.includes('format=json') && u.includes('Kwa+Mzee+Estate'))).toBe(true);
  });

  it('uses the straight line × road factor without a router, and caches answers', async () => {
    const r = new DistanceResolver({ yard, geocoderUrl: `${base}/nominatim`, osrmUrl: undefined });
    const before = seen.length;
    const first = await r.resolve('Some Place');
    const again = await r.resolve('  some   place ');
    expect(first.source).toBe('geocoded');
    expect(first.distanceKm).toBeGreaterThan(8);
    expect(again).toEqual(first);
    expect(seen.length - before).toBe(1);
  });

  it('falls back to the gazetteer when the geocoder finds nothing or fails, and manual always wins', async () => {
    const r = new DistanceResolver({ yard, geocoderUrl: `${base}/nominatim`, osrmUrl: `${base}/osrm` });
    expect((await r.resolve('Nowhere near Thika')).source).toBe('heuristic');
    expect((await r.resolve('Down the road')).source).toBe('default');
    expect(await r.resolve('Thika', 42)).toEqual({ distanceKm: 42, source: 'manual' });
    const unreachable = new DistanceResolver({ yard, geocoderUrl: 'http://127.0.0.1:1', osrmUrl: undefined });
    expect((await unreachable.resolve('Ruiru')).source).toBe('heuristic');
  });
});

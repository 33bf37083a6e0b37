import { describe, expect, it } from 'vitest';
import { SITE_SOURCES } from '../enums';
import type { LatLng } from './distance';
import {
  bandM,
  CONFIRM_MS,
  type Crossing,
  distanceM,
  EMPTY_FENCE_STATE,
  etaMinutesFromPace,
  etaMinutesFromSeconds,
  type Fence,
  type FenceState,
  type GeoFix,
  isExactSite,
  runFence,
  SITE_STOP_MS,
  type Side,
  type StopState,
  siteRadiusFor,
  stepFence,
  stepStop,
  stopMs,
  tickFence,
} from './geofence';

const SITE: Fence = { lat: -1.1466, lng: 36.9609, radiusM: 150 };

/** The point `east` and `north` metres from `c`. */
function offset(c: LatLng, east: number, north: number): LatLng {
  return {
    lat: c.lat + north / 111_320,
    lng: c.lng + east / (111_320 * Math.cos((c.lat * Math.PI) / 180)),
  };
}

/** A point `m` metres from the fence's centre on bearing `deg` (0 = north). */
const ring = (f: Fence, m: number, deg = 90) =>
  offset(f, m * Math.sin((deg * Math.PI) / 180), m * Math.cos((deg * Math.PI) / 180));

const T0 = Date.parse('2026-11-23T06:00:00Z');
const fixAt = (p: LatLng, s: number, over: Partial<GeoFix> = {}): GeoFix => ({
  ...p,
  at: T0 + s * 1000,
  accuracyM: 8,
  ...over,
});
const known = (side: Side): FenceState => ({ side, pending: null, lastAt: null });

describe('stepFence: one fix at a time', () => {
  const inside = ring(SITE, 50);
  const outside = ring(SITE, 400);
  const band = ring(SITE, 150); // on the radius: neither side

  it.each<[string, FenceState, GeoFix[], Side | null, number]>([
    [
      'two consecutive fixes inside confirm an entry',
      known('outside'),
      [fixAt(inside, 0), fixAt(inside, 5)],
      'inside',
      1,
    ],
    ['one fix inside is not enough', known('outside'), [fixAt(inside, 0)], 'outside', 0],
    [
      'a fix back outside breaks the run',
      known('outside'),
      [fixAt(inside, 0), fixAt(outside, 5), fixAt(inside, 10)],
      'outside',
      0,
    ],
    [
      'a fix in the band ends the run',
      known('outside'),
      [fixAt(inside, 0), fixAt(band, 5), fixAt(inside, 10)],
      'outside',
      0,
    ],
    [
      'band fixes alone confirm nothing, however long',
      known('outside'),
      [fixAt(inside, 0), fixAt(band, 30), fixAt(band, 90)],
      'outside',
      0,
    ],
    [
      'a fix less accurate than the radius is ignored',
      known('outside'),
      [fixAt(inside, 0), fixAt(inside, 5, { accuracyM: 151 }), fixAt(outside, 10)],
      'outside',
      0,
    ],
    [
      '…and does not end the run either',
      known('outside'),
      [fixAt(inside, 0), fixAt(outside, 5, { accuracyM: 400 }), fixAt(inside, 10)],
      'inside',
      1,
    ],
    [
      'accuracy equal to the radius counts',
      known('outside'),
      [fixAt(inside, 0), fixAt(inside, 5, { accuracyM: 150 })],
      'inside',
      1,
    ],
    [
      'unknown accuracy counts',
      known('outside'),
      [fixAt(inside, 0, { accuracyM: null }), fixAt(inside, 5, { accuracyM: null })],
      'inside',
      1,
    ],
    [
      'the first side found is no crossing',
      EMPTY_FENCE_STATE,
      [fixAt(inside, 0), fixAt(inside, 5)],
      'inside',
      0,
    ],
    ['exits the same way', known('inside'), [fixAt(outside, 0), fixAt(outside, 5)], 'outside', 1],
    [
      'inside the band edge (radius − band) is inside',
      known('outside'),
      [fixAt(ring(SITE, 109), 0), fixAt(ring(SITE, 109), 5)],
      'inside',
      1,
    ],
    [
      'just short of radius − band is neutral',
      known('outside'),
      [fixAt(ring(SITE, 112), 0), fixAt(ring(SITE, 112), 5)],
      'outside',
      0,
    ],
    [
      'an old fix is skipped',
      { side: 'outside', pending: null, lastAt: T0 + 10_000 },
      [fixAt(inside, 0), fixAt(inside, 5)],
      'outside',
      0,
    ],
  ])('%s', (_name, start, fixes, side, crossings) => {
    const r = runFence(SITE, start, fixes);
    expect(r.state.side).toBe(side);
    expect(r.crossings).toHaveLength(crossings);
  });

  it('dates a crossing at the first fix on the new side, confirmed by the second', () => {
    const r = runFence(SITE, known('inside'), [fixAt(band, 0), fixAt(outside, 7), fixAt(outside, 12)]);
    expect(r.crossings).toEqual([
      { side: 'outside', at: T0 + 7000, confirmedAt: T0 + 12_000, lat: outside.lat, lng: outside.lng },
    ]);
  });

  it.each<[string, number, boolean]>([
    ['60 s after one fix on the new side', 60, true],
    ['59 s is not 60 s', 59, false],
    ['10 minutes is the most', 600, true],
    ['an older beginning is not trusted', 601, false],
  ])('a heartbeat confirms a crossing %s', (_name, s, confirmed) => {
    const begun = stepFence(SITE, known('outside'), fixAt(inside, 0)).state;
    const r = tickFence(begun, T0 + s * 1000);
    expect(r.state.side).toBe(confirmed ? 'inside' : 'outside');
    expect(r.crossing).toEqual(
      confirmed
        ? { side: 'inside', at: T0, confirmedAt: T0 + s * 1000, lat: inside.lat, lng: inside.lng }
        : null,
    );
  });

  it('a heartbeat with nothing begun changes nothing', () =>
    expect(tickFence(known('inside'), T0)).toEqual({ state: known('inside'), crossing: null }));

  it('the same fix twice (a re-run job) changes nothing', () => {
    const once = stepFence(SITE, known('outside'), fixAt(inside, 0)).state;
    expect(stepFence(SITE, once, fixAt(inside, 0))).toEqual({ state: once, crossing: null });
  });

  it('the band is 40 m, or a fifth of a wide fence', () => {
    expect(bandM(150)).toBe(40);
    expect(bandM(250)).toBe(50);
    expect(bandM(1500)).toBe(300);
  });
});

// ── The noisy track: a seeded simulation, so the figures are the same on every run ─────────────────────

/** mulberry32: small, fast and seeded. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface TrackFix extends GeoFix {
  /** Where the truck really was. */
  truth: LatLng;
}

interface Noise {
  /** Each fix is off by up to this much east and north (uniform). */
  jitterM: number;
  /** One fix in this many jumps far (multipath), while reporting a good accuracy. */
  spikeEvery?: number;
  spikeM?: number;
  /** One fix in this many is a network fix: far off, and honest about it (accuracy worse than the radius). */
  coarseEvery?: number;
}

function noisy(random: () => number, truth: LatLng, s: number, fence: Fence, n: Noise): TrackFix {
  const j = () => (random() * 2 - 1) * n.jitterM;
  let p = offset(truth, j(), j());
  let accuracyM = 5 + random() * 20;
  if (n.spikeEvery && random() < 1 / n.spikeEvery) {
    const deg = random() * 360;
    const m = (n.spikeM ?? 200) * (0.5 + random());
    p = offset(truth, m * Math.sin(deg), m * Math.cos(deg));
  } else if (n.coarseEvery && random() < 1 / n.coarseEvery) {
    const deg = random() * 360;
    p = offset(truth, 800 * Math.sin(deg), 800 * Math.cos(deg));
    accuracyM = fence.radiusM * (1.5 + random() * 10);
  }
  return { ...p, at: T0 + s * 1000, accuracyM, speedKmh: null, truth };
}

interface Track {
  fixes: TrackFix[];
  /** Real crossings of the radius by the truck's true path. */
  real: Array<{ side: Side; at: number }>;
  /** How many fixes were the parked truck jittering on the boundary. */
  boundaryFixes: number;
  /** When the parked spell ended, and when the passes began (in between the truck drove off the edge). */
  boundaryEnd: number;
  passesStart: number;
}

/**
 * A truck parked on the fence's edge for `boundaryFixes` fixes (every 5 s), then `passes` real trips in
 * and out through the fence (30 km/h, a 10-minute stay at the centre, 6 minutes away between them), every
 * fix with the same noise.
 */
function track(fence: Fence, seed: number, noise: Noise, boundaryFixes = 1000, passes = 10): Track {
  const random = rng(seed);
  const fixes: TrackFix[] = [];
  const real: Track['real'] = [];
  let s = 0;
  const edge = ring(fence, fence.radiusM, 70);
  for (let i = 0; i < boundaryFixes; i++, s += 5) fixes.push(noisy(random, edge, s, fence, noise));
  const boundaryEnd = T0 + s * 1000;
  // Drive off the edge, away from the fence, before the passes begin.
  const far = 4 * fence.radiusM;
  for (let m = fence.radiusM; m <= far; m += 42, s += 5)
    fixes.push(noisy(random, ring(fence, m, 70), s, fence, noise));
  const passesStart = T0 + s * 1000;
  const speed = 30 / 3.6;
  for (let k = 0; k < passes; k++) {
    const deg = random() * 360;
    const inward: LatLng[] = [];
    for (let m = far; m >= 0; m -= speed * 5) inward.push(ring(fence, m, deg));
    const outward: LatLng[] = [];
    for (let m = 0; m <= far; m += speed * 5) outward.push(ring(fence, m, deg + 180));
    let wasInside = false;
    const drive = (points: LatLng[]) => {
      for (const p of points) {
        const inside = distanceM(fence, p) <= fence.radiusM;
        if (inside !== wasInside) real.push({ side: inside ? 'inside' : 'outside', at: T0 + s * 1000 });
        wasInside = inside;
        fixes.push(noisy(random, p, s, fence, noise));
        s += 5;
      }
    };
    drive(inward);
    drive(Array.from({ length: 120 }, () => fence)); // ten minutes on site
    drive(outward);
    drive(Array.from({ length: 72 }, () => ring(fence, far, deg + 180))); // six minutes away
  }
  return { fixes, real, boundaryFixes, boundaryEnd, passesStart };
}

/**
 * False crossings: any while the truck stood on the edge (whichever side it was taken to be on, crossing
 * is wrong), more than one exit while it drove off the edge, and during the passes any that matches no
 * real crossing (same side, within 90 s). Missed: real crossings never seen.
 */
function score(crossings: Crossing[], t: Track) {
  const unmatched = [...t.real];
  let onEdge = 0;
  let falseCrossings = 0;
  let departures = 0;
  for (const c of crossings) {
    if (c.at < t.boundaryEnd) {
      onEdge += 1;
      falseCrossings += 1;
    } else if (c.at < t.passesStart) {
      departures += 1;
      if (c.side !== 'outside' || departures > 1) falseCrossings += 1;
    } else {
      const i = unmatched.findIndex((r) => r.side === c.side && Math.abs(r.at - c.at) <= 90_000);
      if (i >= 0) unmatched.splice(i, 1);
      else falseCrossings += 1;
    }
  }
  return { falseCrossings, onEdge, missed: unmatched.length };
}

/** What a fence without hysteresis or confirmation does: every fix that lands on the other side flips it. */
function naiveCrossings(fence: Fence, fixes: GeoFix[], start: Side): Crossing[] {
  let side = start;
  const out: Crossing[] = [];
  for (const f of fixes) {
    const now: Side = distanceM(fence, f) <= fence.radiusM ? 'inside' : 'outside';
    if (now !== side) out.push({ side: now, at: f.at, confirmedAt: f.at, lat: f.lat, lng: f.lng });
    side = now;
  }
  return out;
}

const FENCES: Array<[string, Fence]> = [
  ['site pin (150 m)', SITE],
  ['yard (250 m)', { lat: -1.099, lng: 37.014, radiusM: 250 }],
  ['gazetteer site (1,500 m)', { lat: -1.1611, lng: 36.9572, radiusM: 1500 }],
];
const NOISES: Array<[string, Noise]> = [
  ['±30 m jitter', { jitterM: 30 }],
  [
    '±30 m jitter, 1 in 25 multipath spikes, 1 in 20 coarse network fixes',
    { jitterM: 30, spikeEvery: 25, spikeM: 200, coarseEvery: 20 },
  ],
];

describe('a noisy track: 1,000 fixes jittering around the boundary, plus 10 real passes', () => {
  const figures: string[] = [];

  for (const [fenceName, fence] of FENCES)
    for (const [noiseName, noise] of NOISES)
      for (const start of ['inside', 'outside'] as const)
        it(`${fenceName}, ${noiseName}, parked ${start}: under 2% false crossings, every real pass seen`, () => {
          const t = track(fence, 1000 + fence.radiusM + (noise.spikeEvery ?? 0), noise);
          const r = runFence(fence, known(start), t.fixes);
          const { falseCrossings, onEdge, missed } = score(r.crossings, t);
          const rate = falseCrossings / t.fixes.length;
          const edgeRate = onEdge / t.boundaryFixes;
          const naive = score(naiveCrossings(fence, t.fixes, start), t);
          figures.push(
            `${fenceName}, ${noiseName}, parked ${start}: on the edge ${onEdge} false of ${t.boundaryFixes} fixes (${(edgeRate * 100).toFixed(2)}%); whole track ${falseCrossings} false of ${t.fixes.length} fixes (${(rate * 100).toFixed(2)}%), ${t.real.length - missed}/${t.real.length} real crossings seen; naive fence ${naive.onEdge} false on the edge (${((naive.onEdge / t.boundaryFixes) * 100).toFixed(1)}%)`,
          );
          expect(t.boundaryFixes).toBe(1000);
          expect(t.real).toHaveLength(20);
          expect(edgeRate).toBeLessThan(0.02);
          expect(rate).toBeLessThan(0.02);
          expect(missed).toBe(0);
          // The naive fence is the problem being solved: it flips hundreds of times on the same track.
          expect(naive.onEdge).toBeGreaterThan(100);
        });

  it('prints the figures', () => {
    console.log(`geofence false crossings:\n  ${figures.join('\n  ')}`);
    expect(figures).toHaveLength(FENCES.length * NOISES.length * 2);
  });

  it('a crossing is dated within a few fixes of the real one', () => {
    const t = track(SITE, 7, { jitterM: 30 }, 0, 5);
    const r = runFence(SITE, known('outside'), t.fixes);
    expect(r.crossings).toHaveLength(10);
    for (const [i, c] of r.crossings.entries()) {
      expect(c.side).toBe(t.real[i]!.side);
      expect(Math.abs(c.at - t.real[i]!.at)).toBeLessThanOrEqual(30_000);
      expect(c.confirmedAt - c.at).toBeLessThanOrEqual(CONFIRM_MS);
    }
  });
});

describe('stepStop: the driver stopping at a site', () => {
  const here = ring(SITE, 500);
  const run = (fixes: GeoFix[]) => fixes.reduce<StopState | null>((s, f) => stepStop(s, f), null);

  it.each<[string, GeoFix[], number]>([
    ['parked three minutes', [0, 60, 120, 180].map((s) => fixAt(here, s, { speedKmh: 0 })), 180_000],
    ['moving', [0, 60, 120].map((s) => fixAt(ring(SITE, 500 + s * 8), s, { speedKmh: 30 })), 0],
    [
      'creeping within 50 m without a speed',
      [0, 60, 120].map((s) => fixAt(ring(SITE, 500 + s / 6), s, { speedKmh: null })),
      120_000,
    ],
    [
      'moved 80 m: a new stop',
      [
        fixAt(here, 0, { speedKmh: 0 }),
        fixAt(ring(SITE, 580), 60, { speedKmh: 2 }),
        fixAt(ring(SITE, 580), 120, { speedKmh: 0 }),
      ],
      60_000,
    ],
    [
      'a fast fix ends it',
      [fixAt(here, 0, { speedKmh: 0 }), fixAt(here, 60, { speedKmh: 20 }), fixAt(here, 120, { speedKmh: 0 })],
      0,
    ],
  ])('%s', (_name, fixes, ms) => expect(stopMs(run(fixes))).toBe(ms));

  it('three minutes make a site stop', () => expect(SITE_STOP_MS).toBe(180_000));
});

describe('site radius by where the point came from', () => {
  it.each([
    ['pin', 150, 150],
    ['link', 150, 150],
    ['driver', 150, 150],
    ['geocoder', 150, 500],
    ['gazetteer', 150, 1500],
    ['gazetteer', 2000, 2000],
  ] as const)('%s with a %i m setting → %i m', (source, base, radius) =>
    expect(siteRadiusFor(source, base)).toBe(radius),
  );

  it('exact points are those someone put there', () => {
    expect(([...SITE_SOURCES, null] as const).map((s) => isExactSite(s))).toEqual([
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('ETA', () => {
  const from = { lat: -1.099, lng: 37.014 };
  const to = ring({ ...from, radiusM: 0 }, 10_000, 200);
  it.each<[string, number | null, number | undefined]>([
    ['10 km × 1.3 at 39 km/h', 39, 20],
    ['at 60 km/h', 60, 13],
    ['unknown pace', null, undefined],
    ['parked (under 5 km/h)', 4, undefined],
    ['not a number', Number.NaN, undefined],
  ])('%s', (_n, kmh, minutes) => expect(etaMinutesFromPace(from, to, kmh)).toBe(minutes));

  it('is 0 at the site, never negative', () => expect(etaMinutesFromPace(from, from, 30)).toBe(0));

  it.each<[unknown, number | undefined]>([
    [754, 13],
    [0, 0],
    [-30, 0],
    ['754', undefined],
    [null, undefined],
    [Number.POSITIVE_INFINITY, undefined],
  ])('OSRM seconds %j → %j minutes', (s, m) => expect(etaMinutesFromSeconds(s)).toBe(m));
});

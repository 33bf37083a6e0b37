import { describe, expect, it } from 'vitest';
import {
  type Fix,
  idleMinutes,
  idleSince,
  idleText,
  invalidFix,
  isIdle,
  isMoving,
  MAX_ATTRIBUTES,
  parseOsmand,
  parseTimestamp,
  parseTraccarJson,
  type Reading,
  readTrackerRequest,
  safeText,
} from './telemetry';

const now = new Date('2026-11-23T06:00:00Z');
const fixOf = (r: Reading | undefined): Fix => {
  if (r?.kind !== 'fix') throw new Error(`not a fix: ${JSON.stringify(r)}`);
  return r.fix;
};

describe('parseOsmand', () => {
  it.each([
    [
      { id: 'phone-1', lat: '-1.1', lon: '37.01', timestamp: '1795413600', speed: '10' },
      { lat: -1.1, lng: 37.01, speedKmh: 18.52, fixTime: '2026-11-23T06:00:00.000Z' },
    ],
    [
      { deviceid: 'phone-1', location: '-1.1,37.01', timestamp: '1795413600000' },
      { lat: -1.1, lng: 37.01, speedKmh: null, fixTime: '2026-11-23T06:00:00.000Z' },
    ],
    [
      {
        id: 'phone-1',
        lat: '-1.1',
        lon: '37.01',
        timestamp: '2026-11-23T05:59:00Z',
        bearing: '90',
        altitude: '1500',
        accuracy: '12',
        batt: '77',
      },
      { heading: 90, altitude: 1500, accuracy: 12, battery: 77, fixTime: '2026-11-23T05:59:00.000Z' },
    ],
    [
      { id: 'phone-1', lat: '-1.1', lon: '37.01', heading: '45' },
      { heading: 45, fixTime: now.toISOString() },
    ],
  ])('%j', (params, expected) => {
    const { fixTime, speedKmh, ...rest } = fixOf(parseOsmand(params, now));
    expect({
      ...rest,
      fixTime: fixTime.toISOString(),
      speedKmh: speedKmh === null ? null : Math.round(speedKmh * 100) / 100,
    }).toMatchObject(expected);
  });

  it('keeps unknown keys as attributes', () => {
    const r = parseOsmand(
      { id: 'x', lat: '1', lon: '2', ignition: 'true', hdop: '0.9', driverUniqueId: 'abc' },
      now,
    );
    expect(fixOf(r).attributes).toEqual({ ignition: true, hdop: 0.9, driverUniqueId: 'abc' });
  });

  it('refuses only a request that names no device', () => {
    expect(parseOsmand({ lat: '1', lon: '2' }, now)).toEqual({
      kind: 'refused',
      error: expect.stringMatching(/device id/),
    });
  });

  // A tracker resends a refused request forever and holds back every later one: these are answered and counted.
  it.each([
    [{ id: 'x', lat: '1' }, /position/],
    [{ id: 'x', lat: 'north', lon: '2' }, /position/],
    [{ id: 'x', lat: '1', lon: '2', timestamp: 'yesterday-ish' }, /timestamp/],
    [{ id: 'x', lat: '91', lon: '2' }, /Latitude/],
    [{ id: 'x', lat: '1', lon: '2', speed: '870' }, /Speed/],
    [{ id: 'x', lat: '1', lon: '2', timestamp: '9007199254740993' }, /Fix time/],
    [{ id: 'x', lat: '1', lon: '2', timestamp: String(now.getTime() / 1000 + 48 * 3600) }, /Fix time/],
  ])('discards %j', (params, reason) => {
    expect(parseOsmand(params, now)).toEqual({
      kind: 'discarded',
      deviceId: 'x',
      reason: expect.stringMatching(reason),
      sample: expect.any(String),
    });
  });

  it('reads a report without lat/lon as a heartbeat: battery and the extra fields', () => {
    expect(
      parseOsmand(
        { id: 'x', timestamp: '1795413600', batt: '64', charge: 'true', battery_health: 'good' },
        now,
      ),
    ).toEqual({
      kind: 'heartbeat',
      heartbeat: { deviceId: 'x', battery: 64, attributes: { charge: true, battery_health: 'good' } },
    });
  });

  it('leaves unknown values (-1) unset and keeps speed, course and battery within bounds', () => {
    const fix = fixOf(
      parseOsmand(
        { id: 'x', lat: '1', lon: '2', speed: '-1', bearing: '-1', accuracy: '-1', batt: '-100' },
        now,
      ),
    );
    expect(fix).toMatchObject({ speedKmh: null, heading: null, accuracy: null, battery: null });
  });
});

describe('parseTraccarJson', () => {
  it('reads the Traccar Client JSON form with m/s speed and battery fraction', () => {
    const [r] = parseTraccarJson(
      {
        device_id: 'phone-2',
        location: {
          timestamp: '2026-11-23T05:58:00.000Z',
          coords: {
            latitude: -1.146,
            longitude: 36.96,
            speed: 10,
            heading: 180,
            accuracy: 5,
            altitude: 1520,
          },
          battery: { level: 0.42, is_charging: false },
          is_moving: true,
          odometer: 12345,
        },
      },
      now,
    );
    expect(fixOf(r)).toMatchObject({
      deviceId: 'phone-2',
      lat: -1.146,
      lng: 36.96,
      speedKmh: 36,
      heading: 180,
      battery: 42,
      attributes: { motion: true, odometer: 12345, charge: false },
    });
  });

  it('reads buffered lists and unknown speed', () => {
    const rs = parseTraccarJson(
      {
        device_id: 'p',
        location: [{ coords: { latitude: 1, longitude: 2, speed: -1 } }, { coords: { latitude: 3 } }],
      },
      now,
    );
    expect(rs.map((r) => r.kind)).toEqual(['fix', 'discarded']);
    expect(fixOf(rs[0]).speedKmh).toBe(null);
  });

  it('reads a location without coords as a heartbeat, and iOS -1 as unknown', () => {
    expect(
      parseTraccarJson(
        { device_id: 'p', location: { timestamp: now.toISOString(), battery: { level: -1 } } },
        now,
      ),
    ).toEqual([{ kind: 'heartbeat', heartbeat: { deviceId: 'p', battery: null, attributes: {} } }]);
  });

  it('refuses a body without a device', () =>
    expect(parseTraccarJson({ location: {} }, now)[0]?.kind).toBe('refused'));
});

describe('making values safe before they are acknowledged', () => {
  it.each([
    ['a\u0000b', 'ab'],
    ['line\r\nbreak\ttab', 'line break tab'],
    ['\u0007bell\u009f', 'bell'],
    ['half \ud800 pair', 'half \ufffd pair'],
    ['pair \ud83d\ude9a ok', 'pair \ud83d\ude9a ok'],
    ['x'.repeat(500), 'x'.repeat(200)],
  ])('%j → %j', (input, output) => expect(safeText(input)).toBe(output));

  it('keeps attributes flat, few, finite and free of control characters', () => {
    const fix = fixOf(
      readTrackerRequest(
        {},
        {
          device_id: 'p',
          location: {
            coords: { latitude: 1, longitude: 2 },
            extras: {
              'no\u0000te': 'a\u0000b',
              lone: '\udc00',
              nested: { deeper: { deepest: { gone: 1 } }, n: 2 },
              list: [1, 2],
              empty: null,
              __proto__x: 1,
              ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])),
            },
          },
        },
        now,
      )[0],
    );
    const attrs = fix.attributes;
    expect(Object.keys(attrs)).toHaveLength(MAX_ATTRIBUTES);
    expect(attrs).toMatchObject({ note: 'ab', lone: '\ufffd', 'nested.n': 2 });
    expect(JSON.stringify(attrs)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
    expect(attrs).not.toHaveProperty('list');
    expect(attrs).not.toHaveProperty('nested.deeper.deepest.gone');
  });

  it('drops keys that would reach an object prototype', () => {
    const fix = fixOf(
      parseOsmand(JSON.parse('{"id":"x","lat":"1","lon":"2","__proto__":"p","constructor":"c"}'), now),
    );
    expect(Object.keys(fix.attributes)).toEqual([]);
    expect(Object.getPrototypeOf(fix.attributes)).toBe(Object.prototype);
  });

  it('reads a JSON list of OsmAnd objects (traccar-client-sdk uploadJson) and repeated query keys', () => {
    const rs = readTrackerRequest(
      {},
      [
        { id: 'x', lat: 1, lon: 2, timestamp: 1795413600, batt: 71 },
        { id: 'x', timestamp: 1795413660, batt: 70 },
      ],
      now,
    );
    expect(rs.map((r) => r.kind)).toEqual(['fix', 'heartbeat']);
    expect(fixOf(readTrackerRequest({ id: 'x', lat: ['5', '1'], lon: '2' }, undefined, now)[0]).lat).toBe(1);
    expect(readTrackerRequest({}, [], now)).toEqual([{ kind: 'refused', error: expect.any(String) }]);
  });
});

describe('invariants', () => {
  const base = {
    deviceId: 'd',
    lat: -1,
    lng: 37,
    fixTime: now,
    speedKmh: 50,
    heading: null,
    altitude: null,
    accuracy: null,
    battery: null,
    attributes: {},
  };
  it.each([
    [{}, null],
    [{ lat: 90.0001 }, /Latitude/],
    [{ lat: -91 }, /Latitude/],
    [{ lng: 180.5 }, /Longitude/],
    [{ fixTime: new Date('1998-12-31T23:59:59Z') }, /Fix time/],
    [{ fixTime: new Date(now.getTime() + 24 * 3600_000) }, null],
    [{ fixTime: new Date(now.getTime() + 26 * 3600_000) }, /Fix time/],
    [{ speedKmh: 869 * 1.852 }, null],
    [{ speedKmh: 870 * 1.852 }, /Speed/],
    [{ speedKmh: -1 }, /Speed/],
  ])('%j → %s', (patch, verdict) => {
    const r = invalidFix({ ...base, ...patch }, now);
    if (verdict === null) expect(r).toBeNull();
    else expect(r).toMatch(verdict);
  });
});

describe('idle time', () => {
  it.each([
    [new Date(now.getTime() - 30_000), null, 0, 'Idle < 1 min'],
    [new Date(now.getTime() - 12 * 60_000), null, 12, 'Idle 12 min'],
    [null, new Date(now.getTime() - 5 * 60_000), 5, 'Idle 5 min'],
    [null, null, null, 'Idle time n/a'],
    [new Date(now.getTime() - 150 * 60_000), null, 150, 'Idle 2 h 30 min'],
  ])('%s / %s → %s', (moved, updated, minutes, text) => {
    const m = idleMinutes(moved, updated, now);
    expect(m).toBe(minutes);
    expect(idleText(m)).toBe(text);
  });

  // The idle rule (truck.idle alert and insights): still since the last move, else since the last update.
  it.each([
    [30, null, 30, true],
    [29.99, null, 30, false],
    [null, 45, 30, true],
    [null, 10, 30, false],
    [5, 45, 30, false], // it moved 5 minutes ago: the older update does not count
    [null, null, 30, false],
  ])(
    'moved %s min ago, updated %s min ago, threshold %s min → idle %s',
    (moved, updated, threshold, idle) => {
      const ago = (min: number | null) => (min === null ? null : new Date(now.getTime() - min * 60_000));
      expect(isIdle(ago(moved), ago(updated), now, threshold)).toBe(idle);
      expect(idleSince(ago(moved), ago(updated))).toEqual(ago(moved) ?? ago(updated));
    },
  );

  it('counts moving above 5 km/h', () => {
    expect(isMoving(5)).toBe(false);
    expect(isMoving(5.1)).toBe(true);
    expect(isMoving(null)).toBe(false);
  });

  it('reads epoch seconds, milliseconds, ISO and Traccar\'s "yyyy-MM-dd HH:mm:ss" (UTC)', () => {
    expect(parseTimestamp('1795413600', now)?.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(parseTimestamp(1795413600000, now)?.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(parseTimestamp('2026-11-23T06:00:00+03:00', now)?.toISOString()).toBe('2026-11-23T03:00:00.000Z');
    expect(parseTimestamp('2014-06-04 09:10:11', now)?.toISOString()).toBe('2014-06-04T09:10:11.000Z');
    expect(parseTimestamp('2016-01-27T18:55:47', now)?.toISOString()).toBe('2016-01-27T18:55:47.000Z');
    expect(parseTimestamp('', now)).toBe(now);
    expect(parseTimestamp('soon', now)).toBeNull();
    expect(Number.isNaN(parseTimestamp('9007199254740993', now)!.getTime())).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import {
  idleMinutes,
  idleText,
  invalidFix,
  isMoving,
  parseOsmand,
  parseTimestamp,
  parseTraccarJson,
} from './telemetry';

const now = new Date('2026-11-23T06:00:00Z');

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
    const r = parseOsmand(params, now);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { fixTime, speedKmh, ...rest } = r.fix;
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
    expect(r.ok && r.fix.attributes).toEqual({ ignition: true, hdop: 0.9, driverUniqueId: 'abc' });
  });

  it.each([
    [{ lat: '1', lon: '2' }, /device id/],
    [{ id: 'x', lat: '1' }, /position/],
    [{ id: 'x', lat: '1', lon: '2', timestamp: 'yesterday-ish' }, /timestamp/],
  ])('refuses %j', (params, error) => {
    const r = parseOsmand(params, now);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
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
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.fix).toMatchObject({
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
    expect(rs.map((r) => r.ok)).toEqual([true, false]);
    expect(rs[0]?.ok && rs[0].fix.speedKmh).toBe(null);
  });

  it('refuses a body without a device', () =>
    expect(parseTraccarJson({ location: {} }, now)[0]?.ok).toBe(false));
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

  it('counts moving above 5 km/h', () => {
    expect(isMoving(5)).toBe(false);
    expect(isMoving(5.1)).toBe(true);
    expect(isMoving(null)).toBe(false);
  });

  it('reads epoch seconds, milliseconds and ISO', () => {
    expect(parseTimestamp('1795413600', now)?.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(parseTimestamp(1795413600000, now)?.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(parseTimestamp('2026-11-23T06:00:00+03:00', now)?.toISOString()).toBe('2026-11-23T03:00:00.000Z');
  });
});

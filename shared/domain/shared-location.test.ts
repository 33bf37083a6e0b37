import { describe, expect, it } from 'vitest';
import { isShortMapLink, parseCoordinates, parseSharedLocation } from './shared-location';

const at = (lat: number, lng: number) => ({ kind: 'point', lat, lng });

describe('parseSharedLocation: geo: URIs', () => {
  it.each([
    ['geo:-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['geo:-1.1021,37.0144,1520', at(-1.1021, 37.0144)],
    ['geo:-1.1021,37.0144;u=35', at(-1.1021, 37.0144)],
    ['geo:-1.1021,37.0144;crs=wgs84;u=12', at(-1.1021, 37.0144)],
    ['GEO:-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['geo:0,0?q=-1.1021,37.0144(Juja site)', at(-1.1021, 37.0144)],
    ['geo:0,0?q=-1.1021%2C37.0144%28Plot%2012%29', at(-1.1021, 37.0144)],
    ['geo:-1.1,37.0?q=-1.1021,37.0144(Gate)', at(-1.1021, 37.0144)],
    ['geo:-1.1021,37.0144?z=17', at(-1.1021, 37.0144)],
  ])('%s', (text, expected) => expect(parseSharedLocation(text)).toEqual(expected));

  it.each([
    ['geo:0,0?q=Kenyatta+Road+Juja', 'no-location'],
    ['geo:0,0', 'no-location'],
    ['geo:91,37', 'out-of-range'],
    ['geo:-1.1,181', 'out-of-range'],
    ['geo:', 'no-location'],
  ])('%s is refused (%s)', (text, reason) =>
    expect(parseSharedLocation(text)).toEqual({ kind: 'unreadable', reason }),
  );
});

describe('parseSharedLocation: Google Maps links', () => {
  it.each([
    ['https://www.google.com/maps?q=-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://maps.google.com/?q=-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://maps.google.com/maps?q=-1.1021%2C37.0144&z=17', at(-1.1021, 37.0144)],
    ['http://maps.google.co.ke/?q=-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://www.google.co.ke/maps?q=-1.1021,+37.0144', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/@-1.1021,37.0144,17z', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/@-1.1021,37.0144,250m/data=!3m1!1e3', at(-1.1021, 37.0144)],
    [
      'https://www.google.com/maps/place/Juja/@-1.0950,37.0000,15z/data=!3m1!4b1!4m6!3m5!1s0x182f47:0x1!8m2!3d-1.1021!4d37.0144!16zL20vMGRuOGZx',
      at(-1.1021, 37.0144),
    ],
    [
      "https://www.google.com/maps/place/1%C2%B006'07.6%22S+37%C2%B000'51.8%22E/@-1.10211,37.01439,17z",
      at(-(1 + 6 / 60 + 7.6 / 3600), 37 + 0 / 60 + 51.8 / 3600),
    ],
    ['https://www.google.com/maps/search/?api=1&query=-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/search/?api=1&query=-1.1021%2C37.0144', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/dir/?api=1&destination=-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/search/-1.1021,+37.0144', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/place/-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://maps.google.com/maps?ll=-1.1021,37.0144&z=16', at(-1.1021, 37.0144)],
    ['https://www.google.com/maps/dir/Thika/-1.1021,37.0144/', at(-1.1021, 37.0144)],
    ['www.google.com/maps?q=-1.1021,37.0144', at(-1.1021, 37.0144)],
    [
      'https://consent.google.com/ml?continue=https://www.google.com/maps?q%3D-1.1021,37.0144&gl=KE',
      at(-1.1021, 37.0144),
    ],
    [
      'My location is https://maps.google.com/?q=-1.1021,37.0144 — come to the blue gate.',
      at(-1.1021, 37.0144),
    ],
  ])('%s', (text, expected) => {
    const r = parseSharedLocation(text);
    expect(r.kind).toBe('point');
    if (r.kind !== 'point') return;
    expect(r.lat).toBeCloseTo(expected.lat, 5);
    expect(r.lng).toBeCloseTo(expected.lng, 5);
  });

  it.each([
    ['https://maps.app.goo.gl/Xy1AbCdEfGh2', 'https://maps.app.goo.gl/Xy1AbCdEfGh2'],
    ['https://goo.gl/maps/Xy1AbCdEfGh2', 'https://goo.gl/maps/Xy1AbCdEfGh2'],
    [
      'Mary shared a location: https://maps.app.goo.gl/Xy1AbCdEfGh2?g_st=aw',
      'https://maps.app.goo.gl/Xy1AbCdEfGh2?g_st=aw',
    ],
  ])('%s is a short link to open', (text, url) =>
    expect(parseSharedLocation(text)).toEqual({ kind: 'short-link', url }),
  );

  it.each([
    'https://www.google.com/maps/place/Juja+City+Mall',
    'https://www.google.com/maps?q=Kenyatta+Road+Juja',
    'https://goo.gl/abc',
    'https://example.com/?q=-1.1,37.0',
    'https://www.google.com/maps?q=-95,37',
  ])('%s is refused', (text) => expect(parseSharedLocation(text).kind).toBe('unreadable'));
});

describe('parseSharedLocation: Apple Maps links', () => {
  it.each([
    ['https://maps.apple.com/?ll=-1.1021,37.0144&q=Dropped%20Pin', at(-1.1021, 37.0144)],
    ['https://maps.apple.com/?q=-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['https://maps.apple.com/?address=Juja,%20Kenya&ll=-1.1021,37.0144&q=Juja', at(-1.1021, 37.0144)],
    ['https://maps.apple.com/?sll=-1.1021,37.0144&z=10&t=s', at(-1.1021, 37.0144)],
    ['https://maps.apple.com/?daddr=-1.1021,37.0144&dirflg=d', at(-1.1021, 37.0144)],
    ['https://maps.apple.com/place?coordinate=-1.1021,37.0144&name=Marked%20Location', at(-1.1021, 37.0144)],
    ['https://maps.apple.com/directions?destination=-1.1021,37.0144&mode=driving', at(-1.1021, 37.0144)],
    ['maps.apple.com/?ll=-1.1021,37.0144', at(-1.1021, 37.0144)],
  ])('%s', (text, expected) => expect(parseSharedLocation(text)).toEqual(expected));

  it('a short Apple link is opened by the server', () =>
    expect(parseSharedLocation('https://maps.apple/p/Ab.CdEf-Gh')).toEqual({
      kind: 'short-link',
      url: 'https://maps.apple/p/Ab.CdEf-Gh',
    }));

  it('an address without a point is refused', () =>
    expect(parseSharedLocation('https://maps.apple.com/?address=Juja,Kenya').kind).toBe('unreadable'));
});

describe('parseCoordinates', () => {
  it.each([
    ['-1.1021, 37.0144', at(-1.1021, 37.0144)],
    ['-1.1021,37.0144', at(-1.1021, 37.0144)],
    ['-1.1021 37.0144', at(-1.1021, 37.0144)],
    ['\u22121.1021, 37.0144', at(-1.1021, 37.0144)],
    [`1°06'07.6"S 37°00'51.8"E`, at(-(1 + 6 / 60 + 7.6 / 3600), 37 + 51.8 / 3600)],
    [`37°00'51.8"E, 1°06'07.6"S`, at(-(1 + 6 / 60 + 7.6 / 3600), 37 + 51.8 / 3600)],
    ['1°6′7.6″S 37°0′51.8″E', at(-(1 + 6 / 60 + 7.6 / 3600), 37 + 51.8 / 3600)],
  ])('%s', (text, expected) => {
    const r = parseCoordinates(text);
    expect(r?.kind).toBe('point');
    if (r?.kind !== 'point') return;
    expect(r.lat).toBeCloseTo(expected.lat, 6);
    expect(r.lng).toBeCloseTo(expected.lng, 6);
  });

  it.each(['Plot 12, Juja', '12, 5th Avenue', 'near the stage', ''])('%j is no coordinates', (text) =>
    expect(parseCoordinates(text)).toBeNull(),
  );

  it('two latitudes are no point', () =>
    expect(parseCoordinates(`1°06'S 2°00'N`)).toEqual({ kind: 'unreadable', reason: 'no-location' }));

  it('plain text with coordinates goes through parseSharedLocation too', () =>
    expect(parseSharedLocation('  -1.1021, 37.0144  ')).toEqual(at(-1.1021, 37.0144)));
});

describe('isShortMapLink', () => {
  it.each([
    ['https://maps.app.goo.gl/Xy1', true],
    ['https://goo.gl/maps/Xy1', true],
    ['https://maps.apple/p/Xy1', true],
    ['http://maps.app.goo.gl/Xy1', false],
    ['https://evil.example/maps.app.goo.gl', false],
    ['https://maps.app.goo.gl.evil.example/Xy1', false],
    ['not a url', false],
  ])('%s → %s', (url, ok) => expect(isShortMapLink(url)).toBe(ok));
});

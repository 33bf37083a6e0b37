import { describe, expect, it } from 'vitest';
import {
  ALL_SCREEN_COOKIE_PATHS,
  clearScreenCookieLines,
  parseScreenCookie,
  SCREEN_COOKIE_MAX_AGE_S,
  screenCookieLines,
  screenCookieValue,
} from './screen-cookie';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-_x';

describe('the screen cookie', () => {
  it.each([
    [`en.${JWT}`, { language: 'en', width: 0, token: JWT }],
    [`sw.${JWT}`, { language: 'sw', width: 0, token: JWT }],
    [`en.360.${JWT}`, { language: 'en', width: 360, token: JWT }],
    [`sw.1024.${JWT}`, { language: 'sw', width: 1024, token: JWT }],
    [`en.9999.${JWT}`, { language: 'en', width: 9999, token: JWT }],
    [`en.10000.${JWT}`, null],
    [`en.0.${JWT}`, null],
    [`en.036.${JWT}`, null],
    [`en.-360.${JWT}`, null],
    [`en.36x.${JWT}`, null],
    [undefined, null],
    ['', null],
    [JWT, null],
    [`fr.${JWT}`, null],
    ['en.', null],
    ['en.abc.def', null],
    [`en.${JWT}; Path=/`, null],
    [`en.${JWT}.extra`, null],
    ['en.a b.c.d', null],
  ])('parses %j', (value, expected) => {
    expect(parseScreenCookie(value)).toEqual(expected);
  });

  it.each([0, 360, 1024, 9999])('writes what it parses back (width %i)', (width) => {
    const cookie = { language: 'sw' as const, width, token: JWT };
    expect(parseScreenCookie(screenCookieValue(cookie))).toEqual(cookie);
  });

  it.each([
    [360.4, `en.360.${JWT}`],
    [0, `en.${JWT}`],
    [-5, `en.${JWT}`],
    [Number.NaN, `en.${JWT}`],
    [25_600, `en.9999.${JWT}`],
  ])('writes a width of %s as a whole number the parser takes', (width, value) => {
    expect(screenCookieValue({ language: 'en', width, token: JWT })).toBe(value);
  });

  it.each([
    ['ADMIN', ['/ops']],
    ['OPS', ['/ops']],
    ['DRIVER', ['/driver']],
    ['FUEL', ['/fuel']],
    ['CUSTOMER', ['/customer', '/order']],
    ['SOMEONE', []],
  ])("is set on %s's own screens only, same-site", (role, paths) => {
    const lines = screenCookieLines(role, { language: 'en', width: 360, token: JWT }, false);
    expect(lines).toEqual(
      paths.map(
        (p) => `mchanga_screen=en.360.${JWT}; Path=${p}; Max-Age=${SCREEN_COOKIE_MAX_AGE_S}; SameSite=Strict`,
      ),
    );
  });

  it('is Secure over https', () => {
    expect(screenCookieLines('FUEL', { language: 'en', width: 360, token: JWT }, true)[0]).toMatch(
      /; Secure$/,
    );
    expect(clearScreenCookieLines(true).every((l) => l.endsWith('; Secure'))).toBe(true);
  });

  it('is dropped from every path it may be on', () => {
    expect(ALL_SCREEN_COOKIE_PATHS).toEqual(['/ops', '/driver', '/fuel', '/customer', '/order']);
    expect(clearScreenCookieLines(false)).toEqual(
      ALL_SCREEN_COOKIE_PATHS.map((p) => `mchanga_screen=; Path=${p}; Max-Age=0; SameSite=Strict`),
    );
  });
});

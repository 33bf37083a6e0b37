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
    [`en.${JWT}`, { language: 'en', token: JWT }],
    [`sw.${JWT}`, { language: 'sw', token: JWT }],
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

  it('writes what it parses back', () => {
    const cookie = { language: 'sw' as const, token: JWT };
    expect(parseScreenCookie(screenCookieValue(cookie))).toEqual(cookie);
  });

  it.each([
    ['ADMIN', ['/ops']],
    ['OPS', ['/ops']],
    ['DRIVER', ['/driver']],
    ['FUEL', ['/fuel']],
    ['CUSTOMER', ['/customer', '/order']],
    ['SOMEONE', []],
  ])("is set on %s's own screens only, same-site", (role, paths) => {
    const lines = screenCookieLines(role, { language: 'en', token: JWT }, false);
    expect(lines).toEqual(
      paths.map(
        (p) => `mchanga_screen=en.${JWT}; Path=${p}; Max-Age=${SCREEN_COOKIE_MAX_AGE_S}; SameSite=Strict`,
      ),
    );
  });

  it('is Secure over https', () => {
    expect(screenCookieLines('FUEL', { language: 'en', token: JWT }, true)[0]).toMatch(/; Secure$/);
    expect(clearScreenCookieLines(true).every((l) => l.endsWith('; Secure'))).toBe(true);
  });

  it('is dropped from every path it may be on', () => {
    expect(ALL_SCREEN_COOKIE_PATHS).toEqual(['/ops', '/driver', '/fuel', '/customer', '/order']);
    expect(clearScreenCookieLines(false)).toEqual(
      ALL_SCREEN_COOKIE_PATHS.map((p) => `mchanga_screen=; Path=${p}; Max-Age=0; SameSite=Strict`),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { keepScreenCookie } from './screen-cookie';

/** A document whose cookie setter records each line, as the browser receives them. */
function fakeDocument(protocol = 'http:') {
  const lines: string[] = [];
  return {
    lines,
    location: { protocol },
    get cookie() {
      return '';
    },
    set cookie(line: string) {
      lines.push(line);
    },
  };
}

const session = { token: 'a.b.c', role: 'CUSTOMER', mustChangePassword: false };

describe('keepScreenCookie', () => {
  it("drops any old cookie, then writes the session's token on its role's screens with the language and width", () => {
    const doc = fakeDocument();
    keepScreenCookie(session, { language: 'sw', width: 412 }, doc);
    expect(doc.lines.filter((l) => l.includes('Max-Age=0')).map((l) => /Path=([^;]+)/.exec(l)![1])).toEqual([
      '/ops',
      '/driver',
      '/fuel',
      '/customer',
      '/order',
    ]);
    expect(doc.lines.slice(5)).toEqual([
      expect.stringMatching(
        /^mchanga_screen=sw\.412\.a\.b\.c; Path=\/customer; Max-Age=\d+; SameSite=Strict$/,
      ),
      expect.stringMatching(/^mchanga_screen=sw\.412\.a\.b\.c; Path=\/order; /),
    ]);
  });

  it('only drops it without a session, or for one that may only change its password', () => {
    for (const s of [null, { ...session, mustChangePassword: true }]) {
      const doc = fakeDocument();
      keepScreenCookie(s, { language: 'en', width: 360 }, doc);
      expect(doc.lines).toHaveLength(5);
      expect(doc.lines.every((l) => l.includes('Max-Age=0'))).toBe(true);
    }
  });

  it('marks it Secure over https', () => {
    const doc = fakeDocument('https:');
    keepScreenCookie({ ...session, role: 'ADMIN' }, { language: 'en', width: 0 }, doc);
    expect(doc.lines.at(-1)).toMatch(/^mchanga_screen=en\.a\.b\.c; Path=\/ops; .*; Secure$/);
  });

  it('never throws, with no document or one that refuses cookies', () => {
    expect(() => keepScreenCookie(session, { language: 'en', width: 360 }, undefined)).not.toThrow();
    const refusing = {
      location: { protocol: 'http:' },
      get cookie() {
        return '';
      },
      set cookie(_: string) {
        throw new Error('SecurityError');
      },
    };
    expect(() => keepScreenCookie(session, { language: 'en', width: 360 }, refusing)).not.toThrow();
  });
});

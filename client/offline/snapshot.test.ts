import { describe, expect, it, vi } from 'vitest';
import {
  checkSnapshot,
  clearSnapshot,
  KEPT_SCREEN_END,
  keptScreenPage,
  SNAPSHOT_ATTRIBUTE,
} from './snapshot';

/** The shell's root as the service worker leaves it: attributes, and children to replace. */
function root(attributes: Record<string, string>) {
  const attrs = new Map(Object.entries(attributes));
  return {
    attrs,
    hasAttribute: (n: string) => attrs.has(n),
    getAttribute: (n: string) => attrs.get(n) ?? null,
    removeAttribute: (n: string) => void attrs.delete(n),
    replaceChildren: vi.fn(),
  };
}

const kept = (user: string) => ({
  [SNAPSHOT_ATTRIBUTE]: encodeURIComponent(user),
  inert: '',
  'aria-busy': 'true',
});

describe('checkSnapshot', () => {
  it.each([
    // [what the root holds, who is signed in, stays on show]
    ['the signed-in user’s screen', kept('ops@mchanga.test'), 'ops@mchanga.test', true],
    ['a screen of a user with + in the address', kept('ann+ops@mchanga.test'), 'ann+ops@mchanga.test', true],
    ['another user’s screen', kept('ops@mchanga.test'), 'driver@mchanga.test', false],
    ['a screen, nobody signed in', kept('ops@mchanga.test'), null, false],
    [
      'an address that only matches unencoded',
      { [SNAPSHOT_ATTRIBUTE]: 'ann+ops@mchanga.test' },
      'ann+ops@mchanga.test',
      false,
    ],
  ])('%s → %s', (_what, attributes, email, stays) => {
    const el = root(attributes);
    expect(checkSnapshot(el as unknown as HTMLElement, email)).toBe(stays);
    if (stays) {
      expect(el.attrs.get('inert')).toBe('');
      expect(el.replaceChildren).not.toHaveBeenCalled();
    } else {
      // dropped at once: nothing of it shows, nothing of it blocks the app
      expect([...el.attrs.keys()]).toEqual([]);
      expect(el.replaceChildren).toHaveBeenCalledWith();
    }
  });

  it('leaves a root without a kept screen alone', () => {
    const el = root({ id: 'root' });
    expect(checkSnapshot(el as unknown as HTMLElement, 'ops@mchanga.test')).toBe(false);
    expect([...el.attrs.keys()]).toEqual(['id']);
    expect(el.replaceChildren).not.toHaveBeenCalled();
  });
});

describe('clearSnapshot', () => {
  it('gives the root back to the app: clickable, not busy, not marked', () => {
    const el = root({ id: 'root', ...kept('ops@mchanga.test') });
    clearSnapshot(el as unknown as HTMLElement);
    expect([...el.attrs.keys()]).toEqual(['id']);
  });
});

describe('keptScreenPage', () => {
  const SHELL =
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';
  const SCREEN = '<main><h1>Orders</h1><p>Every M-Pesa payment and prompt is reconciled.</p></main>';

  it('puts the kept screen in the root, inert and busy, and holds the paint until its last element is parsed', () => {
    const page = keptScreenPage(SHELL, SCREEN, 'ops%40mchanga.test');
    expect(page).toBe(
      `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><script type="module" src="/assets/index.js"></script><link rel="expect" href="#${KEPT_SCREEN_END}" blocking="render"></head><body><div id="root" ${SNAPSHOT_ATTRIBUTE}="ops%40mchanga.test" inert aria-busy="true">${SCREEN}<i id="${KEPT_SCREEN_END}" hidden></i></div></body></html>`,
    );
  });

  it.each([
    ['a user that is not a plain encoded address', SHELL, 'ops"><script>'],
    ['no user', SHELL, ''],
    ['a page without an empty root', SHELL.replace('<div id="root"></div>', '<div id="root">x</div>'), 'a'],
    ['a page without a head', SHELL.replace('</head>', ''), 'a'],
  ])('leaves the page as it is for %s', (_what, html, user) => {
    expect(keptScreenPage(html, SCREEN, user)).toBe(html);
  });
});

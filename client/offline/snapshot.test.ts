import { describe, expect, it, vi } from 'vitest';
import {
  checkSnapshot,
  clearSnapshot,
  KEPT_SCREEN_END,
  keptScreenPage,
  keptTop,
  type LaidOut,
  type Removable,
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

describe('keptTop', () => {
  /** A laid-out element `[top, bottom]` (page pixels) and its copy, with its children. */
  interface Fake {
    name: string;
    top: number;
    bottom: number;
    children: Fake[];
    pinned?: boolean;
  }
  const el = (name: string, top: number, bottom: number, children: Fake[] = [], pinned = false): Fake => ({
    name,
    top,
    bottom,
    children,
    pinned,
  });
  /** The live tree at `scrollY`, as the DOM gives it: places on the screen. */
  const shown = (f: Fake, scrollY: number): LaidOut & { fake: Fake } => ({
    fake: f,
    children: f.children.map((c) => shown(c, scrollY)),
    getBoundingClientRect: () => ({
      top: f.top - scrollY,
      bottom: f.bottom - scrollY,
      width: f.bottom > f.top ? 360 : 0,
      height: f.bottom - f.top,
    }),
  });
  /** The copy: what is left of it, as names. */
  interface Copy extends Removable {
    name: string;
    parent?: Copy;
    children: Copy[];
  }
  function copyOf(f: Fake): Copy {
    const node: Copy = {
      name: f.name,
      children: [],
      remove() {
        node.parent!.children.splice(node.parent!.children.indexOf(node), 1);
      },
    };
    for (const c of f.children) {
      const child = copyOf(c);
      child.parent = node;
      node.children.push(child);
    }
    return node;
  }
  const names = (n: Copy): string[] => [n.name, ...n.children.flatMap(names)];
  const pinned = (e: LaidOut) => (e as LaidOut & { fake: Fake }).fake.pinned === true;

  const screen = el('root', 0, 3000, [
    el('header', 0, 60),
    el('nav (hidden)', 0, 0, [el('link', 0, 0)]),
    el('main', 60, 3000, [
      el('h1', 60, 100),
      el('list', 100, 3000, [
        el('card 1', 100, 700, [el('card 1 text', 120, 680)]),
        el('card 2', 700, 1300, [el('card 2 top', 720, 900), el('card 2 foot', 1250, 1300)]),
        el('card 3', 1300, 1900),
        el('card 4', 1900, 2500),
      ]),
    ]),
    el('toast (fixed)', 2900, 2950, [], true),
  ]);

  /** What stays of the screen above a cut through card 2's middle, the fixed toast aside. */
  const aboveCard2Middle = [
    'root',
    'header',
    'nav (hidden)',
    'link',
    'main',
    'h1',
    'list',
    'card 1',
    'card 1 text',
    'card 2',
    'card 2 top',
  ];

  it.each([
    // [cut, scrollY, what is left]
    ['two screens of 600 px, at the top', 1200, 0, [...aboveCard2Middle, 'toast (fixed)']],
    [
      'the same, saved scrolled down 1,000 px: places on the page, not on the screen',
      1200,
      1000,
      [...aboveCard2Middle, 'toast (fixed)'],
    ],
    ['a cut between two cards', 1300, 0, [...aboveCard2Middle, 'card 2 foot', 'toast (fixed)']],
    ['a screen shorter than the cut: all of it', 4000, 0, names(copyOf(screen))],
  ])('%s', (_name, cut, scrollY, left) => {
    const copy = copyOf(screen);
    keptTop(shown(screen, scrollY), copy, cut, scrollY, pinned);
    expect(names(copy)).toEqual(left);
  });
});

import { describe, expect, it } from 'vitest';
import { GUEST, SHELL_DATA_ID, SHELL_NAME, type ShellVariant } from '../shared/staff-shell';
import { WORKSPACE_TABS } from './features/ops/tab-list';
import { en } from './i18n/en';
import { landingEn } from './i18n/landing-en';
import { landingSw } from './i18n/landing-sw';
import { staffEn } from './i18n/staff-en';
import { staffSw } from './i18n/staff-sw';
import { sw } from './i18n/sw';
import { renderStaffShells } from './staff-shell';

const shells = await renderStaffShells({ activityRetentionDays: 365 });

function variants(path: string): ShellVariant[] {
  const element = shells[path]!;
  const match = new RegExp(`^<script type="application/json" id="${SHELL_DATA_ID}">(.*)</script>$`, 's').exec(
    element,
  );
  expect(match).not.toBeNull();
  // Nothing in it can close the element early.
  expect(match![1]).not.toContain('<');
  return JSON.parse(match![1]!) as ShellVariant[];
}

const h1 = (html: string) => /<h1>(.*?)<\/h1>/.exec(html)?.[1];
const subtitle = (html: string) => /<p class="page__subtitle">(.*?)<\/p>/.exec(html)?.[1] ?? null;

describe('the staff screens rendered for the server (issue 28)', () => {
  it('has a page for each staff route and each public screen a guest opens', () => {
    expect(Object.keys(shells).sort()).toEqual(
      [
        '/customer',
        '/driver',
        '/fuel',
        '/ops/:tab?',
        '/order',
        ...WORKSPACE_TABS.map((t) => `/ops/${t}`),
        '/login',
        '/register',
        '/forgot-password',
        '/articles',
      ].sort(),
    );
  });

  it.each([
    ['/fuel', 'FUEL', undefined, en.fuel.title, en.fuel.subtitle, sw.fuel.title, sw.fuel.subtitle],
    ['/fuel', 'OPS', undefined, en.fuel.title, en.fuel.subtitle, sw.fuel.title, sw.fuel.subtitle],
    ['/ops/:tab?', 'ADMIN', undefined, staffEn.workspace.admin, null, staffSw.workspace.admin, null],
    ['/ops/:tab?', 'OPS', undefined, staffEn.workspace.ops, null, staffSw.workspace.ops, null],
    [
      '/driver',
      'DRIVER',
      true,
      en.driver.title,
      en.driver.hi.replace('{{name}}', SHELL_NAME),
      sw.driver.title,
      sw.driver.hi.replace('{{name}}', SHELL_NAME),
    ],
    ['/driver', 'DRIVER', false, en.driver.title, en.driver.notLinked, sw.driver.title, sw.driver.notLinked],
    ['/customer', 'CUSTOMER', undefined, en.customer.title, null, sw.customer.title, null],
    ['/order', 'CUSTOMER', undefined, en.order.title, en.order.subtitle, sw.order.title, sw.order.subtitle],
    ['/login', GUEST, undefined, en.login.title, null, sw.login.title, null],
    [
      '/register',
      GUEST,
      undefined,
      en.register.title,
      en.register.subtitle,
      sw.register.title,
      sw.register.subtitle,
    ],
    ['/forgot-password', GUEST, undefined, en.forgot.title, null, sw.forgot.title, null],
    [
      '/articles',
      GUEST,
      undefined,
      landingEn.articles.title,
      landingEn.articles.subtitle,
      landingSw.articles.title,
      landingSw.articles.subtitle,
    ],
    ['/ops/audit', 'ADMIN', undefined, staffEn.workspace.admin, null, staffSw.workspace.admin, null],
    ['/ops/fleet', 'OPS', undefined, staffEn.workspace.ops, null, staffSw.workspace.ops, null],
  ])(
    '%s as %s (linked %s): the title and subtitle in each language',
    (path, role, linked, enTitle, enSub, swTitle, swSub) => {
      const variant = variants(path).find((v) => v.role === role && v.linked === linked)!;
      const asHtml = (s: string | null) => s?.replace(/'/g, '&#x27;') ?? null;
      expect([h1(variant.en), subtitle(variant.en)]).toEqual([asHtml(enTitle), asHtml(enSub)]);
      expect([h1(variant.sw), subtitle(variant.sw)]).toEqual([asHtml(swTitle), asHtml(swSub)]);
    },
  );

  it('puts the site header above the screen, its Menu button in the language of the variant', () => {
    const [fuel] = variants('/fuel');
    for (const html of [fuel!.en, fuel!.sw]) {
      expect(html.indexOf('<header class="site-header">')).toBe(0);
      expect(html.indexOf('</header>')).toBeLessThan(html.indexOf('<main class="page">'));
    }
    expect(fuel!.en).toContain('>Menu</button>');
    expect(fuel!.sw).toContain(`>${landingSw.shell.menu}</button>`);
    // The workspace is wide, as OpsPage renders it.
    expect(variants('/ops/:tab?')[0]!.en).toContain('<main class="page page--wide">');
  });
});

describe("the workspace's pages carry its tab strip and the open tab's top (issue 28)", () => {
  const tabsOf = (html: string) =>
    [...html.matchAll(/<a [^>]*role="tab"[^>]*>(.*?)<\/a>/g)].map((m) => ({
      label: m[1],
      open: m[0].includes('aria-selected="true"'),
    }));
  const panelOf = (html: string) =>
    /<div role="tabpanel" id="panel-(\w+)"[^>]*>(.*?)<\/div><\/main>/.exec(html);

  it("gives ADMIN all twelve tabs with the page's tab open, and OPS its three", () => {
    const [admin] = variants('/ops/trips');
    expect(tabsOf(admin!.en).map((t) => t.label)).toEqual(WORKSPACE_TABS.map((id) => staffEn.tabs[id]));
    expect(
      tabsOf(admin!.sw)
        .filter((t) => t.open)
        .map((t) => t.label),
    ).toEqual([staffSw.tabs.trips]);
    const ops = variants('/ops/costs').find((v) => v.role === 'OPS')!;
    expect(tabsOf(ops.en).map((t) => t.label)).toEqual([
      staffEn.tabs.stock,
      staffEn.tabs.costs,
      staffEn.tabs.fleet,
    ]);
    expect(tabsOf(ops.en).find((t) => t.open)?.label).toBe(staffEn.tabs.costs);
  });

  it("opens each role's first tab on a bare /ops, and has no variant for a tab the role lacks", () => {
    const bare = variants('/ops/:tab?');
    expect(panelOf(bare.find((v) => v.role === 'ADMIN')!.en)?.[1]).toBe('overview');
    expect(panelOf(bare.find((v) => v.role === 'OPS')!.en)?.[1]).toBe('stock');
    expect(variants('/ops/audit').map((v) => v.role)).toEqual(['ADMIN']);
  });

  it.each([
    ['audit', staffEn.audit.intro, staffSw.audit.intro],
    ['trips', staffEn.trips.intro, staffSw.trips.intro],
    [
      'activity',
      staffEn.activity.intro.replace('{{days}}', '365'),
      staffSw.activity.intro.replace('{{days}}', '365'),
    ],
  ] as const)(
    "/ops/%s: the tab's heading and line in its panel, the server's retention days in them",
    (tab, enLine, swLine) => {
      const [admin] = variants(`/ops/${tab}`);
      for (const [html, line] of [
        [admin!.en, enLine],
        [admin!.sw, swLine],
      ] as const) {
        const panel = panelOf(html);
        expect(panel?.[1]).toBe(tab);
        expect(panel?.[2]).toMatch(
          new RegExp(`^<section aria-labelledby="${tab}-heading"><h2 id="${tab}-heading">`),
        );
        expect(panel?.[2]).toContain(`<p class="muted">${line.replace(/'/g, '&#x27;')}</p></section>`);
      }
    },
  );

  it('leaves the panel of a tab without such a line empty', () => {
    expect(panelOf(variants('/ops/orders')[0]!.en)?.[2]).toBe('');
  });
});

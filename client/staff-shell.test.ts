import { describe, expect, it } from 'vitest';
import { SHELL_DATA_ID, SHELL_NAME, type ShellVariant } from '../shared/staff-shell';
import { en } from './i18n/en';
import { landingSw } from './i18n/landing-sw';
import { staffEn } from './i18n/staff-en';
import { staffSw } from './i18n/staff-sw';
import { sw } from './i18n/sw';
import { renderStaffShells } from './staff-shell';

const shells = await renderStaffShells();

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
  it('has a page for each staff route', () => {
    expect(Object.keys(shells).sort()).toEqual(['/customer', '/driver', '/fuel', '/ops/:tab?']);
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

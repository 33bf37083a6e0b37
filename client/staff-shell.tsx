/**
 * The top of each staff screen (site header, title, subtitle) rendered for the server, once at start, by
 * the components the screens render it with: every role's variant in both languages, as the JSON
 * element the page's inline script picks from (shared/staff-shell.ts, issue 28). A screen whose title
 * changes changes here too: e2e/load-path.e2e.ts compares each variant with the screen the app renders.
 */
import i18next, { type TFunction } from 'i18next';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { SHELL_DATA_ID, SHELL_NAME, type ShellVariant } from '../shared/staff-shell';
import { en } from './i18n/en';
import { renderInLanguage } from './i18n/landing';
import { staffEn } from './i18n/staff-en';
import { staffSw } from './i18n/staff-sw';
import { sw } from './i18n/sw';
import { jsonScript } from './prerendered';
import { Header } from './ui/Header';
import { Page } from './ui/Page';

type Language = 'en' | 'sw';

/** One screen's top for one role, the way the screen's first render has it (before any data). */
interface ShellSpec {
  role: string;
  linked?: boolean;
  title: (t: TFunction) => string;
  subtitle?: (t: TFunction) => string;
  wide?: boolean;
}

/** Per route of client/routes.tsx (the same paths as the server's page routes). */
export const STAFF_SHELLS: Record<string, ShellSpec[]> = {
  // OpsPage: the workspace's name by role, wide, no subtitle.
  '/ops/:tab?': [
    { role: 'ADMIN', title: (t) => t('staff:workspace.admin'), wide: true },
    { role: 'OPS', title: (t) => t('staff:workspace.ops'), wide: true },
  ],
  // DriverPage: a linked driver is greeted by name; ADMIN's driver picker has no subtitle until a
  // driver's data is in.
  '/driver': [
    {
      role: 'DRIVER',
      linked: true,
      title: (t) => t('driver.title'),
      subtitle: (t) => t('driver.hi', { name: SHELL_NAME }),
    },
    {
      role: 'DRIVER',
      linked: false,
      title: (t) => t('driver.title'),
      subtitle: (t) => t('driver.notLinked'),
    },
    { role: 'ADMIN', title: (t) => t('driver.title') },
  ],
  '/fuel': ['FUEL', 'ADMIN', 'OPS'].map((role) => ({
    role,
    title: (t: TFunction) => t('fuel.title'),
    subtitle: (t: TFunction) => t('fuel.subtitle'),
  })),
  '/customer': [{ role: 'CUSTOMER', title: (t) => t('customer.title') }],
};

async function catalogs() {
  const instance = i18next.createInstance();
  await instance.init({
    resources: {
      en: { translation: en, staff: staffEn },
      sw: { translation: sw, staff: staffSw },
    },
    lng: 'en',
    fallbackLng: 'en',
    ns: ['translation', 'staff'],
    // React escapes what it renders (as in client/i18n/index.ts).
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (language: Language) => instance.getFixedT(language);
}

function renderTop(path: string, spec: ShellSpec, t: TFunction): string {
  return renderToString(
    <StaticRouter location={path.replace('/:tab?', '')}>
      <Header />
      <Page title={spec.title(t)} subtitle={spec.subtitle?.(t)} wide={spec.wide} />
    </StaticRouter>,
  );
}

/** Each route's variants as the JSON element its page carries, by route path. */
export async function renderStaffShells(): Promise<Record<string, string>> {
  const tFor = await catalogs();
  const pages: Record<string, string> = {};
  for (const [path, specs] of Object.entries(STAFF_SHELLS)) {
    const variants: ShellVariant[] = [];
    for (const spec of specs) {
      const [enTop, swTop] = [
        await renderInLanguage('en', () => renderTop(path, spec, tFor('en'))),
        await renderInLanguage('sw', () => renderTop(path, spec, tFor('sw'))),
      ];
      variants.push({
        role: spec.role,
        ...(spec.linked === undefined ? {} : { linked: spec.linked }),
        en: enTop,
        sw: swTop,
      });
    }
    pages[path] = jsonScript(SHELL_DATA_ID, variants);
  }
  return pages;
}

/**
 * The top of each staff screen (site header, title, subtitle; the workspace's tab strip and the open tab's
 * top) and of the public screens a device without a session opens, rendered for the server, once at
 * start, by the components the screens render it with: every role's variant in both languages, as the JSON
 * element the page's inline script picks from (shared/staff-shell.ts, issue 28). A screen whose title
 * changes changes here too: e2e/load-path.e2e.ts compares each variant with the screen the app renders.
 */
import i18next, { type TFunction } from 'i18next';
import type { ComponentProps, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { GUEST, SHELL_DATA_ID, SHELL_NAME, type ShellFacts, type ShellVariant } from '../shared/staff-shell';
import { openTabId, type TabId, WORKSPACE_TABS, type WorkspaceRole } from './features/ops/tab-list';
import { WorkspaceTop } from './features/ops/WorkspaceTop';
import { en } from './i18n/en';
import { renderInLanguage } from './i18n/landing';
import { landingEn } from './i18n/landing-en';
import { landingSw } from './i18n/landing-sw';
import { staffEn } from './i18n/staff-en';
import { staffSw } from './i18n/staff-sw';
import { sw } from './i18n/sw';
import { jsonScript } from './prerendered';
import { Header } from './ui/Header';
import { Page } from './ui/Page';

type Language = 'en' | 'sw';

/** The workspace catalog's `t` (namespace `staff`). */
type WorkspaceT = ComponentProps<typeof WorkspaceTop>['t'];

/** One screen's top for one role, the way the screen's first render has it (before any data). */
interface ShellSpec {
  role: string;
  linked?: boolean;
  title: (t: TFunction) => string;
  subtitle?: (t: TFunction) => string;
  wide?: boolean;
  /** Under the title: the workspace's tab strip and the open tab's top. */
  body?: (t: WorkspaceT, facts: ShellFacts) => ReactNode;
}

/**
 * The workspace for `role` at a tab's page (`tab`) or a bare /ops (undefined): its strip and the open
 * tab's top (WorkspaceTop). None for a tab `role` lacks.
 */
function workspaceSpec(role: WorkspaceRole, tab: TabId | undefined): ShellSpec[] {
  const open = openTabId(role, tab, '');
  if (!open) return [];
  return [
    {
      role,
      title: (t) => t(role === 'ADMIN' ? 'staff:workspace.admin' : 'staff:workspace.ops'),
      wide: true,
      body: (t, facts) => (
        <WorkspaceTop t={t} role={role} tab={open} activityRetentionDays={facts.activityRetentionDays} />
      ),
    },
  ];
}

const workspace = (tab?: TabId) => [...workspaceSpec('ADMIN', tab), ...workspaceSpec('OPS', tab)];

/** Per route of client/routes.tsx (the same paths as the server's page routes). */
export const STAFF_SHELLS: Record<string, ShellSpec[]> = {
  // OpsPage: the workspace's name by role, wide, no subtitle; its tab strip and the open tab's top. A
  // bare /ops opens each role's first tab; each tab has a page of its own.
  '/ops/:tab?': workspace(),
  ...Object.fromEntries(WORKSPACE_TABS.map((tab) => [`/ops/${tab}`, workspace(tab)])),
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
  '/order': [{ role: 'CUSTOMER', title: (t) => t('order.title'), subtitle: (t) => t('order.subtitle') }],
  // The public screens, for a device without a session (a signed-in one is sent on by the app).
  '/login': [{ role: GUEST, title: (t) => t('login.title') }],
  '/register': [{ role: GUEST, title: (t) => t('register.title'), subtitle: (t) => t('register.subtitle') }],
  '/forgot-password': [{ role: GUEST, title: (t) => t('forgot.title') }],
  '/articles': [
    {
      role: GUEST,
      title: (t) => t('landing:articles.title'),
      subtitle: (t) => t('landing:articles.subtitle'),
    },
  ],
};

async function catalogs() {
  const instance = i18next.createInstance();
  await instance.init({
    resources: {
      en: { translation: en, staff: staffEn, landing: landingEn },
      sw: { translation: sw, staff: staffSw, landing: landingSw },
    },
    lng: 'en',
    fallbackLng: 'en',
    ns: ['translation', 'staff', 'landing'],
    // React escapes what it renders (as in client/i18n/index.ts).
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (language: Language) => ({
    t: instance.getFixedT(language),
    staff: instance.getFixedT(language, 'staff') as unknown as WorkspaceT,
  });
}

function renderTop(
  path: string,
  spec: ShellSpec,
  { t, staff }: { t: TFunction; staff: WorkspaceT },
  facts: ShellFacts,
): string {
  return renderToString(
    <StaticRouter location={path.replace('/:tab?', '')}>
      <Header />
      <Page title={spec.title(t)} subtitle={spec.subtitle?.(t)} wide={spec.wide}>
        {spec.body?.(staff, facts)}
      </Page>
    </StaticRouter>,
  );
}

/** Each route's (and workspace tab page's) variants as the JSON element its page carries, by path. */
export async function renderStaffShells(facts: ShellFacts): Promise<Record<string, string>> {
  const tFor = await catalogs();
  const pages: Record<string, string> = {};
  for (const [path, specs] of Object.entries(STAFF_SHELLS)) {
    const variants: ShellVariant[] = [];
    for (const spec of specs) {
      const [enTop, swTop] = [
        await renderInLanguage('en', () => renderTop(path, spec, tFor('en'), facts)),
        await renderInLanguage('sw', () => renderTop(path, spec, tFor('sw'), facts)),
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

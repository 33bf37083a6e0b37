import { Suspense, useEffect, useRef } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { useStaffT } from '../../i18n/staff';
import { useSession } from '../../session';
import { AfterFirstAnswers } from '../../ui/AfterFirstAnswers';
import { Page } from '../../ui/Page';
import { TelegramPanel } from '../ops-telegram/TelegramPanel';
import { TabPanel, TabStrip } from './TabStrip';
import type { TabId } from './tab-list';
import { openTab, preloadOpenTab, preloadTab, tabsFor, type WorkspaceRole } from './tabs';

/** Longest the open tab waits for an idle moment to be scrolled into sight (a phone busy loading a screen). */
const REVEAL_WAIT_MS = 3_000;

const warm = (id: TabId) => void preloadTab(id).catch(() => {});
const workspaceRole = (role: string | undefined): WorkspaceRole => (role === 'ADMIN' ? 'ADMIN' : 'OPS');

/** The open tab's chunk, for the page's first render to wait for (client/routes.tsx). */
export function preloadWorkspaceTab(role: string | undefined, pathname: string, hash: string) {
  return preloadOpenTab(workspaceRole(role), pathname, hash);
}

/**
 * /ops: ADMIN gets every tab; OPS only stock, costs and fleet (spec section 2, Workspace). Each tab has
 * an address (/ops/orders; /ops#orders works too), so tabs link to each other and Back returns to the
 * previous tab.
 */
export function OpsPage() {
  const { t } = useStaffT();
  const session = useSession();
  const role = workspaceRole(session?.role);
  const tabs = tabsFor(role);
  const { tab } = useParams();
  const { hash } = useLocation();
  const current = openTab(role, tab, hash);
  const activeRef = useRef<HTMLAnchorElement>(null);
  const activeId = current?.id;
  useEffect(() => {
    // The strip scrolls on a phone: keep the open tab in sight. Once the browser is idle, when its layout
    // is up to date, rather than as the app renders over the screen the server drew: a scroll then made
    // the browser lay out the page inside the script, and again after each chart measured itself.
    const active = activeRef.current;
    if (!activeId || !active) return;
    const reveal = () => active.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    if (typeof requestIdleCallback === 'undefined') {
      const timer = setTimeout(reveal, 0);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(reveal, { timeout: REVEAL_WAIT_MS });
    return () => cancelIdleCallback(idle);
  }, [activeId]);

  // A tab this role does not have (or a mistyped one): the workspace's first tab.
  if (!current) return <Navigate to="/ops" replace />;

  return (
    <Page title={role === 'ADMIN' ? t('workspace.admin') : t('workspace.ops')} wide>
      <TabStrip
        t={t}
        tabs={tabs.map((tab) => tab.id)}
        current={current.id}
        activeRef={activeRef}
        // Its chunk, as the finger or the pointer reaches it: on a slow phone the tab then opens at once.
        onWarm={warm}
      />
      <TabPanel id={current.id}>
        <Suspense fallback={<p className="muted">{t('workspace.loadingTab')}</p>}>
          <current.view.Component role={role} />
        </Suspense>
      </TabPanel>
      {/* Under every tab: shown once the tab's first answers are in, so it is never pushed down. */}
      {role === 'ADMIN' ? (
        <AfterFirstAnswers>
          <TelegramPanel />
        </AfterFirstAnswers>
      ) : null}
    </Page>
  );
}

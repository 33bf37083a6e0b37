import type { ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import type { StaffT } from '../../i18n/staff';
import { type TabId, tabLabel } from './tab-list';
import { tabPath } from './tab-props';

/**
 * The workspace's tab strip: OpsPage's, and the one the server puts into a tab's page before the app
 * has loaded (client/staff-shell.tsx), so both are the same markup.
 */
export function TabStrip({
  t,
  tabs,
  current,
  activeRef,
  onWarm,
}: {
  t: StaffT;
  tabs: readonly TabId[];
  current: TabId;
  activeRef?: Ref<HTMLAnchorElement>;
  /** A tab's link is about to be used (touched, hovered, focused): load its chunk. */
  onWarm?: (id: TabId) => void;
}) {
  return (
    <div role="tablist" aria-label={t('workspace.sections')} className="tabs">
      {tabs.map((id) => (
        <Link
          key={id}
          to={tabPath(id)}
          ref={id === current ? activeRef : undefined}
          role="tab"
          id={`tab-${id}`}
          aria-selected={id === current}
          aria-controls={`panel-${id}`}
          className={id === current ? 'tab tab--active' : 'tab'}
          onPointerEnter={onWarm && (() => onWarm(id))}
          onTouchStart={onWarm && (() => onWarm(id))}
          onFocus={onWarm && (() => onWarm(id))}
        >
          {tabLabel(t, id)}
        </Link>
      ))}
    </div>
  );
}

/** The open tab's panel, around the tab (or, in the server's page, around its top). */
export function TabPanel({ id, children }: { id: TabId; children?: ReactNode }) {
  return (
    <div role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`} className="tab-panel">
      {children}
    </div>
  );
}

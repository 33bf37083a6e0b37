import type { ReactNode } from 'react';
import type { StaffT } from '../../i18n/staff';
import type { TabId } from './tab-list';

/** A tab's heading and the line of explanation under it. */
export interface TabTop {
  heading: string;
  intro: string;
}

/**
 * The tabs that open with a heading and a line of explanation, and their words. That line is the largest
 * text of the tab, so the server puts it into the tab's page (client/staff-shell.tsx) and a slow phone
 * shows it with the HTML instead of after the app code (issue 28: 1.9 s on Slow 4G with a 4× slower CPU).
 */
export const TAB_TOPS = {
  audit: (t: StaffT): TabTop => ({ heading: t('tabs.audit'), intro: t('audit.intro') }),
  trips: (t: StaffT): TabTop => ({ heading: t('trips.heading'), intro: t('trips.intro') }),
  /** `days`: how long the action log is kept (the server's ACTIVITY_RETENTION_DAYS). */
  activity: (t: StaffT, days: number): TabTop => ({
    heading: t('tabs.activity'),
    intro: t('activity.intro', { days }),
  }),
} satisfies Partial<Record<TabId, (t: StaffT, days: number) => TabTop>>;

/** A tab's section: its heading (labelling it) and its line, then the tab. */
export function TabSection({ tab, top, children }: { tab: TabId; top: TabTop; children?: ReactNode }) {
  return (
    <section aria-labelledby={`${tab}-heading`}>
      <h2 id={`${tab}-heading`}>{top.heading}</h2>
      <p className="muted">{top.intro}</p>
      {children}
    </section>
  );
}

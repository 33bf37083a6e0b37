import type { StaffT } from '../../i18n/staff';
import { TAB_TOPS, TabSection } from './TabSection';
import { TabPanel, TabStrip } from './TabStrip';
import type { TabId, WorkspaceRole } from './tab-list';
import { tabIdsFor } from './tab-list';

/**
 * Under the workspace's title in the server's page of a tab (client/staff-shell.tsx): the tab strip as
 * OpsPage renders it, and the open tab's heading and line when it opens with one (TAB_TOPS).
 */
export function WorkspaceTop({
  t,
  role,
  tab,
  activityRetentionDays,
}: {
  t: StaffT;
  role: WorkspaceRole;
  tab: TabId;
  activityRetentionDays: number;
}) {
  const top = tab in TAB_TOPS ? TAB_TOPS[tab as keyof typeof TAB_TOPS] : undefined;
  return (
    <>
      <TabStrip t={t} tabs={tabIdsFor(role)} current={tab} />
      <TabPanel id={tab}>
        {top ? <TabSection tab={tab} top={top(t, activityRetentionDays)} /> : null}
      </TabPanel>
    </>
  );
}

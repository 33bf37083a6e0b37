import { FleetPanel } from '../fleet/FleetPanel';
import type { TabProps } from '../ops/tab-props';

/** ADMIN and OPS may reassign a truck's driver from its card. */
export function FleetTab(_props: TabProps) {
  return <FleetPanel allowReassign />;
}

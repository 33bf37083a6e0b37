import { ComingLater } from '../../ui/Page';

export function CustomerPage() {
  return <ComingLater title="My Orders" />;
}

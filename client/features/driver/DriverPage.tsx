import { ComingLater } from '../../ui/Page';

export function DriverPage() {
  return <ComingLater title="Driver performance" />;
}

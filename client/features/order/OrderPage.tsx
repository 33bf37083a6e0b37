import { ComingLater } from '../../ui/Page';

export function OrderPage() {
  return <ComingLater title="Order sand" />;
}

import { ComingLater } from '../../ui/Page';

export function ArticlesPage() {
  return <ComingLater title="Daily logistics briefings" />;
}

import { ComingLater } from '../../ui/Page';

export function LandingPage() {
  return (
    <ComingLater
      title="Sand delivered by the truck load"
      subtitle="Coarse and smooth sand in 20-tonne loads, delivered around Thika and Juja."
    />
  );
}

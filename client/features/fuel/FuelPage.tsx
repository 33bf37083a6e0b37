import { ComingLater } from '../../ui/Page';

export function FuelPage() {
  return (
    <ComingLater
      title="Fuel and mileage monitor"
      subtitle="Capture pump readings, odometer photos, and notes. Dispatch instantly sees the history per truck."
    />
  );
}

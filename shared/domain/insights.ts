import { formatKes } from './format';

/** What the insight rules look at (gathered by the worker from the last days' rows). */
export interface InsightFacts {
  costSpikes: Array<{ plate: string; last7: number; usual7: number }>;
  paymentReviews: { count: number; oldestHours: number | null };
  idleLoadedTrucks: Array<{ plate: string; idleMinutes: number }>;
  stock: { tonnes: number; deliveredPerDay: number };
  pendingDuplicates: number;
  deliveredLast7: { loads: number; revenue: number };
  costsLast7: number;
}

export interface Insights {
  insights: string;
  alerts: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Plain sentences from the business's own figures; alerts are what someone should act on now. */
export function ruleInsights(f: InsightFacts): Insights {
  const lines: string[] = [];
  const alerts: string[] = [];
  const gross = f.deliveredLast7.revenue - f.costsLast7;
  lines.push(
    f.deliveredLast7.loads > 0
      ? `In the last 7 days ${plural(f.deliveredLast7.loads, 'load')} were delivered for ${formatKes(f.deliveredLast7.revenue)}; costs were ${formatKes(f.costsLast7)}, leaving ${formatKes(gross)} gross.`
      : `No loads were delivered in the last 7 days; costs were ${formatKes(f.costsLast7)}.`,
  );
  if (f.paymentReviews.count > 0) {
    const age =
      f.paymentReviews.oldestHours !== null
        ? `, the oldest waiting ${Math.round(f.paymentReviews.oldestHours)} h`
        : '';
    const text = `${plural(f.paymentReviews.count, 'payment confirmation')} ${f.paymentReviews.count === 1 ? 'waits' : 'wait'} for review${age}.`;
    lines.push(text);
    alerts.push(text);
  }
  for (const s of f.costSpikes) {
    const text = `${s.plate} spent ${formatKes(s.last7)} in 7 days, ${(s.last7 / Math.max(1, s.usual7)).toFixed(1)}× its usual ${formatKes(s.usual7)}.`;
    lines.push(text);
    alerts.push(text);
  }
  for (const t of f.idleLoadedTrucks) {
    const text = `${t.plate} has a load and has not moved for ${t.idleMinutes} minutes.`;
    lines.push(text);
    alerts.push(text);
  }
  if (f.stock.deliveredPerDay > 0) {
    const days = f.stock.tonnes / f.stock.deliveredPerDay;
    const text = `Yard stock of ${Math.round(f.stock.tonnes)} t lasts about ${days.toFixed(1)} days at the recent ${Math.round(f.stock.deliveredPerDay)} t a day.`;
    lines.push(text);
    if (days < 3) alerts.push(`Restock soon: ${text}`);
  } else {
    lines.push(`Yard stock stands at ${Math.round(f.stock.tonnes)} t.`);
  }
  if (f.pendingDuplicates > 0) {
    const text = `${plural(f.pendingDuplicates, 'duplicate entry', 'duplicate entries')} ${f.pendingDuplicates === 1 ? 'awaits' : 'await'} review in the audit console.`;
    lines.push(text);
    alerts.push(text);
  }
  return { insights: lines.join(' '), alerts };
}

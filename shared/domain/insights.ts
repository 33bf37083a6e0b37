import { formatCalendarDay, formatDuration, formatMoney, plural } from './format';

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

/** The insights paragraph's ceiling: a model's summary longer than this is not used (3–5 sentences fit). */
export const INSIGHTS_MAX_CHARS = 2_000;

export interface Insights {
  insights: string;
  alerts: string[];
}

/** Plain sentences from the business's own figures; alerts are what someone should act on now. */
export function ruleInsights(f: InsightFacts): Insights {
  const lines: string[] = [];
  const alerts: string[] = [];
  const gross = f.deliveredLast7.revenue - f.costsLast7;
  lines.push(
    f.deliveredLast7.loads > 0
      ? `In the last 7 days ${plural(f.deliveredLast7.loads, 'load')} ${f.deliveredLast7.loads === 1 ? 'was' : 'were'} delivered for ${formatMoney(f.deliveredLast7.revenue)}; costs were ${formatMoney(f.costsLast7)}, leaving ${formatMoney(gross)} gross.`
      : `No loads were delivered in the last 7 days; costs were ${formatMoney(f.costsLast7)}.`,
  );
  if (f.paymentReviews.count > 0) {
    const age =
      f.paymentReviews.oldestHours !== null
        ? `, the oldest waiting ${formatDuration(f.paymentReviews.oldestHours * 60)}`
        : '';
    const text = `${plural(f.paymentReviews.count, 'payment confirmation')} ${f.paymentReviews.count === 1 ? 'waits' : 'wait'} for review${age}.`;
    lines.push(text);
    alerts.push(text);
  }
  for (const s of f.costSpikes) {
    const text = `${s.plate} spent ${formatMoney(s.last7)} in 7 days, ${(s.last7 / Math.max(1, s.usual7)).toFixed(1)}× its usual ${formatMoney(s.usual7)}.`;
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

/** Yesterday's operations as the morning job reads them from delivered_loads and costs. */
export interface DayFigures {
  date: string;
  loads: number;
  tonnes: number;
  revenue: number;
  costs: number;
  topDriver: { name: string; loads: number } | null;
  busiestSite: string | null;
}

/**
 * The internal daily summary for staff (the AI tab and the ADMIN/OPS Telegram chats): yesterday's
 * figures, people and places, then what to act on today. Plain text lines; never published.
 */
export function dailySummary(day: DayFigures, facts: InsightFacts): string {
  const gross = day.revenue - day.costs;
  const lines = [
    day.loads > 0
      ? `${formatCalendarDay(day.date)}: ${plural(day.loads, 'load')}, ${formatMoney(day.revenue)} delivered.`
      : `${formatCalendarDay(day.date)}: no loads delivered.`,
    day.loads > 0
      ? `Crews delivered ${Math.round(day.tonnes)} t in ${plural(day.loads, 'load')} for ${formatMoney(day.revenue)}; after ${formatMoney(day.costs)} of costs the day closed ${formatMoney(gross)} gross.`
      : `Costs came to ${formatMoney(day.costs)}.`,
  ];
  if (day.topDriver)
    lines.push(`${day.topDriver.name} led the drivers with ${plural(day.topDriver.loads, 'load')}.`);
  if (day.busiestSite) lines.push(`The busiest destination was ${day.busiestSite}.`);
  lines.push(`The yard holds ${Math.round(facts.stock.tonnes)} t of sand this morning.`);
  const alerts = ruleInsights(facts).alerts;
  if (alerts.length > 0) lines.push('To act on today:', ...alerts.map((a) => `- ${a}`));
  else lines.push('Nothing waits for review.');
  return lines.join('\n');
}

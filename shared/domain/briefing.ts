import { formatKes } from './format';

export interface DayFacts {
  date: string;
  loads: number;
  tonnes: number;
  revenue: number;
  costs: number;
  topDriver: { name: string; loads: number } | null;
  busiestSite: string | null;
  stockTonnes: number;
  pendingPayments: number;
  alerts: string[];
}

export interface Briefing {
  title: string;
  topic: string;
  summary: string;
  body: string;
}

const dayName = (date: string) =>
  new Intl.DateTimeFormat('en-KE', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));

/** The morning briefing from yesterday's figures, as plain text paragraphs (never HTML). */
export function writeBriefing(f: DayFacts): Briefing {
  const gross = f.revenue - f.costs;
  const title =
    f.loads > 0
      ? `${dayName(f.date)}: ${f.loads} ${f.loads === 1 ? 'load' : 'loads'}, ${formatKes(f.revenue)} delivered`
      : `${dayName(f.date)}: a quiet day on the Thika road`;
  const summary =
    f.loads > 0
      ? `Crews delivered ${Math.round(f.tonnes)} t in ${f.loads} loads for ${formatKes(f.revenue)}; after ${formatKes(f.costs)} of costs the day closed ${formatKes(gross)} gross.`
      : `No loads were delivered; costs came to ${formatKes(f.costs)}. Yard stock stands at ${Math.round(f.stockTonnes)} t.`;
  const paragraphs = [summary];
  if (f.topDriver)
    paragraphs.push(
      `${f.topDriver.name} led the drivers with ${f.topDriver.loads} ${f.topDriver.loads === 1 ? 'load' : 'loads'}.`,
    );
  if (f.busiestSite) paragraphs.push(`The busiest destination was ${f.busiestSite}.`);
  paragraphs.push(`The yard holds ${Math.round(f.stockTonnes)} t of sand this morning.`);
  if (f.pendingPayments > 0)
    paragraphs.push(
      `${f.pendingPayments} payment ${f.pendingPayments === 1 ? 'confirmation waits' : 'confirmations wait'} for review before their loads can be scheduled.`,
    );
  if (f.alerts.length > 0) paragraphs.push(`To act on today: ${f.alerts.join(' ')}`);
  paragraphs.push(
    'Dispatch runs 06:30-19:00. Safe driving, and check loads are covered before leaving the yard.',
  );
  return { title, topic: 'Operations insight', summary, body: paragraphs.join('\n\n') };
}

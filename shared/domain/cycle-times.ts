/**
 * A delivered load's round trip from the geofence events of issue 16 (issue 17). There is no loading
 * event, so the yard stay splits at the load's scheduled time (or when it was assigned, if unscheduled):
 * before it the truck waits (yard wait), after it until the yard exit it is loading. The yard stay starts
 * when the truck came back to the yard (its previous YARD_ENTRY) when that is within YARD_LOOKBACK_H of the
 * exit, else at the scheduled time.
 */
export const CYCLE_PHASES = ['yardWait', 'loading', 'travelOut', 'onSite', 'return'] as const;
export type CyclePhase = (typeof CYCLE_PHASES)[number];
export const PHASE_LABELS: Record<CyclePhase, string> = {
  yardWait: 'yard wait',
  loading: 'loading',
  travelOut: 'travel out',
  onSite: 'time on site',
  return: 'return',
};
export const YARD_LOOKBACK_H = 12;

export interface TripEvents {
  /** The load's scheduled time, or when it was assigned. */
  plannedAt: Date;
  prevYardEntry: Date | null;
  yardExit: Date | null;
  siteEntry: Date | null;
  siteExit: Date | null;
  yardEntry: Date | null;
}

export type CycleTimes = Record<CyclePhase, number | null> & { total: number | null };

const minutes = (from: Date | null, to: Date | null) =>
  from && to && to >= from ? Math.round((to.getTime() - from.getTime()) / 60_000) : null;

export function cycleTimes(e: TripEvents): CycleTimes {
  let yardWait: number | null = null;
  let loading: number | null = null;
  if (e.yardExit) {
    const lookback = e.yardExit.getTime() - YARD_LOOKBACK_H * 3_600_000;
    const arrived =
      e.prevYardEntry && e.prevYardEntry.getTime() >= lookback && e.prevYardEntry <= e.yardExit
        ? e.prevYardEntry
        : null;
    const start = new Date(Math.min(e.plannedAt.getTime(), e.yardExit.getTime()));
    if (arrived) {
      const split = start > arrived ? start : arrived;
      yardWait = minutes(arrived, split);
      loading = minutes(split, e.yardExit);
    } else {
      yardWait = 0;
      loading = minutes(start, e.yardExit);
    }
  }
  const t: CycleTimes = {
    yardWait,
    loading,
    travelOut: minutes(e.yardExit, e.siteEntry),
    onSite: minutes(e.siteEntry, e.siteExit),
    return: minutes(e.siteExit, e.yardEntry),
    total: null,
  };
  const parts = CYCLE_PHASES.map((p) => t[p]);
  t.total = parts.every((v) => v !== null) ? parts.reduce((a, b) => a! + b!, 0) : null;
  return t;
}

export function medianOf(values: Array<number | null>): number | null {
  const s = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
}

export type PhaseMedians = Record<CyclePhase | 'total', number | null>;

export function medians(trips: CycleTimes[]): PhaseMedians {
  const out = {} as PhaseMedians;
  for (const p of [...CYCLE_PHASES, 'total'] as const) out[p] = medianOf(trips.map((t) => t[p]));
  return out;
}

/** Why a trip was slow: the phase furthest over its median, e.g. "time on site 95 min (usually 30)". */
export function slowCause(trip: CycleTimes, usual: PhaseMedians): string | null {
  let worst: { phase: CyclePhase; over: number } | null = null;
  for (const p of CYCLE_PHASES) {
    const v = trip[p];
    const m = usual[p];
    if (v === null || m === null) continue;
    const over = v - m;
    if (over > 0 && (!worst || over > worst.over)) worst = { phase: p, over };
  }
  if (!worst) return null;
  return `${PHASE_LABELS[worst.phase]} ${trip[worst.phase]} min (usually ${usual[worst.phase]})`;
}

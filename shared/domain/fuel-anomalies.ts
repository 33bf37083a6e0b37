/**
 * Checks a fuel log against the truck's own record (issue 17): a finding is an anomaly for operations to
 * review. GPS kilometres are the truck's tracked distance between the previous fill and this one; a fill
 * refills what was burnt since the previous one, so this fill's litres over those kilometres is the
 * interval's consumption.
 */
import type { FuelAnomalyKind } from '../enums';
import { formatNumber } from './format';

/** Consumption is judged once the truck has this many earlier fill intervals. */
export const CONSUMPTION_MIN_FILLS = 5;
/** The usual band: median ± 3 MAD. */
export const CONSUMPTION_MADS = 3;
/** A MAD of almost nothing (identical fills) would flag any change: the band is at least ± 5% of the median. */
export const CONSUMPTION_MIN_BAND = 0.05;
/** Odometer and GPS kilometres may differ by this fraction of the GPS kilometres. */
export const ODOMETER_GPS_TOLERANCE = 0.15;
/** Shorter intervals say too little about consumption or the odometer (GPS jitter, a top-up). */
export const MIN_INTERVAL_KM = 20;
/** Above this speed at capture time the truck cannot be at a pump. */
export const MOVING_KMH = 5;

export interface FuelCheckInput {
  litres: number | null;
  odometer: number | null;
  /** The truck's previous log (by capture time), not voided. */
  previous: { odometer: number | null } | null;
  tankCapacityL: number | null;
  /** GPS kilometres since the previous log; null without tracking over the interval. */
  gpsKm: number | null;
  /** The truck's GPS speed nearest the capture time (a fix within minutes); null when none. */
  speedKmh: number | null;
  /** L/100 km of the truck's earlier fill intervals (GPS kilometres), latest last. */
  history: number[];
}

export interface FuelFinding {
  kind: FuelAnomalyKind;
  detail: string;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The truck's usual consumption band, or null before it has enough fills. */
export function consumptionBand(history: number[]): { median: number; low: number; high: number } | null {
  if (history.length < CONSUMPTION_MIN_FILLS) return null;
  const med = median(history);
  const mad = median(history.map((v) => Math.abs(v - med)));
  const half = Math.max(CONSUMPTION_MADS * mad, CONSUMPTION_MIN_BAND * med);
  return { median: med, low: med - half, high: med + half };
}

/** L/100 km of an interval, or null when it is too short to say. */
export function litresPer100Km(litres: number | null, gpsKm: number | null): number | null {
  if (litres === null || litres <= 0 || gpsKm === null || gpsKm < MIN_INTERVAL_KM) return null;
  return (litres / gpsKm) * 100;
}

const r1 = (n: number) => Math.round(n * 10) / 10;
const km = (n: number) => `${formatNumber(r1(n))} km`;

export function checkFuelLog(input: FuelCheckInput): FuelFinding[] {
  const out: FuelFinding[] = [];
  const prevOdo = input.previous?.odometer ?? null;
  if (input.odometer !== null && prevOdo !== null && input.odometer < prevOdo)
    out.push({
      kind: 'ODOMETER_BACKWARDS',
      detail: `Odometer ${km(input.odometer)} is lower than the previous log's ${km(prevOdo)}.`,
    });
  if (input.litres !== null && input.tankCapacityL !== null && input.litres > input.tankCapacityL)
    out.push({
      kind: 'OVER_TANK_CAPACITY',
      detail: `${r1(input.litres)} L is more than the ${r1(input.tankCapacityL)} L tank holds.`,
    });
  const rate = litresPer100Km(input.litres, input.gpsKm);
  const band = consumptionBand(input.history);
  if (rate !== null && band && (rate < band.low || rate > band.high))
    out.push({
      kind: 'CONSUMPTION_OUTLIER',
      detail: `${r1(rate)} L/100 km over ${km(input.gpsKm!)} tracked; this truck usually uses ${r1(band.median)} (${r1(band.low)}–${r1(band.high)}) L/100 km.`,
    });
  if (input.odometer !== null && prevOdo !== null && input.odometer >= prevOdo && input.gpsKm !== null) {
    const odoKm = input.odometer - prevOdo;
    if (
      input.gpsKm >= MIN_INTERVAL_KM &&
      Math.abs(odoKm - input.gpsKm) > ODOMETER_GPS_TOLERANCE * input.gpsKm
    )
      out.push({
        kind: 'ODOMETER_GPS_MISMATCH',
        detail: `The odometer moved ${km(odoKm)} since the previous log; GPS tracked ${km(input.gpsKm)} (${Math.round(((odoKm - input.gpsKm) / input.gpsKm) * 100)}%).`,
      });
  }
  if (input.speedKmh !== null && input.speedKmh > MOVING_KMH)
    out.push({
      kind: 'TRUCK_MOVING',
      detail: `GPS shows the truck moving at ${Math.round(input.speedKmh)} km/h when the fill was captured.`,
    });
  return out;
}

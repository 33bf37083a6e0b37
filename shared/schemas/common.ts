/**
 * The building blocks every input schema is made of, so that a value the database cannot store (a NUL
 * byte, 2026-02-30, the year 275760, 1e-300 shillings, an id beyond PostgreSQL's integer) is refused
 * here, with a message a person can act on, and never reaches SQL. Each kind of field has a real bound.
 */
import { z } from 'zod';
import { formatMoney, formatNumber } from '../domain/format';

/** Upper bounds per kind of field: what the business can meet, well inside the columns' types. */
export const LIMITS = {
  /** One cost entry (KES). */
  amountKes: 100_000_000,
  /** One fuel bill (KES). */
  fuelCostKes: 10_000_000,
  /** A per-truck price override (KES). */
  perTruckKes: 10_000_000,
  /** Stock bought, per tonne (KES). */
  costPerTonneKes: 1_000_000,
  /** One load, and a truck's capacity (tonnes). */
  tonnes: 100,
  /** Trucks received in one stock receipt (fractions allowed). */
  stockTrucks: 1000,
  /** One fuel log (litres): more than any tanker carries. */
  litres: 10_000,
  /** An odometer reading (km): the seven digits of a truck's odometer. */
  odometerKm: 9_999_999,
  /** Road distance from the yard to a site (km). */
  distanceKm: 2000,
  /** PostgreSQL's integer: the largest id a row can have. */
  intId: 2_147_483_647,
} as const;

/** The years a calendar date or an instant may fall in. */
export const YEARS = { from: 2000, to: 2100 } as const;

export const COMMON_MESSAGES = {
  dateRange: `Choose a date between ${YEARS.from} and ${YEARS.to}.`,
  instant: 'Enter a valid date and time.',
  instantRange: `Enter a date and time between ${YEARS.from} and ${YEARS.to}.`,
  cents: 'Amounts in KES have at most two decimals (cents).',
} as const;

/** Forms send '' for a field left empty; null comes from JSON. Both mean "not given". */
export const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;
export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

// C0 controls (NUL to US), DEL and C1 controls: never typed by a person, and NUL cannot be stored at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// A multi-line note keeps its tabs and line breaks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_IN_NOTE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// Half of a UTF-16 surrogate pair on its own: not a character, and stored only as a replacement mark.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasControlCharacters(s: string, multiline = false): boolean {
  return (multiline ? CONTROL_IN_NOTE : CONTROL).test(s) || LONE_SURROGATE.test(s);
}

export interface TextOptions {
  /** How the messages name the field: 'Name', 'Site description'. */
  label: string;
  max: number;
  /** The field is required: the message when it is missing or blank after trimming. */
  required?: string;
  /** The message when it is missing or not text (default: `required`, else "<label> must be text."). */
  missing?: string;
  /** A multi-line note: tabs and line breaks are kept. */
  multiline?: boolean;
  /** The message above `max`, when the spec words it (default: "<label> is too long (at most n characters)."). */
  tooLong?: string;
}

/** Text a person typed: trimmed, at most `max` characters, without control characters. */
export function zText({ label, max, required, missing, multiline = false, tooLong }: TextOptions) {
  const text = z.string({ error: missing ?? required ?? `${label} must be text.` }).trim();
  return (required ? text.min(1, required) : text)
    .max(max, tooLong ?? `${label} is too long (at most ${max} characters).`)
    .refine((s) => !hasControlCharacters(s, multiline), `${label} cannot contain control characters.`);
}

/**
 * An id a person typed or a path carries (a truck, a driver, a device): trimmed, 1 to `max` characters,
 * no control characters. One message for all of it: no row can have such an id.
 */
export function zTextId(message: string, max = 64) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, message)
    .refine((s) => !hasControlCharacters(s), message);
}

/** A number given as text (a form field, a query string, a path) is read as one; nothing else is. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
export function numberFromText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  return DECIMAL.test(s) ? Number(s) : v;
}

/** An integer row id (body, query or path): positive and within PostgreSQL's integer. */
export function zIntId(message: string) {
  return z.preprocess(
    numberFromText,
    z.number({ error: message }).int(message).positive(message).max(LIMITS.intId, message),
  );
}

export interface NumberOptions {
  /** The message for a missing, non-numeric or too small value (the spec's wording where it has one). */
  message: string;
  /** Zero is allowed (a fuel bill, litres); otherwise the value must be greater than zero. */
  zero?: boolean;
  /** A smallest value above zero (a truck's capacity is at least 1 tonne). */
  min?: number;
  max: number;
  maxMessage: string;
  /** Decimal places allowed; 0 for whole numbers. */
  decimals: number;
  decimalsMessage: string;
}

function hasAtMostDecimals(v: number, places: number): boolean {
  return Number(v.toFixed(places)) === v;
}

/** A finite number within real bounds and with a fixed number of decimals (1e-300 and 1e308 refused). */
export function zNumber(o: NumberOptions) {
  let n = z.number({ error: o.message });
  n = o.zero ? n.min(0, o.message) : n.gt(0, o.message);
  if (o.min !== undefined) n = n.min(o.min, o.message);
  n = n.max(o.max, o.maxMessage);
  n =
    o.decimals === 0
      ? n.int(o.decimalsMessage)
      : n.refine((v) => hasAtMostDecimals(v, o.decimals), o.decimalsMessage);
  return z.preprocess(numberFromText, n);
}

/** How many rows a list answers: a whole number from 1 to `max`, `fallback` (`max`) when not given. */
export function zListLimit(max: number, fallback = max) {
  const message = `Ask for between 1 and ${max} rows.`;
  return zNumber({
    message,
    min: 1,
    max,
    maxMessage: message,
    decimals: 0,
    decimalsMessage: message,
  }).default(fallback);
}

/** Shillings: greater than zero (or zero when `zero`), at most `max`, at most two decimals. */
export function zKes(message: string, max: number = LIMITS.amountKes, zero = false) {
  return zNumber({
    message,
    zero,
    max,
    maxMessage: `Amounts are at most ${formatMoney(max)}.`,
    decimals: 2,
    decimalsMessage: COMMON_MESSAGES.cents,
  });
}

/** Tonnes (a load, a truck's capacity): at most 100 t, two decimals. */
export function zTonnes(message: string, options: { min?: number; maxMessage?: string } = {}) {
  return zNumber({
    message,
    ...(options.min !== undefined ? { min: options.min } : {}),
    max: LIMITS.tonnes,
    maxMessage: options.maxMessage ?? `Tonnes are at most ${LIMITS.tonnes}.`,
    decimals: 2,
    decimalsMessage: 'Tonnes have at most two decimals.',
  });
}

/** Trucks received into stock: fractions allowed (step 0.01), at most 1,000 in one receipt. */
export function zStockTrucks(message: string) {
  return zNumber({
    message,
    max: LIMITS.stockTrucks,
    maxMessage: `A receipt is at most ${formatNumber(LIMITS.stockTrucks)} trucks.`,
    decimals: 2,
    decimalsMessage: 'Trucks have at most two decimals.',
  });
}

/** Litres of fuel: zero or more, at most 10,000, two decimals. */
export function zLitres(message: string) {
  return zNumber({
    message,
    zero: true,
    max: LIMITS.litres,
    maxMessage: `Litres are at most ${formatNumber(LIMITS.litres)}.`,
    decimals: 2,
    decimalsMessage: 'Litres have at most two decimals.',
  });
}

/** An odometer reading in km: zero or more, seven digits, one decimal (as the column keeps it). */
export function zOdometerKm(message: string) {
  return zNumber({
    message,
    zero: true,
    max: LIMITS.odometerKm,
    maxMessage: `Odometer readings are at most ${formatNumber(LIMITS.odometerKm)} km.`,
    decimals: 1,
    decimalsMessage: 'Odometer readings have at most one decimal.',
  });
}

/** A road distance in km: greater than zero, at most 2,000, two decimals. */
export function zDistanceKm(message: string) {
  return zNumber({
    message,
    max: LIMITS.distanceKm,
    maxMessage: message,
    decimals: 2,
    decimalsMessage: message,
  });
}

const EARLIEST = Date.UTC(YEARS.from, 0, 1);
const LATEST = Date.UTC(YEARS.to + 1, 0, 1);

/** A calendar date as YYYY-MM-DD that exists (2026-02-30 and 0000-00-00 do not), within 2000–2100. */
export function zCalendarDate(message: string) {
  return z.iso
    .date({ error: message })
    .refine((s) => Date.parse(`${s}T00:00:00Z`) >= EARLIEST && Date.parse(`${s}T00:00:00Z`) < LATEST, {
      message: COMMON_MESSAGES.dateRange,
    });
}

/**
 * An instant as ISO 8601 (`2026-11-23T08:15:00Z`, an offset, or local time), or a Date from an in-process
 * caller; it must exist (no 30 February, no hour 25) and fall within 2000–2100. Parsed to a Date.
 */
export function zInstant(message: string = COMMON_MESSAGES.instant) {
  return z
    .preprocess(
      (v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString() : v),
      z.iso
        .datetime({ offset: true, local: true, error: message })
        .refine((s) => Date.parse(s) >= EARLIEST && Date.parse(s) < LATEST, {
          message: COMMON_MESSAGES.instantRange,
        }),
    )
    .transform((s) => new Date(s));
}

/** An instant that may be left out ('' and null mean "not given"). */
export function zOptionalInstant(message: string = COMMON_MESSAGES.instant) {
  return z.preprocess(blankToUndefined, zInstant(message).optional());
}

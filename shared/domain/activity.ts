/**
 * The staff action log's pure rules (issue 25): which fields a write changed, before → after, with secrets
 * never written down. Data in, data out.
 */

/** One changed field: what it was and what it became (null when the record did not exist / is gone). */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

export type Changes = Record<string, FieldChange>;

/** Field names that never reach the log, whatever their value: hashes, tokens, keys, one-time codes. */
const SECRET = /pass(word)?|hash|token|secret|api.?key|otp|one.?time|cookie|authori[sz]ation|signature/i;

/** Fields that change with every write and say nothing a person wants to read. */
const NOISE = new Set(['updatedAt', 'updated_at']);

export const REDACTED = '[redacted]';

export function isSecretField(name: string): boolean {
  return SECRET.test(name);
}

/** A value as JSON would carry it (dates as ISO strings, nested objects compared by their JSON). */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out[k] = isSecretField(k) ? REDACTED : plain(v);
    return out;
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between two versions of a record. A created record (before null) lists every
 * field it has; a removed one (after null) every field it had. Secret fields appear only as
 * `[redacted]` on both sides, so the log says a password changed without holding any trace of it.
 */
export function changesBetween(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Changes {
  const changes: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (NOISE.has(key)) continue;
    const from = before ? plain(before[key]) : null;
    const to = after ? plain(after[key]) : null;
    if (same(from, to)) continue;
    changes[key] = isSecretField(key)
      ? { from: before ? REDACTED : null, to: after ? REDACTED : null }
      : { from, to };
  }
  return changes;
}

/** Retention: entries older than this many days before `now` go (the daily job). */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 24 * 3600_000);
}

import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * A fixed list of codes from shared/enums.ts as SQL literals: `'SCHEDULED','IN_TRANSIT'`. Inline, not
 * bound, so the planner matches the partial indexes written with the same list and drizzle-kit sees the
 * same CHECK text as before. Only for the constant tuples of shared/ — never for user input. Numbers are
 * joined with ', ' and strings with ',' because that is how the existing constraints were written.
 */
export function sqlLiterals(values: readonly (string | number)[]): SQL {
  if (values.length === 0) throw new Error('sqlLiterals needs at least one value');
  const literals = values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`));
  return sql.raw(literals.join(values.every((v) => typeof v === 'number') ? ', ' : ','));
}

/** `<column> in ('A','B')`: a CHECK, a partial index or a query filter over one of shared/'s tuples. */
export function inList(column: AnyColumn | SQL, values: readonly (string | number)[]): SQL {
  return sql`${column} in (${sqlLiterals(values)})`;
}

import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers';
import { type Database, rows } from './db';
import * as schema from './schema';

// Every status and code column takes its values from one tuple in shared/enums.ts (or shared/roles.ts):
// the column's TypeScript type and its CHECK constraint are generated from it. These tests hold the
// migrated database (PGlite, or PostgreSQL with DATABASE_URL) to the same lists, so a tuple changed
// without a migration, or an enum column without a CHECK, fails here.

const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
const enumColumns = tables.flatMap((table) => {
  const { name, columns } = getTableConfig(table);
  return columns
    .filter((c) => (c.enumValues?.length ?? 0) > 0)
    .map((c) => ({ table: name, column: c.name, values: [...c.enumValues!] }));
});

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('enum columns and their CHECK constraints', () => {
  it('finds the enum columns of the schema', () => {
    expect(enumColumns.map((c) => `${c.table}.${c.column}`)).toEqual(
      expect.arrayContaining(['orders.status', 'orders.sand_type', 'assignments.status', 'users.role']),
    );
    expect(enumColumns.length).toBeGreaterThanOrEqual(25);
  });

  it.each(enumColumns.map((c) => [`${c.table}.${c.column}`, c] as const))(
    '%s allows exactly its tuple in the database',
    async (_, c) => {
      const found = await rows<{ def: string }>(
        database.db,
        sql`select pg_get_constraintdef(k.oid) as def
          from pg_constraint k join pg_class t on t.oid = k.conrelid
          where t.relname = ${c.table} and k.contype = 'c'`,
      );
      // PostgreSQL answers `CHECK ((col = ANY (ARRAY['A'::text, 'B'::text])))` for `col in ('A','B')`.
      const mine = found.map((r) => r.def).filter((d) => new RegExp(`\\(\\(?${c.column} = ANY`).test(d));
      expect(mine, `${c.table}.${c.column} has one CHECK over its values`).toHaveLength(1);
      const allowed = [...mine[0]!.matchAll(/'([^']*)'::text/g)].map((m) => m[1]);
      expect(allowed).toEqual(c.values);
    },
  );
});

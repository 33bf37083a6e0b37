import { defineConfig } from 'drizzle-kit';

// Migrations are generated as plain SQL and applied at start by drizzle/db.ts on both PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './drizzle/schema.ts',
  out: './drizzle/migrations',
});

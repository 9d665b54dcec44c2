import { defineConfig } from 'drizzle-kit';

// `pnpm db:generate` writes a migration into ./drizzle whenever src/db/schema.ts changes; the
// server applies them at start (drizzle-orm's migrator). The sessauth tables come in through
// the schema's re-export, like any table of the app's own.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './drizzle',
});

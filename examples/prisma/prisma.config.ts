import { defineConfig } from 'prisma/config';

// The schema is a folder: the app's models (schema.prisma) beside sessauth's (sessauth.prisma,
// copied from @sessauth/prisma). `prisma migrate deploy` applies ./prisma/migrations, the app's
// own and sessauth's (copied from the package) alike.
export default defineConfig({
  schema: 'prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: `file:${(process.env.SESSAUTH_STORE?.trim() || 'sqlite:./.data/sessauth.db').replace(/^sqlite:/, '')}` },
});

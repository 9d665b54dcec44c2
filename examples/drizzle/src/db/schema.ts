// The app's drizzle schema. The sessauth tables join it with one re-export: drizzle-kit puts them
// in the app's migrations, and `db` knows them like any other table.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export * from '@sessauth/drizzle/sqlite';

/** The app's own users. sessauth never reads this table: the UserPort in ../users.ts does. */
export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  /** Changes with the password (or a forced sign-out): every session made under the old one ends. */
  securityStamp: text('security_stamp').notNull(),
  isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
});

export type User = typeof users.$inferSelect;

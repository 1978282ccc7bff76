import { jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Contract with notifications: docs/architecture.md "Preferences". A missing row means the defaults. */
export const userPreferences = pgTable('user_preferences', {
  userId: uuid('user_id').primaryKey(),
  prefs: jsonb('prefs').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

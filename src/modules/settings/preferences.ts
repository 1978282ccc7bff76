import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Executor } from '../../db/client.js';

/**
 * The preferences contract (docs/architecture.md): notifications reads it to choose channels. A missing row,
 * or a field missing from a stored row, means the default.
 */
export const LANGUAGES = ['en', 'yo', 'ha', 'ig', 'pcm'] as const;
export const THEMES = ['system', 'light', 'dark'] as const;
export const PREF_NETWORKS = ['mtn', 'airtel', 'glo', '9mobile'] as const;

export const preferencesSchema = z.object({
  notifications: z.object({ email: z.boolean(), push: z.boolean(), sms: z.boolean() }),
  marketingOptIn: z.boolean(),
  language: z.enum(LANGUAGES),
  theme: z.enum(THEMES),
  defaultNetwork: z.enum(PREF_NETWORKS).nullable(),
});

export type Preferences = z.infer<typeof preferencesSchema>;

export const DEFAULT_PREFERENCES: Preferences = {
  notifications: { email: true, push: true, sms: false },
  marketingOptIn: false,
  language: 'en',
  theme: 'system',
  defaultNetwork: null,
};

/** Partial update: every field optional, nested notification channels too; unknown fields refused. */
export const preferencesPatch = z.object({
  notifications: z
    .object({
      email: z.boolean({ error: 'notifications.email must be true or false' }).optional(),
      push: z.boolean({ error: 'notifications.push must be true or false' }).optional(),
      sms: z.boolean({ error: 'notifications.sms must be true or false' }).optional(),
    })
    .strict()
    .optional(),
  marketingOptIn: z.boolean({ error: 'marketingOptIn must be true or false' }).optional(),
  language: z.enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` }).optional(),
  theme: z.enum(THEMES, { error: `theme must be one of ${THEMES.join(', ')}` }).optional(),
  defaultNetwork: z
    .enum(PREF_NETWORKS, { error: `defaultNetwork must be one of ${PREF_NETWORKS.join(', ')} or null` })
    .nullable()
    .optional(),
});

export type PreferencesPatch = z.infer<typeof preferencesPatch>;

/** Stored JSON merged over the defaults; a value that no longer fits the schema falls back to its default. */
export function normalisePreferences(stored: unknown): Preferences {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const n = (s.notifications && typeof s.notifications === 'object' ? s.notifications : {}) as Record<string, unknown>;
  const pick = <T>(schema: z.ZodType<T>, v: unknown, d: T): T => {
    const r = schema.safeParse(v);
    return r.success ? r.data : d;
  };
  const d = DEFAULT_PREFERENCES;
  return {
    notifications: {
      email: pick(z.boolean(), n.email, d.notifications.email),
      push: pick(z.boolean(), n.push, d.notifications.push),
      sms: pick(z.boolean(), n.sms, d.notifications.sms),
    },
    marketingOptIn: pick(z.boolean(), s.marketingOptIn, d.marketingOptIn),
    language: pick(z.enum(LANGUAGES), s.language, d.language),
    theme: pick(z.enum(THEMES), s.theme, d.theme),
    defaultNetwork: pick(z.enum(PREF_NETWORKS).nullable(), s.defaultNetwork, d.defaultNetwork),
  };
}

export function applyPatch(current: Preferences, patch: PreferencesPatch): Preferences {
  return {
    notifications: { ...current.notifications, ...stripUndefined(patch.notifications ?? {}) },
    marketingOptIn: patch.marketingOptIn ?? current.marketingOptIn,
    language: patch.language ?? current.language,
    theme: patch.theme ?? current.theme,
    defaultNetwork: patch.defaultNetwork === undefined ? current.defaultNetwork : patch.defaultNetwork,
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** For other modules (notifications): the user's preferences with defaults applied. */
export async function readPreferences(exec: Executor, userId: string): Promise<Preferences> {
  const r = await one<{ prefs: unknown }>(exec, sql`SELECT prefs FROM user_preferences WHERE user_id = ${userId}`);
  return normalisePreferences(r?.prefs);
}

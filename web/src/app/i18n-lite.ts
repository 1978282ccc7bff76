import { useSyncExternalStore } from 'react';

/**
 * The translation lookup the app runs: what `i18next` and `react-i18next` resolve to in the app's build and dev
 * server (web/vite.config.mts), in 1 KB instead of their 17 KB gzip on the first screen. The code keeps importing
 * them by name, so their types stay: t() keys are checked against the English strings through i18next's
 * `CustomTypeOptions` (web/src/app/i18n.ts). Vitest runs the components on i18next itself, and i18n-lite.test.ts
 * checks that this file answers as i18next does for every key of every language. What the app uses of them, and all
 * this implements:
 *
 * - `t(key, options)`: a dotted key in the active language's strings; `{{name}}` placeholders filled from options;
 *   `count` picks `key_zero` (count 0, when present), then `key_<plural category>` (Intl.PluralRules of the
 *   language), then `key_other`; `defaultValue` when the key is missing, else the key itself (as i18next does).
 * - `exists(key)`, `language`, `init({ lng, resources })`, `use(plugin)` (plugins are not run: there are none
 *   besides the React binding, which is this file's hook), `addResourceBundle`, `hasResourceBundle`,
 *   `changeLanguage` (re-renders every component that called useTranslation).
 * - `useTranslation()`: `{ t, i18n, ready }`; `initReactI18next`.
 *
 * Anything else of i18next's API (namespaces, nesting with $t(), formatters, context, returnObjects, <Trans>) is not
 * here: a call to it fails the type check only if i18next's types reject it, so keep to the list above.
 */
type Strings = { [key: string]: unknown };
type Options = { [name: string]: unknown; count?: number; defaultValue?: string };
type Resources = Record<string, Record<string, Strings>>;

const bundles = new Map<string, Strings>();
const rules = new Map<string, Intl.PluralRules>();
const listeners = new Set<() => void>();
let language = 'en';

function lookup(key: string): unknown {
  let v: unknown = bundles.get(language);
  for (const part of key.split('.')) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Strings)[part];
  }
  return v;
}

function pluralCategory(count: number): string {
  let r = rules.get(language);
  if (!r) {
    // Nigerian Pidgin has no plural data in every browser: English's rules, which it shares.
    r = Intl.PluralRules.supportedLocalesOf([language]).length ? new Intl.PluralRules(language) : new Intl.PluralRules('en');
    rules.set(language, r);
  }
  return r.select(count);
}

function resolve(key: string, options?: Options): string | undefined {
  const count = options?.count;
  if (typeof count === 'number') {
    const tries = [`${key}_${pluralCategory(count)}`, `${key}_other`];
    if (count === 0) tries.unshift(`${key}_zero`);
    for (const k of tries) {
      const v = lookup(k);
      if (typeof v === 'string') return v;
    }
  }
  const v = lookup(key);
  return typeof v === 'string' ? v : undefined;
}

function t(key: string, options?: Options): string {
  const text = resolve(key, options) ?? options?.defaultValue ?? key;
  if (!options) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const v = options[name];
    return v === undefined || v === null ? '' : String(v);
  });
}

function setLanguage(lng: string) {
  language = lng;
  tBound = (key, options) => t(key, options);
  for (const l of listeners) l();
}

/** The function components get: a new one when the language changes, so memos that depend on it recompute. */
let tBound: typeof t = (key, options) => t(key, options);

const i18n = {
  get language() {
    return language;
  },
  t: (key: string, options?: Options) => t(key, options),
  exists: (key: string, options?: Options) => resolve(key, options) !== undefined,
  use(_plugin: unknown) {
    return i18n;
  },
  async init(options: { lng?: string; resources?: Resources } = {}) {
    bundles.clear();
    for (const [lng, namespaces] of Object.entries(options.resources ?? {}))
      if (namespaces.translation) bundles.set(lng, namespaces.translation);
    setLanguage(options.lng ?? 'en');
    return i18n.t;
  },
  addResourceBundle(lng: string, _ns: string, strings: Strings) {
    bundles.set(lng, { ...bundles.get(lng), ...strings });
    if (lng === language) setLanguage(lng);
    return i18n;
  },
  hasResourceBundle: (lng: string, _ns: string) => bundles.has(lng),
  async changeLanguage(lng: string) {
    setLanguage(lng);
    return i18n.t;
  },
};

export default i18n;

/** react-i18next's plugin object: nothing to set up, the hook below reads this file's state. */
export const initReactI18next = { type: '3rdParty' as const, init() {} };

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useTranslation() {
  const tNow = useSyncExternalStore(subscribe, () => tBound);
  return { t: tNow, i18n, ready: true };
}

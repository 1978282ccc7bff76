import type { ComponentType } from 'react';
import type { z } from 'zod';
import type { vtuQueries } from '../api/queries/vtu';

/**
 * The app side of a service kind (issue 32): a kind that has a buy screen keeps it in its own folder of the buy feature,
 * web/src/features/buy/kinds/<kind>/ (the folder named as the kind's folder in src/modules/vtu/kinds/), and the app finds
 * it there (import.meta.glob), listed nowhere by hand:
 * - `tab.ts`: its tab on the buy screen, `export const tab: KindTab` (its service key, place and label in each
 *   language), and its service key added to `BuyTabs` (below);
 * - `screen.tsx`: `Screen`, what its tab shows, and optionally `Result`, its part of the purchase's result screen;
 * - `icon.svg` and `icon.css`: its tile's icon on the service grid of the buy and home screens (app/ServiceGrid.tsx),
 *   a 24 × 24 line drawing, and the rule that gives it to its tile (`.service-tile[data-kind='<kind>']`, the folder's
 *   name, sets `--icon: url('./icon.svg')`): found by the grid, stylesheet only;
 * - `schemas.ts` (when its screen has forms of its own): its forms' rules, taken from its inputs.ts, and
 *   `export const forms = (): KindForms => [...]`, the operation each form fills (test/web/form-schemas.test.ts finds
 *   it and checks every field against that operation's input);
 * - `strings-<lang>.ts`, one per language of app/i18n.ts: `export const strings`, its keys added to `KindStrings` by
 *   the English file (the other languages are typed `Translation<typeof en>` against it); they load with the buy screen.
 * It may import its own kind's inputs.ts and names.ts (src/modules/vtu/kinds/<kind>/, written once for both sides), the
 * kernel, the app's shared parts (web/src components/, api/, app/) and the buy feature's purchase steps and shared forms:
 * nothing else of the service and no other kind's folder. Its tab.ts and strings-<lang>.ts are read by app/kind-tabs.ts
 * and locales/kinds-<lang>.ts, so they import only this file's types and their English strings' type
 * (.dependency-cruiser.cjs).
 */

/** A kind's service key on the buy screen (the `service` of /buy's search, drafts, "buy again"): each tab.ts adds its own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BuyTabs {}
export type BuyService = keyof BuyTabs & string;

export interface KindTab {
  service: BuyService;
  /** Its place among the tabs, smallest first (the first one is the buy screen's default). */
  order: number;
  /**
   * Its tab's label in each language of app/i18n.ts: also how the app names the kind's purchases (the home screen's
   * activity lines, the transactions list: app/kind-tabs.ts), so every kind's tab.ts is part of the first screens.
   */
  label: Record<'en' | 'ha' | 'pcm' | 'yo', string>;
}

/** The purchase the result screen shows: a kind's `Result` draws its own part (or nothing when it is not its). */
export type KindResultProps = { tx: Awaited<ReturnType<NonNullable<ReturnType<typeof vtuQueries.transaction>['queryFn']>>> };
export type KindScreen = { Screen: ComponentType; Result?: ComponentType<KindResultProps> };

/**
 * A kind's forms and the operation each fills, [operation, form schema]: what its schemas.ts `forms()` returns (a
 * function, so the app's build drops it: only the test calls it).
 */
export type KindForms = [operation: string, form: z.ZodObject][];

/** The kinds' strings (English, the typed keys of t()): each kind's strings-en.ts adds its own top-level keys. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface KindStrings {}

/** Another language's strings of a kind: the same keys as its English ones. */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };

import { Fragment, createElement, type ComponentChildren } from 'preact';

/**
 * What `react` and `react-dom` resolve to in the build (web/vite.config.mts): Preact 11's React compatibility layer,
 * which has the React 19 APIs our libraries call (`use`, `useEffectEvent`, ref as a prop, context as provider),
 * plus `<Activity>`, which it lacks. Mantine renders `<Activity>` only for `keepMounted` panels (Collapse, Tabs,
 * Stepper, Transition); here a hidden one is not rendered at all (its state is not kept while hidden, which no
 * screen of ours relies on: none sets keepMounted).
 */
// @ts-expect-error -- preact/compat's typings are `export =` (a namespace); the module itself has ES named exports.
export * from 'preact/compat';
export { default } from 'preact/compat';

export function Activity({ mode = 'visible', children }: { mode?: 'visible' | 'hidden'; children?: ComponentChildren }) {
  return mode === 'hidden' ? null : createElement(Fragment, null, children);
}

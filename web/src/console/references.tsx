import { Anchor } from '@mantine/core';
import { Fragment } from 'react';
import { ConsoleLink, type ConsoleTarget } from './nav';

/** A purchase (`vtu_`) or top-up (`top_`) reference: its prefix and 26 ULID characters, found in any case. */
const REFERENCE = /\b(vtu|top)_([0-9a-z]{26})\b/gi;

/** A part of a text: plain words, or a reference as the service writes it (lower-case prefix, upper-case rest). */
export type TextPart = { text: string } | { reference: string };

/** The text in order, each purchase or top-up reference in it a part of its own. */
export function splitReferences(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(REFERENCE)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index) });
    parts.push({ reference: `${m[1].toLowerCase()}_${m[2].toUpperCase()}` });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** Where a reference is looked up: a purchase in the Transactions screen's search, a top-up in Top-ups, each filtered to it. */
export function referenceTarget(reference: string): ConsoleTarget {
  return reference.startsWith('top_')
    ? { to: '/console/topups', search: { kind: 'intents', reference } }
    : { to: '/console/transactions', search: { t_reference: reference } };
}

/** A reference as a link to the screen that shows it. */
export function ReferenceLink({ reference }: { reference: string }) {
  return (
    <Anchor component={ConsoleLink} link={referenceTarget(reference)} style={{ overflowWrap: 'anywhere' }}>
      {reference}
    </Anchor>
  );
}

/** A text (a support message) with its purchase and top-up references as links. */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {splitReferences(text).map((p, i) =>
        'reference' in p ? <ReferenceLink key={i} reference={p.reference} /> : <Fragment key={i}>{p.text}</Fragment>,
      )}
    </>
  );
}

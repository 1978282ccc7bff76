import { describe, expect, it } from 'vitest';
import { referenceTarget, splitReferences } from './references';

/** Issue 44: a support message's purchase and top-up references become links to the screens that show them. */
const PURCHASE = 'vtu_01JD5Z8Q2W3E4R5T6Y7U8A9B0P';
const TOPUP = 'top_01JD5Z8Q2W3E4R5T6Y7U8V9W0X';

describe('references in a text', () => {
  it('splits out each purchase and top-up reference, in order, the rest kept as it is', () => {
    expect(splitReferences(`Paid ${TOPUP} but ${PURCHASE}, failed.`)).toEqual([
      { text: 'Paid ' },
      { reference: TOPUP },
      { text: ' but ' },
      { reference: PURCHASE },
      { text: ', failed.' },
    ]);
    expect(splitReferences(PURCHASE)).toEqual([{ reference: PURCHASE }]);
    expect(splitReferences('no reference here')).toEqual([{ text: 'no reference here' }]);
  });

  it('reads a reference typed in another case as the service writes it, and nothing shorter, longer or unknown', () => {
    expect(splitReferences(`ref ${TOPUP.toLowerCase()}`)).toEqual([{ text: 'ref ' }, { reference: TOPUP }]);
    for (const text of [TOPUP.slice(0, -1), `${TOPUP}A`, `trf_${TOPUP.slice(4)}`, `x${TOPUP}`])
      expect(splitReferences(text), text).toEqual([{ text }]);
  });

  it('opens a purchase in the Transactions search and a top-up in Top-ups, filtered to it', () => {
    expect(referenceTarget(PURCHASE)).toEqual({ to: '/console/transactions', search: { t_reference: PURCHASE } });
    expect(referenceTarget(TOPUP)).toEqual({ to: '/console/topups', search: { kind: 'intents', reference: TOPUP } });
  });
});

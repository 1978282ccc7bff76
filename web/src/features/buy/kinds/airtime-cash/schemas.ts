import { z } from 'zod';
import { otpCodeInput } from '../../../../../../src/modules/identity/inputs.js';
import { airtimeCashNumberInput, requestAirtimeCashInput } from '../../../../../../src/modules/vtu/kinds/airtime-cash/inputs.js';
import type { KindForms } from '../../../../app/kinds';

/** requestAirtimeCash without its PIN (the PIN pad confirms it) and the ported flag: network, sending number, amount. */
export const airtimeCashSchema = requestAirtimeCashInput.pick({ network: true, phone: true, amount: true });

/** Another sending number (sendAirtimeCashNumberCode), then the SMS code that proves it (verifyAirtimeCashNumber). */
export const sendingNumberSchema = airtimeCashNumberInput;
export const sendingNumberCodeSchema = z.object({ code: otpCodeInput });

/** The operation each form fills (web/src/app/kinds.ts KindForms). */
export const forms = (): KindForms => [
  ['requestAirtimeCash', airtimeCashSchema],
  ['sendAirtimeCashNumberCode', sendingNumberSchema],
  ['verifyAirtimeCashNumber', sendingNumberCodeSchema],
];

import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput } from '../../../../kernel/inputs.js';
import { networkInput, portedInput } from '../common-inputs.js';

/**
 * Airtime-to-cash inputs (issue 32), shared with the app's form (app/schemas.ts): this file imports only zod
 * and the kernel. The bounds of one request are configuration (AIRTIME_CASH_MIN / _MAX), checked by the service
 * and listed by listAirtimeCashNetworks; the schema holds the widest sane range.
 */
export const AIRTIME_CASH_STATUSES = ['awaiting', 'credited', 'expired', 'failed'] as const;

export const airtimeCashAmountInput = nairaAmount({ min: 1, max: 1_000_000 });

export const requestAirtimeCashInput = z.object({
  network: networkInput,
  /** The number the airtime will be sent from: the caller's verified phone or a number verified by SMS code. */
  phone: phoneInput,
  /** The airtime's face value, naira. */
  amount: airtimeCashAmountInput,
  pin: pinInput,
  ported: portedInput,
});

export const quoteAirtimeCashInput = z.object({ network: networkInput, amount: airtimeCashAmountInput });

export const airtimeCashNumberInput = z.object({ phone: phoneInput });

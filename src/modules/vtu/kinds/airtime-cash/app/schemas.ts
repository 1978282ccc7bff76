import { requestAirtimeCashInput } from '../inputs.js';

/** requestAirtimeCash without its PIN (the PIN pad confirms it) and the ported flag: network, sending number, amount. */
export const airtimeCashSchema = requestAirtimeCashInput.pick({ network: true, phone: true, amount: true });

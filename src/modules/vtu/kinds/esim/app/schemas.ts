import { buyEsimInput, destinationInput, topUpEsimInput } from '../inputs.js';

/** buyEsim's fields and the destination its plan list is read for; topUpEsim's eSIM and plan (the service's own rules). */
export const esimSchema = buyEsimInput.pick({ plan_id: true, phone: true }).extend({ destination: destinationInput });
export const esimTopUpSchema = topUpEsimInput.pick({ esim_id: true, plan_id: true });

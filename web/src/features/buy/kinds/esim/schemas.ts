import { buyEsimInput, destinationInput, topUpEsimInput } from '../../../../../../src/modules/vtu/kinds/esim/inputs.js';
import type { KindForms } from '../../../../app/kinds';

/** buyEsim's fields and the destination its plan list is read for; topUpEsim's eSIM and plan (the service's own rules). */
export const esimSchema = buyEsimInput.pick({ plan_id: true, phone: true }).extend({ destination: destinationInput });
export const esimTopUpSchema = topUpEsimInput.pick({ esim_id: true, plan_id: true });

/** The operation each form fills (web/src/app/kinds.ts KindForms): the form asks the destination first (listEsimPlans'
 * input), then buyEsim's fields. */
export const forms = (): KindForms => [
  ['buyEsim', esimSchema.omit({ destination: true })],
  ['listEsimPlans', esimSchema.pick({ destination: true })],
  ['topUpEsim', esimTopUpSchema],
];

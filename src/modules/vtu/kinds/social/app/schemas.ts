import { orderSocialInput } from '../inputs.js';
import type { KindForms } from '../../../../../../web/src/app/kinds';

/** orderSocial's fields (the service's own rules). */
export const socialSchema = orderSocialInput.pick({ service_id: true, link: true, quantity: true });

/** The operation each form fills (web/src/app/kinds.ts KindForms). */
export const forms = (): KindForms => [['orderSocial', socialSchema]];

import { orderSocialInput } from '../../../../../../src/modules/vtu/kinds/social/inputs.js';
import type { KindForms } from '../../../../app/kinds';

/** orderSocial's fields (the service's own rules). */
export const socialSchema = orderSocialInput.pick({ service_id: true, link: true, quantity: true });

/** The operation each form fills (web/src/app/kinds.ts KindForms). */
export const forms = (): KindForms => [['orderSocial', socialSchema]];

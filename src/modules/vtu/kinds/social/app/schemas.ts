import { orderSocialInput } from '../inputs.js';

/** orderSocial's fields (the service's own rules). */
export const socialSchema = orderSocialInput.pick({ service_id: true, link: true, quantity: true });

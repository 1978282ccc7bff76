import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** The WhatsApp assistant (issue 46): the account's linked number, and a chat's PIN link (public: the token is the credential). */
export const whatsappQueries = {
  all: () => ['whatsapp'] as const,
  link: () => queryOptions({ queryKey: [...whatsappQueries.all(), 'link'], queryFn: () => api.getWhatsappLink() }),
  pinRequest: (token: string) =>
    queryOptions({
      queryKey: [...whatsappQueries.all(), 'pin', token],
      queryFn: () => api.getWhatsappPinRequest({ token }),
      retry: false,
    }),
};

import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** The WhatsApp assistant (issue 46): the account's linked number, and a chat's PIN link (public: the token is the credential). */
export const whatsappQueries = {
  all: () => ['whatsapp'] as const,
  link: () =>
    queryOptions({ queryKey: [...whatsappQueries.all(), 'link'], queryFn: () => get('/_serverFn/getWhatsappLinkBearerWhatsapp') }),
  pinRequest: (token: string) =>
    queryOptions({
      queryKey: [...whatsappQueries.all(), 'pin', token],
      queryFn: () => get('/_serverFn/getWhatsappPinRequestPublicWhatsapp', { token }),
      retry: false,
    }),
};

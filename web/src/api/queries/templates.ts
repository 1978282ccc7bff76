import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';
import { adminQueries } from './admin';

/** The customer e-mail and SMS templates of one language (issue 44), for the console's Message templates screen. */
export const templateQueries = {
  all: () => [...adminQueries.all(), 'templates'] as const,
  list: (language: 'en' | 'ha' | 'pcm' | 'yo') =>
    queryOptions({
      queryKey: [...templateQueries.all(), language],
      queryFn: () => get('/_serverFn/adminListMessageTemplatesBearerAdmin', { language }),
    }),
};

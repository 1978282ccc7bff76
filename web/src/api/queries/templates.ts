import { queryOptions } from '@tanstack/react-query';
import { adminQueries } from './admin';
import * as api from '../calls';

/** The customer e-mail and SMS templates of one language (issue 44), for the console's Message templates screen. */
export const templateQueries = {
  all: () => [...adminQueries.all(), 'templates'] as const,
  list: (language: 'en' | 'ha' | 'pcm' | 'yo') =>
    queryOptions({
      queryKey: [...templateQueries.all(), language],
      queryFn: () => api.adminListMessageTemplates({ language }),
    }),
};

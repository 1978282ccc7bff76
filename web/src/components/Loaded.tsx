import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Failure } from './Failure';

/** A read under way: a spinner that screen readers announce ("Loading…" in the person's language unless `label`). */
export function Loading({ label, size }: { label?: string; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation();
  return (
    <Center p={size ? undefined : 'lg'}>
      <Loader role="status" size={size} aria-label={label ?? t('app.loading')} />
    </Center>
  );
}

/** A read's state: the spinner, the failure in words (the app's one Failure), or the content. */
export function Loaded<T>({
  query,
  children,
}: {
  query: { data?: T; error: unknown; isPending: boolean };
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) return <Failure error={query.error} />;
  return <Loading />;
}

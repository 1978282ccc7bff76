import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's heading (its one h1), with the screen's actions beside it. */
export function ScreenTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}

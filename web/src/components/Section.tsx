import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a screen: a card that is a landmark named by its heading. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Stack>
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

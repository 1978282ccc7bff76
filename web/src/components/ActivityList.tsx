import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNaira } from '../app/format';
import { kindLabel } from '../app/kind-tabs';

export interface Activity {
  id: string;
  type: string;
  amount: number;
  description: string;
  createdAt: string;
  reference?: string;
  /** What the line is, and the facts it is worded from (the service's `description` is English). */
  kind?: string;
  params?: Record<string, string | number>;
}

/** The parameters a kind's wording needs; without them the service's own text is shown. */
const NEEDS: Record<string, string[]> = {
  purchase: ['service', 'recipient'],
  purchase_refund: ['service', 'recipient'],
  transfer_sent: ['username'],
  transfer_received: ['username'],
  adjustment: ['reason'],
};

/** The line in the reader's language, from its kind and parameters; the service's English text otherwise. */
function useWording() {
  const { t, i18n } = useTranslation();
  return (a: Activity): string => {
    const key = `activity.${a.kind ?? ''}`;
    if (!a.kind || !i18n.exists(key)) return a.description;
    const params = a.params ?? {};
    if ((NEEDS[a.kind] ?? []).some((k) => params[k] === undefined || params[k] === '')) return a.description;
    // A purchase is named by its kind's label (its folder's app/tab.ts).
    const service = typeof params.service === 'string' ? kindLabel(params.service, i18n.language) : params.service;
    return t(key as 'activity.topup', { ...params, service });
  };
}

/** Money movements, newest first: credits in green with +, debits with −. */
export function ActivityList({ items, linked = true }: { items?: Activity[]; linked?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const wording = useWording();
  if (!items) return <Text c="dimmed">{t('app.loading')}</Text>;
  if (items.length === 0) return <Text c="dimmed">{t('home.noActivity')}</Text>;
  return (
    <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((a) => {
        const row = (
          // The amount moves under the words when both do not fit (a narrow phone, large text): no word is broken.
          <Group justify="space-between" py="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            <div style={{ flex: '1 1 9rem', minWidth: 0 }}>
              <Text lineClamp={2} style={{ overflowWrap: 'break-word' }}>
                {wording(a)}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(a.createdAt)}
              </Text>
            </div>
            <Text
              fw={600}
              c={a.amount >= 0 ? 'var(--brand-text, var(--mantine-color-brand-8))' : undefined}
              style={{ whiteSpace: 'nowrap' }}
            >
              {a.amount >= 0 ? '+' : '−'}
              {formatNaira(Math.abs(a.amount))}
            </Text>
          </Group>
        );
        return (
          <li key={a.id}>
            {linked && a.reference ? (
              <UnstyledButton
                w="100%"
                onClick={() => void navigate({ to: '/transactions/$reference', params: { reference: a.reference! } })}
              >
                {row}
              </UnstyledButton>
            ) : (
              row
            )}
          </li>
        );
      })}
    </Stack>
  );
}

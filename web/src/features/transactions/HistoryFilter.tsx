import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryFilter } from '../../api/queries/history';
import { errorMessage } from '../../app/errors';
import * as api from '../../api/calls';

/** The service's limit on a history range and a statement (issue 43). */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

/** What is wrong with a range of days (YYYY-MM-DD), as a tx.* key; null when it is fine or not both set. */
export function rangeProblem(from?: string, to?: string): 'rangeReversed' | 'rangeLong' | null {
  if (!from || !to) return null;
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) return 'rangeReversed';
  return days > MAX_DAYS ? 'rangeLong' : null;
}

/** The history's dates and search (shared by both lists), as the person types them. */
export function HistoryFilters({ value, onChange }: { value: HistoryFilter; onChange: (f: HistoryFilter) => void }) {
  const { t } = useTranslation();
  const problem = rangeProblem(value.from, value.to);
  return (
    <Stack gap="xs">
      <Group grow align="flex-start">
        <TextInput
          type="date"
          label={t('tx.from')}
          value={value.from ?? ''}
          onChange={(e) => onChange({ ...value, from: e.currentTarget.value || undefined })}
        />
        <TextInput
          type="date"
          label={t('tx.to')}
          value={value.to ?? ''}
          onChange={(e) => onChange({ ...value, to: e.currentTarget.value || undefined })}
          error={problem ? t(`tx.${problem}`) : undefined}
        />
      </Group>
      <TextInput
        type="search"
        label={t('tx.search')}
        description={t('tx.searchHelp')}
        maxLength={60}
        value={value.q ?? ''}
        onChange={(e) => onChange({ ...value, q: e.currentTarget.value })}
      />
    </Stack>
  );
}

/** "Download statement" for the chosen dates, as CSV or PDF (getStatement), saved under the service's file name. */
export function StatementDownload({ from, to }: { from?: string; to?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const save = async (format: 'csv' | 'pdf') => {
    setError(null);
    setDone(null);
    if (!from || !to) return setError(t('tx.rangeNeeded'));
    const problem = rangeProblem(from, to);
    if (problem) return setError(t(`tx.${problem}`));
    setBusy(format);
    try {
      const file = await api.getStatement({ format, from, to });
      const url = URL.createObjectURL(file.blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = file.fileName;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDone(t('tx.downloaded', { name: file.fileName }));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="statement-title">
      <Title order={2} size="h4" id="statement-title">
        {t('tx.statement')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('tx.statementHelp')}
      </Text>
      <Group>
        <Button variant="light" loading={busy === 'csv'} onClick={() => void save('csv')}>
          {t('tx.downloadCsv')}
        </Button>
        <Button variant="light" loading={busy === 'pdf'} onClick={() => void save('pdf')}>
          {t('tx.downloadPdf')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {done && (
        <Text size="sm" role="status">
          {done}
        </Text>
      )}
    </Stack>
  );
}

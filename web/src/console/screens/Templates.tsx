import { Alert, Badge, Button, Card, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, post, type GetOutput } from '../../api/client';
import { templateQueries } from '../../api/queries/templates';
import { Failure } from '../../components/Failure';
import { useScreenSearch } from '../nav';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { when } from '../../app/format';
import * as ops from '../../api/operations';

type Template = GetOutput<typeof ops.adminListMessageTemplates>['items'][number];
type Language = Template['language'];
const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'ha', label: 'Hausa' },
  { value: 'pcm', label: 'Pidgin' },
  { value: 'yo', label: 'Yoruba' },
];
const CHANNELS: Record<Template['channel'], string> = { email: 'E-mail', sms: 'SMS', notice: 'Notification (push, e-mail, SMS)' };
const vars = (names: readonly string[]) => names.map((v) => `{{${v}}}`).join(', ') || 'none';

/**
 * The customer e-mails and SMS in each language (issue 44): choose a template, reword its subject and body, preview it
 * with sample values, save it, or put the default back. The service checks the variables (an unknown one, or a
 * required one missing, is refused with a message saying which).
 */
export function Templates() {
  const search = useScreenSearch();
  const language = (LANGUAGES.find((l) => l.value === search.text('lang'))?.value ?? 'en') as Language;
  const list = useQuery(templateQueries.list(language));
  const key = search.text('key') || 'code.signInCode';
  return (
    <Stack>
      <ScreenTitle title="Message templates" />
      <Text size="sm" c="dimmed">
        What customers receive by e-mail, SMS and push, in each language. A saved text is sent from then on; Reset to default puts the
        original back.
      </Text>
      <Group align="end">
        <Select
          label="Language"
          data={LANGUAGES}
          value={language}
          onChange={(v) => search.set({ lang: v ?? undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label="Template"
          data={(list.data?.items ?? []).map((t) => ({ value: t.key, label: `${t.label}${t.overridden ? ' (edited)' : ''}` }))}
          value={key}
          onChange={(v) => search.set({ key: v ?? undefined })}
          allowDeselect={false}
          searchable
          disabled={!list.data}
          w={{ base: '100%', sm: 360 }}
        />
      </Group>
      <Loaded query={list}>
        {(data) => {
          const t = data.items.find((x) => x.key === key);
          return t ? <Editor key={`${t.key}:${t.language}:${t.updatedAt ?? 'default'}`} template={t} /> : <Text>Choose a template.</Text>;
        }}
      </Loaded>
    </Stack>
  );
}

/** The service's refusal of a text (an unknown or missing variable) in its own words, else the general message. */
function Refusal({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.code === 'VALIDATION_FAILED')
    return (
      <Alert color="red" role="alert" title="This text cannot be used">
        {error.message}
      </Alert>
    );
  return <Failure error={error} />;
}

function Editor({ template: t }: { template: Template }) {
  const qc = useQueryClient();
  const [subject, setSubject] = useState(t.subject ?? '');
  const [body, setBody] = useState(t.body);
  const [preview, setPreview] = useState<{ subject: string | null; body: string; sms: string | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const text = { key: t.key, language: t.language, ...(t.channel === 'sms' ? {} : { subject }), body };
  async function run(what: string, fn: () => Promise<unknown>) {
    setBusy(what);
    setError(null);
    setDone(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }
  const refresh = () => qc.invalidateQueries({ queryKey: templateQueries.all() });
  return (
    <Card withBorder component="section" aria-labelledby="template-title">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4" id="template-title">
            {t.label}
          </Title>
          <Group gap="xs">
            <Badge variant="light">{CHANNELS[t.channel]}</Badge>
            {t.overridden && <Badge color="yellow">Edited {when(t.updatedAt)}</Badge>}
          </Group>
        </Group>
        <Text size="sm">
          Variables: {vars(t.variables)}. The body must keep: {vars(t.required)}.
        </Text>
        {t.channel !== 'sms' && (
          <TextInput
            label={t.channel === 'notice' ? 'Title (e-mail subject and push title)' : 'Subject'}
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            maxLength={200}
          />
        )}
        <Textarea label="Body" autosize minRows={3} value={body} onChange={(e) => setBody(e.currentTarget.value)} maxLength={2000} />
        <Refusal error={error} />
        {done && (
          <Alert color="green" role="status">
            {done}
          </Alert>
        )}
        <Group>
          <Button
            variant="default"
            loading={busy === 'preview'}
            onClick={() => void run('preview', async () => setPreview(await post(ops.adminPreviewMessageTemplate, text)))}
          >
            Preview
          </Button>
          <Button
            loading={busy === 'save'}
            onClick={() =>
              void run('save', async () => {
                await post(ops.adminSaveMessageTemplate, text);
                setDone('Saved: customers get this text from now on.');
                await refresh();
              })
            }
          >
            Save
          </Button>
          {t.overridden && (
            <Button
              variant="default"
              color="red"
              loading={busy === 'reset'}
              onClick={() =>
                void run('reset', async () => {
                  await post(ops.adminResetMessageTemplate, { key: t.key, language: t.language });
                  await refresh();
                })
              }
            >
              Reset to default
            </Button>
          )}
        </Group>
        {preview && (
          <Card withBorder component="section" aria-label="Preview" bg="var(--mantine-color-gray-0)">
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                Preview with sample values
              </Text>
              {preview.subject !== null && <Text fw={600}>{preview.subject}</Text>}
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {preview.body}
              </Text>
              {preview.sms !== null && t.channel === 'notice' && (
                <Text size="xs" c="dimmed">
                  As an SMS: {preview.sms}
                </Text>
              )}
            </Stack>
          </Card>
        )}
        <details>
          <summary>
            <Text span size="sm">
              The default text
            </Text>
          </summary>
          {t.defaultSubject !== null && (
            <Text size="sm" fw={600}>
              {t.defaultSubject}
            </Text>
          )}
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {t.defaultBody}
          </Text>
        </details>
      </Stack>
    </Card>
  );
}

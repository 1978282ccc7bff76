import { Alert, Badge, Button, Card, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type GetOutput } from '../../api/client';
import { templateQueries } from '../../api/queries/templates';
import { Failure } from '../../components/Failure';
import { useSetSearch } from '../nav';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { when } from '../../app/format';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';
import { templateTextSchema } from '../../api/schemas';
import { useSchemaForm } from '../../components/form';

type Template = GetOutput<typeof ops.adminListMessageTemplates>['items'][number];
type Language = Template['language'];
const LANGUAGES: readonly Language[] = ['en', 'ha', 'pcm', 'yo'];
const vars = (names: readonly string[], none: string) => names.map((v) => `{{${v}}}`).join(', ') || none;

/**
 * The customer e-mails and SMS in each language (issue 44): choose a template, reword its subject and body, preview it
 * with sample values, save it, or put the default back. The service checks the variables (an unknown one, or a
 * required one missing, is refused with a message saying which).
 */
export function Templates() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/templates' });
  const setSearch = useSetSearch('/console/templates');
  const language = LANGUAGES.find((l) => l === search.lang) ?? 'en';
  const list = useQuery(templateQueries.list(language));
  const key = search.key ?? 'code.signInCode';
  return (
    <Stack>
      <ScreenTitle title={t('console.templates.title')} />
      <Text size="sm" c="dimmed">
        {t('console.templates.intro')}
      </Text>
      <Group align="end">
        <Select
          label={t('console.templates.language')}
          data={LANGUAGES.map((l) => ({ value: l, label: t(`console.templates.languages.${l}`) }))}
          value={language}
          onChange={(v) => setSearch({ lang: v ?? undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('console.templates.template')}
          data={(list.data?.items ?? []).map((x) => ({
            value: x.key,
            label: x.overridden ? t('console.templates.edited', { label: x.label }) : x.label,
          }))}
          value={key}
          onChange={(v) => setSearch({ key: v ?? undefined })}
          allowDeselect={false}
          searchable
          disabled={!list.data}
          w={{ base: '100%', sm: 360 }}
        />
      </Group>
      <Loaded query={list}>
        {(data) => {
          const x = data.items.find((y) => y.key === key);
          return x ? (
            <Editor key={`${x.key}:${x.language}:${x.updatedAt ?? 'default'}`} template={x} />
          ) : (
            <Text>{t('console.templates.choose')}</Text>
          );
        }}
      </Loaded>
    </Stack>
  );
}

/** The service's refusal of a text (an unknown or missing variable) in its own words, else the general message. */
function Refusal({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (error instanceof ApiError && error.code === 'VALIDATION_FAILED')
    return (
      <Alert color="red" role="alert" title={t('console.templates.refused')}>
        {error.message}
      </Alert>
    );
  return <Failure error={error} />;
}

function Editor({ template: t }: { template: Template }) {
  const { t: tr } = useTranslation();
  const qc = useQueryClient();
  const form = useSchemaForm(templateTextSchema, { subject: t.subject ?? '', body: t.body });
  const [preview, setPreview] = useState<{ subject: string | null; body: string; sms: string | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // The text as the operations take it (an SMS has no subject); undefined while the form's rules refuse it.
  const text = () => {
    if (form.validate().hasErrors) return undefined;
    const { subject, body } = form.getValues();
    return { key: t.key, language: t.language, ...(t.channel === 'sms' ? {} : { subject }), body };
  };
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
            <Badge variant="light">{tr(`console.templates.channels.${t.channel}`)}</Badge>
            {t.overridden && <Badge color="yellow">{tr('console.templates.editedAt', { when: when(t.updatedAt) })}</Badge>}
          </Group>
        </Group>
        <Text size="sm">
          {tr('console.templates.variables', {
            variables: vars(t.variables, tr('console.templates.none')),
            required: vars(t.required, tr('console.templates.none')),
          })}
        </Text>
        {t.channel !== 'sms' && (
          <TextInput
            label={tr(t.channel === 'notice' ? 'console.templates.noticeTitle' : 'console.templates.subject')}
            {...form.getInputProps('subject')}
            maxLength={200}
          />
        )}
        <Textarea label={tr('console.templates.body')} autosize minRows={3} {...form.getInputProps('body')} maxLength={2000} />
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
            onClick={() => {
              const input = text();
              if (input) void run('preview', async () => setPreview(await api.adminPreviewMessageTemplate(input)));
            }}
          >
            {tr('console.templates.preview')}
          </Button>
          <Button
            loading={busy === 'save'}
            onClick={() => {
              const input = text();
              if (input)
                void run('save', async () => {
                  await api.adminSaveMessageTemplate(input);
                  setDone(tr('console.templates.saved'));
                  await refresh();
                });
            }}
          >
            {tr('console.templates.save')}
          </Button>
          {t.overridden && (
            <Button
              variant="default"
              color="red"
              loading={busy === 'reset'}
              onClick={() =>
                void run('reset', async () => {
                  await api.adminResetMessageTemplate({ key: t.key, language: t.language });
                  await refresh();
                })
              }
            >
              {tr('console.templates.reset')}
            </Button>
          )}
        </Group>
        {preview && (
          <Card withBorder component="section" aria-label={tr('console.templates.preview')} bg="var(--mantine-color-gray-0)">
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                {tr('console.templates.sample')}
              </Text>
              {preview.subject !== null && <Text fw={600}>{preview.subject}</Text>}
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {preview.body}
              </Text>
              {preview.sms !== null && t.channel === 'notice' && (
                <Text size="xs" c="dimmed">
                  {tr('console.templates.asSms', { sms: preview.sms })}
                </Text>
              )}
            </Stack>
          </Card>
        )}
        <details>
          <summary>
            <Text span size="sm">
              {tr('console.templates.default')}
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

import { Alert, Anchor, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { whatsappQueries } from '../../api/queries/whatsapp';
import { useAuth } from '../../app/auth';
import { formatDateTime } from '../../app/format';
import { Result } from '../../components/Result';
import { Section } from '../../components/Section';
import * as api from '../../api/calls';

/** wa.me opens a chat with the business number, the message typed in (digits only, no +). */
export const waMeLink = (sendTo: string, text: string) => `https://wa.me/${sendTo.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;

/**
 * The settings' WhatsApp section (issue 46): link a number with a one-time code the customer sends from WhatsApp
 * ("LINK <code>" to the business number), see the linked number, unlink it, or end the link and every session
 * ("this wasn't me").
 */
export function WhatsappSettings() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const auth = useAuth();
  const code = useMutation({ mutationFn: () => api.createWhatsappLinkCode({}) });
  // While a code is out, the status is asked again every few seconds, so the section says "linked" once the message arrives.
  const link = useQuery({ ...whatsappQueries.link(), refetchInterval: code.data ? 3000 : false });
  const refresh = () => void qc.invalidateQueries({ queryKey: whatsappQueries.link().queryKey });
  const unlink = useMutation({
    mutationFn: () => api.unlinkWhatsapp({}),
    onSuccess: () => (code.reset(), refresh()),
  });
  const [askNotMe, setAskNotMe] = useState(false);
  const notMe = useMutation({
    mutationFn: () => api.endWhatsappLink({}),
    // Every session of the account has ended, this one too.
    onSuccess: () => void auth.signOut(),
  });
  const l = link.data;
  const message = code.data ? `LINK ${code.data.code}` : '';
  return (
    <Section id="whatsapp" title={t('whatsapp.title')}>
      <Text size="sm">{t('whatsapp.intro')}</Text>
      {l?.linked ? (
        <>
          {code.data && <Result error={null} ok={t('whatsapp.linkedNow')} />}
          <Text role="status">{t('whatsapp.linked', { phone: l.phone ?? '', time: l.linkedAt ? formatDateTime(l.linkedAt) : '' })}</Text>
          <Group>
            <Button variant="default" onClick={() => unlink.mutate()} loading={unlink.isPending}>
              {t('whatsapp.unlink')}
            </Button>
            <Button variant="subtle" color="red" onClick={() => setAskNotMe(true)} aria-expanded={askNotMe}>
              {t('whatsapp.notMe')}
            </Button>
          </Group>
          {askNotMe && (
            <Alert color="red" title={t('whatsapp.notMe')}>
              <Stack gap="xs">
                <Text size="sm">{t('whatsapp.notMeHelp')}</Text>
                <Group>
                  <Button color="red" onClick={() => notMe.mutate()} loading={notMe.isPending}>
                    {t('whatsapp.notMeConfirm')}
                  </Button>
                  <Button variant="default" onClick={() => setAskNotMe(false)}>
                    {t('app.cancel')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
        </>
      ) : (
        l && <Text role="status">{unlink.isSuccess ? t('whatsapp.unlinked') : t('whatsapp.notLinked')}</Text>
      )}
      {code.data && !l?.linked && (
        <Stack gap="xs">
          <Text>{t('whatsapp.sendThis', { number: code.data.sendTo })}</Text>
          <Code block aria-label={t('whatsapp.codeLabel')} fz="lg">
            {message}
          </Code>
          <Text size="sm">{t('whatsapp.expires', { time: formatDateTime(code.data.expiresAt) })}</Text>
          <Anchor href={waMeLink(code.data.sendTo, message)} target="_blank" rel="noopener noreferrer">
            {t('whatsapp.open')}
          </Anchor>
          <Text size="sm" c="dimmed">
            {t('whatsapp.waiting')}
          </Text>
        </Stack>
      )}
      <Result error={link.error ?? code.error ?? unlink.error ?? notMe.error} />
      {l && !l.linked && (
        <Button onClick={() => code.mutate()} loading={code.isPending} variant={code.data ? 'default' : 'filled'}>
          {code.data ? t('whatsapp.newCode') : t('whatsapp.link')}
        </Button>
      )}
    </Section>
  );
}

import { Accordion, Alert, Badge, Button, FileInput, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { bankAccountSchema, codeSchema, ninSchema, phoneSchema } from '../../api/schemas';
import { errorMessage, isCode } from '../../app/errors';
import { useStepUp } from '../../app/StepUp';
import { digitsProps, showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { Liveness } from '../../components/Liveness';
import { uploadFile } from '../../api/kyc-upload';
import { kycQueries } from '../../api/queries/kyc';
import { settingsQueries } from '../../api/queries/settings';
import * as api from '../../api/calls';

/** The tier ladder: each tier's state (with the rejection reason) and the form to submit the next one. */
export function Kyc() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const status = useQuery(kycQueries.status());
  const refresh = () => void qc.invalidateQueries({ queryKey: kycQueries.status().queryKey });
  const stateOf = (tier: number) => status.data?.tiers.find((x) => x.tier === tier);
  const forms = {
    1: <Liveness onSubmitted={refresh} />,
    2: <NinForm onSubmitted={refresh} />,
    3: <BankForm onSubmitted={refresh} />,
  } as const;
  return (
    <Stack maw={640}>
      <Title order={1}>{t('kyc.title')}</Title>
      {status.error && (
        <Alert color="red" role="alert">
          {errorMessage(status.error)}
        </Alert>
      )}
      <Accordion variant="separated">
        {([1, 2, 3] as const).map((tier) => {
          const s = stateOf(tier);
          const st = s?.status ?? 'none';
          const previousApproved = tier === 1 || stateOf(tier - 1)?.status === 'approved';
          return (
            <Accordion.Item key={tier} value={String(tier)}>
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap">
                  <div>
                    <Text fw={600}>
                      {t('kyc.tier', { tier })}: {t(`kyc.tier${tier}`)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t(`kyc.tier${tier}Help`)}
                    </Text>
                  </div>
                  <Badge
                    color={st === 'approved' ? 'green' : st === 'pending' ? 'blue' : st === 'rejected' ? 'red' : 'gray'}
                    data-testid={`tier${tier}-status`}
                  >
                    {st === 'rejected' ? t('kyc.rejectedShort') : t(`kyc.${st}`)}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                {st === 'rejected' && (
                  <Alert color="red" mb="sm">
                    {t('kyc.rejected', { reason: s?.reason ?? '' })}
                  </Alert>
                )}
                {st === 'approved' || st === 'pending' ? (
                  <Text>{st === 'pending' ? t('kyc.submitted') : t('kyc.approved')}</Text>
                ) : previousApproved ? (
                  forms[tier]
                ) : (
                  <Text>{t('kyc.previous')}</Text>
                )}
              </Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
    </Stack>
  );
}

/** What the KYC fields' rules ask for, in the person's words. */
const HINTS: FieldHints = {
  phone: 'buy.phoneInvalid',
  code: 'fields.code',
  nin: 'fields.nin',
  bankCode: 'fields.bank',
  accountNumber: 'fields.accountNumber',
};

/** The phone check of Tier 2: the number, then the SMS code (a step-up grant when a verified number is replaced). */
function PhoneCheck() {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const qc = useQueryClient();
  const phoneForm = useSchemaForm(phoneSchema, { phone: '' }, HINTS);
  const codeForm = useSchemaForm(codeSchema, { code: '' }, HINTS);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sendCode = useMutation({
    mutationFn: (phone: string) => api.sendPhoneOtp({ phone }).then(() => phone),
    onSuccess: setSentTo,
    onError: (err) => showServerIssues(phoneForm, err, HINTS),
  });
  const verify = useMutation({
    mutationFn: (code: string) => stepUp.withGrant((grantToken) => api.verifyPhoneOtp({ phone: sentTo!, code }, { grantToken })),
    onSuccess: () => qc.invalidateQueries({ queryKey: settingsQueries.profile().queryKey }),
    onError: (err) => showServerIssues(codeForm, err, HINTS),
  });
  const error = sendCode.error ?? verify.error;
  return (
    <Stack>
      <form
        onSubmit={phoneForm.onSubmit((v) => {
          const c = phoneSchema.safeParse(v);
          if (c.success) sendCode.mutate(c.data.phone);
        })}
        noValidate
      >
        <Stack>
          <TextInput label={t('kyc.phone')} type="tel" {...phoneForm.getInputProps('phone')} required />
          <Button type="submit" variant="light" loading={sendCode.isPending}>
            {t('kyc.sendPhoneCode')}
          </Button>
        </Stack>
      </form>
      {sentTo && (
        <form onSubmit={codeForm.onSubmit((v) => verify.mutate(v.code))} noValidate>
          <Stack>
            <TextInput label={t('kyc.phoneCode')} inputMode="numeric" maxLength={6} {...digitsProps(codeForm, 'code')} />
            <Button type="submit" loading={verify.isPending}>
              {t('kyc.verifyPhone')}
            </Button>
          </Stack>
        </form>
      )}
      {error && !isCode(error, 'VALIDATION_FAILED') && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {stepUp.modal}
    </Stack>
  );
}

function NinForm({ onSubmitted }: { onSubmitted(): void }) {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const profile = useQuery(settingsQueries.profile());
  const form = useSchemaForm(ninSchema, { nin: '', fullName: '', slip: null as File | null }, HINTS);
  const [underFields, setUnderFields] = useState(false);
  const submit = useMutation({
    mutationFn: async (v: { nin: string; fullName?: string; slip: File }) => {
      // Replacing a name already set asks for a step-up grant (a credential change); filling an empty one does not.
      if (v.fullName && v.fullName !== profile.data?.profile.fullName)
        await stepUp.withGrant((grantToken) => api.updateProfile({ fullName: v.fullName }, { grantToken }));
      const slipPath = await uploadFile(v.slip);
      return api.submitNinKyc({ nin: v.nin, slipPath, ...(v.fullName ? { fullName: v.fullName } : {}) });
    },
    onSuccess: onSubmitted,
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const phoneVerified = profile.data?.profile.phoneVerified;
  const name = form.getValues().fullName;
  return (
    <Stack>
      {phoneVerified ? (
        <Alert color="green">
          {t('kyc.phoneVerified')}: {profile.data?.profile.phone}
        </Alert>
      ) : (
        <PhoneCheck />
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((v) => {
          const c = ninSchema.safeParse(v);
          if (!c.success) return;
          if (!v.slip) return form.setFieldError('slip', t('form.required'));
          submit.mutate({ ...c.data, slip: v.slip });
        })}
      >
        <Stack>
          <TextInput label={t('kyc.fullName')} {...form.getInputProps('fullName')} value={name || profile.data?.profile.fullName || ''} />
          <TextInput label={t('kyc.nin')} inputMode="numeric" maxLength={11} {...digitsProps(form, 'nin')} />
          <FileInput
            label={t('kyc.slip')}
            accept="image/jpeg,image/png,application/pdf"
            {...form.getInputProps('slip')}
            clearable
            required
          />
          {submit.error && !underFields && (
            <Alert color="red" role="alert">
              {errorMessage(submit.error)}
            </Alert>
          )}
          <Button type="submit" loading={submit.isPending} disabled={!phoneVerified}>
            {t('kyc.submit')}
          </Button>
        </Stack>
      </form>
      {stepUp.modal}
    </Stack>
  );
}

const DOCUMENTS = ['national_id', 'nin_slip', 'passport', 'drivers_licence', 'voters_card'] as const;

/** Tier 3: the account checked by name enquiry first (the service checks the NUBAN digit), then the ID document. */
function BankForm({ onSubmitted }: { onSubmitted(): void }) {
  const { t } = useTranslation();
  const banks = useQuery(kycQueries.banks());
  const form = useSchemaForm(
    bankAccountSchema,
    { bankCode: '', accountNumber: '', documentType: 'national_id' as (typeof DOCUMENTS)[number], document: null as File | null },
    HINTS,
  );
  const [underFields, setUnderFields] = useState(false);
  const check = useMutation({
    mutationFn: (v: { bankCode: string; accountNumber: string }) => api.verifyBankAccount(v),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const submit = useMutation({
    mutationFn: async (v: { bankCode: string; accountNumber: string; documentType: (typeof DOCUMENTS)[number]; document: File }) =>
      api.submitBankKyc({
        bankCode: v.bankCode,
        accountNumber: v.accountNumber,
        documentType: v.documentType,
        documentPath: await uploadFile(v.document),
      }),
    onSuccess: onSubmitted,
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  // A changed bank or number is checked again before it is submitted.
  const account = (field: 'bankCode' | 'accountNumber') => ({
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      form.setFieldValue(field, field === 'accountNumber' ? e.currentTarget.value.replace(/\D/g, '') : e.currentTarget.value);
      check.reset();
    },
  });
  const checked = (v: typeof form.values) => {
    const c = bankAccountSchema.safeParse(v);
    return c.success ? c.data : null;
  };
  const error = check.error ?? submit.error;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) => {
        const c = checked(v);
        if (!c) return;
        if (!check.data) return check.mutate(c);
        if (!v.document) return form.setFieldError('document', t('form.required'));
        submit.mutate({ ...c, documentType: v.documentType, document: v.document });
      })}
    >
      <Stack>
        <NativeSelect
          label={t('kyc.bank')}
          {...form.getInputProps('bankCode')}
          {...account('bankCode')}
          data={[{ value: '', label: '—' }, ...(banks.data?.items ?? []).map((b) => ({ value: b.code, label: b.name }))]}
          required
        />
        <TextInput
          label={t('kyc.accountNumber')}
          inputMode="numeric"
          maxLength={10}
          {...form.getInputProps('accountNumber')}
          {...account('accountNumber')}
          required
        />
        {check.data ? (
          <Alert color="green" role="status">
            {t('kyc.accountNameIs', { name: check.data.accountName })}
          </Alert>
        ) : (
          <Button type="submit" variant="light" loading={check.isPending}>
            {t('kyc.checkAccount')}
          </Button>
        )}
        <NativeSelect
          label={t('kyc.documentType')}
          {...form.getInputProps('documentType')}
          data={DOCUMENTS.map((d) => ({ value: d, label: t(`kyc.doc_${d}`) }))}
        />
        <FileInput
          label={t('kyc.document')}
          accept="image/jpeg,image/png,application/pdf"
          {...form.getInputProps('document')}
          clearable
          required
        />
        {error && !underFields && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        {check.data && (
          <Button type="submit" loading={submit.isPending}>
            {t('kyc.submit')}
          </Button>
        )}
      </Stack>
    </form>
  );
}

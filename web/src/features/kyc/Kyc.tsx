import { Accordion, Alert, Badge, Button, FileInput, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { post } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { useStepUp } from '../../app/StepUp';
import { Liveness } from '../../components/Liveness';
import { uploadFile } from '../../api/kyc-upload';
import { kycQueries } from '../../api/queries/kyc';
import { settingsQueries } from '../../api/queries/settings';

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

function NinForm({ onSubmitted }: { onSubmitted(): void }) {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const profile = useQuery(settingsQueries.profile());
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [nin, setNin] = useState('');
  const [fullName, setFullName] = useState('');
  const [slip, setSlip] = useState<File | null>(null);
  const qc = useQueryClient();
  const sendCode = useMutation({ mutationFn: () => post('/_serverFn/sendPhoneOtpPublicAuth', { phone }), onSuccess: () => setSent(true) });
  const verify = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => post('/_serverFn/verifyPhoneOtpPublicAuth', { phone, code }, { grantToken })),
    onSuccess: () => qc.invalidateQueries({ queryKey: settingsQueries.profile().queryKey }),
  });
  const submit = useMutation({
    mutationFn: async () => {
      // Replacing a name already set asks for a step-up grant (a credential change); filling an empty one does not.
      if (fullName && fullName !== profile.data?.profile.fullName)
        await stepUp.withGrant((grantToken) => post('/_serverFn/updateProfileBearerSettings', { fullName }, { grantToken }));
      const slipPath = await uploadFile(slip!);
      return post('/_serverFn/submitNinKycBearerKYC', { nin, slipPath, ...(fullName ? { fullName } : {}) });
    },
    onSuccess: onSubmitted,
  });
  const phoneVerified = profile.data?.profile.phoneVerified;
  return (
    <Stack>
      {phoneVerified ? (
        <Alert color="green">
          {t('kyc.phoneVerified')}: {profile.data?.profile.phone}
        </Alert>
      ) : (
        <Stack>
          <TextInput label={t('kyc.phone')} type="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
          <Button variant="light" onClick={() => sendCode.mutate()} loading={sendCode.isPending} disabled={phone.length < 11}>
            {t('kyc.sendPhoneCode')}
          </Button>
          {sent && (
            <>
              <TextInput
                label={t('kyc.phoneCode')}
                inputMode="numeric"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <Button onClick={() => verify.mutate()} loading={verify.isPending} disabled={code.length !== 6}>
                {t('kyc.verifyPhone')}
              </Button>
            </>
          )}
          {(sendCode.error || verify.error) && (
            <Alert color="red" role="alert">
              {errorMessage(sendCode.error ?? verify.error)}
            </Alert>
          )}
        </Stack>
      )}
      <TextInput
        label={t('kyc.fullName')}
        value={fullName || profile.data?.profile.fullName || ''}
        onChange={(e) => setFullName(e.currentTarget.value)}
      />
      <TextInput
        label={t('kyc.nin')}
        inputMode="numeric"
        maxLength={11}
        value={nin}
        onChange={(e) => setNin(e.currentTarget.value.replace(/\D/g, ''))}
      />
      <FileInput label={t('kyc.slip')} accept="image/jpeg,image/png,application/pdf" value={slip} onChange={setSlip} clearable />
      {submit.error && (
        <Alert color="red" role="alert">
          {errorMessage(submit.error)}
        </Alert>
      )}
      <Button onClick={() => submit.mutate()} loading={submit.isPending} disabled={!phoneVerified || nin.length !== 11 || !slip}>
        {t('kyc.submit')}
      </Button>
      {stepUp.modal}
    </Stack>
  );
}

const DOCUMENTS = ['national_id', 'nin_slip', 'passport', 'drivers_licence', 'voters_card'] as const;

function BankForm({ onSubmitted }: { onSubmitted(): void }) {
  const { t } = useTranslation();
  const banks = useQuery(kycQueries.banks());
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [documentType, setDocumentType] = useState<(typeof DOCUMENTS)[number]>('national_id');
  const [doc, setDoc] = useState<File | null>(null);
  const check = useMutation({ mutationFn: () => post('/_serverFn/verifyBankAccountBearerKYC', { bankCode, accountNumber }) });
  const submit = useMutation({
    mutationFn: async () =>
      post('/_serverFn/submitBankKycBearerKYC', { bankCode, accountNumber, documentType, documentPath: await uploadFile(doc!) }),
    onSuccess: onSubmitted,
  });
  return (
    <Stack>
      <NativeSelect
        label={t('kyc.bank')}
        value={bankCode}
        onChange={(e) => (setBankCode(e.currentTarget.value), check.reset())}
        data={[{ value: '', label: '—' }, ...(banks.data?.items ?? []).map((b) => ({ value: b.code, label: b.name }))]}
      />
      <TextInput
        label={t('kyc.accountNumber')}
        inputMode="numeric"
        maxLength={10}
        value={accountNumber}
        onChange={(e) => (setAccountNumber(e.currentTarget.value.replace(/\D/g, '')), check.reset())}
      />
      <Button variant="light" onClick={() => check.mutate()} loading={check.isPending} disabled={!bankCode || accountNumber.length !== 10}>
        {t('kyc.checkAccount')}
      </Button>
      {check.data && (
        <Alert color="green" role="status">
          {t('kyc.accountNameIs', { name: check.data.accountName })}
        </Alert>
      )}
      <NativeSelect
        label={t('kyc.documentType')}
        value={documentType}
        onChange={(e) => setDocumentType(e.currentTarget.value as typeof documentType)}
        data={DOCUMENTS.map((d) => ({ value: d, label: t(`kyc.doc_${d}`) }))}
      />
      <FileInput label={t('kyc.document')} accept="image/jpeg,image/png,application/pdf" value={doc} onChange={setDoc} clearable />
      {(check.error || submit.error) && (
        <Alert color="red" role="alert">
          {errorMessage(check.error ?? submit.error)}
        </Alert>
      )}
      <Button onClick={() => submit.mutate()} loading={submit.isPending} disabled={!check.data || !doc}>
        {t('kyc.submit')}
      </Button>
    </Stack>
  );
}

import { Alert, Button, CopyButton, Group, NativeSelect, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { loanSchema, repaySchema, savingsLockSchema } from '../../api/schemas';
import { AmountInput } from '../../components/AmountInput';
import { amountProps, showServerIssues, useSchemaForm } from '../../components/form';
import { formatDateTime, formatNaira } from '../../app/format';
import { Failure } from '../../components/Failure';
import { PinPad } from '../../components/PinPad';
import { Section } from '../../components/Section';
import { growthQueries } from '../../api/queries/growth';
import { walletQueries } from '../../api/queries/wallet';
import { PriceLevel } from './PriceLevel';
import * as api from '../../api/calls';
import { StatusBadge } from '../../components/StatusBadge';

/** Growth: referral code, its link to copy or share (WhatsApp, the phone's share sheet), daily check-in, milestones, savings locks, loans. */
export function Rewards() {
  const { t } = useTranslation();
  return (
    <Stack maw={720}>
      <Title order={1}>{t('growth.title')}</Title>
      <PriceLevel />
      <Referrals />
      <Checkin />
      <Savings />
      <Loans />
    </Stack>
  );
}

function Referrals() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const status = useQuery(growthQueries.referral());
  const milestones = useQuery(growthQueries.milestones());
  const ack = useMutation({
    mutationFn: (threshold: number) => api.ackMilestone({ threshold }),
    onSuccess: () => qc.invalidateQueries({ queryKey: growthQueries.milestones().queryKey }),
  });
  const s = status.data;
  const link = s ? `${window.location.origin}/?ref=${s.code}` : '';
  // WhatsApp's own share address opens a chat with the message typed in; the phone's share sheet where the browser has one.
  const whatsapp = s ? `https://wa.me/?text=${encodeURIComponent(t('growth.whatsappText', { code: s.code, link }))}` : '';
  return (
    <Section id="referrals" title={t('growth.referrals')}>
      <Failure error={status.error} />
      {s && (
        <>
          <Group>
            <Text>
              {t('growth.yourCode')}: <strong data-testid="referral-code">{s.code}</strong>
            </Text>
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" onClick={copy}>
                  {copied ? t('app.copied') : t('growth.copyLink')}
                </Button>
              )}
            </CopyButton>
            <Button
              component="a"
              href={whatsapp}
              target="_blank"
              rel="noopener noreferrer"
              size="compact-sm"
              variant="light"
              data-testid="share-whatsapp"
            >
              {t('growth.whatsapp')}
            </Button>
            {'share' in navigator && (
              <Button
                size="compact-sm"
                variant="light"
                onClick={() =>
                  void navigator
                    .share({ title: t('app.name'), text: t('growth.shareText', { code: s.code }), url: link })
                    .catch(() => undefined)
                }
              >
                {t('growth.share')}
              </Button>
            )}
          </Group>
          <Text size="sm">
            {t('growth.invitees', { invitees: s.invitees, rewarded: s.rewardedInvitees, bonus: formatNaira(s.bonusPerInvitee) })}
          </Text>
          <Text size="sm">{t('growth.bonuses', { locked: formatNaira(s.lockedBonus), earned: formatNaira(s.earnedBonus) })}</Text>
          {!s.unlock.met && s.unlock.required > 0 && (
            <div>
              <Text size="sm">{t('growth.unlock', { spent: formatNaira(s.unlock.spent), required: formatNaira(s.unlock.required) })}</Text>
              <Progress value={Math.min(100, (s.unlock.spent / s.unlock.required) * 100)} aria-label={t('growth.unlockProgress')} />
            </div>
          )}
        </>
      )}
      {milestones.data?.items.map((m) => (
        <Alert key={m.threshold} color="green" title={t('growth.milestone', { threshold: m.threshold, bonus: formatNaira(m.bonus) })}>
          <Button size="compact-sm" variant="light" onClick={() => ack.mutate(m.threshold)}>
            {t('growth.ack')}
          </Button>
        </Alert>
      ))}
      {milestones.data?.next && (
        <Text size="sm">
          {t('growth.nextMilestone', { remaining: milestones.data.next.remaining, bonus: formatNaira(milestones.data.next.bonus) })}
        </Text>
      )}
    </Section>
  );
}

function Checkin() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const status = useQuery(growthQueries.checkin());
  const done = () => void qc.invalidateQueries({ queryKey: growthQueries.checkin().queryKey });
  const claim = useMutation({
    mutationFn: () => api.claimCheckin({}, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: done,
  });
  const withdraw = useMutation({
    mutationFn: () => api.withdrawCheckin({}, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (done(), void qc.invalidateQueries({ queryKey: walletQueries.all() })),
  });
  const s = status.data;
  return (
    <Section id="checkin" title={t('growth.checkin')}>
      <Failure error={status.error ?? claim.error ?? withdraw.error} />
      {s && (
        <>
          <Text>{t('growth.streak', { streak: s.streak, accrued: formatNaira(s.accrued) })}</Text>
          <Group>
            <Button onClick={() => claim.mutate()} disabled={s.todayClaimed} loading={claim.isPending}>
              {s.todayClaimed ? t('growth.claimed') : t('growth.claim', { reward: formatNaira(s.nextReward) })}
            </Button>
            <Button variant="light" onClick={() => withdraw.mutate()} disabled={!s.canWithdraw} loading={withdraw.isPending}>
              {t('growth.withdraw', { min: formatNaira(s.minWithdrawal) })}
            </Button>
          </Group>
        </>
      )}
    </Section>
  );
}

function Savings() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const locks = useQuery(growthQueries.savings());
  // createSavingsLock's own rules (api/schemas.ts): the amount and 7 to 365 days; the PIN pad confirms.
  const form = useSchemaForm(savingsLockSchema, { amount: '' as number | '', days: 30 });
  const [pin, setPin] = useState('');
  const [underFields, setUnderFields] = useState(false);
  const key = useRef(newIdempotencyKey());
  const refresh = () => (
    void qc.invalidateQueries({ queryKey: growthQueries.savings().queryKey }),
    void qc.invalidateQueries({ queryKey: walletQueries.all() })
  );
  const create = useMutation({
    mutationFn: (v: { amount: number; days: number; pin: string }) => api.createSavingsLock(v, { idempotencyKey: key.current }),
    onSuccess: () => (refresh(), form.reset()),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
    onSettled: () => ((key.current = newIdempotencyKey()), setPin('')),
  });
  function confirm(p: string) {
    const checked = savingsLockSchema.safeParse(form.getValues());
    if (form.validate().hasErrors || !checked.success) return setPin('');
    create.mutate({ ...checked.data, pin: p });
  }
  const brk = useMutation({
    mutationFn: (lockId: string) => api.breakSavingsLock({ lockId }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: refresh,
  });
  const amount = form.getValues().amount;
  return (
    <Section id="savings" title={t('growth.savings')}>
      <Failure error={locks.error ?? (underFields ? null : create.error) ?? brk.error} />
      {locks.data && <Text>{t('growth.totalLocked', { amount: formatNaira(locks.data.totalLocked) })}</Text>}
      {locks.data && locks.data.items.length > 0 && (
        <Table aria-label={t('growth.savings')}>
          <Table.Tbody>
            {locks.data.items.map((l) => (
              <Table.Tr key={l.id}>
                <Table.Td>{formatNaira(l.amount)}</Table.Td>
                <Table.Td>{t('growth.lockTerms', { days: l.days, rate: l.interestRatePct, date: formatDateTime(l.maturesAt) })}</Table.Td>
                <Table.Td>
                  <StatusBadge status={l.status} label={t(`growth.lock_${l.status}`)} />
                </Table.Td>
                <Table.Td>
                  {l.status === 'active' && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => brk.mutate(l.id)}
                      aria-label={t('growth.breakLock', { amount: formatNaira(l.amount), fee: l.breakFeePct })}
                    >
                      {t('growth.break')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <AmountInput label={t('growth.lockAmount')} {...amountProps(form, 'amount')} />
      <NativeSelect
        label={t('growth.lockDays')}
        {...form.getInputProps('days')}
        value={String(form.getValues().days)}
        onChange={(e) => form.setFieldValue('days', Number(e.currentTarget.value))}
        data={['7', '30', '90', '180', '365'].map((d) => ({ value: d, label: t('growth.days', { days: d }) }))}
      />
      {typeof amount === 'number' && amount > 0 && <PinPad value={pin} onChange={setPin} onConfirm={confirm} busy={create.isPending} />}
    </Section>
  );
}

function Loans() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const overview = useQuery(growthQueries.loans());
  // takeLoan's and repayLoan's own rules (api/schemas.ts); a repayment with no amount repays all of it.
  const takeForm = useSchemaForm(loanSchema, { amount: '' as number | '' });
  const repayForm = useSchemaForm(repaySchema, { amount: '' as number | '' });
  const [underFields, setUnderFields] = useState(false);
  const refresh = () => (
    void qc.invalidateQueries({ queryKey: growthQueries.loans().queryKey }),
    void qc.invalidateQueries({ queryKey: walletQueries.all() })
  );
  const take = useMutation({
    mutationFn: (amount: number) => api.takeLoan({ amount }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (refresh(), takeForm.reset()),
    onError: (err) => setUnderFields(showServerIssues(takeForm, err)),
  });
  const repay = useMutation({
    mutationFn: (amount?: number) => api.repayLoan(amount === undefined ? {} : { amount }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (refresh(), repayForm.reset()),
    onError: (err) => setUnderFields(showServerIssues(repayForm, err)),
  });
  const repayAmount = repayForm.getValues().amount;
  const o = overview.data;
  return (
    <Section id="loans" title={t('growth.loans')}>
      <Failure error={overview.error ?? (underFields ? null : (take.error ?? repay.error))} />
      {o?.loan ? (
        <form
          onSubmit={repayForm.onSubmit((v) => {
            const c = repaySchema.safeParse(v);
            if (c.success) repay.mutate(c.data.amount);
          })}
          noValidate
        >
          <Stack>
            <Text>{t('growth.loanOutstanding', { amount: formatNaira(o.loan.outstanding), date: formatDateTime(o.loan.dueAt) })}</Text>
            <AmountInput label={t('growth.repayAmount')} max={o.loan.outstanding} {...amountProps(repayForm, 'amount')} />
            <Button type="submit" loading={repay.isPending}>
              {typeof repayAmount === 'number' ? t('growth.repay') : t('growth.repayAll')}
            </Button>
          </Stack>
        </form>
      ) : o?.eligible ? (
        <form
          noValidate
          onSubmit={takeForm.onSubmit((v) => {
            const c = loanSchema.safeParse(v);
            if (!c.success) return;
            // The offer's own bounds, as the service states them for this customer.
            if (c.data.amount < o.minAmount)
              return takeForm.setFieldError('amount', t('form.atLeast', { minimum: formatNaira(o.minAmount) }));
            if (c.data.amount > o.limit) return takeForm.setFieldError('amount', t('form.atMost', { maximum: formatNaira(o.limit) }));
            take.mutate(c.data.amount);
          })}
        >
          <Stack>
            <Text size="sm">{t('growth.loanTerms', { limit: formatNaira(o.limit), fee: o.feePct, days: o.termDays })}</Text>
            <AmountInput label={t('growth.loanAmount')} min={o.minAmount} max={o.limit} {...amountProps(takeForm, 'amount')} />
            <Button type="submit" loading={take.isPending}>
              {t('growth.takeLoan')}
            </Button>
          </Stack>
        </form>
      ) : (
        o && (
          <Stack gap={2}>
            <Text>{t('growth.notEligible')}</Text>
            {o.reasons.map((r) => (
              <Text key={r.code} size="sm">
                • {r.message}
              </Text>
            ))}
          </Stack>
        )
      )}
    </Section>
  );
}

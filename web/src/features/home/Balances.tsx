import { Group, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNaira } from '../../app/format';
import { EyeIcon } from '../../app/icons';

// Whether the amounts are hidden (someone looking over the shoulder); remembered on this device.
const HIDE_KEY = 'vtu.hideBalance';
const HIDDEN = '₦ ••••••';

export function Balances(p: { balance?: number; lockedBonus?: number; referralLockedBonus?: number }) {
  const { t } = useTranslation();
  const [hidden, setHidden] = useState(() => localStorage.getItem(HIDE_KEY) === '1');
  const toggle = () => {
    localStorage.setItem(HIDE_KEY, hidden ? '0' : '1');
    setHidden(!hidden);
  };
  const show = (n?: number) => (n === undefined ? '…' : hidden ? HIDDEN : formatNaira(n));
  return (
    <div className="balance-card">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{t('home.balance')}</Text>
        <UnstyledButton
          className="eye-toggle"
          onClick={toggle}
          aria-pressed={hidden}
          aria-label={t('home.hideBalance')}
          title={hidden ? t('home.showBalance') : t('home.hideBalance')}
        >
          <EyeIcon off={hidden} />
        </UnstyledButton>
      </Group>
      <Text fz={32} fw={700} className="amount-large" data-testid="balance">
        {show(p.balance)}
      </Text>
      {/* One line each: side by side, the amounts arriving wrapped the second line and moved the screen down. */}
      <div className="balance-bonuses">
        <Text size="sm">
          {t('home.lockedBonus')}: {show(p.lockedBonus)}
        </Text>
        <Text size="sm">
          {t('home.referralBonus')}: {show(p.referralLockedBonus)}
        </Text>
      </div>
    </div>
  );
}

import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../app/i18n';

/** The app's language, remembered on this device (before signing in too: the sign-in screen offers it). */
export function LanguagePicker({ onChange }: { onChange?: (code: Language) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      label={t('settings.language')}
      value={i18n.language}
      onChange={(e) => {
        const code = e.currentTarget.value as Language;
        void setLanguage(code);
        onChange?.(code);
      }}
      data={LANGUAGES.map((l) => ({ value: l.code, label: l.name }))}
    />
  );
}

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../app/i18n';

/**
 * The app's language, remembered on this device (before signing in too: the sign-in screen offers it). A plain
 * select: the sign-in screen loads no form component it does not need.
 */
export function LanguagePicker({ onChange }: { onChange?: (code: Language) => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="language-picker">
      <label htmlFor={id}>{t('settings.language')}</label>
      <select
        id={id}
        value={i18n.language}
        onChange={(e) => {
          const code = e.currentTarget.value as Language;
          void setLanguage(code);
          onChange?.(code);
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useId, type InputHTMLAttributes } from 'react';
import './fields.css';

/**
 * A labelled text input for the first screens (sign-in), drawn with the theme's CSS variables. Mantine's TextInput and
 * PasswordInput bring its input framework (~6 KB gzip) into the JavaScript every visitor downloads first; the other
 * screens keep them. The label names the input; a required field shows an asterisk that assistive technology skips
 * (the input's `required` says it).
 */
export function TextField({ label, required, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
        {required && (
          <span className="field-required" aria-hidden>
            {' *'}
          </span>
        )}
      </label>
      <input id={id} className="field-input" required={required} {...input} />
    </div>
  );
}

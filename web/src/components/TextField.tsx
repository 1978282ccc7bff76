import { useId, type InputHTMLAttributes } from 'react';
import './fields.css';

/**
 * A labelled text input for the first screens (sign-in), drawn with the theme's CSS variables. Mantine's TextInput and
 * PasswordInput bring its input framework (~6 KB gzip) into the JavaScript every visitor downloads first; the other
 * screens keep them. The label names the input; a required field shows an asterisk that assistive technology skips
 * (the input's `required` says it). A message under the field (`error`) describes the input and marks it invalid.
 */
export function TextField({ label, required, error, ...input }: { label: string; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-error`;
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
      <input
        id={id}
        className="field-input"
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

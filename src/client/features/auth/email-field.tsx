import { useTranslation } from '#client/i18n/i18n.js';

interface EmailFieldProps {
  id: string;
  value: string;
  errorKey: string | null;
  onChange(value: string): void;
}

export function EmailField({ id, value, errorKey, onChange }: EmailFieldProps) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t('auth.login.emailLabel')}
      </label>
      <input
        id={id}
        className="field__input"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        required
        maxLength={254}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={errorKey ? true : undefined}
        aria-describedby={errorKey ? `${id}-error` : undefined}
        autoFocus
      />
      {errorKey && (
        <p id={`${id}-error`} className="field__error">
          {t(errorKey)}
        </p>
      )}
    </div>
  );
}

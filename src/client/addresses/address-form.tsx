import { useEffect, useId, useState, type FormEvent } from 'react';
import { COUNTRIES, DEFAULT_COUNTRY, firstAddressError, internationalPhone, PHONE_MAX_LENGTH, type Address, type AddressInput } from '#shared/addresses.js';
import { refusedField } from '#client/api/error-text.js';
import { useTranslation } from '#client/i18n/i18n.js';

interface AddressFormProps {
  initial?: Address;
  saving: boolean;
  /** A translated message from the last failed save, shown above the buttons. */
  saveError: string | null;
  /** The last failed save's error: a field the server refused shows its rule's text under the field instead. */
  saveFailure?: unknown;
  onSave(input: AddressInput): void;
  onCancel?(): void;
}

const empty: AddressInput = { fullName: '', streetAddress: '', apartment: '', city: '', state: '', postalCode: '', country: DEFAULT_COUNTRY, phone: '' };

type FieldName = 'fullName' | 'streetAddress' | 'apartment' | 'city' | 'state' | 'postalCode';
const FORM_FIELDS: ReadonlySet<string> = new Set<keyof AddressInput>(['fullName', 'streetAddress', 'apartment', 'city', 'state', 'postalCode', 'country', 'phone']);

/** The address form: checks the rules of the shared schema in order and shows the first that fails. */
export function AddressForm({ initial, saving, saveError, saveFailure, onSave, onCancel }: AddressFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<AddressInput>(initial ? { ...initial } : empty);
  const [checkError, setError] = useState<{ field: string; messageKey: string } | null>(null);
  const id = useId();
  // A rule the server checks that this form did not (a newer server's) fails like the form's own.
  const refused = refusedField(t, saveFailure);
  const serverError = refused && FORM_FIELDS.has(refused.field) ? refused : null;
  const error = checkError ?? serverError;
  const refusedName = serverError?.field;
  useEffect(() => {
    if (refusedName) document.getElementById(`${id}-${refusedName}`)?.focus();
  }, [id, refusedName]);
  const change = (field: keyof AddressInput, value: string) => setValues((current) => ({ ...current, [field]: value }));
  const validPhone = values.phone ? internationalPhone(values.phone, values.country ?? DEFAULT_COUNTRY) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = firstAddressError(values);
    setError(problem);
    if (problem) {
      document.getElementById(`${id}-${problem.field}`)?.focus();
      return;
    }
    onSave(values);
  };

  const field = (name: FieldName, options: { required?: boolean; autoComplete: string }) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${name}`}>
        {t(`addressForm.${name}`)}
        {options.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={`${id}-${name}`}
        className="field__input"
        value={values[name] ?? ''}
        onChange={(event) => change(name, event.target.value)}
        autoComplete={options.autoComplete}
        required={options.required}
        aria-invalid={error?.field === name ? true : undefined}
        aria-describedby={error?.field === name ? `${id}-error` : undefined}
      />
      {error?.field === name && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {t(error.messageKey)}
        </p>
      )}
    </div>
  );

  return (
    <form className="address-form" onSubmit={submit} noValidate>
      {field('fullName', { required: true, autoComplete: 'name' })}
      {field('streetAddress', { required: true, autoComplete: 'address-line1' })}
      {field('apartment', { autoComplete: 'address-line2' })}
      <div className="address-form__row">
        {field('city', { required: true, autoComplete: 'address-level2' })}
        {field('state', { required: true, autoComplete: 'address-level1' })}
      </div>
      <div className="address-form__row">
        {field('postalCode', { required: true, autoComplete: 'postal-code' })}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-country`}>
            {t('addressForm.country')}
            <span aria-hidden="true"> *</span>
          </label>
          <select
            id={`${id}-country`}
            className="field__input"
            value={values.country}
            onChange={(event) => change('country', event.target.value)}
            autoComplete="country"
            required
            aria-invalid={error?.field === 'country' ? true : undefined}
          >
            {COUNTRIES.map((country) => (
              <option key={country} value={country}>
                {t(`countries.${country}`)}
              </option>
            ))}
          </select>
          {error?.field === 'country' && (
            <p className="field__error" role="alert">
              {t(error.messageKey)}
            </p>
          )}
        </div>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-phone`}>
          {t('addressForm.phone')}
          <span aria-hidden="true"> *</span>
        </label>
        <input
          id={`${id}-phone`}
          className="field__input"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={PHONE_MAX_LENGTH}
          value={values.phone}
          onChange={(event) => change('phone', event.target.value)}
          required
          aria-invalid={error?.field === 'phone' ? true : undefined}
          aria-describedby={`${id}-phone-hint`}
        />
        <p id={`${id}-phone-hint`} className={`field__hint ${validPhone ? 'field__hint--valid' : ''}`} aria-live="polite">
          {values.phone === '' ? t('addressForm.phoneHint') : validPhone ? t('addressForm.phoneValid', { phone: validPhone }) : t('addressForm.phoneInvalid')}
        </p>
        {error?.field === 'phone' && (
          <p className="field__error" role="alert">
            {t(error.messageKey)}
          </p>
        )}
      </div>
      {saveError && !serverError && (
        <p className="form-error" role="alert">
          {saveError}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? t('addressForm.saving') : t('addressForm.save')}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            {t('addressForm.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

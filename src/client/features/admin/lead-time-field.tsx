import { useId } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { fieldId, type ErrorAt } from './model-fields.js';
import type { LeadTimeForm } from './product-model-form.js';

interface LeadTimeFieldProps {
  formId: string;
  value: LeadTimeForm;
  onChange(value: LeadTimeForm): void;
  errorAt: ErrorAt;
}

const key = 'admin.products.model.';

/** "Ready to ship in [2] working days" or "Made to order in [5]–[10] working days", each with its own inputs. */
export function LeadTimeField({ formId, value, onChange, errorAt }: LeadTimeFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const error = errorAt('leadTime') ?? errorAt('leadTime.days') ?? errorAt('leadTime.minDays') ?? errorAt('leadTime.maxDays');
  const errorId = `${id}-error`;
  const daysInput = (field: 'days' | 'minDays' | 'maxDays', label: string) => (
    <input
      id={fieldId(formId, `leadTime.${field}`)}
      className="field__input model-days"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      maxLength={3}
      value={value[field]}
      aria-label={label}
      aria-invalid={errorAt(`leadTime.${field}`) || errorAt('leadTime') ? true : undefined}
      aria-describedby={error ? errorId : `${id}-hint`}
      onChange={(event) => onChange({ ...value, [field]: event.target.value })}
    />
  );
  return (
    <fieldset className="field model-lead" aria-describedby={`${id}-hint`}>
      <legend className="field__label">{t(`${key}leadTime`)}</legend>
      <div className="model-lead__option">
        <input type="radio" id={`${id}-ready`} name={`${id}-kind`} checked={value.kind === 'ready'} onChange={() => onChange({ ...value, kind: 'ready' })} />
        <label htmlFor={`${id}-ready`}>{t(`${key}leadKinds.ready`)}</label>
        {value.kind === 'ready' && (
          <span className="model-lead__days">
            {daysInput('days', t(`${key}leadDays`))} {t(`${key}workingDays`)}
          </span>
        )}
      </div>
      <div className="model-lead__option">
        <input type="radio" id={`${id}-made`} name={`${id}-kind`} checked={value.kind === 'made_to_order'} onChange={() => onChange({ ...value, kind: 'made_to_order' })} />
        <label htmlFor={`${id}-made`}>{t(`${key}leadKinds.made_to_order`)}</label>
        {value.kind === 'made_to_order' && (
          <span className="model-lead__days">
            {daysInput('minDays', t(`${key}leadMinDays`))}
            <span aria-hidden="true">–</span>
            {daysInput('maxDays', t(`${key}leadMaxDays`))} {t(`${key}workingDays`)}
          </span>
        )}
      </div>
      <p id={`${id}-hint`} className="field__hint">
        {t(`${key}leadHint`)}
      </p>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

import type { InputHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';

/** The message a refused field shows beside itself, if the refusal is about it. */
export type ErrorAt = (field: string) => string | undefined;

/** Where a field's input is: the form moves the focus to a refused field by it. */
export const fieldId = (formId: string, field: string) => `${formId}-${field.replace(/[^\w-]/g, '-')}`;

interface ModelTextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> {
  formId: string;
  /** The field's place in the model ("optionGroups.0.name"): its id, and where the server's refusal names it. */
  field: string;
  label: string;
  value: string;
  onChange(value: string): void;
  errorAt: ErrorAt;
  hint?: ReactNode;
  /** Set when two inputs share one refusal (a name in English and in Bulgarian): the second is `${field}.bg`. */
  errorField?: string;
}

/** A labelled text field with its hint and, when refused, its message (read with the field). */
export function ModelTextField({ formId, field, label, value, onChange, errorAt, hint, errorField, className, ...input }: ModelTextFieldProps) {
  const id = fieldId(formId, field);
  const error = errorAt(errorField ?? field);
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field model-field ${className ?? ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        className="field__input"
        type="text"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A refusal about a whole list or table (no values, every combination unsold), under its title. */
export function ListError({ formId, field, errorAt }: { formId: string; field: string; errorAt: ErrorAt }) {
  const error = errorAt(field);
  if (!error) return null;
  return (
    <p id={fieldId(formId, field)} className="field__error" tabIndex={-1}>
      {error}
    </p>
  );
}

interface RowActionsProps {
  /** The row's name as the buttons' accessible names say it ("Move Almond up"). */
  name: string;
  index: number;
  count: number;
  onMove(from: number, to: number): void;
  onRemove(): void;
}

/**
 * Move up, move down and remove, as small buttons. A button that cannot act (the first row's
 * "Move up") stays focusable with aria-disabled, so that the focus does not fall to the page.
 */
export function RowActions({ name, index, count, onMove, onRemove }: RowActionsProps) {
  const { t } = useTranslation();
  const key = 'admin.products.model.';
  return (
    <div className="model-row__actions">
      <button type="button" className="button button--small" aria-label={t(`${key}moveUpNamed`, { name })} aria-disabled={index === 0} onClick={() => index > 0 && onMove(index, index - 1)}>
        <span aria-hidden="true">↑</span> <span className="model-row__action-text">{t(`${key}moveUp`)}</span>
      </button>
      <button
        type="button"
        className="button button--small"
        aria-label={t(`${key}moveDownNamed`, { name })}
        aria-disabled={index === count - 1}
        onClick={() => index < count - 1 && onMove(index, index + 1)}
      >
        <span aria-hidden="true">↓</span> <span className="model-row__action-text">{t(`${key}moveDown`)}</span>
      </button>
      <button type="button" className="button button--small button--ghost" aria-label={t(`${key}removeNamed`, { name })} onClick={onRemove}>
        {t(`${key}remove`)}
      </button>
    </div>
  );
}

/** A list with one row moved, as the move buttons ask. */
export function moved<Item>(items: readonly Item[], from: number, to: number): Item[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** A row's name for the buttons and the combination table: the admin's language's, else the other, else "(no name yet)". */
export function rowName(row: { nameEn: string; nameBg: string }, language: string, unnamed: string): string {
  const first = language === 'bg' ? row.nameBg : row.nameEn;
  const second = language === 'bg' ? row.nameEn : row.nameBg;
  return first.trim() || second.trim() || unnamed;
}

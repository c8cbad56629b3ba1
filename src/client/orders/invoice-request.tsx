import { useEffect, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import { requestJson } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';

/** The invoice part of the checkout as typed: whether one is wanted, and the buyer's details. */
export interface InvoiceDraft {
  wanted: boolean;
  kind: InvoiceBuyer['kind'];
  name: string;
  uic: string;
  vatNumber: string;
  responsiblePerson: string;
  address: string;
}

export const EMPTY_INVOICE_DRAFT: InvoiceDraft = { wanted: false, kind: 'company', name: '', uic: '', vatNumber: '', responsiblePerson: '', address: '' };

/** The buyer to send with the order: the fields of the chosen kind, or nothing when no invoice is wanted. */
export function invoiceBuyerOf(draft: InvoiceDraft): InvoiceBuyer | undefined {
  if (!draft.wanted) return undefined;
  const { kind, name, address } = draft;
  return kind === 'company' ? { kind, name, uic: draft.uic, vatNumber: draft.vatNumber, responsiblePerson: draft.responsiblePerson, address } : { kind, name, address };
}

type Field = 'name' | 'uic' | 'vatNumber' | 'responsiblePerson' | 'address';
const COMPANY_FIELDS: readonly Field[] = ['name', 'uic', 'vatNumber', 'responsiblePerson', 'address'];
const PERSON_FIELDS: readonly Field[] = ['name', 'address'];
const AUTOCOMPLETE: Record<Field, string> = { name: 'organization', uic: 'off', vatNumber: 'off', responsiblePerson: 'name', address: 'street-address' };

interface InvoiceRequestProps {
  draft: InvoiceDraft;
  onChange(draft: InvoiceDraft): void;
  /** The first rule the details break (from this form's check or the server's), shown under its field. */
  error: { field: string; messageKey: string } | null;
  /** After the checkout the buyer has already said she wants one: the form has no "I need an invoice" box. */
  afterCheckout?: boolean;
  /** The form's title after the checkout, when it is not the buyer asking (the admin correcting, say). */
  legend?: string;
  /** Fill the form in from the signed-in buyer's last invoice (not for the admin, whose own it would be). */
  fillFromProfile?: boolean;
}

/** "I need an invoice": a company with its ЕИК, VAT number and МОЛ, or a private person; filled in from the last invoice. */
export function InvoiceRequest({ draft, onChange, error, afterCheckout = false, legend, fillFromProfile = true }: InvoiceRequestProps) {
  const { t } = useTranslation();
  const id = useId();
  const saved = useQuery({
    queryKey: ['account', 'invoice-buyer'],
    queryFn: async () => (await requestJson<{ buyer: InvoiceBuyer | null }>('/api/account/invoice-buyer')).buyer,
    enabled: fillFromProfile,
    staleTime: 60_000,
  });
  const savedBuyer = saved.data;
  useEffect(() => {
    if (!savedBuyer || draft.name) return;
    onChange({ ...EMPTY_INVOICE_DRAFT, ...savedBuyer, wanted: draft.wanted });
    // Filled in once, when the saved details arrive; what the buyer then types is hers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedBuyer]);
  const errorField = error?.field;
  useEffect(() => {
    if (errorField) document.getElementById(`${id}-${errorField}`)?.focus();
  }, [id, errorField]);

  const change = (changes: Partial<InvoiceDraft>) => onChange({ ...draft, ...changes });
  const fields = draft.kind === 'company' ? COMPANY_FIELDS : PERSON_FIELDS;

  return (
    <fieldset className="choice-list invoice-request">
      <legend className="panel__title">{legend ?? t(afterCheckout ? 'invoice.request.title' : 'invoice.title')}</legend>
      {!afterCheckout && (
        <label className="choice">
          <input type="checkbox" checked={draft.wanted} onChange={(event) => change({ wanted: event.target.checked })} />
          <span>{t('invoice.wanted')}</span>
        </label>
      )}
      {draft.wanted && (
        <>
          <div className="invoice-request__kinds" role="radiogroup" aria-label={t('invoice.kind')}>
            {(['company', 'person'] as const).map((kind) => (
              <label key={kind} className="choice">
                <input type="radio" name={`${id}-kind`} value={kind} checked={draft.kind === kind} onChange={() => change({ kind })} />
                <span>{t(`invoice.kinds.${kind}`)}</span>
              </label>
            ))}
          </div>
          {fields.map((field) => {
            const label = field === 'name' ? t(draft.kind === 'company' ? 'invoice.fields.companyName' : 'invoice.fields.personName') : t(`invoice.fields.${field}`);
            const required = field !== 'vatNumber';
            const invalid = error?.field === field;
            return (
              <div className="field" key={field}>
                <label className="field__label" htmlFor={`${id}-${field}`}>
                  {label}
                  {required && <span aria-hidden="true"> *</span>}
                </label>
                <input
                  id={`${id}-${field}`}
                  className="field__input"
                  value={draft[field]}
                  onChange={(event) => change({ [field]: event.target.value })}
                  autoComplete={AUTOCOMPLETE[field]}
                  inputMode={field === 'uic' ? 'numeric' : undefined}
                  required={required}
                  aria-invalid={invalid ? true : undefined}
                  aria-describedby={invalid ? `${id}-error` : field === 'vatNumber' ? `${id}-vat-hint` : undefined}
                />
                {field === 'vatNumber' && !invalid && (
                  <p id={`${id}-vat-hint`} className="field__hint">
                    {t('invoice.vatNumberHint')}
                  </p>
                )}
                {invalid && (
                  <p id={`${id}-error`} className="field__error" role="alert">
                    {t(error.messageKey)}
                  </p>
                )}
              </div>
            );
          })}
        </>
      )}
    </fieldset>
  );
}

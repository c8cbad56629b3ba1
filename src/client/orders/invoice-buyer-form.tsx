import { useState, type ReactNode } from 'react';
import { firstInvoiceBuyerError, type InvoiceBuyer } from '#shared/invoice-buyer.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { InvoiceRequest, invoiceBuyerOf, type InvoiceDraft } from './invoice-request.js';

interface InvoiceBuyerFormOptions {
  /** Sends the buyer; the form closes when it resolves. */
  send(buyer: InvoiceBuyer): Promise<void>;
  /** The start of the message keys of this request's own refusals ('invoice.request.', 'invoice.correction.'). */
  refusals: string;
  /** What is said when the request fails for no reason the server named. */
  failed: string;
}

/**
 * An invoice's buyer typed after the checkout (asked for by the buyer, corrected by the admin): the
 * details as typed, checked by the shared rules before they are sent and by the server after, each
 * refusal shown under its field or, when it is the request's, above the buttons.
 */
export function useInvoiceBuyerForm({ send, refusals, failed }: InvoiceBuyerFormOptions) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<InvoiceDraft | null>(null);
  const [fieldError, setFieldError] = useState<{ field: string; messageKey: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const close = () => {
    setDraft(null);
    setFieldError(null);
    setProblem(null);
  };

  const submit = async () => {
    if (!draft) return;
    const buyer = invoiceBuyerOf(draft)!;
    const invalid = firstInvoiceBuyerError(buyer);
    setFieldError(invalid);
    setProblem(null);
    if (invalid) return;
    setSending(true);
    try {
      await send(buyer);
      close();
    } catch (error) {
      if (error instanceof ApiError && error.details.field?.startsWith('invoiceBuyer.') && error.details.messageKey) {
        setFieldError({ field: error.details.field.slice('invoiceBuyer.'.length), messageKey: error.details.messageKey });
      } else if (error instanceof ApiError && error.details.messageKey?.startsWith(refusals)) {
        setProblem(t(error.details.messageKey));
      } else {
        setProblem(error instanceof ApiError && error.code !== 'internal' ? errorText(t, error) : t(failed));
      }
    } finally {
      setSending(false);
    }
  };

  return { draft, open: setDraft, setDraft, close, fieldError, problem, sending, submit };
}

type InvoiceBuyerForm = ReturnType<typeof useInvoiceBuyerForm>;

interface InvoiceBuyerFieldsProps {
  form: InvoiceBuyerForm & { draft: InvoiceDraft };
  legend?: string;
  /** Said under the fields: what sending them will do. */
  note?: ReactNode;
  submitLabel: string;
  sendingLabel: string;
  onCancel(): void;
  /** Fill the fields in from the signed-in buyer's last invoice. */
  fillFromProfile?: boolean;
}

/** The open form: the invoice's fields, what sending does, the request's refusal, and send or cancel. */
export function InvoiceBuyerFields({ form, legend, note, submitLabel, sendingLabel, onCancel, fillFromProfile = true }: InvoiceBuyerFieldsProps) {
  const { t } = useTranslation();
  return (
    <form
      className="ask-for-invoice"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      <InvoiceRequest draft={form.draft} onChange={form.setDraft} error={form.fieldError} afterCheckout legend={legend} fillFromProfile={fillFromProfile} />
      {note}
      {form.problem && (
        <p className="form-error" role="alert">
          {form.problem}
        </p>
      )}
      <div className="ask-for-invoice__actions">
        <button type="submit" className="button button--primary" disabled={form.sending}>
          {form.sending ? sendingLabel : submitLabel}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={form.sending}>
          {t('invoice.request.cancel')}
        </button>
      </div>
    </form>
  );
}

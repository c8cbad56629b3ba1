import { useState } from 'react';
import type { PaymentProviderName } from '#shared/payment-methods.js';
import type { PaymentStart } from '#shared/payments.js';
import { errorText } from '#client/api/error-text.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { startPayment } from '#client/orders/orders-api.js';

/** Sends the browser to the provider: to its page, or by posting the signed form it takes (ePay.bg). */
function goTo(start: PaymentStart): void {
  if (start.kind === 'redirect') {
    window.location.assign(start.url);
    return;
  }
  const form = document.createElement('form');
  form.method = 'post';
  form.action = start.action;
  for (const [name, value] of Object.entries(start.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/**
 * The button that starts a payment with a real provider. The server starts it (the amount is the
 * order's, never the page's); the page only goes where the server says, and learns that the order is
 * paid from the server once the provider told it.
 */
export function ProviderPayment({ orderId, provider }: { orderId: string; provider: Exclude<PaymentProviderName, 'simulated'> }) {
  const { t } = useTranslation();
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pay = async () => {
    setStarting(true);
    setProblem(null);
    try {
      goTo(await startPayment(orderId));
    } catch (error) {
      setProblem(errorText(t, error));
      setStarting(false);
    }
  };

  return (
    <>
      <p className="muted">{t(`payment.providerNote.${provider}`)}</p>
      <div className="form-actions">
        {/* aria-disabled keeps the focus on the button while the provider's page loads. */}
        <button type="button" className="button button--primary" aria-disabled={starting} onClick={() => !starting && void pay()}>
          {starting ? t('payment.starting') : t(`payment.payWith.${provider}`)}
        </button>
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}

// A chunk of its own: only a sold-out product's page shows it, and it brings the validation library.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { stockAlertRequestSchema } from '#shared/stock-alerts.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';

const key = 'stockAlert.';

/**
 * "Tell me when it is back" on a sold-out product: a signed-in buyer asks with one click, for her
 * account's address; a visitor gives her e-mail. The shop writes once, when a piece can be bought.
 */
export default function BackInStockForm({ productId }: { productId: string }): ReactNode {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const id = useId();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<{ onField: boolean; message: string } | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const refuse = (onField: boolean, message: string) => {
    setProblem({ onField, message });
    if (onField) requestAnimationFrame(() => document.getElementById(`${id}-email`)?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const checked = stockAlertRequestSchema.safeParse({ email: user?.email ?? email, language });
    if (!checked.success) return refuse(!user, t(checked.error.issues[0]?.message ?? `${key}errors.emailInvalid`));
    setSending(true);
    try {
      await requestJson(`/api/products/${productId}/stock-alerts`, { method: 'POST', body: JSON.stringify(checked.data) });
      setProblem(null);
      setSentTo(checked.data.email);
    } catch (failure) {
      const refused = refusedField(t, failure);
      if (refused) refuse(!user, t(refused.messageKey));
      else refuse(false, errorText(t, failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="stock-alert" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="stock-alert__title">
        {t(`${key}title`)}
      </h2>
      {sentTo ? (
        <p role="status">{t(`${key}sent`, { email: sentTo })}</p>
      ) : (
        <form className="stock-alert__form" onSubmit={(event) => void submit(event)} noValidate>
          <p>{user ? t(`${key}introSignedIn`, { email: user.email }) : t(`${key}intro`)}</p>
          {!user && (
            <div className="field">
              <label className="field__label" htmlFor={`${id}-email`}>
                {t(`${key}email`)}
              </label>
              <input
                id={`${id}-email`}
                className="field__input"
                type="email"
                autoComplete="email"
                value={email}
                aria-invalid={problem?.onField ? true : undefined}
                aria-describedby={problem?.onField ? `${id}-problem` : undefined}
                onChange={(event) => setEmail(event.target.value)}
              />
            </div>
          )}
          {problem && (
            <p className="field__error" id={`${id}-problem`} role="alert">
              {problem.message}
            </p>
          )}
          <button type="submit" className="button" disabled={sending}>
            {sending ? t(`${key}sending`) : t(`${key}send`)}
          </button>
        </form>
      )}
    </section>
  );
}

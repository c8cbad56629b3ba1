// A chunk of its own: only a sold-out piece's page shows it, and it brings the validation library.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { similarPieceRequestSchema } from '#shared/similar-pieces.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';
import { focusOnMount } from '#client/ui/focus-on-mount.js';

const key = 'similarPiece.';

/**
 * "Make me a similar one" on a sold-out piece: the buyer leaves her e-mail (hers, when signed in)
 * and a note, and the maker gets the request with the product (Admin → Requests).
 */
export default function SimilarPieceForm({ productId }: { productId: string }): ReactNode {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState(user?.email ?? '');
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<{ field: 'email' | 'note' | null; message: string } | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const refuse = (field: 'email' | 'note' | null, message: string) => {
    setProblem({ field, message });
    if (field) requestAnimationFrame(() => document.getElementById(`${id}-${field}`)?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const checked = similarPieceRequestSchema.safeParse({ email, note, language });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return refuse(issue?.path[0] === 'note' ? 'note' : 'email', t(issue?.message ?? `${key}errors.emailInvalid`));
    }
    setSending(true);
    try {
      await requestJson(`/api/products/${productId}/similar-requests`, { method: 'POST', body: JSON.stringify(checked.data) });
      setProblem(null);
      setSentTo(checked.data.email);
    } catch (failure) {
      const refused = refusedField(t, failure);
      if (refused) refuse(refused.field === 'note' ? 'note' : 'email', t(refused.messageKey));
      else refuse(null, errorText(t, failure));
    } finally {
      setSending(false);
    }
  };

  const fieldProps = (field: 'email' | 'note') => ({
    id: `${id}-${field}`,
    'aria-invalid': problem?.field === field ? true : undefined,
    'aria-describedby': problem?.field === field ? `${id}-problem` : field === 'note' ? `${id}-note-hint` : undefined,
  });

  return (
    <section className="similar-piece" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="similar-piece__title">
        {t(`${key}title`)}
      </h2>
      {sentTo ? (
        <p role="status">{t(`${key}sent`, { email: sentTo })}</p>
      ) : (
        <>
          <p>{t(`${key}intro`)}</p>
          {!open ? (
            <button type="button" className="button" aria-expanded={false} onClick={() => setOpen(true)}>
              {t(`${key}open`)}
            </button>
          ) : (
            <form className="similar-piece__form" onSubmit={(event) => void submit(event)} noValidate>
              <div className="field">
                <label className="field__label" htmlFor={`${id}-email`}>
                  {t(`${key}email`)}
                </label>
                <input
                  {...fieldProps('email')}
                  className="field__input"
                  type="email"
                  autoComplete="email"
                  value={email}
                  // The button that opened the form is gone: the focus goes on to the form's first field.
                  ref={focusOnMount}
                  onChange={(event) => setEmail(event.target.value)}
                />
              </div>
              <div className="field">
                <label className="field__label" htmlFor={`${id}-note`}>
                  {t(`${key}note`)}
                </label>
                <textarea {...fieldProps('note')} className="field__input" rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
                <p className="field__hint" id={`${id}-note-hint`}>
                  {t(`${key}noteHint`)}
                </p>
              </div>
              {problem && (
                <p className="field__error" id={`${id}-problem`} role="alert">
                  {problem.message}
                </p>
              )}
              <button type="submit" className="button button--primary" disabled={sending}>
                {sending ? t(`${key}sending`) : t(`${key}send`)}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}

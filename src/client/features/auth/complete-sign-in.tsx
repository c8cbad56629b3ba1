import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { completeSignInSchema } from '#shared/auth-schemas.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';
import { Dialog } from '#client/ui/dialog.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { completeSignIn, readStoredEmail, signInErrorKey, storeEmail } from './auth-api.js';
import { EmailField } from './email-field.js';

type State =
  | { step: 'signing-in' }
  | { step: 'ask-email'; errorKey: string | null }
  | { step: 'failed'; errorKey: string };

/** Errors after which this link can never work; a wrong e-mail can still be corrected. */
const FINAL_ERRORS = new Set(['auth.errors.invalidLink', 'auth.errors.linkUsed', 'auth.errors.linkExpired']);

/**
 * Completes sign-in from the link's token: with the e-mail this browser stored when it asked for
 * the link, or with one the visitor types when the link was opened elsewhere.
 */
export default function CompleteSignIn({ token, onDone }: { token: string; onDone(): void }) {
  const { t } = useTranslation();
  const { signedIn, openLogin } = useSession();
  const showModal = useModal();
  const storedEmail = useRef(readStoredEmail());
  const [email, setEmail] = useState(storedEmail.current ?? '');
  const [state, setState] = useState<State>(storedEmail.current ? { step: 'signing-in' } : { step: 'ask-email', errorKey: null });
  const titleId = useId();
  const fieldId = useId();
  const started = useRef(false);

  const attempt = async (candidate: string) => {
    const parsed = completeSignInSchema.safeParse({ token, email: candidate });
    if (!parsed.success) {
      const errorKey = parsed.error.issues[0]?.message ?? 'auth.errors.invalidLink';
      setState(errorKey === 'auth.errors.invalidEmail' ? { step: 'ask-email', errorKey } : { step: 'failed', errorKey });
      return;
    }
    setState({ step: 'signing-in' });
    try {
      const { user } = await completeSignIn(parsed.data);
      storeEmail(null);
      if (user) await signedIn(user);
      onDone();
      showModal({ type: 'success', message: t('auth.complete.success', { email: parsed.data.email }) });
    } catch (error) {
      const errorKey = signInErrorKey(error);
      setState(FINAL_ERRORS.has(errorKey) ? { step: 'failed', errorKey } : { step: 'ask-email', errorKey });
    }
  };

  useEffect(() => {
    // Runs once even under StrictMode's double effects: a token can be used only once.
    if (started.current || !storedEmail.current) return;
    started.current = true;
    void attempt(storedEmail.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the first attempt uses the stored e-mail only
  }, []);

  const requestNewLink = () => {
    onDone();
    openLogin(email || undefined);
  };

  if (state.step === 'signing-in') {
    return (
      <Dialog titleId={titleId} onClose={() => {}}>
        <h2 id={titleId} className="dialog__title">
          {t('auth.complete.title')}
        </h2>
        <p role="status">{t('auth.complete.signingIn')}</p>
      </Dialog>
    );
  }

  if (state.step === 'failed') {
    return (
      <Dialog titleId={titleId} onClose={onDone}>
        <h2 id={titleId} className="dialog__title">
          {t('auth.complete.failedTitle')}
        </h2>
        <p className="form-error" role="alert">
          {t(state.errorKey)}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button button--primary" onClick={requestNewLink}>
            {t('auth.complete.requestNew')}
          </button>
          <button type="button" className="button" onClick={onDone}>
            {t('auth.login.close')}
          </button>
        </div>
      </Dialog>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt(email);
  };
  const fieldError = state.errorKey === 'auth.errors.invalidEmail' ? state.errorKey : null;
  return (
    <Dialog titleId={titleId} onClose={onDone}>
      <h2 id={titleId} className="dialog__title">
        {t('auth.complete.confirmTitle')}
      </h2>
      <p className="muted">{t('auth.complete.confirmIntro')}</p>
      <form onSubmit={submit} noValidate>
        <EmailField id={fieldId} value={email} errorKey={fieldError} onChange={setEmail} />
        {state.errorKey && !fieldError && (
          <p className="form-error" role="alert">
            {t(state.errorKey)}
          </p>
        )}
        <div className="dialog__actions">
          <button type="submit" className="button button--primary">
            {t('auth.complete.submit')}
          </button>
          <button type="button" className="button" onClick={requestNewLink}>
            {t('auth.complete.requestNew')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

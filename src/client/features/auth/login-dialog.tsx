import { useEffect, useId, useState, type FormEvent } from 'react';
import { signInLinkRequestSchema } from '#shared/auth-schemas.js';
import { useConnectivity } from '#client/connectivity/connectivity.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';
import { useSession } from '#client/session/session.js';
import { Dialog } from '#client/ui/dialog.js';
import { formatTime } from '#client/ui/format-date.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { requestSignInLink, signInErrorKey, signInRetryAt, storeEmail } from './auth-api.js';
import { EmailField } from './email-field.js';
import { focusOnMount } from '#client/ui/focus-on-mount.js';

/** retryAt: when a refused request may be made again (epoch ms), told in the refusal. */
type State = { step: 'form'; errorKey: string | null; retryAt?: number | null } | { step: 'sending' } | { step: 'sent'; email: string };

/** Asks for an e-mail address and sends a sign-in link to it. */
export default function LoginDialog() {
  const { t, language } = useTranslation();
  const { online } = useConnectivity();
  const { user, loginRequest, closeLogin } = useSession();
  const showModal = useModal();
  const [email, setEmail] = useState(loginRequest?.email ?? '');
  const [state, setState] = useState<State>({ step: 'form', errorKey: null });
  const titleId = useId();
  const fieldId = useId();

  // The link was opened in another tab of this browser, which signed this one in too: nothing is left to wait for.
  useEffect(() => {
    if (!user) return;
    closeLogin();
    showModal({ type: 'success', message: t('auth.complete.success', { email: user.email }) });
  }, [user, closeLogin, showModal, t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!online) {
      setState({ step: 'form', errorKey: 'auth.errors.offline' });
      return;
    }
    const parsed = signInLinkRequestSchema.safeParse({ email, language });
    if (!parsed.success) {
      setState({ step: 'form', errorKey: parsed.error.issues[0]?.message ?? 'auth.errors.invalidEmail' });
      return;
    }
    setState({ step: 'sending' });
    try {
      storeEmail(parsed.data.email);
      await requestSignInLink(parsed.data);
      setState({ step: 'sent', email: parsed.data.email });
    } catch (error) {
      setState({ step: 'form', errorKey: signInErrorKey(error), retryAt: signInRetryAt(error) });
    }
  };

  if (state.step === 'sent') {
    return (
      <Dialog titleId={titleId} onClose={closeLogin}>
        <h2 id={titleId} className="dialog__title">
          {t('auth.login.sentTitle')}
        </h2>
        <p role="status">{t('auth.login.sent', { email: state.email })}</p>
        {/* The mailbox opens only with the key in the server log: a link here would hand mail to any visitor. */}
        {settings.devMailbox && <p className="muted">{t('auth.login.devMailboxHint')}</p>}
        <div className="dialog__actions">
          <button type="button" className="button button--primary" onClick={closeLogin} ref={focusOnMount}>
            {t('auth.login.close')}
          </button>
          <button type="button" className="button" onClick={() => setState({ step: 'form', errorKey: null })}>
            {t('auth.login.useAnother')}
          </button>
        </div>
      </Dialog>
    );
  }

  const sending = state.step === 'sending';
  const formError = state.step === 'form' ? state.errorKey : null;
  const fieldError = formError === 'auth.errors.invalidEmail' ? formError : null;
  const retryAt = state.step === 'form' ? state.retryAt : null;
  const formErrorText = retryAt
    ? t('auth.errors.rateLimitedUntil', { count: Math.max(1, Math.ceil((retryAt - Date.now()) / 60_000)), time: formatTime(retryAt, language) })
    : formError && t(formError);
  return (
    <Dialog titleId={titleId} onClose={closeLogin}>
      <h2 id={titleId} className="dialog__title">
        {t('auth.login.title')}
      </h2>
      <p className="muted">{t('auth.login.intro')}</p>
      <form onSubmit={submit} noValidate>
        <EmailField id={fieldId} value={email} errorKey={fieldError} onChange={setEmail} />
        {formError && !fieldError && (
          <p className="form-error" role="alert">
            {formErrorText}
          </p>
        )}
        <div className="dialog__actions">
          <button type="submit" className="button button--primary" disabled={sending}>
            {sending ? t('auth.login.sending') : t('auth.login.submit')}
          </button>
          <button type="button" className="button" onClick={closeLogin}>
            {t('auth.login.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

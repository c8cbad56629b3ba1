import { useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import { ACCOUNT_EMAIL_MISMATCH, confirmsAccountEmail } from '#shared/account.js';
import { errorText } from '#client/api/error-text.js';
import { forgetCart } from '#client/cart/cart-storage.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { forgetPaymentInfo } from '#client/orders/order-storage.js';
import { useSession } from '#client/session/session.js';
import { Dialog } from '#client/ui/dialog.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { useDeleteAccount, useDownloadAccountData } from './account-api.js';

/** "Your data" in the profile: a copy of everything the shop holds about the customer, and the deletion of the account. */
export function AccountData() {
  const { t } = useTranslation();
  const { user } = useSession();
  const download = useDownloadAccountData();
  const [deleting, setDeleting] = useState(false);
  const titleId = useId();
  if (!user) return null;

  return (
    <section className="panel account-data" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title">
        {t('accountData.title')}
      </h2>
      <p className="muted">{t('accountData.intro')}</p>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? t('accountData.downloading') : t('accountData.download')}
        </button>
        <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
          {t('accountData.delete')}
        </button>
      </div>
      {download.isError && (
        <p className="form-error" role="alert">
          {t('accountData.downloadError', { reason: errorText(t, download.error) })}
        </p>
      )}
      {deleting && <DeleteAccountDialog email={user.email} onClose={() => setDeleting(false)} />}
    </section>
  );
}

/**
 * Says what goes and what the shop keeps, and deletes the account once its e-mail is typed. After
 * that, nothing of the customer stays in this browser, and they land on the home page.
 */
function DeleteAccountDialog({ email, onClose }: { email: string; onClose(): void }) {
  const { t } = useTranslation();
  const { signedOut } = useSession();
  const [, navigate] = useLocation();
  const showModal = useModal();
  const deleteAccount = useDeleteAccount(async () => {
    // The server has ended every session and cleared the cookie; this browser forgets the rest.
    const notice = { type: 'success', title: t('accountData.deletedTitle'), message: t('accountData.deleted') } as const;
    navigate(PAGE_ROUTES.home);
    await signedOut();
    // After the sign-out, so that no view of the cart can write its mirror again.
    forgetCart(localStorage, email);
    forgetPaymentInfo();
    showModal(notice);
  });
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const explanationId = useId();
  const fieldId = useId();
  const errorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmsAccountEmail(typed, email)) {
      setMismatch(true);
      fieldRef.current?.focus();
      return;
    }
    setMismatch(false);
    deleteAccount.mutate({ email: typed });
  };

  const pending = deleteAccount.isPending;
  return (
    <Dialog titleId={titleId} describedBy={explanationId} className="modal modal--warning account-data__dialog" onClose={() => !pending && onClose()}>
      <h2 id={titleId} className="dialog__title">
        {t('accountData.dialog.title')}
      </h2>
      <div id={explanationId}>
        <p>{t('accountData.dialog.deleted')}</p>
        <ul className="account-data__list">
          <li>{t('accountData.dialog.deletedAddresses')}</li>
          <li>{t('accountData.dialog.deletedCart')}</li>
          <li>{t('accountData.dialog.deletedSessions')}</li>
        </ul>
        <p>{t('accountData.dialog.kept')}</p>
        <p>{t('accountData.dialog.openOrders')}</p>
      </div>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={fieldId}>
            {t('accountData.dialog.emailLabel', { email })}
          </label>
          <input
            ref={fieldRef}
            id={fieldId}
            className="field__input"
            type="email"
            name="confirm-email"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            inputMode="email"
            maxLength={254}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            aria-invalid={mismatch || undefined}
            aria-describedby={mismatch ? errorId : undefined}
            data-autofocus
          />
          {mismatch && (
            <p id={errorId} className="field__error" role="alert">
              {t(ACCOUNT_EMAIL_MISMATCH)}
            </p>
          )}
        </div>
        {deleteAccount.isError && (
          <p className="form-error" role="alert">
            {errorText(t, deleteAccount.error)}
          </p>
        )}
        <div className="dialog__actions">
          <button type="submit" className="button button--danger" disabled={pending}>
            {pending ? t('accountData.dialog.deleting') : t('accountData.dialog.confirm')}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={pending}>
            {t('accountData.dialog.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

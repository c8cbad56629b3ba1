import { Link } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';

/** What a signed-out visitor sees on a page that needs an account. */
export function SignInRequired({ messageKey }: { messageKey: string }) {
  const { t } = useTranslation();
  const { openLogin } = useSession();
  return (
    <section className="panel panel--narrow">
      <p className="state-message">{t(messageKey)}</p>
      <div className="panel__actions">
        <button type="button" className="button button--primary" onClick={() => openLogin()}>
          {t('nav.login')}
        </button>
        <Link href={PAGE_ROUTES.home} className="button">
          {t('common.backHome')}
        </Link>
      </div>
    </section>
  );
}

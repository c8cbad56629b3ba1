import { Link } from 'wouter';
import { LEGAL_PAGES } from '#shared/legal.js';
import { legalPath, PAGE_ROUTES } from '#shared/routes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <nav className="site-footer__legal" aria-label={t('footer.legalLabel')}>
        <ul>
          {/* The withdrawal button (EU Directive 2011/83 art. 11a) belongs on every page, beside the legal pages. */}
          {[...LEGAL_PAGES, 'withdrawal' as const].map((page) => (
            <li key={page}>
              <Link href={page === 'withdrawal' ? PAGE_ROUTES.withdrawal : legalPath(page)}>{t(`footer.${page}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      <p>
        {t('footer.support')} <a href={`mailto:${settings.supportEmail}`}>{settings.supportEmail}</a>
      </p>
    </footer>
  );
}

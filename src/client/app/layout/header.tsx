import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useLanguageInAddress } from '#client/i18n/language-address.js';
import { useSession } from '#client/session/session.js';
import { LanguageSwitcher } from './language-switcher.js';

interface HeaderProps {
  cartCount: number;
  onLogin(): void;
  onLogout(): void;
}

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className={(active) => (active ? 'site-nav__link active' : 'site-nav__link')}>
      {children}
    </Link>
  );
}

export function Header({ cartCount, onLogin, onLogout }: HeaderProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  // Beside the language switcher, on every page that has it: the address follows the language chosen.
  useLanguageInAddress();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link href={PAGE_ROUTES.home} className="logo" aria-label={t('nav.homeLogo')}>
          <svg className="logo__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
            <path d="M16 3c5 0 8 5 8 12v10a4 4 0 0 1-4 4h-8a4 4 0 0 1-4-4V15C8 8 11 3 16 3z" fill="currentColor" />
            <path d="M12 9c1.5-2 6.5-2 8 0" stroke="#fff" strokeWidth="1.6" fill="none" strokeLinecap="round" />
          </svg>
          <span className="logo__text">{t('app.name')}</span>
        </Link>
        <nav className="site-nav" aria-label={t('nav.label')}>
          <NavLink href={PAGE_ROUTES.home}>{t('nav.home')}</NavLink>
          <NavLink href={PAGE_ROUTES.favourites}>{t('nav.favourites')}</NavLink>
          {user && (
            <>
              <NavLink href={PAGE_ROUTES.profile}>{t('nav.profile')}</NavLink>
              {/* Named by its content rather than aria-label, which would have to repeat the visible
                  "Cart 2" word for word for people who speak or see the name. */}
              <NavLink href={PAGE_ROUTES.cart}>
                <span aria-hidden="true">{t('nav.cart')}</span>
                <span className="badge" aria-hidden="true">
                  {cartCount}
                </span>
                <span className="visually-hidden">{t('nav.cartWithCount', { count: cartCount })}</span>
              </NavLink>
            </>
          )}
          {user?.isAdmin && <NavLink href={PAGE_ROUTES.admin}>{t('nav.admin')}</NavLink>}
        </nav>
        <div className="site-header__tools">
          <LanguageSwitcher />
          {user ? (
            <button type="button" className="button button--ghost" onClick={onLogout}>
              {t('nav.logout')}
            </button>
          ) : (
            <button type="button" className="button button--primary" onClick={onLogin}>
              {t('nav.login')}
            </button>
          )}
        </div>
      </div>
    </header>
  );
}

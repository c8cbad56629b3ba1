import type { ReactNode } from 'react';
import { pieceCount } from '#shared/cart.js';
import { useCart } from '#client/cart/cart-context.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';
import { settings } from '#client/settings.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { useManifestLanguage } from '../offline/manifest-language.js';
import { UpdateBar } from '../offline/update-bar.js';
import { ConnectionBar } from './connection-bar.js';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { useNewPageAtTop } from './new-page-at-top.js';

/** Header, demo banner (a demo shop's), connection and update bars and footer around every page but the mock payment page. */
export function SiteLayout({ children }: { children: ReactNode }) {
  const { t, language } = useTranslation();
  const { openLogin, signOut } = useSession();
  const { items } = useCart();
  const showModal = useModal();
  useManifestLanguage(language);
  useNewPageAtTop();
  const logout = async () => {
    try {
      await signOut();
    } catch {
      showModal({ type: 'error', message: t('nav.logoutFailed') });
    }
  };
  return (
    <div className="site">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {/* A labelled region, so that screen-reader users who move by landmarks meet the notice too. A live shop has none. */}
      {settings.shopMode === 'demo' && (
        <section className="dev-banner" aria-label={t('banner.label')}>
          <p>{t('banner.devNotice')}</p>
        </section>
      )}
      <div className="site-top">
        <Header cartCount={pieceCount(items)} onLogin={() => openLogin()} onLogout={() => void logout()} />
        <ConnectionBar />
        <UpdateBar />
      </div>
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}

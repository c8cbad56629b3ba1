import { lazy, type MouseEvent, type ReactNode } from 'react';
import { useLocation, useParams } from 'wouter';
import { isLegalPage, type LegalPage as LegalPageName } from '#shared/legal.js';
import { isPageRoute } from '#shared/routes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { useLegalPage } from './legal-api.js';

// The withdrawal form (/withdrawal) comes through this page's chunk, so that the home page's first
// script names one chunk fewer.
const WithdrawalPage = lazy(() => import('./withdrawal-page.js'));

/** /legal/{page}: the terms, privacy policy, returns or seller's details, in the page's language; or the withdrawal form. */
export default function LegalPage({ notFound, withdrawal = false }: { notFound?: ReactNode; withdrawal?: boolean }) {
  const { page = '' } = useParams<{ page: string }>();
  if (withdrawal) return <WithdrawalPage />;
  return isLegalPage(page) ? <LegalArticle key={page} page={page} /> : notFound;
}

function LegalArticle({ page }: { page: LegalPageName }) {
  const { t, language } = useTranslation();
  const [, navigate] = useLocation();
  const query = useLegalPage(page, language);
  usePageMeta({ page, noIndex: true });

  /** Links between the shop's pages (/legal/privacy in the terms) stay in the app instead of loading it again. */
  const followShopLink = (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    if (!link || link.target) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin || !isPageRoute(url.pathname)) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  };

  if (query.isPending)
    return (
      <div className="page-loading">
        <LoadingMessage>{t('legal.loading')}</LoadingMessage>
      </div>
    );
  if (query.isError) return <LoadErrorMessage message={t('legal.loadError')} onRetry={query.refetch} />;

  return (
    <div className="legal-page">
      {/* The server renders the Markdown with raw HTML turned off and only safe links (src/server/legal/render-markdown.ts). */}
      <article className="legal-page__text" lang={query.data.language} onClick={followShopLink} dangerouslySetInnerHTML={{ __html: query.data.html }} />
      <p className="legal-page__actions">
        <button type="button" className="button" onClick={() => window.print()}>
          {t('legal.print')}
        </button>
      </p>
    </div>
  );
}

import { useTranslation } from '#client/i18n/i18n.js';
import { Link } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import { usePageMeta } from '#client/seo/page-meta.js';

export default function NotFoundPage() {
  const { t } = useTranslation();
  usePageMeta({ page: 'notFound', noIndex: true, notFound: true });
  return (
    <section className="panel panel--narrow">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link href={PAGE_ROUTES.home} className="button button--primary">
        {t('common.backHome')}
      </Link>
    </section>
  );
}

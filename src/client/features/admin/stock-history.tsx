import { useId } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { useStockHistory } from './admin-api.js';
import { useLocalize } from '#client/i18n/localized.js';

/** Why a product's count is what it is: its latest changes, newest first. */
export function StockHistory({ productId }: { productId: string }) {
  const { t, language } = useTranslation();
  const localize = useLocalize();
  const history = useStockHistory(productId);
  const id = useId();
  return (
    <section className="stock-history" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="order-details__heading">
        {t('admin.products.stockHistory')}
      </h3>
      {history.isPending ? null : history.isError ? (
        <p className="muted">{t('admin.products.stockHistoryError')}</p>
      ) : history.data.length === 0 ? (
        <p className="muted">{t('admin.products.stockHistoryEmpty')}</p>
      ) : (
        <ol className="timeline">
          {history.data.map((change, index) => (
            <li key={index}>
              <span>
                {change.reason === 'set'
                  ? t('admin.stockChanges.set', { admin: change.changedBy ?? '' })
                  : t(`admin.stockChanges.${change.reason}`, { pieces: Math.abs(change.change), name: localize(change.productName), orderId: change.orderId ?? '' })}
              </span>{' '}
              <span className="muted">
                ({change.stockAfter === null ? t('admin.products.madeToOrder') : t('admin.stockChanges.after', { stock: change.stockAfter })})
              </span>{' '}
              <time dateTime={change.at}>{formatDateTime(change.at, language, t('orders.notAvailable'))}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

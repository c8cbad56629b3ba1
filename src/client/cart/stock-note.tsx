import { stockLevel } from '#shared/stock.js';
import { useTranslation } from '#client/i18n/i18n.js';
import type { ShownCartItem } from './cart-storage.js';

/** Under a cart line: that its product sold out, that fewer are left than the line holds, or that few are left. */
export function StockNote({ item }: { item: Pick<ShownCartItem, 'quantity' | 'stock'> }) {
  const { t } = useTranslation();
  if (item.stock === null) return null;
  if (item.stock === 0) return <span className="stock-note stock-note--problem">{t('cartPage.soldOutNote')}</span>;
  if (item.quantity > item.stock) return <span className="stock-note stock-note--problem">{t('cartPage.shortNote', { left: item.stock })}</span>;
  if (stockLevel(item.stock) === 'low') return <span className="stock-note">{t('cartPage.stockNote', { count: item.stock })}</span>;
  return null;
}

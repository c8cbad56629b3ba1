import type { StockShortage } from '../../shared/stock.js';
import type { Translate } from '../i18n/i18n.js';

/** "Only 2 of Opal Set are left." or "Opal Set is sold out.", in the page's language. */
export function shortageText(t: Translate, shortage: Pick<StockShortage, 'name' | 'left'>): string {
  return shortage.left > 0 ? t('cart.errors.stockShort', { name: shortage.name, count: shortage.left }) : t('cart.errors.soldOut', { name: shortage.name });
}

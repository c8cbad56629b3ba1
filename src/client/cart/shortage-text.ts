import type { StockShortage } from '#shared/stock.js';
import { pickText } from '#shared/catalog.js';
import type { Translate } from '#client/i18n/i18n.js';
import type { Language } from '#client/i18n/texts.js';

/** "Only 2 of Opal Set are left." or "Opal Set is sold out.", in the page's language. */
export function shortageText(t: Translate, language: Language, shortage: Pick<StockShortage, 'name' | 'left'>): string {
  const name = pickText(shortage.name, language).text;
  return shortage.left > 0 ? t('cart.errors.stockShort', { name, count: shortage.left }) : t('cart.errors.soldOut', { name });
}

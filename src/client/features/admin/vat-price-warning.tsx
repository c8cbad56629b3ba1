import { formatMoney, parsePriceToMinor, taxPercentText, type PricingRules } from '#shared/money.js';
import { nearestWholeCentNetPrices, wholeCentNetPrice } from '#shared/vat-prices.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { parsePriceDelta, type GroupForm } from './product-model-form.js';

interface PriceToCheck {
  /** The option value the price is of; none for the product's own price. */
  option: string | null;
  priceMinor: number;
}

/**
 * The product's VAT-inclusive prices (its own, and with each option value) that no price without VAT
 * in whole cents gives at the shop's rate: their invoices would state the price without VAT to
 * fractions of a cent. Nothing while prices exclude VAT or the rate is nil.
 */
export function pricesWithoutWholeCentNet(price: string, groups: readonly GroupForm[], pricing: PricingRules, language: string): PriceToCheck[] {
  const base = parsePriceToMinor(price);
  if (!pricing.pricesIncludeTax || pricing.taxRateBasisPoints === 0 || base === undefined || base <= 0) return [];
  const prices: PriceToCheck[] = [{ option: null, priceMinor: base }];
  for (const group of groups) {
    for (const value of group.values) {
      const delta = parsePriceDelta(value.delta);
      if (!('minor' in delta) || delta.minor === 0 || base + delta.minor <= 0) continue;
      const name = (language === 'bg' ? value.nameBg || value.nameEn : value.nameEn || value.nameBg).trim();
      prices.push({ option: name || null, priceMinor: base + delta.minor });
    }
  }
  return prices.filter((entry) => wholeCentNetPrice(entry.priceMinor, pricing.taxRateBasisPoints) === null);
}

/** Tells the admin, beside the price, which prices have no whole-cent net price and what near them would. */
export function VatPriceWarning({ price, groups, pricing, id }: { price: string; groups: readonly GroupForm[]; pricing: PricingRules; id: string }) {
  const { t, language } = useTranslation();
  const affected = pricesWithoutWholeCentNet(price, groups, pricing, language);
  if (affected.length === 0) return null;
  const money = (minor: number) => formatMoney(minor, pricing.currency, language);
  return (
    <div id={id} className="notice notice--warning vat-price-warning" role="status">
      <p>{t('admin.products.vatPrices.intro', { percent: taxPercentText(pricing.taxRateBasisPoints) })}</p>
      <ul>
        {affected.map((entry) => {
          const [below, above] = nearestWholeCentNetPrices(entry.priceMinor, pricing.taxRateBasisPoints);
          return (
            <li key={`${entry.option ?? ''}-${entry.priceMinor}`}>
              {t('admin.products.vatPrices.item', { price: money(entry.priceMinor), what: entry.option ?? t('admin.products.vatPrices.ownPrice'), below: money(below), above: money(above) })}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

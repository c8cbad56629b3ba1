import { lineAmounts, type Currency } from '#shared/money.js';
import { settings } from '#client/settings.js';
import { Price } from './price.js';

/**
 * A cart or order line's amount, written as lineText writes it: quantity × unit price = line total,
 * the total in bold; a single piece shows its price alone. The currency is the shop's unless told (an
 * order keeps its own).
 */
export function LinePrice({ line, currency = settings.pricing.currency }: { line: { priceMinor: number; quantity: number }; currency?: Currency }) {
  const { quantity, unitMinor, totalMinor } = lineAmounts(line);
  return (
    <span className="line-price">
      {quantity !== 1 && (
        <span className="line-price__unit">
          {quantity}&nbsp;×&nbsp;<Price minor={unitMinor} currency={currency} />
          &nbsp;=
        </span>
      )}{' '}
      <Price minor={totalMinor} currency={currency} />
    </span>
  );
}

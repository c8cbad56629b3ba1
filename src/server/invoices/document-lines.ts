import { shareOut } from '#shared/pricing.js';
import type { DocumentLine } from '#shared/tax-documents.js';

/** An order's amounts as it was placed: the lines and totals it stores. */
export interface PricedOrder {
  /** discountMinor: the line's part of a discount code's reduction, which its amount is less. */
  lines: readonly { nameEn: string; nameBg: string; priceMinor: number; quantity: number; discountMinor: number; giftCard?: boolean }[];
  shippingMinor: number;
  feeMinor: number;
  taxMinor: number;
  totalMinor: number;
  taxIncluded: boolean;
  taxRateBasisPoints: number;
}

export interface DocumentAmounts {
  lines: DocumentLine[];
  netMinor: number;
  vatMinor: number;
  totalMinor: number;
}

const SHIPPING = { en: 'Shipping', bg: 'Доставка' };
const CASH_ON_DELIVERY_FEE = { en: 'Cash on delivery fee', bg: 'Такса за наложен платеж' };

/**
 * The lines of a document for an order, with the order's own totals: the VAT of each line is the
 * order's VAT shared out over the lines that carry it, in proportion to their amounts (shareOut), so
 * that the lines' VAT adds up to the order's to the cent, and net plus VAT is what the buyer paid for
 * each line. A line's amount is what the buyer paid for it: its price less its part of a discount
 * code's reduction, which lowers its VAT base. The order's VAT is computed once, on its total, by the pricing rules (priceLines), and a
 * document never computes it again. With prices that include VAT, every line carries it (shipping
 * and the fee too); with VAT added, it was added to the goods only, so only their lines carry it.
 * A seller not registered for VAT shows none: each line is its whole value.
 */
export function documentAmounts(order: PricedOrder, vatRegistered: boolean): DocumentAmounts {
  const entries = [
    ...order.lines.map((line) => ({ description: { en: line.nameEn, bg: line.nameBg || line.nameEn }, quantity: line.quantity, amount: line.priceMinor * line.quantity - line.discountMinor, goods: !line.giftCard, giftCard: Boolean(line.giftCard) })),
    ...(order.shippingMinor > 0 ? [{ description: SHIPPING, quantity: 1, amount: order.shippingMinor, goods: false, giftCard: false }] : []),
    ...(order.feeMinor > 0 ? [{ description: CASH_ON_DELIVERY_FEE, quantity: 1, amount: order.feeMinor, goods: false, giftCard: false }] : []),
  ];
  // A gift card sold is money paid in advance: VAT is due on the goods it later pays for, not on it.
  const carriesVat = (entry: (typeof entries)[number]) => !entry.giftCard && (order.taxIncluded || entry.goods);
  const vatShares = shareOut(
    order.taxMinor,
    entries.map((entry) => (carriesVat(entry) ? entry.amount : 0)),
  );
  const lines = entries.map((entry, index): DocumentLine => {
    const vat = vatShares[index]!;
    const value = order.taxIncluded ? entry.amount : entry.amount + vat;
    const net = vatRegistered ? value - vat : value;
    return {
      description: entry.description,
      quantity: entry.quantity,
      unitNetMinor: Math.round((net / entry.quantity) * 100) / 100,
      vatRateBasisPoints: vatRegistered && carriesVat(entry) ? order.taxRateBasisPoints : 0,
      netMinor: net,
      vatMinor: vatRegistered ? vat : 0,
      valueMinor: value,
    };
  });
  const sum = (pick: (line: DocumentLine) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const totalMinor = sum((line) => line.valueMinor);
  if (totalMinor !== order.totalMinor) {
    throw new Error(`The document's lines add up to ${totalMinor}, the order's total is ${order.totalMinor}`);
  }
  return { lines, netMinor: sum((line) => line.netMinor), vatMinor: sum((line) => line.vatMinor), totalMinor };
}

import { taxFor } from './pricing.js';

/**
 * The price without VAT, in whole minor units, whose VAT at the rate (half-up) makes up exactly this
 * VAT-inclusive price; null when there is none. At 20%, 8.32 + 1.66 is 9.98 and 8.33 + 1.67 is 10.00:
 * no net price gives 9.99, and about one price in six is like it. An invoice then states the unit
 * price without VAT to a hundredth of a cent, which is why the admin is told of such prices.
 */
export function wholeCentNetPrice(grossMinor: number, taxRateBasisPoints: number): number | null {
  const estimate = Math.round((grossMinor * 10_000) / (10_000 + taxRateBasisPoints));
  // Net plus its VAT grows by one or two at each step, so the net (if any) is the estimate or a neighbour.
  for (const net of [estimate, estimate - 1, estimate + 1]) {
    if (net >= 0 && net + taxFor(net, taxRateBasisPoints) === grossMinor) return net;
  }
  return null;
}

/** The nearest VAT-inclusive prices below and above this one that have a whole-cent net price. */
export function nearestWholeCentNetPrices(grossMinor: number, taxRateBasisPoints: number): [below: number, above: number] {
  let below = grossMinor - 1;
  while (below > 0 && wholeCentNetPrice(below, taxRateBasisPoints) === null) below--;
  let above = grossMinor + 1;
  while (wholeCentNetPrice(above, taxRateBasisPoints) === null) above++;
  return [Math.max(below, 0), above];
}

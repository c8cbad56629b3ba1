import { sql } from 'drizzle-orm';
import { BGN_PER_EUR } from '#shared/money.js';
import type { Executor } from '#server/db/client.js';
import { cartItems } from '#server/db/schema.js';

/**
 * The prices cart lines remember from when they were added, converted from BGN to euro cents with
 * the same half-up rounding as bgnToEurMinor (floor((2 × stotinki × 100000 + 195583) / (2 × 195583))).
 */
export async function convertCartPricesToEuro(tx: Executor): Promise<void> {
  const { numerator, denominator } = BGN_PER_EUR;
  await tx.update(cartItems).set({ priceMinor: sql`floor((2 * ${cartItems.priceMinor}::bigint * ${denominator} + ${numerator}) / (2 * ${numerator}))::integer` });
}

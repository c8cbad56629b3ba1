import { eq, isNull } from 'drizzle-orm';
import { stockAlertRequestSchema } from '#shared/stock-alerts.js';
import type { Executor } from '#server/db/client.js';
import { stockAlerts } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { parseInput } from '#server/http/validation.js';
import { forgetStockAlertMails } from '#server/mail/mail-queue.js';
import { lockSoldOutState } from '#server/stock/service.js';

/**
 * Records a buyer's wish to hear when this sold-out product is back. Asked again before then, the one
 * waiting alert stays as it was (one e-mail per product and address), and the answer is the same
 * either way, so that it tells nobody whether she asked. A product that can be bought now is refused
 * (409): she is told to order it. The e-mail itself is queued by the database when a count makes a
 * piece buyable (migration 0033); the product stays held meanwhile, so no count can change between
 * the check and the alert.
 */
export async function requestStockAlert(db: Executor, productId: string, input: unknown): Promise<void> {
  const request = parseInput(stockAlertRequestSchema, input);
  await db.transaction(async (tx) => {
    const soldOut = await lockSoldOutState(tx, productId);
    if (soldOut === undefined) throw new HttpError(404, 'not_found', 'Product not found');
    if (!soldOut) throw new HttpError(409, 'stock_changed', 'This product can be ordered now.', { messageKey: 'stockAlert.errors.available' });
    await tx
      .insert(stockAlerts)
      .values({ productId, email: request.email, language: request.language })
      .onConflictDoNothing({ target: [stockAlerts.productId, stockAlerts.email], where: isNull(stockAlerts.notifiedAt) });
  });
}

/** Forgets the alerts an e-mail left, and the back-in-stock messages to it, when its account is deleted. */
export async function forgetStockAlerts(tx: Executor, email: string, placeholder: string): Promise<void> {
  const forgotten = await tx.delete(stockAlerts).where(eq(stockAlerts.email, email)).returning({ id: stockAlerts.id });
  await forgetStockAlertMails(
    tx,
    forgotten.map((alert) => alert.id),
    placeholder,
  );
}

import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ApiErrorCode } from '#shared/api-errors.js';
import type { TextLanguage } from '#shared/catalog.js';
import { divideHalfUp, type Currency } from '#shared/money.js';
import { normalizeOrderStatus } from '#shared/order-status.js';
import type { PaymentMethod } from '#shared/orders.js';
import {
  CUSTOMER_CANCELLABLE_STATUSES,
  lineExemption,
  withdrawalDeadline,
  withdrawalOpen,
  type AdminWithdrawal,
  type Refund,
  type RefundMethod,
  type Withdrawal,
  type WithdrawalLine,
  type WithdrawalPreview,
  type WithdrawalState,
} from '#shared/withdrawals.js';
import type { z } from 'zod';
import type { refundSchema, withdrawalConfirmSchema, withdrawalPreviewSchema } from '#shared/withdrawals.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderItems, orders, payments, refunds, withdrawals } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { issueCreditNote } from '#server/invoices/issue-documents.js';
import { queueMails } from '#server/mail/mail-queue.js';
import { announceChange } from '#server/notices/live-hub.js';
import { queueMailWithOwnerNotices, queueStatusMail, type OrderMailSettings } from '#server/orders/order-mails.js';
import { giveBackOnCancellation, setOrderStatus } from '#server/orders/status-changes.js';
import { returnPieces } from '#server/stock/service.js';
import { ProviderUnavailable, type PaymentProvider } from '#server/payments/payment-provider.js';
import { customerCancellationEnabled } from './after-sale.js';

type OrderRow = typeof orders.$inferSelect;
type WithdrawalRow = typeof withdrawals.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;
type PreviewInput = z.output<typeof withdrawalPreviewSchema>;
type ConfirmInput = z.output<typeof withdrawalConfirmSchema>;
type RefundInput = z.output<typeof refundSchema>;

/** Every refusal carries its code and the client's message key, so that the form shows it in the buyer's language. */
const refusal = (status: number, code: ApiErrorCode, message: string, area: 'withdrawalForm' | 'returns' = 'withdrawalForm', rule: string = code) =>
  new HttpError(status, code, message, { messageKey: `${area}.errors.${rule}` });

/** The same answer for an unknown order and for a known one with another e-mail, so that the form tells a stranger nothing. */
const notFound = () => refusal(404, 'not_found', 'No order with this number and e-mail address.', 'withdrawalForm', 'withdrawal_not_found');

/** The signed-in buyer, when there is one: her own orders need no e-mail. */
export interface Asker {
  userId: string;
}

/**
 * The order named by the form, when the asker may withdraw from it: her own, or one placed with the
 * e-mail given. Locked for update when asked, so that withdrawals and refunds of one order take turns.
 */
async function findOrder(tx: Executor, orderId: string, email: string | undefined, asker: Asker | null, lock: boolean): Promise<OrderRow> {
  // The shop's numbers are in capitals, which a buyer may not type; an imported order keeps its old number as it was.
  const typed = orderId.trim().replace(/^#/, '').trim();
  const query = tx
    .select()
    .from(orders)
    .where(inArray(orders.id, [...new Set([typed, typed.toUpperCase()])]));
  const rows = lock ? await query.for('update') : await query;
  const row = rows.find((candidate) => candidate.id === typed) ?? rows[0];
  if (!row) throw notFound();
  const own = asker !== null && row.userId === asker.userId;
  const pair = email !== undefined && row.customerEmail.toLowerCase() === email;
  if (!own && !pair) throw notFound();
  return row;
}

/** The order's lines with what each may still give back. */
async function orderLines(tx: Executor, order: OrderRow): Promise<{ lines: WithdrawalLine[]; items: (typeof orderItems.$inferSelect)[] }> {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.position));
  const earlier = await tx.select({ lines: withdrawals.lines }).from(withdrawals).where(eq(withdrawals.orderId, order.id));
  const withdrawn = new Map<number, number>();
  for (const { lines } of earlier) for (const line of lines) withdrawn.set(line.position, (withdrawn.get(line.position) ?? 0) + line.quantity);
  const lines = items.map((item): WithdrawalLine => {
    // The rule the buyer was told when she ordered, whatever the product says now.
    const exemption = lineExemption(item.choices, item.returnRule === 'personalised', item.giftCard);
    return {
      position: item.position,
      name: { en: item.nameEn, bg: item.nameBg },
      choices: item.choices,
      priceMinor: item.priceMinor,
      quantity: item.quantity,
      discountMinor: item.discountMinor,
      withdrawable: exemption ? 0 : Math.max(0, item.quantity - (withdrawn.get(item.position) ?? 0)),
      exemption,
      sealed: item.returnRule === 'hygiene_sealed',
    };
  });
  return { lines, items };
}

/** The lines (and pieces) the request names, or every withdrawable piece; refused when a line is exempt or asked for beyond what is left. */
function selectLines(lines: WithdrawalLine[], asked: PreviewInput['lines']): { position: number; quantity: number }[] {
  if (!asked || asked.length === 0) {
    const all = lines.filter((line) => line.withdrawable > 0).map((line) => ({ position: line.position, quantity: line.withdrawable }));
    if (all.length === 0) throw refusal(409, 'conflict', 'Nothing in this order can be withdrawn from any more.', 'withdrawalForm', 'withdrawal_nothing_left');
    return all;
  }
  const merged = new Map<number, number>();
  for (const line of asked) merged.set(line.position, (merged.get(line.position) ?? 0) + line.quantity);
  return [...merged].map(([position, quantity]) => {
    const line = lines.find((candidate) => candidate.position === position);
    if (!line) throw new HttpError(400, 'bad_request', `The order has no line ${position}.`, { field: 'lines', messageKey: 'withdrawalForm.errors.linesInvalid' });
    if (line.exemption) throw refusal(409, 'conflict', `Line ${position} is made to measure or personalised and cannot be withdrawn from.`, 'withdrawalForm', 'withdrawal_line_exempt');
    if (quantity > line.withdrawable) throw refusal(409, 'conflict', `Line ${position} has ${line.withdrawable} pieces left to withdraw.`, 'withdrawalForm', 'withdrawal_nothing_left');
    return { position, quantity };
  });
}

function checkPeriod(order: OrderRow, now: Date): void {
  const status = normalizeOrderStatus(order.status);
  if (status === 'cancelled') throw refusal(409, 'conflict', 'The order is cancelled.', 'withdrawalForm', 'withdrawal_nothing_left');
  if (!withdrawalOpen({ status, deliveredAt: order.deliveredAt }, now)) throw refusal(409, 'conflict', 'The 14-day withdrawal period of this order is over.', 'withdrawalForm', 'withdrawal_period_over');
}

/** Whether money taken in cash has to go back by bank transfer, for which the buyer gives her IBAN. */
async function ibanNeeded(tx: Executor, order: OrderRow): Promise<boolean> {
  if (order.paymentMethod !== 'cash_on_delivery') return false;
  const [payment] = await tx.select({ id: payments.paymentId }).from(payments).where(eq(payments.orderId, order.id));
  return payment !== undefined;
}

/** Step one: what the statement would withdraw. Nothing is recorded. */
export async function previewWithdrawal(db: Database, input: PreviewInput, asker: Asker | null, now = new Date()): Promise<WithdrawalPreview> {
  const order = await findOrder(db, input.orderId, input.email, asker, false);
  checkPeriod(order, now);
  const { lines } = await orderLines(db, order);
  const selected = selectLines(lines, input.lines);
  return {
    orderId: order.id,
    orderedAt: order.createdAt.toISOString(),
    currency: order.currency as Currency,
    paymentMethod: order.paymentMethod as PaymentMethod,
    fullName: order.shippingFullName,
    customerEmail: order.customerEmail,
    deadline: withdrawalDeadline(order.deliveredAt)?.toISOString() ?? null,
    lines,
    selected,
    ibanNeeded: await ibanNeeded(db, order),
  };
}

function toWithdrawal(row: WithdrawalRow, lines: WithdrawalLine[]): Withdrawal {
  const withdrawnAll = lines.every((line) => line.exemption === null && line.withdrawable === 0);
  return {
    id: row.id,
    orderId: row.orderId,
    state: row.state as WithdrawalState,
    submittedAt: row.submittedAt.toISOString(),
    receivedAt: row.receivedAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    fullName: row.fullName,
    acknowledgementEmail: row.acknowledgementEmail,
    reason: row.reason,
    iban: row.iban,
    lines: row.lines.map(({ position, quantity }) => {
      const line = lines.find((candidate) => candidate.position === position);
      const priceMinor = line?.priceMinor ?? 0;
      // The pieces' part of the line's discount, rounded half-up: all of it when every piece comes back.
      const discount = line && line.quantity > 0 ? divideHalfUp(line.discountMinor * quantity, line.quantity) : 0;
      return { position, quantity, name: line?.name ?? { en: '', bg: '' }, priceMinor, paidMinor: priceMinor * quantity - discount };
    }),
    wholeOrder: withdrawnAll,
  };
}

/**
 * Step two: records the statement once per request id, in one transaction with its acknowledgement,
 * the owner's notice and the order's live update. A request id seen before answers with the
 * withdrawal it recorded (created false); one used for another order is refused.
 */
export async function confirmWithdrawal(
  db: Database,
  input: ConfirmInput,
  asker: Asker | null,
  mail: OrderMailSettings,
  now = new Date(),
): Promise<{ withdrawal: Withdrawal; created: boolean }> {
  return inTransaction(db, async (tx) => {
    const order = await findOrder(tx, input.orderId, input.email, asker, true);
    // After the order's lock: a doubled request waits for the first and finds what it recorded.
    const [earlier] = await tx.select().from(withdrawals).where(eq(withdrawals.requestId, input.requestId));
    if (earlier) {
      if (earlier.orderId !== order.id) throw refusal(409, 'conflict', 'This request id was used for another order.', 'withdrawalForm', 'request_reused');
      return { withdrawal: toWithdrawal(earlier, (await orderLines(tx, order)).lines), created: false };
    }
    checkPeriod(order, now);
    const { lines } = await orderLines(tx, order);
    const selected = selectLines(lines, input.lines);
    if ((await ibanNeeded(tx, order)) && !input.iban) {
      throw new HttpError(400, 'bad_request', 'An IBAN is needed to send back money paid in cash.', { field: 'iban', messageKey: 'withdrawalForm.errors.withdrawal_iban_required' });
    }
    const [row] = await tx
      .insert(withdrawals)
      .values({
        orderId: order.id,
        requestId: input.requestId,
        lines: selected,
        fullName: input.fullName,
        acknowledgementEmail: input.acknowledgementEmail,
        reason: input.reason || null,
        iban: input.iban ?? null,
        submittedAt: now,
      })
      .returning();
    const language = input.language ?? (order.language as TextLanguage);
    await queueMailWithOwnerNotices(tx, mail, {
      orderId: order.id,
      subjectId: row!.id,
      mail: { kind: 'withdrawal_received', recipient: input.acknowledgementEmail, language },
      ownersKind: 'withdrawal_notice',
    });
    await announceChange(tx, order.userId, 'orders');
    const after = lines.map((line) => {
      const taken = selected.find((candidate) => candidate.position === line.position)?.quantity ?? 0;
      return { ...line, withdrawable: line.withdrawable - taken };
    });
    return { withdrawal: toWithdrawal(row!, after), created: true };
  });
}

/**
 * Some lines with their tax when prices are before tax: the order's tax in proportion to what was paid
 * for the products (after a discount), rounded half-up.
 */
function linesRefund(order: OrderRow, linesMinor: number): number {
  const goods = order.subtotalMinor - order.discountMinor;
  if (order.taxIncluded || goods === 0) return linesMinor;
  return linesMinor + divideHalfUp(order.taxMinor * linesMinor, goods);
}

interface MoneyState {
  paidMinor: number;
  refundedMinor: number;
}

/**
 * What the buyer paid in money, which is what a refund gives back. What a gift card paid is not money
 * paid: a cancellation gives it back to the card (giveBackGiftCardPayment).
 */
async function moneyOf(tx: Executor, orderId: string): Promise<MoneyState> {
  const [payment] = await tx
    .select({ amount: payments.amountMinor })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), ne(payments.method, 'gift_card')));
  const [refunded] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)::int` })
    .from(refunds)
    .where(eq(refunds.orderId, orderId));
  return { paidMinor: payment?.amount ?? 0, refundedMinor: Number(refunded?.total ?? 0) };
}

/**
 * The law's default refund of a withdrawal (art. 13): what was paid for the withdrawn lines with their tax, plus the
 * standard shipping once every piece of the order is withdrawn, within what is left to refund.
 */
function suggestedRefund(order: OrderRow, withdrawal: Withdrawal, money: MoneyState): number {
  const linesMinor = withdrawal.lines.reduce((sum, line) => sum + line.paidMinor, 0);
  const shipping = withdrawal.wholeOrder ? order.shippingMinor : 0;
  return Math.max(0, Math.min(linesRefund(order, linesMinor) + shipping, money.paidMinor - money.refundedMinor));
}

/** Whether this withdrawal's lines, with the earlier ones, are all the order's pieces. */
async function withdrawalOf(tx: Executor, order: OrderRow, row: WithdrawalRow): Promise<Withdrawal> {
  const { lines } = await orderLines(tx, order);
  const earlier = await tx.select({ id: withdrawals.id, lines: withdrawals.lines, submittedAt: withdrawals.submittedAt }).from(withdrawals).where(eq(withdrawals.orderId, order.id));
  const upTo = new Map<number, number>();
  for (const other of earlier) {
    if (other.submittedAt.getTime() > row.submittedAt.getTime()) continue;
    for (const line of other.lines) upTo.set(line.position, (upTo.get(line.position) ?? 0) + line.quantity);
  }
  const withdrawal = toWithdrawal(row, lines);
  return { ...withdrawal, wholeOrder: lines.every((line) => (upTo.get(line.position) ?? 0) >= line.quantity) };
}

/** Every withdrawal, newest first, with its order's money, for the admin's Returns tab. */
export async function listWithdrawals(db: Database, state?: WithdrawalState): Promise<AdminWithdrawal[]> {
  const rows = await db
    .select()
    .from(withdrawals)
    .where(state ? eq(withdrawals.state, state) : undefined)
    .orderBy(desc(withdrawals.submittedAt))
    .limit(200);
  const list: AdminWithdrawal[] = [];
  for (const row of rows) {
    const [order] = await db.select().from(orders).where(eq(orders.id, row.orderId));
    if (!order) continue;
    const money = await moneyOf(db, order.id);
    const withdrawal = await withdrawalOf(db, order, row);
    list.push({
      ...withdrawal,
      currency: order.currency as Currency,
      paymentMethod: order.paymentMethod as PaymentMethod,
      customerEmail: order.customerEmail,
      language: order.language === 'bg' ? 'bg' : 'en',
      ...money,
      suggestedRefundMinor: row.state === 'refunded' ? 0 : suggestedRefund(order, withdrawal, money),
    });
  }
  return list;
}

/**
 * The admin has the withdrawn goods back: their pieces return to stock, once. Recording it again
 * (a doubled click, two admins) changes nothing; the withdrawal's row is held meanwhile.
 */
export async function receiveGoods(db: Database, withdrawalId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [head] = await tx.select({ orderId: withdrawals.orderId }).from(withdrawals).where(eq(withdrawals.id, withdrawalId));
    if (!head) throw new HttpError(404, 'not_found', 'No such withdrawal.');
    // The order first, as refunds and cancellations take it, so that none waits for the other in a circle.
    const [order] = await tx.select().from(orders).where(eq(orders.id, head.orderId)).for('update');
    const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId)).for('update');
    if (!order || !row || row.state !== 'requested') return;
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    const pieces = row.lines.flatMap((line) => {
      const item = items.find((candidate) => candidate.position === line.position);
      return item?.productId ? [{ productId: item.productId, combinationKey: item.combinationKey, quantity: line.quantity }] : [];
    });
    await returnPieces(tx, order.id, pieces);
    await tx.update(withdrawals).set({ state: 'received', receivedAt: new Date() }).where(eq(withdrawals.id, withdrawalId));
    await announceChange(tx, order.userId, 'orders');
  });
}

function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    orderId: row.orderId,
    withdrawalId: row.withdrawalId,
    amountMinor: row.amountMinor,
    reason: row.reason,
    method: row.method as RefundMethod,
    providerReference: row.providerReference,
    iban: row.iban,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Money paid in cash or by a bank transfer goes back by a bank transfer to the IBAN the buyer gives. */
const PAID_OFFLINE: readonly string[] = ['cash_on_delivery', 'bank_transfer'];

/**
 * An online payment's money back through the provider that took it, which the request id keeps from
 * refunding twice. A payment recorded without a provider was the simulated one's.
 */
async function refundOnline(tx: Executor, order: OrderRow, amountMinor: number, requestId: string, provider: PaymentProvider): Promise<string | null> {
  const [payment] = await tx.select().from(payments).where(eq(payments.orderId, order.id));
  const paidThrough = payment?.provider ?? 'simulated';
  if (paidThrough !== provider.name) {
    throw new HttpError(409, 'conflict', `Order ${order.id} was paid through ${paidThrough}, which the shop no longer uses: refund it there.`);
  }
  try {
    const refund = await provider.refund({ providerReference: payment?.providerReference ?? null, amountMinor, currency: order.currency as Currency }, requestId);
    return refund.reference;
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    throw Object.assign(new HttpError(503, 'unavailable', 'The payment provider did not make the refund; nothing was recorded, try again.', { messageKey: 'returns.errors.provider_refund_failed' }), { cause: error });
  }
}

/**
 * Sends money back, in the caller's transaction, which holds the order's row: never more than was
 * paid less what was refunded before, whatever else runs at once. An online payment goes back through
 * its provider (Stripe at once; ePay by the admin in its dashboard, recorded here); cash and bank
 * transfers go back by bank transfer to the IBAN given.
 */
async function makeRefund(
  tx: Executor,
  order: OrderRow,
  refund: { requestId: string; amountMinor: number; reason: string | null; withdrawal: WithdrawalRow | null; createdBy: string | null },
  /** Sends an online payment's money back and names the provider's refund; a refund the provider made already just names it. */
  sendBack: (amountMinor: number, requestId: string) => Promise<string | null>,
): Promise<RefundRow> {
  const money = await moneyOf(tx, order.id);
  const left = money.paidMinor - money.refundedMinor;
  if (left <= 0) throw refusal(409, 'conflict', 'Everything paid for this order has been refunded.', 'returns', 'nothing_to_refund');
  if (refund.amountMinor > left) throw refusal(409, 'conflict', `At most ${left} is left to refund.`, 'returns', 'refund_too_large');
  const cash = PAID_OFFLINE.includes(order.paymentMethod);
  const iban = cash ? (refund.withdrawal?.iban ?? null) : null;
  if (cash && !iban) throw refusal(409, 'conflict', 'A cash refund needs the IBAN the buyer gave.', 'returns', 'refund_iban_missing');
  // Last, once every check passed: the provider is asked only for a refund the shop records.
  const providerReference = cash ? null : await sendBack(refund.amountMinor, refund.requestId);
  const [row] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      withdrawalId: refund.withdrawal?.id ?? null,
      requestId: refund.requestId,
      amountMinor: refund.amountMinor,
      reason: refund.reason,
      method: cash ? 'bank_transfer' : 'provider',
      providerReference,
      iban,
      createdBy: refund.createdBy,
    })
    .returning();
  if (refund.withdrawal) await tx.update(withdrawals).set({ state: 'refunded', refundedAt: row!.createdAt }).where(eq(withdrawals.id, refund.withdrawal.id));
  await issueCreditNote(tx, order.id, row!);
  await queueMails(tx, [{ orderId: order.id, kind: 'refund_made', subjectId: row!.id, recipient: order.customerEmail, language: order.language as TextLanguage }]);
  await announceChange(tx, order.userId, 'orders');
  return row!;
}

/**
 * Money the provider reports as refunded in all for the order's payment (a refund made in Stripe's
 * dashboard, say), in the caller's transaction, which holds the order's row: what the shop has not
 * recorded yet is recorded once, with its credit note and the buyer's e-mail. The request id names
 * the reported total, so the same report again records nothing. Answers whether it recorded one.
 */
export async function recordRefundReported(tx: Executor, order: OrderRow, refundedInAllMinor: number, requestId: string, reference: string | null): Promise<boolean> {
  const [earlier] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.requestId, requestId));
  if (earlier) return false;
  const money = await moneyOf(tx, order.id);
  const missing = Math.min(refundedInAllMinor, money.paidMinor) - money.refundedMinor;
  if (missing <= 0) return false;
  await makeRefund(tx, order, { requestId, amountMinor: missing, reason: 'refunded through the payment provider', withdrawal: null, createdBy: null }, async () => reference);
  return true;
}

/**
 * The admin's refund of an order (for a withdrawal, or of anything still paid). Without an amount,
 * the default; less than the default needs a written reason. Idempotent per request id.
 */
export async function refundOrder(db: Database, orderId: string, input: RefundInput, adminEmail: string, provider: PaymentProvider): Promise<{ refund: Refund; created: boolean }> {
  return inTransaction(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const [earlier] = await tx.select().from(refunds).where(eq(refunds.requestId, input.requestId));
    if (earlier) {
      if (earlier.orderId !== order.id) throw refusal(409, 'conflict', 'This request id was used for another order.', 'returns', 'request_reused');
      return { refund: toRefund(earlier), created: false };
    }
    let withdrawal: WithdrawalRow | null;
    if (input.withdrawalId) {
      const [row] = await tx.select().from(withdrawals).where(and(eq(withdrawals.id, input.withdrawalId), eq(withdrawals.orderId, order.id)));
      if (!row) throw new HttpError(404, 'not_found', 'No such withdrawal of this order.');
      withdrawal = row;
    } else {
      // The refund of a cash order goes to the IBAN its latest withdrawal gave.
      const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.orderId, order.id)).orderBy(desc(withdrawals.submittedAt)).limit(1);
      withdrawal = order.paymentMethod === 'cash_on_delivery' ? (row ?? null) : null;
    }
    const money = await moneyOf(tx, order.id);
    const fallback = withdrawal && input.withdrawalId ? suggestedRefund(order, await withdrawalOf(tx, order, withdrawal), money) : money.paidMinor - money.refundedMinor;
    const amountMinor = input.amountMinor ?? fallback;
    if (amountMinor <= 0) throw refusal(409, 'conflict', 'Nothing is left to refund.', 'returns', 'nothing_to_refund');
    if (amountMinor < fallback && !input.reason) {
      throw new HttpError(400, 'bad_request', 'A smaller refund than the default needs a reason.', { field: 'reason', messageKey: 'returns.errors.refund_reason_required' });
    }
    const row = await makeRefund(tx, order, { requestId: input.requestId, amountMinor, reason: input.reason || null, withdrawal, createdBy: adminEmail }, (amount, requestId) =>
      refundOnline(tx, order, amount, requestId, provider),
    );
    return { refund: toRefund(row), created: true };
  });
}

/**
 * A buyer cancels her own order before it is prepared: the pieces go back to stock, she is told as
 * for any cancellation, and what she paid goes back in full.
 */
export async function cancelOwnOrder(db: Database, userId: string, orderId: string, mail: OrderMailSettings, provider: PaymentProvider): Promise<void> {
  if (!customerCancellationEnabled()) throw refusal(403, 'forbidden', 'This shop takes cancellations by e-mail only.', 'withdrawalForm', 'cancellation_disabled');
  await inTransaction(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    if (order.userId !== userId) throw new HttpError(403, 'forbidden', "You don't have permission to view this order.");
    const status = normalizeOrderStatus(order.status);
    if (!CUSTOMER_CANCELLABLE_STATUSES.includes(status)) throw refusal(409, 'conflict', `An order that is ${status} can no longer be cancelled online.`, 'withdrawalForm', 'order_not_cancellable');
    await giveBackOnCancellation(tx, order.id);
    await setOrderStatus(tx, order.id, 'cancelled');
    await queueStatusMail(tx, mail, { orderId: order.id, customerEmail: order.customerEmail, language: order.language as TextLanguage }, 'cancelled');
    const money = await moneyOf(tx, order.id);
    const left = money.paidMinor - money.refundedMinor;
    if (left > 0) {
      await makeRefund(tx, order, { requestId: `cancel-${order.id}`, amountMinor: left, reason: 'cancelled by the buyer', withdrawal: null, createdBy: null }, (amount, requestId) =>
        refundOnline(tx, order, amount, requestId, provider),
      );
    }
  });
}

/** The withdrawal or refund a returns e-mail tells of, with its order's lines. */
export async function withdrawalForMail(db: Executor, withdrawalId: string): Promise<Withdrawal | undefined> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!row) return undefined;
  const [order] = await db.select().from(orders).where(eq(orders.id, row.orderId));
  return order ? withdrawalOf(db, order, row) : undefined;
}

export async function refundForMail(db: Executor, refundId: string): Promise<Refund | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  return row ? toRefund(row) : undefined;
}

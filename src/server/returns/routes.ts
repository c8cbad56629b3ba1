import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { refundSchema, WITHDRAWAL_STATES, withdrawalConfirmSchema, withdrawalPreviewSchema, type AdminWithdrawal, type Refund, type Withdrawal, type WithdrawalPreview } from '#shared/withdrawals.js';
import { findSessionUser, requireAdmin, requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import { GuessLimit } from '#server/http/guess-limit.js';
import { parseInput, pathId } from '#server/http/validation.js';
import type { OrderMailSettings } from '#server/orders/order-mails.js';
import { getOrder } from '#server/orders/order-queries.js';
import { orderIdOf } from '#server/orders/routes.js';
import type { PaymentProvider } from '#server/payments/payment-provider.js';
import { setCustomerCancellation } from './after-sale.js';
import { cancelOwnOrder, confirmWithdrawal, listWithdrawals, previewWithdrawal, receiveGoods, refundOrder } from './service.js';

const listQuery = z.object({ state: z.enum(WITHDRAWAL_STATES).optional() });

/**
 * The withdrawal button's two steps (open to visitors: an order number and its e-mail, or a signed-in
 * buyer's own order), the buyer's cancellation, and the admin's returns: goods received and refunds.
 */
export function registerReturnsRoutes(app: FastifyInstance, db: Database, mail: OrderMailSettings, settings: { customerCancellation: boolean; provider: PaymentProvider }): void {
  setCustomerCancellation(settings.customerCancellation);
  const guesses = new GuessLimit('Too many order numbers and e-mail addresses that did not match; try again later.');
  /** A lookup of an order; finding none is a miss (a buyer's own order is always found). */
  const lookUp = <Result>(address: string, find: () => Promise<Result>) =>
    guesses.guard(address, (error) => error instanceof HttpError && error.statusCode === 404, find);

  app.post('/api/withdrawals/preview', async (request, reply): Promise<{ preview: WithdrawalPreview }> => {
    const input = parseInput(withdrawalPreviewSchema, request.body);
    const user = await findSessionUser(db, request);
    reply.header('cache-control', 'no-store');
    const preview = await lookUp(request.ip, () => previewWithdrawal(db, input, user ? { userId: user.id } : null));
    return { preview };
  });

  app.post('/api/withdrawals', async (request, reply) => {
    const input = parseInput(withdrawalConfirmSchema, request.body);
    const user = await findSessionUser(db, request);
    const { withdrawal, created } = await lookUp(request.ip, () => confirmWithdrawal(db, input, user ? { userId: user.id } : null, mail));
    return reply.status(created ? 201 : 200).send({ withdrawal } satisfies { withdrawal: Withdrawal });
  });

  app.post<{ Params: { orderId: string } }>('/api/orders/:orderId/cancel', async (request) => {
    const user = await requireUser(db, request);
    const orderId = orderIdOf(request.params);
    await cancelOwnOrder(db, user.id, orderId, mail, settings.provider);
    return { order: await getOrder(db, orderId) };
  });

  app.get('/api/admin/withdrawals', async (request, reply): Promise<{ withdrawals: AdminWithdrawal[] }> => {
    await requireAdmin(db, request);
    const { state } = parseInput(listQuery, request.query);
    reply.header('cache-control', 'no-store');
    return { withdrawals: await listWithdrawals(db, state) };
  });

  app.post<{ Params: { withdrawalId: string } }>('/api/admin/withdrawals/:withdrawalId/received', async (request) => {
    await requireAdmin(db, request);
    const id = pathId(request.params.withdrawalId, 'No such withdrawal.');
    if (!z.uuid().safeParse(id).success) throw new HttpError(404, 'not_found', 'No such withdrawal.');
    await receiveGoods(db, id);
    return { ok: true };
  });

  app.post<{ Params: { orderId: string } }>('/api/admin/orders/:orderId/refunds', async (request, reply): Promise<{ refund: Refund }> => {
    const admin = await requireAdmin(db, request);
    const input = parseInput(refundSchema, request.body);
    const { refund, created } = await refundOrder(db, orderIdOf(request.params), input, admin.email, settings.provider);
    return reply.status(created ? 201 : 200).send({ refund });
  });
}

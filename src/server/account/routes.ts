import type { FastifyInstance } from 'fastify';
import { accountDataFileName, deleteAccountSchema, type AccountExport } from '#shared/account.js';
import { clearSessionCookie, requireUser, requireUserSession } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { parseInput } from '#server/http/validation.js';
import type { ProductImages } from '#server/images/product-images.js';
import type { NailSizes } from '#shared/nail-sizes.js';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import { readInvoiceBuyer } from './invoice-buyer.js';
import { readNailSizes, saveNailSizes } from './nail-sizes.js';
import { deleteAccount, exportAccount } from './service.js';

/** A customer's copy of their data, and the deletion of their account (GDPR articles 15, 17 and 20). */
export function registerAccountRoutes(app: FastifyInstance, db: Database, images: ProductImages): void {
  app.get('/api/account/export', async (request, reply): Promise<AccountExport> => {
    const session = await requireUserSession(db, request);
    const data = await exportAccount(db, session);
    reply.header('cache-control', 'no-store');
    reply.header('content-disposition', `attachment; filename="${accountDataFileName(data.exportedAt)}"`);
    return data;
  });

  // "My nail sizes": the size picker fills them in for the signed-in customer.
  app.get('/api/account/nail-sizes', async (request, reply): Promise<{ sizes: NailSizes | null }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { sizes: await readNailSizes(db, user.id) };
  });

  app.put('/api/account/nail-sizes', async (request): Promise<{ sizes: NailSizes | null }> => {
    const user = await requireUser(db, request);
    return { sizes: await saveNailSizes(db, user, request.body) };
  });

  // Who the buyer's last invoice was made out to, which the checkout fills in.
  app.get('/api/account/invoice-buyer', async (request, reply): Promise<{ buyer: InvoiceBuyer | null }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { buyer: await readInvoiceBuyer(db, user.id) };
  });

  app.delete('/api/account', async (request, reply) => {
    const user = await requireUser(db, request);
    const { email } = parseInput(deleteAccountSchema, request.body);
    const { reviewPhotoKeys } = await deleteAccount(db, user, email);
    clearSessionCookie(reply);
    // Her reviews' photos, after the deletion committed; one left behind is no longer shown anywhere.
    await Promise.all(reviewPhotoKeys.map((key) => images.remove(key).catch((error: unknown) => request.log.warn({ err: error }, 'A deleted review photo could not be removed'))));
    return reply.status(204).send();
  });
}

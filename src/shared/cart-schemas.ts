import { z } from 'zod';
import { MAX_CART_OPERATIONS } from './cart.js';

const operationId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'cart.errors.invalidOperation' });

export const cartOperationSchema = z.discriminatedUnion('type', [
  z.object({ id: operationId, type: z.literal('add'), productId: z.uuid({ error: 'cart.errors.invalidProduct' }) }),
  z.object({ id: operationId, type: z.literal('remove'), itemId: z.uuid({ error: 'cart.errors.invalidItem' }) }),
]);

export const cartOperationsRequestSchema = z.object({
  operations: z.array(cartOperationSchema).min(1).max(MAX_CART_OPERATIONS),
});

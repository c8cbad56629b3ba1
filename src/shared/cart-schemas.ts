import { z } from 'zod';
import { MAX_CART_OPERATIONS, MAX_CART_PIECES } from './cart.js';

const operationId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'cart.errors.invalidOperation' });
const productId = z.uuid({ error: 'cart.errors.invalidProduct' });

const cartOperationSchema = z.discriminatedUnion('type', [
  z.object({ id: operationId, type: z.literal('add'), productId }),
  z.object({
    id: operationId,
    type: z.literal('set'),
    productId,
    quantity: z.number({ error: 'cart.errors.invalidQuantity' }).int({ error: 'cart.errors.invalidQuantity' }).min(0, { error: 'cart.errors.invalidQuantity' }).max(MAX_CART_PIECES, { error: 'cart.errors.invalidQuantity' }),
  }),
  z.object({ id: operationId, type: z.literal('remove'), itemId: z.uuid({ error: 'cart.errors.invalidItem' }) }),
]);

export const cartOperationsRequestSchema = z.object({
  operations: z.array(cartOperationSchema).min(1).max(MAX_CART_OPERATIONS),
});

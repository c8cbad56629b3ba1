import type { CartItem, CartOperation, CartOperationsResponse, CartResponse } from '#shared/cart.js';
import { requestJson } from '#client/api/http.js';

/** The cart as the server holds it; signal ends the request when the answer is no longer wanted (signing out). */
export const fetchCartItems = async (signal?: AbortSignal): Promise<CartItem[]> => (await requestJson<CartResponse>('/api/cart', { signal })).items;

/** Applies the operations in order; the answer has each one's outcome and the whole new cart. */
export const sendCartOperations = (operations: CartOperation[]) =>
  requestJson<CartOperationsResponse>('/api/cart/operations', { method: 'POST', body: JSON.stringify({ operations }) });

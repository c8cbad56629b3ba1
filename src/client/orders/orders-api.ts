import { useQuery } from '@tanstack/react-query';
import type { Order, PlaceOrderRequest, RecordPaymentRequest } from '#shared/orders.js';
import { PAYMENT_POLL_MS } from '#shared/orders.js';
import type { PaymentStart } from '#shared/payments.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';

export function useOrders(enabled = true) {
  return useQuery({
    queryKey: queryKeys.myOrders(),
    queryFn: async ({ signal }) => (await requestJson<{ orders: Order[] }>('/api/orders', { signal })).orders,
    enabled,
  });
}

/** One order, asked again every 5 seconds while it waits for payment (spec section 4). */
export function useOrder(orderId: string, { poll, enabled }: { poll: boolean; enabled: boolean }) {
  return useQuery({
    enabled,
    queryKey: queryKeys.order(orderId),
    queryFn: async () => (await requestJson<{ order: Order }>(`/api/orders/${encodeURIComponent(orderId)}`)).order,
    refetchInterval: (query) => (poll && query.state.data?.status === 'pending' ? PAYMENT_POLL_MS : false),
    retry: (failures, error) => failures < 2 && !('status' in error && [401, 403, 404].includes(error.status as number)),
  });
}

export async function placeOrder(request: PlaceOrderRequest): Promise<Order> {
  return (await requestJson<{ order: Order }>('/api/orders', { method: 'POST', body: JSON.stringify(request) })).order;
}

export async function recordPayment(orderId: string, payment: RecordPaymentRequest): Promise<Order> {
  return (await requestJson<{ order: Order }>(`/api/orders/${encodeURIComponent(orderId)}/payment`, { method: 'POST', body: JSON.stringify(payment) })).order;
}


/** Asks the server to start a payment with the shop's provider: where to send the buyer. */
export async function startPayment(orderId: string): Promise<PaymentStart> {
  return (await requestJson<{ start: PaymentStart }>(`/api/orders/${encodeURIComponent(orderId)}/payment-session`, { method: 'POST' })).start;
}

import type { PaymentMethod } from '#shared/orders.js';

/** Session flags set when an order is placed and read by the cart and profile (spec section 7). */
const ORDER_JUST_PLACED = 'orderJustPlaced';
const LAST_ORDER_ID = 'lastOrderId';
/** How the order just placed is paid, so that the profile's notice says what comes next. */
const LAST_ORDER_PAYMENT_METHOD = 'lastOrderPaymentMethod';

export function markOrderJustPlaced(orderId: string, paymentMethod: PaymentMethod): void {
  sessionStorage.setItem(ORDER_JUST_PLACED, 'true');
  sessionStorage.setItem(LAST_ORDER_ID, orderId);
  sessionStorage.setItem(LAST_ORDER_PAYMENT_METHOD, paymentMethod);
}

/** The order just placed, if any, with how it is paid. */
export function orderJustPlaced(): { orderId: string; paymentMethod: PaymentMethod | null } | null {
  const orderId = sessionStorage.getItem(ORDER_JUST_PLACED) ? sessionStorage.getItem(LAST_ORDER_ID) : null;
  return orderId ? { orderId, paymentMethod: sessionStorage.getItem(LAST_ORDER_PAYMENT_METHOD) as PaymentMethod | null } : null;
}

/** Clears the flags of the order just placed, so that the notice shows once. */
export function clearOrderJustPlaced(): void {
  sessionStorage.removeItem(ORDER_JUST_PLACED);
  sessionStorage.removeItem(LAST_ORDER_ID);
  sessionStorage.removeItem(LAST_ORDER_PAYMENT_METHOD);
}

export interface PaymentInfo {
  checkoutUrl: string | null;
  paymentMethod: PaymentMethod | null;
}

/** Kept for the payment page, which may be opened without router state (spec section 7). */
export function rememberPaymentInfo(orderId: string, info: PaymentInfo): void {
  try {
    localStorage.setItem(`order_payment_info_${orderId}`, JSON.stringify(info));
    if (info.checkoutUrl) localStorage.setItem(`checkout_url_${orderId}`, info.checkoutUrl);
    if (info.paymentMethod) localStorage.setItem(`payment_method_${orderId}`, info.paymentMethod);
  } catch {
    // The payment page then takes the same facts from the order itself.
  }
}

export function recallPaymentInfo(orderId: string): PaymentInfo {
  try {
    const stored = JSON.parse(localStorage.getItem(`order_payment_info_${orderId}`) ?? 'null') as PaymentInfo | null;
    return {
      checkoutUrl: stored?.checkoutUrl ?? localStorage.getItem(`checkout_url_${orderId}`),
      paymentMethod: stored?.paymentMethod ?? (localStorage.getItem(`payment_method_${orderId}`) as PaymentMethod | null),
    };
  } catch {
    return { checkoutUrl: null, paymentMethod: null };
  }
}

const PAYMENT_INFO_PREFIXES = ['order_payment_info_', 'checkout_url_', 'payment_method_'];

/**
 * Forgets every order's payment facts kept in this browser, for an account that was deleted. Any
 * other customer's payment page loses nothing: it takes the same facts from the order itself.
 */
export function forgetPaymentInfo(): void {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index));
    for (const key of keys) if (key && PAYMENT_INFO_PREFIXES.some((prefix) => key.startsWith(prefix))) localStorage.removeItem(key);
  } catch {
    // Storage may be disabled; then nothing was kept.
  }
}

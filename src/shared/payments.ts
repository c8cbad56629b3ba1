import type { PaymentProviderName } from './payment-methods.js';

/**
 * Where the browser goes to pay: a page of the provider's (Stripe Checkout), or a form it posts to the
 * provider (ePay.bg takes the signed request that way).
 */
export type PaymentStart = { kind: 'redirect'; url: string } | { kind: 'form'; action: string; fields: Record<string, string> };

/**
 * What the shop made of a provider's notification: recorded (the payment, or the attempt's end);
 * a repeat of one recorded before; kept for the admin without effect (amount or currency not the
 * order's, the order no longer payable, a second payment of a paid order, an event only noted); or
 * refused unread (bad signature, malformed, unknown attempt).
 */
export type NoticeOutcome =
  | 'recorded'
  | 'duplicate'
  | 'amount_mismatch'
  | 'order_not_payable'
  | 'paid_twice'
  | 'noted'
  | 'unknown_attempt'
  | 'order_mismatch'
  | 'refused';

/** A provider's notification about an order, as the admin sees it. */
export interface PaymentNotice {
  id: string;
  provider: PaymentProviderName;
  receivedAt: string;
  verified: boolean;
  eventType: string | null;
  amountMinor: number | null;
  currency: string | null;
  outcome: NoticeOutcome;
}

import type { StockShortage } from './stock.js';

/**
 * Stable error codes of the JSON API. The client maps each code to a translated text;
 * the English message in a response is only for logs and developers.
 */
export const API_ERROR_CODES = [
  'bad_request',
  'not_found',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'internal',
  'unavailable',
  'mail_failed',
  'mail_waiting',
  'invalid_link',
  'link_used',
  'link_expired',
  'email_mismatch',
  'cart_empty',
  'address_required',
  'price_changed',
  /** A cart line's choices no longer fit its product (edited since); with the field and message key of the first such problem. */
  'choices_changed',
  'order_not_payable',
  'payment_method_mismatch',
  'cart_full',
  'too_many_streams',
  'stock_short',
  'stock_changed',
  'too_many_photos',
  'last_photo',
  'photos_changed',
  'payment_method_unavailable',
  'invalid_cursor',
  /** The catalogue's prices were converted to another currency while this server runs; it takes no order until restarted. */
  'currency_changed',
  /** A discount code the checkout does not take; messageKey says why (discountRefusalKey). */
  'discount_refused',
  /** A gift card the checkout does not take; messageKey says why (giftCardRefusalKey). */
  'gift_card_refused',
  'delivery_method_unavailable',
  /** A delivery to an office or locker without one picked. */
  'office_required',
  /** The office or locker picked is no longer on the courier's list (or is of another kind). */
  'office_unavailable',
  /** The office picked takes no parcels paid on delivery, and the buyer chose cash on delivery. */
  'office_no_cash_on_delivery',
  /** The courier refused a shipment or could not be reached; the message is the courier's. */
  'courier_failed',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * A refused input: the input's path (`price`, `photos.0.altEn`) when the rule belongs to one field, and the
 * i18n key of the rule it breaks (the message of the shared schema's rule), which the client shows in the
 * user's language. The error's `message` stays English text for logs and API users.
 */
export interface InvalidInput {
  field?: string;
  messageKey?: string;
}

export interface ApiErrorBody {
  /**
   * With stock_short: each line that asks for more pieces than are left; with stock_changed: the count now;
   * with a sign-in link's rate_limited: how many seconds until a new link can be asked for; with bad_request:
   * the refused input's field and message key, where it has them.
   */
  error: { code: ApiErrorCode; message: string; shortages?: StockShortage[]; stock?: number | null; retryAfterSeconds?: number } & InvalidInput;
}

import type { ApiErrorCode, InvalidInput } from '#shared/api-errors.js';
import type { Translate } from '#client/i18n/i18n.js';
import { ApiError } from './http.js';

/** A failure whose message is already in the customer's language, to be shown as it is. */
export class TranslatedError extends Error {}

/**
 * The codes only the pages answer with (sign-in, checkout and payment, the admin), whose texts are
 * among the pages' ones, which those pages and the sign-in dialogs load before they show; the
 * first page's texts hold the others. Were one of them ever shown without its text, the customer
 * would read the general error's text (errorText), never a key.
 */
const PAGE_ERROR_CODES: ReadonlySet<string> = new Set<ApiErrorCode>([
  'invalid_link', 'link_used', 'link_expired', 'email_mismatch', 'mail_failed', 'mail_waiting',
  'cart_empty', 'address_required', 'order_not_payable', 'payment_method_mismatch', 'payment_method_unavailable',
  'discount_refused', 'gift_card_refused', 'delivery_method_unavailable', 'office_required', 'office_unavailable',
  'office_no_cash_on_delivery', 'courier_failed',
  'too_many_photos', 'last_photo', 'photos_changed', 'invalid_cursor', 'payload_too_large', 'unsupported_media_type',
]);

/**
 * The text key for each error code the API answers with, and for a request that never reached it
 * ('network'). Every code has one, in both languages (error-text.test.ts checks it): the English
 * message in an error response is for logs and developers, never for the customer.
 */
export const errorTextKey = (code: ApiErrorCode | 'network'): string => `${PAGE_ERROR_CODES.has(code) ? 'pageErrors' : 'apiErrors'}.${code}`;

/** Whether the code's text is among the first page's texts rather than the pages' ones. */
export const isFirstPageError = (code: ApiErrorCode | 'network') => !PAGE_ERROR_CODES.has(code);

/**
 * What to tell the customer about a failed call, in their language: the text of the rule a refused input
 * breaks (the error's messageKey) when this build has it, otherwise the text of the error's code.
 */
export function errorText(t: Translate, error: unknown, values?: Record<string, string>): string {
  if (error instanceof TranslatedError) return error.message;
  const generic = t(errorTextKey('internal'));
  if (!(error instanceof ApiError)) return generic;
  const { messageKey } = error.details;
  // t answers with the key itself when it has no text for it (a rule newer than this build).
  if (messageKey && t(messageKey) !== messageKey) return t(messageKey, values);
  const key = errorTextKey(error.code);
  const text = t(key);
  // A code this build does not know (from a newer server) still gets a sentence.
  return text === key ? generic : text;
}

/**
 * The field a refused input names and the rule it broke, when the server named both and this build has the
 * rule's text; a form shows it under the field, as it shows a rule it checked itself.
 */
export function refusedField(t: Translate, error: unknown): Required<InvalidInput> | null {
  if (!(error instanceof ApiError)) return null;
  const { field, messageKey } = error.details;
  return field && messageKey && t(messageKey) !== messageKey ? { field, messageKey } : null;
}

import { z } from 'zod';
import { isValidEuVatNumber, isValidUic, normalizeVatNumber } from './tax-ids.js';
import { typedText } from './text.js';

/**
 * Who an invoice is made out to, as the buyer asks for it at checkout or on the order page, and keeps
 * in the profile for next time: a company with its ЕИК, VAT number (when registered) and responsible
 * person (МОЛ), or a private person.
 */
export type InvoiceBuyer =
  | { kind: 'company'; name: string; uic: string; vatNumber: string; responsiblePerson: string; address: string }
  | { kind: 'person'; name: string; address: string };

const textKeys = { tooLong: 'invoice.validation.tooLong', invalid: 'invoice.validation.invalidCharacters' };
const required = (missing: string, max: number) => typedText(max, { ...textKeys, missing });

const company = z.object({
  kind: z.literal('company'),
  name: required('invoice.validation.companyNameRequired', 200),
  uic: z
    .string({ error: 'invoice.validation.uicRequired' })
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(z.string().min(1, { error: 'invoice.validation.uicRequired' }).refine(isValidUic, { error: 'invoice.validation.invalidUic' })),
  // Not every company is registered for VAT: an empty number is one that is not.
  vatNumber: z
    .string()
    .optional()
    .default('')
    .transform(normalizeVatNumber)
    .refine((value) => value === '' || isValidEuVatNumber(value), { error: 'invoice.validation.invalidVatNumber' }),
  responsiblePerson: required('invoice.validation.responsiblePersonRequired', 200),
  address: required('invoice.validation.addressRequired', 300),
});

const person = z.object({
  kind: z.literal('person'),
  name: required('invoice.validation.personNameRequired', 200),
  address: required('invoice.validation.addressRequired', 300),
});

export const invoiceBuyerSchema = z.discriminatedUnion('kind', [company, person], { error: 'invoice.validation.kindRequired' });

/** The field and message key of the first rule the input breaks, or null when it is a valid buyer. */
export function firstInvoiceBuyerError(input: unknown): { field: string; messageKey: string } | null {
  const result = invoiceBuyerSchema.safeParse(input);
  if (result.success) return null;
  const [issue] = result.error.issues;
  return { field: String(issue?.path[0] ?? 'kind'), messageKey: issue?.message ?? 'invoice.validation.kindRequired' };
}

/**
 * An invoice is issued within 5 days of the taxable event (ЗДДС чл. 113, ал. 4): after a payment, a
 * buyer may still ask for one until this many days have passed.
 */
const INVOICE_REQUEST_DAYS = 5;

/** The last moment a paid order's invoice can be asked for. */
export const invoiceRequestDeadline = (paidAt: string): Date => new Date(Date.parse(paidAt) + INVOICE_REQUEST_DAYS * 24 * 60 * 60 * 1000);

/** Why the invoice of an order placed without one can no longer be asked for, or null while it can. */
export type InvoiceRequestRefusal = 'invoice.request.notAvailable' | 'invoice.request.windowClosed';

/**
 * Whether a buyer may still ask for her order's invoice, by the rule the order page and the server
 * share: not for a cancelled order or one with money returned (an invoice then needs the shop's
 * judgement), and for a paid one only within the legal window after the payment.
 */
export function invoiceRequestRefusal(order: { cancelled: boolean; refunded: boolean; paidAt: string | null }, now = Date.now()): InvoiceRequestRefusal | null {
  if (order.cancelled || order.refunded) return 'invoice.request.notAvailable';
  if (order.paidAt && now > invoiceRequestDeadline(order.paidAt).getTime()) return 'invoice.request.windowClosed';
  return null;
}


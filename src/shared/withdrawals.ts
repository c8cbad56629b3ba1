import { z } from 'zod';
import { emailAddress } from './email-address.js';
import type { LocalizedText } from './localized-text.js';
import type { Currency } from './money.js';
import type { OrderStatus } from './order-status.js';
import type { PaymentMethod } from './payment-methods.js';
import type { ChoiceSummary } from './product-options.js';

/**
 * The consumer's right of withdrawal (Directive 2011/83/EU, art. 9-16 and 11a): 14 days from the day
 * the goods were delivered; an order not yet delivered may be withdrawn from at any time before.
 */
const WITHDRAWAL_PERIOD_DAYS = 14;

/** Where a withdrawal is: asked for, goods back with the shop, money sent back. */
export const WITHDRAWAL_STATES = ['requested', 'received', 'refunded'] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/** How money goes back: through the payment provider that took it, or by bank transfer to the IBAN the buyer gave (cash on delivery). */
export type RefundMethod = 'provider' | 'bank_transfer';

/** Why a line cannot be withdrawn from (art. 16(c)): made to the buyer's measurements, or personalised. */
export type LineExemption = 'made_to_measure' | 'personalised' | 'gift_card';

/**
 * What the right of withdrawal does with a product, as its owner marks it: returnable within the
 * period; personalised for every buyer, so never returnable (art. 16(c)); or sealed for hygiene, so
 * returnable only while the seal is unbroken (art. 16(e)). A line made to the buyer's sizes or answers
 * is exempt whatever its product says (lineExemption).
 */
export const RETURN_RULES = ['standard', 'personalised', 'hygiene_sealed'] as const;
export type ReturnRule = (typeof RETURN_RULES)[number];

/** The rule of a product row, stored as two marks. */
export const returnRuleOf = (marks: { personalised: boolean; hygieneSealed: boolean }): ReturnRule =>
  marks.personalised ? 'personalised' : marks.hygieneSealed ? 'hygiene_sealed' : 'standard';

/** The two marks that store a rule. */
export const returnMarksOf = (rule: ReturnRule) => ({ personalised: rule === 'personalised', hygieneSealed: rule === 'hygiene_sealed' });

/**
 * The moment the period ends: the end of the 14th day after delivery, counted in whole days of 24
 * hours from the moment of delivery, which is never shorter than the law's calendar days.
 */
export function withdrawalDeadline(deliveredAt: string | Date | null): Date | null {
  if (deliveredAt === null) return null;
  return new Date(new Date(deliveredAt).getTime() + WITHDRAWAL_PERIOD_DAYS * 24 * 60 * 60 * 1000);
}

/** Whether the order still carries the right: not cancelled, and not delivered more than 14 days ago. */
export function withdrawalOpen(order: { status: OrderStatus; deliveredAt: string | Date | null }, now = new Date()): boolean {
  if (order.status === 'cancelled') return false;
  const deadline = withdrawalDeadline(order.deliveredAt);
  return deadline === null || now.getTime() <= deadline.getTime();
}

/** A line made to measure (ten nail sizes) or personalised (answers to the maker's questions, or a product marked so) is not withdrawable. */
export function lineExemption(choices: ChoiceSummary, productPersonalised: boolean, giftCard = false): LineExemption | null {
  // A gift card bought is sent as a code that may be used at once: the form cannot take it back, the shop can (by e-mail, while it is unused).
  if (giftCard) return 'gift_card';
  if (choices.sizes !== null) return 'made_to_measure';
  if (choices.answers.length > 0 || productPersonalised) return 'personalised';
  return null;
}

/** An IBAN: country, check digits, up to 30 letters or digits; spaces are dropped and letters made capital first. */
const normalizeIban = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/** The ISO 13616 check: the rearranged number modulo 97 is 1. */
export function isValidIban(value: string): boolean {
  const iban = normalizeIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/** An IBAN as banks print it, in groups of four: "BG80 BNBG 9661 1020 3456 78". */
export const formatIban = (value: string): string => normalizeIban(value).replace(/(.{4})(?=.)/g, '$1 ');

const requestId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'withdrawalForm.errors.requestId' });
const orderId = z.string().trim().min(1, { error: 'withdrawalForm.errors.orderRequired' }).max(80, { error: 'withdrawalForm.errors.orderRequired' });
const email = emailAddress('withdrawalForm.errors.emailInvalid');
const lines = z
  .array(z.object({ position: z.number().int().min(0).max(10_000), quantity: z.number().int().min(1).max(100_000) }), { error: 'withdrawalForm.errors.linesInvalid' })
  .max(200, { error: 'withdrawalForm.errors.linesInvalid' });

/** Step one: which order (and, signed out, the e-mail it was placed with); no lines means every withdrawable line. */
export const withdrawalPreviewSchema = z.object({
  orderId,
  email: email.optional(),
  lines: lines.optional(),
});
export type WithdrawalPreviewRequest = z.input<typeof withdrawalPreviewSchema>;

/** Step two: the statement itself, recorded once per requestId. */
export const withdrawalConfirmSchema = withdrawalPreviewSchema.extend({
  requestId,
  fullName: z.string().trim().min(1, { error: 'withdrawalForm.errors.nameRequired' }).max(200, { error: 'withdrawalForm.errors.nameTooLong' }),
  acknowledgementEmail: email,
  /** The form's language, in which the acknowledgement is written; without it, the order's. */
  language: z.enum(['en', 'bg']).optional(),
  reason: z.string().trim().max(2000, { error: 'withdrawalForm.errors.reasonTooLong' }).optional(),
  iban: z
    .string()
    .trim()
    .max(50, { error: 'withdrawalForm.errors.ibanInvalid' })
    .refine((value) => value === '' || isValidIban(value), { error: 'withdrawalForm.errors.ibanInvalid' })
    .transform((value) => (value === '' ? undefined : normalizeIban(value)))
    .optional(),
});
export type WithdrawalConfirmRequest = z.input<typeof withdrawalConfirmSchema>;

/** The admin's refund: the default amount when none is given; a smaller one needs a written reason. */
export const refundSchema = z.object({
  requestId,
  withdrawalId: z.string().uuid().optional(),
  amountMinor: z.number({ error: 'returns.errors.amountInvalid' }).int({ error: 'returns.errors.amountInvalid' }).min(1, { error: 'returns.errors.amountInvalid' }).max(Number.MAX_SAFE_INTEGER).optional(),
  reason: z.string().trim().max(2000, { error: 'returns.errors.reasonTooLong' }).optional(),
});

/** One line of an order as the withdrawal form shows it. */
export interface WithdrawalLine {
  position: number;
  name: LocalizedText;
  choices: ChoiceSummary;
  priceMinor: number;
  /** Pieces ordered. */
  quantity: number;
  /** The line's part of a discount code's reduction, for all its pieces. */
  discountMinor: number;
  /** Pieces that may still be withdrawn (0 when exempt or already withdrawn). */
  withdrawable: number;
  exemption: LineExemption | null;
  /** Sealed for hygiene: withdrawable only while the seal is unbroken. */
  sealed: boolean;
}

/** Step one's answer: nothing is recorded yet. */
export interface WithdrawalPreview {
  orderId: string;
  orderedAt: string;
  currency: Currency;
  paymentMethod: PaymentMethod;
  /** The shipping address's name, a suggestion for the statement's name. */
  fullName: string;
  customerEmail: string;
  /** The end of the period; null while the order is not delivered. */
  deadline: string | null;
  lines: WithdrawalLine[];
  /** The lines (and pieces) that step two would withdraw. */
  selected: { position: number; quantity: number }[];
  /** Whether step two needs the IBAN to send money back to (cash paid to the courier). */
  ibanNeeded: boolean;
}

/** A recorded withdrawal, as the buyer and the admin see it. */
export interface Withdrawal {
  id: string;
  orderId: string;
  state: WithdrawalState;
  submittedAt: string;
  receivedAt: string | null;
  refundedAt: string | null;
  fullName: string;
  acknowledgementEmail: string;
  reason: string | null;
  iban: string | null;
  /** paidMinor: what the buyer paid for the withdrawn pieces, their price less their part of a discount code's reduction. */
  lines: { position: number; name: LocalizedText; priceMinor: number; quantity: number; paidMinor: number }[];
  /** Every piece of every withdrawable line of the order is now withdrawn. */
  wholeOrder: boolean;
}

export interface Refund {
  id: string;
  orderId: string;
  withdrawalId: string | null;
  amountMinor: number;
  reason: string | null;
  method: RefundMethod;
  providerReference: string | null;
  iban: string | null;
  createdAt: string;
}

/** What the admin's Returns tab lists: the withdrawal and the order's money. */
export interface AdminWithdrawal extends Withdrawal {
  currency: Currency;
  paymentMethod: PaymentMethod;
  customerEmail: string;
  language: 'en' | 'bg';
  paidMinor: number;
  refundedMinor: number;
  /** The law's default refund: the withdrawn lines (with their tax) plus the standard shipping when the whole order is withdrawn, within what is left to refund. */
  suggestedRefundMinor: number;
}

/** After-sale facts of an order: its withdrawals and what was refunded. */
export interface OrderAfterSale {
  withdrawalOpen: boolean;
  withdrawalDeadline: string | null;
  withdrawals: { id: string; state: WithdrawalState; submittedAt: string; receivedAt: string | null }[];
  paidMinor: number;
  refundedMinor: number;
  refundState: 'none' | 'partly_refunded' | 'refunded';
  refunds: { amountMinor: number; createdAt: string; method: RefundMethod }[];
  /** Whether the buyer may cancel the order herself now. */
  cancellable: boolean;
}

/** Statuses from which a buyer may cancel her own order: nothing is being made or packed yet. */
export const CUSTOMER_CANCELLABLE_STATUSES: readonly OrderStatus[] = ['pending', 'accepted', 'paid'];

export const refundStateOf = (paidMinor: number, refundedMinor: number): OrderAfterSale['refundState'] =>
  refundedMinor <= 0 ? 'none' : refundedMinor >= paidMinor ? 'refunded' : 'partly_refunded';

import { z } from 'zod';
import type { Address } from './addresses.js';
import { TEXT_LANGUAGES, type LocalizedText, type TextLanguage } from './catalog.js';
import { invoiceBuyerSchema, type InvoiceBuyer } from './invoice-buyer.js';
import { isStorableText } from './text.js';
import type { Currency } from './money.js';
import type { Pricing } from './pricing.js';
import type { OrderStatus } from './order-status.js';
import type { ChoiceSummary } from './product-options.js';
import type { PaymentMethod, PaymentRecordMethod } from './payment-methods.js';
import type { OrderAfterSale } from './withdrawals.js';
import type { OrderGiftCard } from './gift-cards.js';
import { DEFAULT_DELIVERY_METHOD, DELIVERY_METHODS, type OrderDelivery } from './delivery.js';

export type { PaymentMethod, PaymentRecordMethod } from './payment-methods.js';

export const PAYMENT_METHODS = ['pay_by_link', 'card', 'cash_on_delivery', 'bank_transfer'] as const satisfies readonly PaymentMethod[];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'pay_by_link';

/** Payment timing of the simulated provider (spec section 9). */
export const PAYMENT_POLL_MS = 5_000;
export const SIMULATED_COMPLETION_MS = 30_000;
export const REDIRECT_AFTER_PAYMENT_MS = 5_000;
export const MOCK_PROCESSING_MS = 2_000;
export const MOCK_SUCCESS_MS = 3_000;

interface OrderItem {
  productId: string | null;
  /** The product's names when the order was placed. */
  name: LocalizedText;
  /** The price of one piece, its options and add-ons included. */
  priceMinor: number;
  quantity: number;
  addedAt: string | null;
  /** What the buyer chose, with the names it had when ordered. */
  choices: ChoiceSummary;
  /** The working day (yyyy-mm-dd) this line is to be dispatched by; null for orders placed before lead times. */
  dispatchBy: string | null;
}

export interface Payment {
  paymentId: string;
  method: PaymentRecordMethod;
  amountMinor: number;
  processedAt: string;
  cardLast4?: string;
}

export type ShippingAddress = Omit<Address, 'id' | 'isDefault' | 'createdAt'>;

/** A status an order entered, and when. */
export interface OrderStatusChange {
  status: OrderStatus;
  at: string;
}

/** An order as the API sends it. Amounts are in minor units (stotinki or euro cents). */
export interface Order {
  orderId: string;
  customerEmail: string;
  status: OrderStatus;
  createdAt: string;
  orderedAt: string;
  updatedAt: string;
  /** When the order first entered each status it has had. */
  statusTimes: Partial<Record<OrderStatus, string>>;
  /** Every status the order entered, oldest first; a status entered again appears again. */
  statusHistory: OrderStatusChange[];
  /** The latest of its lines' dispatch dates (yyyy-mm-dd): the day the order ships by; null for orders placed before lead times. */
  dispatchBy: string | null;
  items: OrderItem[];
  /** The currency of every amount of the order. */
  currency: Currency;
  pricing: Pricing;
  itemSummary: { count: number; description: string };
  shippingAddress: ShippingAddress;
  paymentMethod: PaymentMethod;
  checkoutUrl: string | null;
  paymentReference: string | null;
  payment: Payment | null;
  /** Who the buyer asked the invoice to be made out to; null when no invoice was asked for. */
  invoiceBuyer: InvoiceBuyer | null;
  /** Withdrawals, refunds and whether the buyer may still withdraw or cancel. */
  afterSale?: OrderAfterSale;
  /** The gift card that paid part or all of the total; null when none did. */
  giftCard: OrderGiftCard | null;
  delivery: OrderDelivery;
}

/** What is left to pay of the order once its gift card has paid its part (the whole total without one). */
export const amountDue = (order: Pick<Order, 'pricing' | 'giftCard'>): number => order.pricing.total - (order.giftCard?.paidMinor ?? 0);

export const placeOrderSchema = z.object({
  /** Chosen by the browser once per checkout, so that a repeated request places one order. */
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  addressId: z.string().min(1).max(80).refine(isStorableText).optional(),
  paymentMethod: z.enum(PAYMENT_METHODS).default(DEFAULT_PAYMENT_METHOD),
  deliveryMethod: z.enum(DELIVERY_METHODS).default(DEFAULT_DELIVERY_METHOD),
  /** The courier's office or locker, for a method that goes to one. */
  officeId: z.string().regex(/^[A-Za-z0-9-]{1,20}$/).optional(),
  /** The courier's price the buyer was shown, for a method its courier prices (POST /api/delivery/quotes). */
  deliveryQuoteId: z.uuid().optional(),
  /** The total the customer was shown and confirmed, in minor units. */
  expectedTotalMinor: z.number({ error: 'checkout.errors.totalRequired' }).int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** The language the customer places the order in, which their e-mails about it are written in. */
  language: z.enum(TEXT_LANGUAGES).default('en'),
  /** The customer ticked "I accept the terms and conditions"; the order records which terms and when. */
  acceptTerms: z.literal(true, { error: 'checkout.errors.termsRequired' }),
  /** Who the invoice is to be made out to, when the buyer asks for one. */
  invoiceBuyer: invoiceBuyerSchema.optional(),
  /** The discount code the buyer applied, as typed (normalised and checked by the server). */
  discountCode: z.string().max(64).optional(),
  /** The gift card the buyer pays with, as typed, and what she was shown it would pay. */
  giftCardCode: z.string().max(64).optional(),
  expectedGiftCardMinor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type PlaceOrderRequest = z.input<typeof placeOrderSchema>;

export const recordPaymentSchema = z.object(
  {
    method: z.enum(PAYMENT_METHODS, { error: 'Order ID and payment information are required' }),
    cardLast4: z.string().regex(/^\d{4}$/).optional(),
  },
  { error: 'Order ID and payment information are required' },
);
export type RecordPaymentRequest = z.input<typeof recordPaymentSchema>;

/**
 * The status an order is placed in: an online payment is awaited (pending), while a cash-on-delivery
 * order waits for none and is accepted at once, to be paid to the courier (docs/decisions/0016).
 */
export function placedOrderStatus(paymentMethod: PaymentMethod): Extract<OrderStatus, 'pending' | 'accepted'> {
  return paymentMethod === 'cash_on_delivery' ? 'accepted' : 'pending';
}

/**
 * What an order's payment page may offer. Only a pending order can be paid (the server refuses the
 * rest with order_not_payable); a paid one shows the success view; a cancelled one says so, and one
 * the shop moved on without a payment (say, sent by the admin) needs none.
 */
export type PaymentState = 'payable' | 'paid' | 'cancelled' | 'noPaymentNeeded' | 'cashOnDelivery' | 'bankTransfer';

/**
 * A cash-on-delivery order is paid to the courier, never online: it awaits delivery until the admin
 * records the cash. A bank-transfer order awaits the transfer, which the admin records too.
 */
export function paymentStateOf(order: { status: OrderStatus; payment: unknown; paymentMethod?: string }): PaymentState {
  if (order.status === 'cancelled') return 'cancelled';
  if (order.payment != null || order.status === 'paid') return 'paid';
  if (order.paymentMethod === 'cash_on_delivery') return 'cashOnDelivery';
  // A transfer is made from the buyer's bank, never on the payment page; the admin records it when it arrives.
  if (order.paymentMethod === 'bank_transfer' && order.status === 'pending') return 'bankTransfer';
  return order.status === 'pending' ? 'payable' : 'noPaymentNeeded';
}

const BULGARIAN_MONTHS = ['ян.', 'февр.', 'март', 'апр.', 'май', 'юни', 'юли', 'авг.', 'септ.', 'окт.', 'ноем.', 'дек.'];
const BULGARIAN_WEEKDAY = new Intl.DateTimeFormat('bg-BG', { weekday: 'short', timeZone: 'UTC' });
const ENGLISH_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * A day (yyyy-mm-dd), such as a dispatch date, as each language writes a near day: "Thu 3 Dec", "чт, 3 дек.". The
 * Bulgarian month is written out by hand, since Intl writes a short Bulgarian month as a number.
 */
export function dayText(isoDate: string, language: TextLanguage): string {
  const date = new Date(`${isoDate}T12:00:00Z`);
  if (language === 'bg') {
    const weekday = BULGARIAN_WEEKDAY.format(date);
    return `${weekday}, ${date.getUTCDate()} ${BULGARIAN_MONTHS[date.getUTCMonth()]}`;
  }
  return ENGLISH_DAY.format(date);
}

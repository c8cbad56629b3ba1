// The payment methods' type apart from orders.ts, so that the withdrawals' types, which orders.ts
// uses, can name it without importing orders.ts back.

/** Online by a payment link or a card, cash to the courier (наложен платеж), or a transfer to the shop's bank account. */
export type PaymentMethod = 'pay_by_link' | 'card' | 'cash_on_delivery' | 'bank_transfer';

/** How a recorded payment was made: by the order's method, or, for an order a gift card paid whole, by the card. */
export type PaymentRecordMethod = PaymentMethod | 'gift_card';

/** The methods a payment provider settles online; cash and bank transfers are recorded by the admin. */
export const ONLINE_PAYMENT_METHODS: readonly PaymentMethod[] = ['pay_by_link', 'card'];

/** Who settles the online methods: the simulated provider of the demo, Stripe, or ePay.bg. */
export const PAYMENT_PROVIDERS = ['simulated', 'stripe', 'epay'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** The shop's account that bank transfers go to, as the order page and the e-mail show it. */
export interface BankAccount {
  iban: string;
  bic: string | null;
  accountName: string;
}

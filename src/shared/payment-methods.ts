// The payment methods' type apart from orders.ts, so that the withdrawals' types, which orders.ts
// uses, can name it without importing orders.ts back.

/** Online by a payment link or a card, or cash to the courier (наложен платеж). */
export type PaymentMethod = 'pay_by_link' | 'card' | 'cash_on_delivery';

/** How a recorded payment was made: by the order's method, or, for an order a gift card paid whole, by the card. */
export type PaymentRecordMethod = PaymentMethod | 'gift_card';

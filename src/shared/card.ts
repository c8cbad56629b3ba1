/** The simulated card form's limits and rules (spec section 5). Only the last four digits ever leave the form. */
export const CARD_NUMBER_MAX_LENGTH = 19;
export const CARD_EXPIRY_MAX_LENGTH = 5;
export const CARD_CVV_MAX_LENGTH = 3;

export interface CardInput {
  number: string;
  holder: string;
  expiry: string;
  cvv: string;
}

/** Digits grouped in fours as they are typed: "4242424242424242" becomes "4242 4242 4242 4242". */
export function formatCardNumber(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 16);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** MM/YY with the slash added after the month: "1228" becomes "12/28". */
export function formatExpiry(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** The message key of the first rule the card breaks, or null. */
export function firstCardError(card: CardInput): string | null {
  if (!/^\d{16}$/.test(card.number.replace(/\s/g, ''))) return 'mockPayment.validation.cardNumber';
  if (card.holder.trim() === '') return 'mockPayment.validation.cardHolder';
  if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(card.expiry)) return 'mockPayment.validation.expiry';
  if (!/^\d{3}$/.test(card.cvv)) return 'mockPayment.validation.cvv';
  return null;
}

export const lastFourDigits = (number: string) => number.replace(/\D/g, '').slice(-4);

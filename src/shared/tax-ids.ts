/**
 * The identifiers on an invoice: the Bulgarian unified identification code (ЕИК, also BULSTAT) and
 * VAT numbers. Each is checked by its published check digit, so that a typing error is caught before
 * it reaches a tax document that can no longer be changed.
 */

const digitsOf = (text: string) => [...text].map(Number);

/** The weighted sum of digits, modulo 11. */
const weightedRemainder = (digits: readonly number[], weights: readonly number[]) =>
  weights.reduce((sum, weight, index) => sum + weight * digits[index]!, 0) % 11;

/**
 * The check digit of ЕИК digits by the registry's two-pass rule: weights `first`, and when that
 * leaves 10, weights `second`; a second 10 gives 0.
 * https://www.registryagency.bg (Закон за търговския регистър, Наредба за ЕИК)
 */
function uicCheckDigit(digits: readonly number[], first: readonly number[], second: readonly number[]): number {
  const remainder = weightedRemainder(digits, first);
  if (remainder !== 10) return remainder;
  const again = weightedRemainder(digits, second);
  return again === 10 ? 0 : again;
}

/** Whether the text is a valid ЕИК: 9 digits (a company) or 13 (a branch: the company's 9 and 4 more). */
export function isValidUic(text: string): boolean {
  if (!/^(\d{9}|\d{13})$/.test(text)) return false;
  const digits = digitsOf(text);
  if (uicCheckDigit(digits, [1, 2, 3, 4, 5, 6, 7, 8], [3, 4, 5, 6, 7, 8, 9, 10]) !== digits[8]) return false;
  if (digits.length === 9) return true;
  const branch = digits.slice(8, 12);
  return uicCheckDigit(branch, [2, 7, 3, 5], [4, 9, 5, 7]) === digits[12];
}

/** Whether the text is a valid ЕГН, a Bulgarian citizen's personal number, by its check digit. */
export function isValidPersonalNumber(text: string): boolean {
  if (!/^\d{10}$/.test(text)) return false;
  const digits = digitsOf(text);
  const remainder = [2, 4, 8, 5, 10, 9, 7, 3, 6].reduce((sum, weight, index) => sum + weight * digits[index]!, 0) % 11;
  return (remainder === 10 ? 0 : remainder) === digits[9];
}

/** Whether the text is a valid ЛНЧ, a foreigner's personal number in Bulgaria, by its check digit. */
export function isValidForeignerNumber(text: string): boolean {
  if (!/^\d{10}$/.test(text)) return false;
  const digits = digitsOf(text);
  const sum = [21, 19, 17, 13, 11, 9, 7, 3, 1].reduce((total, weight, index) => total + weight * digits[index]!, 0);
  return sum % 10 === digits[9];
}

/**
 * The shape of each EU country's VAT number after its prefix, as the Commission's VIES service
 * documents them (https://ec.europa.eu/taxation_customs/vies/#/faq, "VAT number format"). Greece's
 * prefix is EL; Northern Ireland's traders use XI.
 */
const EU_VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** A VAT number as it is written on documents: capitals, no spaces, dots or dashes. */
export const normalizeVatNumber = (text: string) => text.toUpperCase().replace(/[\s.-]/g, '');

/**
 * Whether the text is a valid Bulgarian VAT number: BG and an ЕИК of 9 digits, or BG and 10 digits
 * that are a person's ЕГН or ЛНЧ (a sole trader registered by their personal number).
 */
export function isValidBulgarianVatNumber(text: string): boolean {
  const number = normalizeVatNumber(text);
  if (!number.startsWith('BG')) return false;
  const rest = number.slice(2);
  return rest.length === 9 ? isValidUic(rest) : isValidPersonalNumber(rest) || isValidForeignerNumber(rest);
}

/**
 * Whether the text is a VAT number of an EU country: a Bulgarian one by its check digit, any other by
 * the format its country publishes (their check digits differ by country and only VIES is final).
 */
export function isValidEuVatNumber(text: string): boolean {
  const number = normalizeVatNumber(text);
  const country = number.slice(0, 2);
  if (country === 'BG') return isValidBulgarianVatNumber(number);
  return EU_VAT_FORMATS[country]?.test(number.slice(2)) ?? false;
}

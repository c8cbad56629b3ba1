// The `max` metadata holds each country's real number ranges, so `isValid()` refuses a number of the
// right length that no operator has been given (`088812345`); the default `min` metadata only checks
// lengths (https://gitlab.com/catamphetamine/libphonenumber-js#min-vs-max-vs-mobile-vs-core).
import parsePhoneNumber from 'libphonenumber-js/max';
import { z } from 'zod';
import { typedText } from './text.js';

/** The countries the shop ships to (spec section 5); Bulgaria first and by default. */
export const COUNTRIES = ['BG', 'US', 'GB', 'DE', 'FR', 'IT', 'ES', 'RO', 'GR'] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'BG';

/** The phone library's own limit on input length (spec section 5). */
export const PHONE_MAX_LENGTH = 250;

export interface Address {
  id: string;
  fullName: string;
  streetAddress: string;
  apartment: string;
  city: string;
  state: string;
  postalCode: string;
  country: Country;
  phone: string;
  isDefault: boolean;
  createdAt: string;
}

/**
 * The phone number in international format when it is a number a courier can call in the country
 * selected, else null. The whole input must be the number, optionally with an extension; a number
 * inside other text (`Phone: 0888 123 456`, `0888123456abc`) is refused.
 */
export function internationalPhone(phone: string, country: Country): string | null {
  if (phone.length > PHONE_MAX_LENGTH) return null;
  const parsed = parsePhoneNumber(phone, { defaultCountry: country, extract: false });
  // A number written with its country code parses as that country's, whatever is selected; a valid
  // US number is not a phone in Bulgaria, nor a Canadian one (also +1) a phone in the US.
  return parsed?.isValid() && parsed.country === country ? parsed.formatInternational() : null;
}

const textKeys = { tooLong: 'checkout.validation.tooLong', invalid: 'checkout.validation.invalidCharacters' };
const optional = (max: number) => typedText(max, textKeys).optional().default('');
const required = (missing: string, max: number) => typedText(max, { ...textKeys, missing });

/**
 * An address as typed. Rules are checked in the specification's order and the first failure is
 * what the customer sees; state is asked for in the form but not checked.
 */
export const addressInputSchema = z
  .object({
    fullName: required('checkout.validation.nameRequired', 200),
    streetAddress: required('checkout.validation.addressRequired', 300),
    city: required('checkout.validation.cityRequired', 120),
    postalCode: required('checkout.validation.postalCodeRequired', 20),
    country: z.enum(COUNTRIES, { error: 'checkout.validation.countryRequired' }),
    phone: z
      .string({ error: 'checkout.validation.phoneRequired' })
      .trim()
      .min(1, { error: 'checkout.validation.phoneRequired' })
      .max(PHONE_MAX_LENGTH, { error: 'checkout.validation.invalidPhone' }),
    apartment: optional(120),
    state: optional(120),
  })
  .transform((address, context) => {
    const phone = internationalPhone(address.phone, address.country);
    if (!phone) {
      context.addIssue({ code: 'custom', path: ['phone'], message: 'checkout.validation.invalidPhone' });
      return z.NEVER;
    }
    return { ...address, phone };
  });

export type AddressInput = z.input<typeof addressInputSchema>;

/** The message key of the first rule the input breaks, or null when it is a valid address. */
export function firstAddressError(input: unknown): { field: string; messageKey: string } | null {
  const result = addressInputSchema.safeParse(input);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  return { field: String(issue.path[0] ?? ''), messageKey: issue.message };
}

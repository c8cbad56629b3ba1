import { describe, expect, it } from 'vitest';
import { addressInputSchema, COUNTRIES, firstAddressError, internationalPhone, type Country } from './addresses.js';

const valid = {
  fullName: 'Maria Ivanova',
  streetAddress: '12 Vitosha Blvd',
  apartment: '',
  city: 'Sofia',
  state: '',
  postalCode: '1000',
  country: 'BG',
  phone: '0888 123 456',
};

describe('address rules, first failure wins, in the specification’s order', () => {
  it.each([
    ['full name', { ...valid, fullName: '  ' }, 'fullName', 'checkout.validation.nameRequired'],
    ['street', { ...valid, fullName: 'A', streetAddress: '' }, 'streetAddress', 'checkout.validation.addressRequired'],
    ['city', { ...valid, city: '' }, 'city', 'checkout.validation.cityRequired'],
    ['postal code', { ...valid, postalCode: '' }, 'postalCode', 'checkout.validation.postalCodeRequired'],
    ['country', { ...valid, country: '' }, 'country', 'checkout.validation.countryRequired'],
    ['unknown country', { ...valid, country: 'XX' }, 'country', 'checkout.validation.countryRequired'],
    ['phone', { ...valid, phone: '' }, 'phone', 'checkout.validation.phoneRequired'],
    ['invalid phone', { ...valid, phone: '12' }, 'phone', 'checkout.validation.invalidPhone'],
    ['phone of another country', { ...valid, phone: '0888 123 456', country: 'US' }, 'phone', 'checkout.validation.invalidPhone'],
    ['phone with the code of another country', { ...valid, phone: '+1 212 555 0123' }, 'phone', 'checkout.validation.invalidPhone'],
    ['phone a digit short', { ...valid, phone: '088812345' }, 'phone', 'checkout.validation.invalidPhone'],
    ['over-long phone', { ...valid, phone: '+359 888 123 456'.padEnd(251, '0') }, 'phone', 'checkout.validation.invalidPhone'],
  ])('reports a missing or bad %s', (_rule, input, field, messageKey) => {
    expect(firstAddressError(input)).toEqual({ field, messageKey });
  });

  it('reports the earliest rule when several fail', () => {
    expect(firstAddressError({ ...valid, fullName: '', city: '', phone: '' })).toEqual({ field: 'fullName', messageKey: 'checkout.validation.nameRequired' });
    expect(firstAddressError({})?.messageKey).toBe('checkout.validation.nameRequired');
  });

  it('does not check the state', () => {
    expect(firstAddressError({ ...valid, state: '' })).toBeNull();
  });

  it('stores a valid phone in international format', () => {
    expect(addressInputSchema.parse(valid).phone).toBe('+359 88 812 3456');
    expect(addressInputSchema.parse({ ...valid, country: 'GB', phone: '07400 123456' }).phone).toBe('+44 7400 123456');
  });
});

/** A number a courier can call in each country, as a customer there would type it, and as stored. */
const numbers: Record<Country, { national: string; international: string }> = {
  BG: { national: '0888 123 456', international: '+359 88 812 3456' },
  US: { national: '(201) 555-0123', international: '+1 201 555 0123' },
  GB: { national: '07400 123456', international: '+44 7400 123456' },
  DE: { national: '01512 3456789', international: '+49 1512 3456789' },
  FR: { national: '06 12 34 56 78', international: '+33 6 12 34 56 78' },
  IT: { national: '312 345 6789', international: '+39 312 345 6789' },
  ES: { national: '612 34 56 78', international: '+34 612 34 56 78' },
  RO: { national: '0712 345 678', international: '+40 712 345 678' },
  GR: { national: '691 234 5678', international: '+30 691 234 5678' },
};
/** The next country in the list: one the number does not belong to. */
const otherCountry = (country: Country) => COUNTRIES[(COUNTRIES.indexOf(country) + 1) % COUNTRIES.length]!;

describe('a phone number a courier can call in the selected country', () => {
  it.each([
    ['BG mobile, national', '0888123456', 'BG', '+359 88 812 3456'],
    ['BG mobile, international', '+359888123456', 'BG', '+359 88 812 3456'],
    ['BG landline in Sofia', '02 123 4567', 'BG', '+359 2 123 4567'],
    ['BG landline in Sofia, international', '+359 2 123 4567', 'BG', '+359 2 123 4567'],
    ['BG mobile with an extension', '0888 123 456 ext. 12', 'BG', '+359 88 812 3456 ext. 12'],
    ['US number', '+12015550123', 'US', '+1 201 555 0123'],
  ] as const)('accepts a %s', (_case, phone, country, stored) => {
    expect(internationalPhone(phone, country)).toBe(stored);
  });

  it.each([
    // The right length for a Bulgarian mobile is 9 digits after the 0; no operator has an 8-digit range.
    ['BG mobile a digit short', '088812345', 'BG'],
    ['US number with Bulgaria selected', '+1 212 555 0123', 'BG'],
    ['US number without spaces with Bulgaria selected', '+12015550123', 'BG'],
    ['Canadian number with the US selected', '+1 416 555 0123', 'US'],
    ['Canadian number typed without its code with the US selected', '204 234 5678', 'US'],
    ['BG number with the US selected', '+359888123456', 'US'],
    ['number with letters after it', '0888123456abc', 'BG'],
    ['number inside other text', 'Phone: 0888 123 456', 'BG'],
    ['number spelled with letters', '0888-CALL-ME', 'BG'],
    ['text without digits', 'abc', 'BG'],
    ['number too short for any country', '12', 'BG'],
  ] as const)('refuses a %s', (_case, phone, country) => {
    expect(internationalPhone(phone, country)).toBeNull();
  });

  it.each(COUNTRIES.map((country) => [country, numbers[country]] as const))('accepts a %s number with that country, typed nationally or internationally', (country, { national, international }) => {
    expect(internationalPhone(national, country)).toBe(international);
    expect(internationalPhone(international, country)).toBe(international);
    expect(internationalPhone(international.replaceAll(' ', ''), country)).toBe(international);
  });

  it.each(COUNTRIES.map((country) => [country, otherCountry(country), numbers[country].international] as const))('refuses a %s number with %s selected', (_country, selected, international) => {
    expect(internationalPhone(international, selected)).toBeNull();
    expect(firstAddressError({ ...valid, country: selected, phone: international })).toEqual({ field: 'phone', messageKey: 'checkout.validation.invalidPhone' });
  });
});

import { describe, expect, it } from 'vitest';
import { addressInputSchema, firstAddressError, internationalPhone } from './addresses.js';

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
    expect(internationalPhone('+359888123456', 'US')).toBe('+359 88 812 3456');
    expect(internationalPhone('abc', 'BG')).toBeNull();
  });
});

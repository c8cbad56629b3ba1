import { describe, expect, it } from 'vitest';
import { isValidBulgarianVatNumber, isValidEuVatNumber, isValidForeignerNumber, isValidPersonalNumber, isValidUic, normalizeVatNumber } from './tax-ids.js';

describe('isValidUic', () => {
  it.each([
    ['a company', '831641791'],
    ['another company', '175074752'],
    ['one with leading zeros', '000694749'],
    ['one whose first pass leaves 10', '100000086'],
    ['a branch of 13 digits', '1213961230342'],
  ])('accepts %s (%s)', (_case, uic) => {
    expect(isValidUic(uic)).toBe(true);
  });

  it.each([
    ['a wrong check digit', '831641792'],
    ['a wrong branch check digit', '1213961230343'],
    ['a branch of a wrong company', '1213961240342'],
    ['8 digits', '83164179'],
    ['10 digits', '8316417910'],
    ['letters', '83164179A'],
    ['spaces', '831 641 791'],
    ['nothing', ''],
  ])('refuses %s (%s)', (_case, uic) => {
    expect(isValidUic(uic)).toBe(false);
  });
});

describe('personal numbers', () => {
  it('checks an ЕГН by its check digit', () => {
    expect(isValidPersonalNumber('7523169263')).toBe(true);
    expect(isValidPersonalNumber('7523169264')).toBe(false);
    expect(isValidPersonalNumber('752316926')).toBe(false);
  });

  it('checks an ЛНЧ by its own weights', () => {
    // 21·1 + 19·0 + 17·0 + 13·1 + 11·0 + 9·4 + 7·5 + 3·9 + 1·6 = 138, so the check digit is 8.
    expect(isValidForeignerNumber('1001045968')).toBe(true);
    expect(isValidForeignerNumber('1001045967')).toBe(false);
  });
});

describe('VAT numbers', () => {
  it('writes a number without spaces, dots or dashes, in capitals', () => {
    expect(normalizeVatNumber(' bg 831.641-791 ')).toBe('BG831641791');
  });

  it.each([
    ['a company', 'BG831641791', true],
    ['a company, as typed', 'bg 831 641 791', true],
    ['a sole trader by ЕГН', 'BG7523169263', true],
    ['a sole trader by ЛНЧ', 'BG1001045968', true],
    ['a wrong check digit', 'BG831641792', false],
    ['no prefix', '831641791', false],
    ['a branch ЕИК, which is no VAT number', 'BG1213961230342', false],
  ])('Bulgarian: %s (%s)', (_case, number, valid) => {
    expect(isValidBulgarianVatNumber(number)).toBe(valid);
    expect(isValidEuVatNumber(number)).toBe(valid);
  });

  it.each([
    ['Germany', 'DE123456789', true],
    ['Austria', 'ATU12345678', true],
    ['Greece, by its EL prefix', 'EL123456789', true],
    ['the Netherlands', 'NL123456789B01', true],
    ['Romania, short', 'RO1234', true],
    ['Germany, a digit short', 'DE12345678', false],
    ['Austria without its U', 'AT12345678', false],
    ['Greece by GR, which VIES does not use', 'GR123456789', false],
    ['a country outside the EU', 'GB123456789', false],
  ])('another EU country: %s (%s)', (_case, number, valid) => {
    expect(isValidEuVatNumber(number)).toBe(valid);
  });
});

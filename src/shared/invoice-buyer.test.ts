import { describe, expect, it } from 'vitest';
import { firstInvoiceBuyerError, invoiceBuyerSchema } from './invoice-buyer.js';

const company = { kind: 'company', name: 'Ателие ЕООД', uic: '123456786', vatNumber: 'BG123456786', responsiblePerson: 'Мария Иванова', address: 'ул. Шипка 7, 1504 София' };

describe('invoiceBuyerSchema', () => {
  it('takes a company with its ЕИК and VAT number as typed, and writes them as on documents', () => {
    expect(invoiceBuyerSchema.parse({ ...company, uic: ' 123 456 786 ', vatNumber: 'bg 123-456-786' })).toEqual(company);
  });

  it('takes a company that is not registered for VAT, and one from another EU country', () => {
    expect(invoiceBuyerSchema.parse({ ...company, vatNumber: '' })).toMatchObject({ vatNumber: '' });
    expect(invoiceBuyerSchema.parse({ ...company, vatNumber: undefined })).toMatchObject({ vatNumber: '' });
    expect(invoiceBuyerSchema.parse({ ...company, vatNumber: 'DE123456789' })).toMatchObject({ vatNumber: 'DE123456789' });
  });

  it('takes a private person with a name and address only', () => {
    expect(invoiceBuyerSchema.parse({ kind: 'person', name: ' Мария ', address: 'София', uic: 'ignored' })).toEqual({ kind: 'person', name: 'Мария', address: 'София' });
  });

  it.each([
    ['no kind', { name: 'x' }, 'kind', 'invoice.validation.kindRequired'],
    ['an unknown kind', { ...company, kind: 'partnership' }, 'kind', 'invoice.validation.kindRequired'],
    ['no company name', { ...company, name: ' ' }, 'name', 'invoice.validation.companyNameRequired'],
    ['no ЕИК', { ...company, uic: '' }, 'uic', 'invoice.validation.uicRequired'],
    ['an ЕИК with a wrong check digit', { ...company, uic: '123456789' }, 'uic', 'invoice.validation.invalidUic'],
    ['an ЕИК of 10 digits', { ...company, uic: '1234567860' }, 'uic', 'invoice.validation.invalidUic'],
    ['a VAT number with a wrong check digit', { ...company, vatNumber: 'BG123456789' }, 'vatNumber', 'invoice.validation.invalidVatNumber'],
    ['a VAT number of no EU country', { ...company, vatNumber: 'US123456789' }, 'vatNumber', 'invoice.validation.invalidVatNumber'],
    ['no responsible person', { ...company, responsiblePerson: '' }, 'responsiblePerson', 'invoice.validation.responsiblePersonRequired'],
    ['no address', { ...company, address: '' }, 'address', 'invoice.validation.addressRequired'],
    ['a name too long', { ...company, name: 'x'.repeat(201) }, 'name', 'invoice.validation.tooLong'],
    ['a NUL in the address', { ...company, address: 'a\u0000b' }, 'address', 'invoice.validation.invalidCharacters'],
    ['a person without a name', { kind: 'person', name: '', address: 'София' }, 'name', 'invoice.validation.personNameRequired'],
  ])('refuses %s, naming the field and the message', (_case, input, field, messageKey) => {
    expect(firstInvoiceBuyerError(input)).toEqual({ field, messageKey });
  });
});

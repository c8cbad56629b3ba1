import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './service.js';

describe('fillPlaceholders', () => {
  const values = { legalName: 'Ателие ООД', uic: '123456789', vatNumber: '', address: 'ул. „Шипка“ 7, София' };

  it.each([
    ['fills named values, with or without spaces inside the braces', 'Seller: {{legalName}}, UIC {{ uic }}', 'Seller: Ателие ООД, UIC 123456789'],
    ['escapes what Markdown would read as markup', '{{address}}', 'ул\\. „Шипка“ 7\\, София'],
    ['leaves out a line that names an empty value', 'UIC: {{uic}}\nVAT: {{vatNumber}}\nAddress', 'UIC: 123456789\nAddress'],
    ['leaves an unknown name as it is', 'Hello {{nobody}}', 'Hello {{nobody}}'],
    ['does not take names from the object prototype', '{{constructor}} {{toString}}', '{{constructor}} {{toString}}'],
  ])('%s', (_name, source, expected) => {
    expect(fillPlaceholders(source, values)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { accountDataFileName, confirmsAccountEmail, deletedEmailPlaceholder, isDeletedEmailPlaceholder } from './account.js';

describe('confirming the deletion of an account by its e-mail', () => {
  it.each([
    ['maria@example.com', true],
    ['  Maria@Example.COM ', true],
    ['maria@example.co', false],
    ['maria@example.com.', false],
    ['ivan@example.com', false],
    ['', false],
    ['   ', false],
  ])('"%s" confirms maria@example.com: %s', (typed, confirms) => {
    expect(confirmsAccountEmail(typed, 'maria@example.com')).toBe(confirms);
  });
});

describe('the file of a customer’s data', () => {
  it.each([
    ['2026-05-17T23:59:59.999Z', 'nail-art-atelier-data-2026-05-17.json'],
    ['2026-01-01T00:00:00.000Z', 'nail-art-atelier-data-2026-01-01.json'],
  ])('is named after the day of the copy (%s)', (exportedAt, name) => {
    expect(accountDataFileName(exportedAt)).toBe(name);
  });
});

describe('the placeholder of a deleted customer’s e-mail', () => {
  it('can never receive mail and is told apart from real addresses', () => {
    const placeholder = deletedEmailPlaceholder('0a1b2c3d');
    expect(placeholder).toBe('deleted-0a1b2c3d@deleted.invalid');
    expect(isDeletedEmailPlaceholder(placeholder)).toBe(true);
    expect(isDeletedEmailPlaceholder('deleted@example.com')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from './order-status.js';
import { ORDER_SEARCH_MAX_LENGTH, orderSearchSchema, orderStatusSchema } from './admin-order-schemas.js';

describe('orderStatusSchema', () => {
  it.each(ORDER_STATUSES)('takes %s', (status) => {
    expect(orderStatusSchema.parse(status)).toBe(status);
  });

  // Legacy values are read from storage, never set; anything else is refused with the API's message.
  it.each(['shipped', 'ordered', 'completed', 'bogus', '', 'PAID', null, undefined, 3, {}])('refuses %j', (value) => {
    const result = orderStatusSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Invalid status');
  });
});

describe('orderSearchSchema', () => {
  it.each([
    ['  NA-ABC  ', 'NA-ABC'],
    ['client@example.com', 'client@example.com'],
    ['', ''],
    [' '.repeat(300), ''],
    ['a'.repeat(ORDER_SEARCH_MAX_LENGTH), 'a'.repeat(ORDER_SEARCH_MAX_LENGTH)],
  ])('takes %j as %j', (typed, searched) => {
    expect(orderSearchSchema.parse(typed)).toBe(searched);
  });

  it.each(['a'.repeat(ORDER_SEARCH_MAX_LENGTH + 1), 'NA-\u0000', '\uD800x'])('refuses %j', (typed) => {
    expect(orderSearchSchema.safeParse(typed).error?.issues[0]?.message).toBe('admin.orders.searchInvalid');
  });
});

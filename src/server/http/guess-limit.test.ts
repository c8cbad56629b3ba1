import { describe, expect, it } from 'vitest';
import { type HttpError } from '#server/http/errors.js';
import { GuessLimit } from './guess-limit.js';

const refusal = (limit: GuessLimit, address: string): HttpError | null => {
  try {
    limit.check(address);
    return null;
  } catch (error) {
    return error as HttpError;
  }
};

describe('the withdrawal form’s limit on wrong order-and-e-mail pairs', () => {
  it('refuses an address after ten wrong pairs in 15 minutes, until the oldest leaves the window', () => {
    let now = 0;
    const limit = new GuessLimit('Too many guesses.', () => now);
    for (let miss = 0; miss < 9; miss += 1) {
      limit.miss('10.0.0.1');
      now += 1000;
    }
    expect(refusal(limit, '10.0.0.1')).toBeNull();
    limit.miss('10.0.0.1');
    const refused = refusal(limit, '10.0.0.1');
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    // The first miss was at 0; it leaves the window at 15 minutes.
    expect(refused!.details.retryAfterSeconds).toBe(15 * 60 - 9);
    // Another address is not held up.
    expect(refusal(limit, '10.0.0.2')).toBeNull();
    now = 15 * 60 * 1000 + 1;
    expect(refusal(limit, '10.0.0.1')).toBeNull();
  });

  it('forgets the addresses used longest ago when it holds too many', () => {
    let now = 0;
    const limit = new GuessLimit('Too many guesses.', () => now);
    for (let miss = 0; miss < 10; miss += 1) limit.miss('first');
    for (let address = 0; address < 10_000; address += 1) limit.miss(`other-${address}`);
    now += 1;
    expect(refusal(limit, 'first')).toBeNull();
  });
});

import { HttpError } from '#server/http/errors.js';

/** Wrong pairs one client address may send within the window before it must wait. */
const MAX_MISSES = 10;
const WINDOW_MS = 15 * 60 * 1000;
/** Addresses remembered at once; the oldest are forgotten first, so memory stays bounded under a flood. */
const MAX_ADDRESSES = 10_000;

/**
 * The withdrawal form opens an order to whoever knows its number and the e-mail it was placed with.
 * A visitor who keeps getting the pair wrong is guessing: after MAX_MISSES wrong pairs within
 * WINDOW_MS from one client address, every lookup from it is refused (429, with the seconds to wait)
 * until the oldest miss leaves the window. Right pairs cost nothing, and a signed-in buyer's own
 * orders are always found. Each process counts its own visitors (one shop process is
 * the usual deployment; behind several, a guesser gets MAX_MISSES per process).
 */
export class GuessLimit {
  private readonly misses = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Refuses the address while it has used up its misses. */
  check(address: string): void {
    const recent = this.recent(address);
    if (recent.length < MAX_MISSES) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - this.now()) / 1000));
    throw new HttpError(429, 'rate_limited', 'Too many order numbers and e-mail addresses that did not match; try again later.', { retryAfterSeconds });
  }

  /** Counts a wrong pair against the address. */
  miss(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    // Re-inserted, so that the map's order is the order of last use.
    this.misses.delete(address);
    this.misses.set(address, recent);
    if (this.misses.size > MAX_ADDRESSES) this.misses.delete(this.misses.keys().next().value!);
  }

  private recent(address: string): number[] {
    const since = this.now() - WINDOW_MS;
    const recent = (this.misses.get(address) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.misses.delete(address);
    return recent;
  }
}

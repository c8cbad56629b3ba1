import { HttpError } from './errors.js';

/** Wrong pairs one client address may send within the window before it must wait. */
const MAX_MISSES = 10;
const WINDOW_MS = 15 * 60 * 1000;
/** Addresses remembered at once; the oldest are forgotten first, so memory stays bounded under a flood. */
const MAX_ADDRESSES = 10_000;

/**
 * A secret that opens something to whoever knows it (an order's number with its e-mail, a discount
 * code) can be guessed. A client that keeps getting it wrong is guessing: after MAX_MISSES misses
 * within WINDOW_MS from one client address, every lookup from it is refused (429, with the seconds to
 * wait) until the oldest miss leaves the window, a right guess included, so that a refusal tells
 * nothing. Right guesses cost nothing. Each process counts its own clients (one shop process is the
 * usual deployment; behind several, a guesser gets MAX_MISSES per process).
 */
export class GuessLimit {
  private readonly misses = new Map<string, number[]>();

  constructor(
    /** The refusal's message, for logs and API users. */
    private readonly refusal: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses the address while it has used up its misses. */
  check(address: string): void {
    const recent = this.recent(address);
    if (recent.length < MAX_MISSES) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - this.now()) / 1000));
    throw new HttpError(429, 'rate_limited', this.refusal, { retryAfterSeconds });
  }

  /**
   * Runs a lookup for the address: refused while it has used up its misses, and counted as a miss
   * when it fails as `isMiss` says a wrong guess does.
   */
  async guard<Result>(address: string, isMiss: (error: unknown) => boolean, lookUp: () => Promise<Result>): Promise<Result> {
    this.check(address);
    try {
      return await lookUp();
    } catch (error) {
      if (isMiss(error)) this.miss(address);
      throw error;
    }
  }

  /** Counts a wrong guess against the address. */
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

/*
 * Favourites kept in this browser: a visitor's own list until she signs in, and a signed-in
 * customer's hearts set while the server could not be reached, waiting to be sent (like the cart's
 * offline queue). Each is read anew where it is used; a value that is not what was written reads as empty.
 */

const VISITOR_KEY = 'favourites';
const pendingKey = (email: string) => `favourites_pending_${email}`;

/** Whether each product should be a favourite or not, as last chosen while it could not be sent. */
export type PendingFavourites = Record<string, boolean>;

function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

function write(key: string, value: unknown, empty: boolean): void {
  try {
    if (empty) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the choice lasts while the page is open.
  }
}

export function readVisitorFavourites(): string[] {
  const value = read(VISITOR_KEY);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

export const writeVisitorFavourites = (productIds: readonly string[]) => write(VISITOR_KEY, productIds, productIds.length === 0);

export function readPendingFavourites(email: string): PendingFavourites {
  const value = read(pendingKey(email));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
}

export const writePendingFavourites = (email: string, pending: PendingFavourites) => write(pendingKey(email), pending, Object.keys(pending).length === 0);

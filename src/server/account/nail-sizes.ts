import { and, eq } from 'drizzle-orm';
import { savedNailSizesSchema } from '#shared/catalog-schemas.js';
import { validateNailSizes, type NailSizes } from '#shared/nail-sizes.js';
import type { CurrentUser } from '#server/auth/session.js';
import { readSizeChart } from '#server/catalog/size-chart.js';
import type { Executor } from '#server/db/client.js';
import { users } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { invalidInput, parseInput } from '#server/http/validation.js';

/** The customer's saved ten sizes ("My nail sizes"), or null when none are saved. */
export async function readNailSizes(db: Executor, userId: string): Promise<NailSizes | null> {
  const [row] = await db.select({ nailSizes: users.nailSizes }).from(users).where(eq(users.id, userId));
  return row?.nailSizes ?? null;
}

/**
 * Saves the customer's ten sizes, checked against the shop's chart, or forgets them (null). Orders
 * keep their own copy, so a change here changes no order. The row is matched by its e-mail too: an
 * account deleted meanwhile has a placeholder there, and keeps no sizes.
 */
export async function saveNailSizes(db: Executor, user: CurrentUser, input: unknown): Promise<NailSizes | null> {
  const { sizes: given } = parseInput(savedNailSizesSchema, input);
  if (given !== null) {
    const problem = validateNailSizes(given, await readSizeChart(db));
    if (problem) throw invalidInput('sizes', problem);
  }
  const sizes = given as NailSizes | null;
  const saved = await db
    .update(users)
    .set({ nailSizes: sizes })
    .where(and(eq(users.id, user.id), eq(users.email, user.email)))
    .returning({ id: users.id });
  if (saved.length === 0) throw new HttpError(401, 'unauthorized', 'Sign in first.');
  return sizes;
}

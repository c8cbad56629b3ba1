import { z } from 'zod';

/** An e-mail address as the shop keeps it: trimmed, lower-cased, at most 254 characters; any refusal is `errorKey`. */
export const emailAddress = (errorKey: string) =>
  z
    .string({ error: errorKey })
    .trim()
    .toLowerCase()
    .max(254, { error: errorKey })
    .pipe(z.email({ error: errorKey }));

import { z } from 'zod';
import { emailAddress } from './email-address.js';

/*
 * "Tell me when it is back": on a sold-out product a buyer leaves her e-mail, and the shop writes to
 * her once, when a piece of it can be bought again (whatever brought it back: the admin's count, a
 * cancelled order, a return, an import).
 */

export const stockAlertRequestSchema = z.object({
  email: emailAddress('stockAlert.errors.emailInvalid'),
  language: z.enum(['en', 'bg']).default('en'),
});

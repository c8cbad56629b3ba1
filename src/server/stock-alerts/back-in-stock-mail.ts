import { eq } from 'drizzle-orm';
import { pickText } from '#shared/catalog.js';
import { localizedPath, productPath } from '#shared/routes.js';
import type { Executor } from '#server/db/client.js';
import { products, stockAlerts } from '#server/db/schema.js';
import { renderMail } from '#server/mail/mail-layout.js';
import type { ClaimedMail } from '#server/mail/mail-queue.js';
import { fill, type MailTextBook } from '#server/mail/mail-texts.js';
import type { MailMessage } from '#server/mail/mailer.js';

/** Writes the one e-mail of a stock alert, from the product as it is now, in the language she asked in. */
export function backInStockMailComposer(db: Executor, textBook: MailTextBook, publicUrl: string): (mail: ClaimedMail) => Promise<MailMessage> {
  return async (mail) => {
    const [product] = mail.subjectId
      ? await db
          .select({ nameEn: products.nameEn, nameBg: products.nameBg, slug: products.slug })
          .from(stockAlerts)
          .innerJoin(products, eq(products.id, stockAlerts.productId))
          .where(eq(stockAlerts.id, mail.subjectId))
      : [];
    // Deleting a product deletes its alerts: there is nothing left to tell of.
    if (!product) throw new Error('The product of this stock alert was deleted');
    const texts = textBook.texts(mail.language);
    const values = { shopName: texts.shopName, productName: pickText({ en: product.nameEn, bg: product.nameBg }, mail.language).text };
    const t = (template: string) => fill(template, values);
    const document = {
      language: mail.language,
      shopName: texts.shopName,
      subject: t(texts.backInStock.subject),
      heading: t(texts.backInStock.heading),
      blocks: [
        { kind: 'paragraph' as const, text: t(texts.backInStock.intro) },
        { kind: 'button' as const, label: t(texts.backInStock.button), url: `${publicUrl}${localizedPath(productPath(product.slug), mail.language)}` },
      ],
      footer: [t(texts.backInStock.why)],
    };
    return { to: mail.recipient, ...renderMail(document) };
  };
}

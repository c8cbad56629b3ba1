import { randomUUID } from 'node:crypto';
import type { products } from '#server/db/schema.js';
import { productSearchColumns } from '#shared/search.js';
import { slugify } from '#shared/slug.js';

interface TestProductFields {
  name: string;
  description?: string;
  nameBg?: string;
  descriptionBg?: string;
  priceMinor: number;
  category?: string;
  stock?: number | null;
}

/** A product row for tests that write products straight into the table: English texts, a unique slug and its search text. */
export function testProduct({ name, description = 'Handmade.', nameBg = '', descriptionBg = '', ...rest }: TestProductFields): typeof products.$inferInsert {
  return {
    ...rest,
    nameEn: name,
    nameBg,
    descriptionEn: description,
    descriptionBg,
    slug: `${slugify(name)}-${randomUUID().slice(0, 8)}`,
    ...productSearchColumns({ en: name, bg: nameBg }, { en: description, bg: descriptionBg }),
  };
}

import { count, sql } from 'drizzle-orm';
import { bgnToEurMinor, type Currency } from '#shared/money.js';
import type { Database, Executor } from '#server/db/client.js';
import { productCombinations, productPhotos, products, shopState } from '#server/db/schema.js';
import { readShopState } from '#server/db/shop-state.js';
import type { ProductImages } from '#server/images/product-images.js';
import { catalogueChanged } from './catalogue-state.js';
import { freeSlug, modelColumns, productColumns, repriced, SEED_LOCK, type ProductFields } from './product-writes.js';

const DEMO_SEEDED = 'demo_catalogue_seeded_at';

/**
 * Fills an empty catalogue with the demo products once, on the first start of a new database.
 * A shop that has ever had products (or emptied its catalogue on purpose) is never seeded again.
 * Processes starting together on one database take turns, so only one of them seeds. The demo
 * prices are in BGN; a euro shop gets them converted at the fixed rate. The demo catalogue is
 * loaded only here, when it is needed, and its photos are stored as the ready WebP files they are.
 */
export async function seedDemoCatalogue(db: Database, images: ProductImages, currency: Currency = 'BGN'): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if ((await readShopState(tx, DEMO_SEEDED)) !== undefined) return 0;
    const [existing] = await tx.select({ total: count() }).from(products);
    if ((existing?.total ?? 0) > 0) {
      await markSeeded(tx);
      return 0;
    }
    const { demoProducts, readDemoPhoto } = await import('#server/demo/demo-catalogue.js');
    const photos = await Promise.all(demoProducts.map((demo) => readDemoPhoto(demo.photo)));
    await catalogueChanged(tx);
    for (const [index, demo] of demoProducts.entries()) {
      const id = crypto.randomUUID();
      const price = (minor: number) => (currency === 'EUR' ? bgnToEurMinor(minor) : minor);
      const fields: ProductFields = {
        name: { en: demo.name, bg: demo.nameBg },
        description: { en: demo.description, bg: demo.descriptionBg },
        priceMinor: price(demo.priceMinor),
        category: demo.category,
      };
      const model = repriced(demo.model, price);
      await tx.insert(products).values({ id, ...productColumns(fields), ...modelColumns({ ...model, returnRule: demo.returnRule ?? 'standard' }), slug: await freeSlug(tx, fields.name, id), stock: demo.stock });
      if (model.stockMode === 'combination') await tx.insert(productCombinations).values(model.combinations.map((combination) => ({ productId: id, ...combination })));
      const imageKey = await images.storeEncoded(id, photos[index]!);
      await tx.insert(productPhotos).values({ productId: id, position: 0, imageKey });
    }
    await markSeeded(tx);
    return demoProducts.length;
  });
}

async function markSeeded(db: Executor): Promise<void> {
  await db
    .insert(shopState)
    .values({ key: DEMO_SEEDED, value: new Date().toISOString() })
    .onConflictDoNothing();
}

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Product } from '#shared/catalog.js';
import type { OutboxEntry } from '#server/mail/mailer.js';
import { admins, mailQueue, productCombinations, products, stockAlerts } from '#server/db/schema.js';
import { pngImage, productForm } from './product-form.js';
import { eventually, fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// "Tell me when it is back": a buyer leaves her e-mail on a sold-out product, and hears once, when a
// piece can be bought again, whatever brought it back.

let clientNumber = 0;
/** Each request from an address of its own, unless the test counts one address's requests. */
const nextAddress = () => `10.8.${Math.floor(++clientNumber / 250)}.${clientNumber % 250}`;

/** The back-in-stock e-mails the development outbox holds for the address, oldest first. */
async function alertMailsTo(testApp: TestApp, email: string): Promise<OutboxEntry[]> {
  const folder = path.join(testApp.dataDir, 'outbox');
  const files = (await readdir(folder).catch(() => [])).filter((file) => file.endsWith('.json')).sort();
  const entries = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry));
  return entries.filter((entry) => entry.to === email && !entry.link);
}

/** Waits until no back-in-stock message is waiting or being sent, and returns the states of all of them. */
async function alertMailsSettled(testApp: TestApp): Promise<string[]> {
  testApp.app.mailWorker.wake();
  return eventually(async () => {
    const rows = await testApp.database.db.select({ state: mailQueue.state }).from(mailQueue).where(isNull(mailQueue.orderId));
    return rows.every((row) => !['queued', 'sending'].includes(row.state)) && rows.map((row) => row.state);
  }, 15_000, 'the back-in-stock e-mails');
}

describeEachDatabase('alerts when a sold-out product is back', (context) => {
  let admin: string;

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'alert-maker@example.com' });
    admin = await signIn(testApp, 'alert-maker@example.com');
  });

  const newProduct = async (testApp: TestApp, name: string, stock: number | null, nameBg = '') =>
    (await testApp.database.db.insert(products).values(testProduct({ name, nameBg, priceMinor: 2500, stock })).returning({ id: products.id, slug: products.slug }))[0]!;
  const ask = (testApp: TestApp, productId: string, payload: object, remoteAddress = nextAddress()) =>
    testApp.app.inject({ method: 'POST', url: `/api/products/${productId}/stock-alerts`, payload, remoteAddress });
  const waitingAlerts = (testApp: TestApp, productId: string) =>
    testApp.database.db.select({ email: stockAlerts.email }).from(stockAlerts).where(and(eq(stockAlerts.productId, productId), isNull(stockAlerts.notifiedAt)));

  it('writes once, in her language with a link to the product, when the admin counts new pieces, and not again at the next restock', async () => {
    const testApp = context();
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/admin/products',
      ...productForm({ nameEn: 'Lilac Almond Set', nameBg: 'Люляков бадемов комплект', descriptionEn: 'Lilac.', price: '30.00', category: 'nails', stock: '0' }, await pngImage(), admin),
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json<{ product: Product }>().product;
    const edit = async (stock: string, stockSeen: string) => {
      const response = await testApp.app.inject({
        method: 'PUT',
        url: `/api/admin/products/${product.id}`,
        ...productForm({ nameEn: 'Lilac Almond Set', nameBg: 'Люляков бадемов комплект', descriptionEn: 'Lilac.', price: '30.00', category: 'nails', stock, stockSeen }, undefined, admin),
      });
      expect(response.statusCode, response.body).toBe(200);
    };

    // Asked three times (by her, or by someone who knows her e-mail): the same answer, one alert.
    for (const email of [' Maria@Example.com ', 'maria@example.com', 'MARIA@example.com']) {
      const asked = await ask(testApp, product.id, { email, language: 'bg' });
      expect(asked.statusCode, asked.body).toBe(202);
    }
    expect((await ask(testApp, product.id, { email: 'ivan@example.com' })).statusCode).toBe(202);
    expect((await waitingAlerts(testApp, product.id)).map((alert) => alert.email).sort()).toEqual(['ivan@example.com', 'maria@example.com']);

    // A change that leaves it sold out tells nobody.
    await edit('0', '0');
    expect(await alertMailsSettled(testApp)).toEqual([]);

    await edit('3', '0');
    expect(await alertMailsSettled(testApp)).toEqual(['sent', 'sent']);
    const [maria, ...moreToMaria] = await alertMailsTo(testApp, 'maria@example.com');
    expect(moreToMaria).toEqual([]);
    expect(maria!.subject).toBe('„Люляков бадемов комплект“ отново е в наличност в Nail Art Atelier');
    expect(maria!.text).toContain(`http://shop.test/product/${product.slug}?lang=bg`);
    const [ivan] = await alertMailsTo(testApp, 'ivan@example.com');
    expect(ivan!.subject).toBe('Lilac Almond Set is back at Nail Art Atelier');
    expect(ivan!.text).toContain(`http://shop.test/product/${product.slug}`);
    expect(await waitingAlerts(testApp, product.id)).toEqual([]);

    // Sold out again and back again: she asked once, so she hears once.
    await edit('0', '3');
    await edit('5', '0');
    await alertMailsSettled(testApp);
    expect(await alertMailsTo(testApp, 'maria@example.com')).toHaveLength(1);
  });

  it('writes when a cancelled order gives the last piece back, and when any other code writes the count', async () => {
    const testApp = context();
    const lastPiece = await newProduct(testApp, 'Last Pearl Set', 1);
    const buyer = await signIn(testApp, 'pearl-buyer@example.com');
    await fillCart(testApp, buyer, [lastPiece.id]);
    const order = await placeOrder(testApp, buyer);
    expect((await ask(testApp, lastPiece.id, { email: 'eli@example.com' })).statusCode).toBe(202);
    const cancelled = await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status: 'cancelled' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await alertMailsSettled(testApp);
    expect(await alertMailsTo(testApp, 'eli@example.com')).toHaveLength(1);

    // An import or a script writing the table: made to order now, which can be bought too.
    const imported = await newProduct(testApp, 'Imported Gold Set', 0);
    expect((await ask(testApp, imported.id, { email: 'eli@example.com' })).statusCode).toBe(202);
    await testApp.database.db.update(products).set({ stock: null }).where(eq(products.id, imported.id));
    await alertMailsSettled(testApp);
    expect(await alertMailsTo(testApp, 'eli@example.com')).toHaveLength(2);
  });

  it('writes for a product counted per combination when any combination has a piece again', async () => {
    const testApp = context();
    const shape = { id: 'shape', name: { en: 'Shape', bg: 'Форма' }, values: ['almond', 'coffin'].map((id) => ({ id, name: { en: id, bg: id }, priceDeltaMinor: 0 })) };
    const [product] = await testApp.database.db
      .insert(products)
      .values({ ...testProduct({ name: 'Shaped Opal Set', priceMinor: 3000 }), optionGroups: [shape], stockMode: 'combination' })
      .returning({ id: products.id });
    await testApp.database.db.insert(productCombinations).values([
      { productId: product!.id, key: 'almond', stock: 0 },
      { productId: product!.id, key: 'coffin', stock: 0 },
    ]);
    expect((await ask(testApp, product!.id, { email: 'dora@example.com' })).statusCode).toBe(202);
    await testApp.database.db.update(productCombinations).set({ stock: 0 }).where(eq(productCombinations.productId, product!.id));
    expect(await alertMailsTo(testApp, 'dora@example.com')).toEqual([]);
    await testApp.database.db
      .update(productCombinations)
      .set({ stock: 2 })
      .where(and(eq(productCombinations.productId, product!.id), eq(productCombinations.key, 'coffin')));
    await alertMailsSettled(testApp);
    expect(await alertMailsTo(testApp, 'dora@example.com')).toHaveLength(1);
    // Now that a combination can be bought, nobody can ask to be told.
    const refused = await ask(testApp, product!.id, { email: 'dora@example.com' });
    expect(refused.statusCode).toBe(409);
  });

  it('refuses a product that can be bought now, an unknown product, bad input and too many requests from one address, with the field and its text', async () => {
    const testApp = context();
    for (const stock of [4, null]) {
      const refused = await ask(testApp, (await newProduct(testApp, `Buyable ${stock}`, stock)).id, { email: 'maria@example.com' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'stock_changed', messageKey: 'stockAlert.errors.available' });
    }
    const soldOut = await newProduct(testApp, 'Gone Set', 0);
    expect((await ask(testApp, crypto.randomUUID(), { email: 'maria@example.com' })).statusCode).toBe(404);
    expect((await ask(testApp, 'not-an-id', { email: 'maria@example.com' })).statusCode).toBe(404);
    for (const payload of [{}, { email: 'not an address' }, { email: `${'a'.repeat(250)}@example.com` }, { email: 42 }]) {
      const bad = await ask(testApp, soldOut.id, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error).toMatchObject({ field: 'email', messageKey: 'stockAlert.errors.emailInvalid' });
    }
    const address = nextAddress();
    for (let request = 0; request < 10; request++) expect((await ask(testApp, soldOut.id, { email: `many-${request}@example.com` }, address)).statusCode).toBe(202);
    expect((await ask(testApp, soldOut.id, { email: 'one-more@example.com' }, address)).statusCode).toBe(429);
    expect((await ask(testApp, soldOut.id, { email: 'one-more@example.com' })).statusCode).toBe(202);
  });

  it('takes one alert from many requests at once, and sends each buyer one e-mail when the count comes back during them', async () => {
    const testApp = context();
    const product = await newProduct(testApp, 'Rush Set', 0);
    const buyers = Array.from({ length: 8 }, (_, index) => `rush-${index}@example.com`);
    // The same buyer eight times at once, then eight buyers at once while the admin restocks.
    const same = await Promise.all(buyers.map(() => ask(testApp, product.id, { email: 'rush-0@example.com' })));
    expect(same.map((response) => response.statusCode)).toEqual(buyers.map(() => 202));
    const [answers] = await Promise.all([
      Promise.all(buyers.map((email) => ask(testApp, product.id, { email }))),
      testApp.database.db.update(products).set({ stock: 2 }).where(eq(products.id, product.id)),
    ]);
    // Each request came before the restock (an alert, told once) or after it (refused: it can be bought).
    const taken = answers.filter((response) => response.statusCode === 202).length;
    expect(taken + answers.filter((response) => response.statusCode === 409).length).toBe(buyers.length);
    await alertMailsSettled(testApp);
    const received = await Promise.all(buyers.map((email) => alertMailsTo(testApp, email)));
    expect(received.map((mails) => mails.length)).toEqual(buyers.map((email, index) => (index === 0 || answers[index]!.statusCode === 202 ? 1 : 0)));
    expect(await waitingAlerts(testApp, product.id)).toEqual([]);
  });

  it('forgets the alerts of a deleted account, and no waiting e-mail reaches the address', async () => {
    const testApp = context();
    const product = await newProduct(testApp, 'Forgotten Set', 0);
    const cookie = await signIn(testApp, 'leaving@example.com');
    expect((await ask(testApp, product.id, { email: 'leaving@example.com' })).statusCode).toBe(202);
    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'leaving@example.com' } });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await testApp.database.db.select().from(stockAlerts).where(eq(stockAlerts.email, 'leaving@example.com'))).toEqual([]);
    await testApp.database.db.update(products).set({ stock: 1 }).where(eq(products.id, product.id));
    await alertMailsSettled(testApp);
    expect(await alertMailsTo(testApp, 'leaving@example.com')).toEqual([]);
  });
});

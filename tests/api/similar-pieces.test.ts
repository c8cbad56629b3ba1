import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { SimilarPieceRequestList } from '#shared/similar-pieces.js';
import { admins, products, similarPieceRequests } from '#server/db/schema.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// "Make me a similar one": a buyer asks for a piece like a sold-out one, and the maker sees it as a lead.

let clientNumber = 0;
/** Each request from an address of its own, unless the test counts one address's requests. */
const nextAddress = () => `10.7.${Math.floor(++clientNumber / 250)}.${clientNumber % 250}`;

describeEachDatabase('requests for a piece like a sold-out one', (context) => {
  let admin: string;
  let customer: string;
  const soldOut = testProduct({ name: 'Opal One-Off Set', nameBg: 'Единствен опалов комплект', priceMinor: 4500, stock: 0 });
  const inStock = testProduct({ name: 'Coral Tips', priceMinor: 1500, stock: 3 });
  const madeToOrder = testProduct({ name: 'Ruby Coffin Set', priceMinor: 3000, stock: null });

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(products).values([soldOut, inStock, madeToOrder].map((product) => ({ ...product, id: crypto.randomUUID() })));
    await testApp.database.db.insert(admins).values({ id: 'maker@example.com' });
    admin = await signIn(testApp, 'maker@example.com');
    customer = await signIn(testApp, 'buyer@example.com');
  });

  const idOf = async (testApp: TestApp, slug: string) => (await testApp.database.db.select({ id: products.id }).from(products).where(eq(products.slug, slug)))[0]!.id;
  const ask = (testApp: TestApp, productId: string, payload: object, remoteAddress = nextAddress()) =>
    testApp.app.inject({ method: 'POST', url: `/api/products/${productId}/similar-requests`, payload, remoteAddress });
  const list = async (testApp: TestApp, cookie = admin) => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/admin/similar-requests', headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SimilarPieceRequestList>().requests;
  };

  it('takes a request for a sold-out piece, one open request per e-mail that gathers the notes of each asking, and lists it for the admin only', async () => {
    const testApp = context();
    const productId = await idOf(testApp, soldOut.slug);
    const first = await ask(testApp, productId, { email: ' Maria@Example.com ', note: 'The same in lilac, please.', language: 'bg' });
    expect(first.statusCode, first.body).toBe(202);
    // Asked again (by her, or by someone who knows her e-mail): the same answer, and nothing she wrote is lost.
    const again = await ask(testApp, productId, { email: 'maria@example.com', note: 'Lilac, short almond.', language: 'en' });
    expect(again.statusCode, again.body).toBe(202);
    expect((await ask(testApp, productId, { email: 'maria@example.com', note: 'Lilac, short almond.' })).statusCode).toBe(202);
    expect((await ask(testApp, productId, { email: 'maria@example.com' })).statusCode).toBe(202);

    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/similar-requests' })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/similar-requests', headers: { cookie: customer } })).statusCode).toBe(403);
    const [request, ...others] = await list(testApp);
    expect(others).toEqual([]);
    expect(request).toMatchObject({
      productSlug: soldOut.slug,
      productName: { en: 'Opal One-Off Set', bg: 'Единствен опалов комплект' },
      email: 'maria@example.com',
      note: 'The same in lilac, please.\n\nLilac, short almond.',
      language: 'bg',
      handledAt: null,
    });

    // Answered, it leaves the list; asked again after that, it is a new request.
    const handled = await testApp.app.inject({ method: 'POST', url: `/api/admin/similar-requests/${request!.id}/handled`, headers: { cookie: admin } });
    expect(handled.statusCode).toBe(204);
    expect(await list(testApp)).toEqual([]);
    expect((await ask(testApp, productId, { email: 'maria@example.com' })).statusCode).toBe(202);
    expect((await list(testApp)).map((open) => open.note)).toEqual(['']);
    expect((await testApp.app.inject({ method: 'POST', url: '/api/admin/similar-requests/not-an-id/handled', headers: { cookie: admin } })).statusCode).toBe(404);
    await testApp.database.db.delete(similarPieceRequests);
  });

  it('refuses a piece that can be bought now, an unknown product, and bad input, with the field and its text', async () => {
    const testApp = context();
    for (const slug of [inStock.slug, madeToOrder.slug]) {
      const refused = await ask(testApp, await idOf(testApp, slug), { email: 'maria@example.com' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'stock_changed', messageKey: 'similarPiece.errors.available' });
    }
    expect((await ask(testApp, crypto.randomUUID(), { email: 'maria@example.com' })).statusCode).toBe(404);
    expect((await ask(testApp, 'opal-one-off-set', { email: 'maria@example.com' })).statusCode).toBe(404);
    const productId = await idOf(testApp, soldOut.slug);
    expect((await ask(testApp, productId, { email: 'not an address' })).json().error).toMatchObject({ field: 'email', messageKey: 'similarPiece.errors.emailInvalid' });
    expect((await ask(testApp, productId, { email: 'maria@example.com', note: 'x'.repeat(1001) })).json().error).toMatchObject({
      field: 'note',
      messageKey: 'similarPiece.errors.noteTooLong',
    });
    expect(await list(testApp)).toEqual([]);
  });

  it('keeps one open request when the same buyer asks many times at once, and limits one address to 10 requests in 15 minutes', async () => {
    const testApp = context();
    const productId = await idOf(testApp, soldOut.slug);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => ask(testApp, productId, { email: 'rush@example.com', note: `Try ${index}` })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(202));
    const rush = (await list(testApp)).filter((open) => open.email === 'rush@example.com');
    expect(rush).toHaveLength(1);
    expect(rush[0]!.note.split('\n\n').sort()).toEqual(Array.from({ length: 8 }, (_, index) => `Try ${index}`));

    const address = nextAddress();
    for (let index = 0; index < 10; index += 1) expect((await ask(testApp, productId, { email: `many${index}@example.com` }, address)).statusCode).toBeLessThan(300);
    const refused = await ask(testApp, productId, { email: 'one-more@example.com' }, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    await testApp.database.db.delete(similarPieceRequests);
  });

  it('keeps a request with its product’s names when the product is deleted, and forgets it with the buyer’s account', async () => {
    const testApp = context();
    const gone = testProduct({ name: 'Gone Set', nameBg: 'Изчезнал комплект', priceMinor: 1000, stock: 0 });
    await testApp.database.db.insert(products).values(gone);
    const goneId = await idOf(testApp, gone.slug);
    expect((await ask(testApp, goneId, { email: 'lead@example.com' })).statusCode).toBe(202);
    expect((await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${goneId}`, headers: { cookie: admin } })).statusCode).toBe(204);
    expect(await list(testApp)).toMatchObject([{ productSlug: null, productName: { en: 'Gone Set', bg: 'Изчезнал комплект' }, email: 'lead@example.com' }]);

    const buyer = await signIn(testApp, 'leaving@example.com');
    expect((await ask(testApp, await idOf(testApp, soldOut.slug), { email: 'leaving@example.com' })).statusCode).toBe(202);
    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: buyer }, payload: { email: 'leaving@example.com' } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await list(testApp)).map((open) => open.email)).toEqual(['lead@example.com']);
    await testApp.database.db.delete(similarPieceRequests);
  });
});

import { and, eq, isNotNull } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import type { Product, ProductPageResponse } from '#shared/catalog.js';
import { DEFAULT_NAIL_SIZE_CHART, type NailSizeChart } from '#shared/nail-sizes.js';
import { PLAIN_PRODUCT_MODEL } from '#shared/product-options.js';
import { admins, productCombinations, products, stockChanges } from '#server/db/schema.js';
import { pngImage, productForm } from './product-form.js';
import { MAX_STALENESS_MS } from '#server/catalog/catalogue-cache.js';
import { eventually } from './shopper.js';
import { someoneWaitsFor } from './lock-waits.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

const fields = { nameEn: 'Opal Press-On Set', nameBg: 'Опалов комплект', descriptionEn: 'Milky opal nails.', descriptionBg: 'Млечни опалови нокти.', price: '30', category: 'nails' };

const value = (id: string, en: string, priceDeltaMinor = 0) => ({ id, name: { en, bg: '' }, priceDeltaMinor });
const shape = { id: 'shape', name: { en: 'Shape', bg: 'Форма' }, values: [value('almond', 'Almond'), value('coffin', 'Coffin')] };
const length = { id: 'length', name: { en: 'Length', bg: 'Дължина' }, values: [value('short', 'Short'), value('long', 'Long', 300)] };

const model = {
  optionGroups: [shape, length],
  stockMode: 'combination' as const,
  combinations: [
    { key: 'almond/long', stock: 2 },
    { key: 'almond/short', stock: 3 },
    { key: 'coffin/long', stock: null },
  ],
  sized: true,
  questions: [
    { id: 'wish', kind: 'text' as const, label: { en: 'Design wish', bg: 'Желание за дизайна' }, required: false, priceDeltaMinor: 0, maxLength: 200 },
    { id: 'wrap', kind: 'choice' as const, label: { en: 'Gift wrapping', bg: 'Опаковка' }, required: false, priceDeltaMinor: 0, choices: [value('box', 'Gift box', 700)] },
  ],
  leadTime: { kind: 'made_to_order' as const, minDays: 5, maxDays: 10 },
};

describeEachDatabase('products with options, sizes, questions and lead times', (context) => {
  let admin: string;
  let customer: string;

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'maker@example.com' });
    admin = await signIn(testApp, 'maker@example.com');
    customer = await signIn(testApp, 'buyer@example.com');
  });

  async function create(testApp: TestApp, form: Record<string, string>) {
    return testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...productForm(form, await pngImage(), admin) });
  }

  async function newProduct(testApp: TestApp, form: Record<string, string> = { ...fields, model: JSON.stringify(model) }): Promise<Product> {
    const response = await create(testApp, form);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ product: Product }>().product;
  }

  const update = (testApp: TestApp, id: string, form: Record<string, string>) =>
    testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${id}`, ...productForm(form, undefined, admin) });

  const page = async (testApp: TestApp, slug: string) => {
    const response = await testApp.app.inject({ method: 'GET', url: `/api/products/by-slug/${slug}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ProductPageResponse>().product;
  };

  const listed = async (testApp: TestApp, id: string) =>
    (await testApp.app.inject({ method: 'GET', url: '/api/products?q=opal' })).json<{ products: Product[] }>().products.find((product) => product.id === id);

  it('adds a product with its model, which the product page and the catalogue return', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const expected = { ...model, combinations: [...model.combinations] };
    expect(product).toMatchObject(expected);
    expect(await page(testApp, product.slug)).toMatchObject(expected);
    expect(await listed(testApp, product.id)).toMatchObject(expected);
    // Each count the admin set is in the product's stock history.
    const logged = await testApp.database.db.select().from(stockChanges).where(and(eq(stockChanges.productId, product.id), isNotNull(stockChanges.combinationKey)));
    expect(logged.map((row) => [row.combinationKey, row.change, row.stockAfter, row.reason, row.changedBy]).sort()).toEqual([
      ['almond/long', 2, 2, 'set', 'maker@example.com'],
      ['almond/short', 3, 3, 'set', 'maker@example.com'],
    ]);
  });

  it('adds a product sold as it is without a model, and keeps its model when an edit sends none', async () => {
    const testApp = context();
    const plain = await newProduct(testApp, fields);
    expect(plain).toMatchObject(PLAIN_PRODUCT_MODEL);
    const product = await newProduct(testApp);
    const edited = await update(testApp, product.id, { ...fields, nameEn: 'Opal Set Renamed' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ product: Product }>().product).toMatchObject({ name: { en: 'Opal Set Renamed' }, ...model });
  });

  it('keeps what the right of withdrawal does with a product, as the admin marks it, and refuses a rule it does not know', async () => {
    const testApp = context();
    const plain = await newProduct(testApp, fields);
    expect(plain.returnRule).toBe('standard');
    const sealed = await newProduct(testApp, { ...fields, model: JSON.stringify({ ...model, returnRule: 'hygiene_sealed' }) });
    expect(sealed.returnRule).toBe('hygiene_sealed');
    expect((await page(testApp, sealed.slug)).returnRule).toBe('hygiene_sealed');
    const personalised = await update(testApp, sealed.id, { ...fields, model: JSON.stringify({ ...model, returnRule: 'personalised' }) });
    expect(personalised.json<{ product: Product }>().product.returnRule).toBe('personalised');
    expect((await listed(testApp, sealed.id))!.returnRule).toBe('personalised');
    // An edit that sends no model keeps the rule with the rest of it.
    await update(testApp, sealed.id, { ...fields, nameEn: 'Opal Set Again' });
    expect((await page(testApp, sealed.slug)).returnRule).toBe('personalised');
    const refused = await update(testApp, sealed.id, { ...fields, model: JSON.stringify({ ...model, returnRule: 'never' }) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { field: 'model.returnRule', messageKey: 'admin.products.messages.invalidModel' } });
  });

  it('replaces the options and the combinations, logging only the counts that changed', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const next = {
      ...model,
      optionGroups: [shape, { ...length, values: [...length.values, value('xl', 'Extra long', 600)] }],
      combinations: [
        { key: 'almond/long', stock: 2 },
        { key: 'almond/short', stock: 1 },
        { key: 'coffin/xl', stock: 4 },
      ],
      sized: false,
      questions: [],
      leadTime: { kind: 'ready', days: 1 },
    };
    const response = await update(testApp, product.id, { ...fields, model: JSON.stringify(next) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ product: Product }>().product).toMatchObject(next);
    expect(await page(testApp, product.slug)).toMatchObject(next);
    const rows = await testApp.database.db.select().from(productCombinations).where(eq(productCombinations.productId, product.id));
    expect(rows.map((row) => [row.key, row.stock]).sort()).toEqual([
      ['almond/long', 2],
      ['almond/short', 1],
      ['coffin/xl', 4],
    ]);
    const logged = await testApp.database.db
      .select()
      .from(stockChanges)
      .where(and(eq(stockChanges.productId, product.id), isNotNull(stockChanges.combinationKey)))
      .orderBy(stockChanges.changedAt, stockChanges.id);
    expect(logged.slice(2).map((row) => [row.combinationKey, row.change, row.stockAfter])).toEqual(
      expect.arrayContaining([
        ['almond/short', -2, 1],
        ['coffin/xl', 4, 4],
      ]),
    );
    expect(logged).toHaveLength(4);
    // Counting all together again drops the combinations.
    const together = await update(testApp, product.id, { ...fields, stock: '5', model: JSON.stringify({ ...next, stockMode: 'product' }) });
    expect(together.json<{ product: Product }>().product).toMatchObject({ stockMode: 'product', combinations: [], stock: 5 });
    expect(await testApp.database.db.select().from(productCombinations).where(eq(productCombinations.productId, product.id))).toEqual([]);
  });

  it('leaves a count the admin did not change as orders left it, and refuses one they changed over an order', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    // An order takes one almond/short set while the form is open.
    await testApp.database.db
      .update(productCombinations)
      .set({ stock: 2 })
      .where(and(eq(productCombinations.productId, product.id), eq(productCombinations.key, 'almond/short')));
    const seen = model.combinations.map((combination) => ({ ...combination, stockSeen: combination.stock }));
    const untouched = await update(testApp, product.id, { ...fields, model: JSON.stringify({ ...model, combinations: seen }) });
    expect(untouched.statusCode, untouched.body).toBe(200);
    expect(untouched.json<{ product: Product }>().product.combinations).toContainEqual({ key: 'almond/short', stock: 2 });
    const changed = seen.map((combination) => (combination.key === 'almond/short' ? { ...combination, stock: 10 } : combination));
    const refused = await update(testApp, product.id, { ...fields, nameEn: 'Not Saved', model: JSON.stringify({ ...model, combinations: changed }) });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'stock_changed', stock: 2, field: 'model.combinations.1.stock', messageKey: 'admin.products.messages.stockChanged' } });
    expect((await page(testApp, product.slug)).name.en).toBe(fields.nameEn);
  });

  it('refuses a model that breaks a rule, naming its field, and saves nothing', async () => {
    const testApp = context();
    const cases = [
      ['{not json', 'model', 'invalidModel'],
      [JSON.stringify({ ...model, optionGroups: [{ ...shape, values: [value('Almond!', 'Almond')] }] }), 'model.optionGroups.0.values.0.id', 'invalidChoiceId'],
      [JSON.stringify({ ...model, combinations: [{ key: 'almond/huge', stock: 1 }] }), 'model.combinations.0.key', 'invalidCombination'],
      [JSON.stringify({ ...model, leadTime: { kind: 'made_to_order', minDays: 9, maxDays: 3 } }), 'model.leadTime.maxDays', 'invalidLeadTime'],
      [JSON.stringify({ ...model, questions: [{ ...model.questions[0], maxLength: 501 }] }), 'model.questions.0.maxLength', 'invalidAnswerLength'],
    ] as const;
    for (const [text, field, key] of cases) {
      const response = await create(testApp, { ...fields, nameEn: 'Refused Set', model: text });
      expect(response.statusCode, text).toBe(400);
      expect(response.json().error, text).toMatchObject({ field, messageKey: `admin.products.messages.${key}` });
    }
    expect(await testApp.database.db.select().from(products).where(eq(products.nameEn, 'Refused Set'))).toEqual([]);
  });

  it('lists a product counted per combination as sold out when no combination is left', async () => {
    const testApp = context();
    const soldOut = await newProduct(testApp, { ...fields, nameEn: 'Opal Gone', model: JSON.stringify({ ...model, combinations: [{ key: 'almond/short', stock: 0 }] }) });
    const available = await newProduct(testApp, { ...fields, nameEn: 'Opal Made To Order', model: JSON.stringify({ ...model, combinations: [{ key: 'almond/short', stock: 0 }, { key: 'coffin/long', stock: null }] }) });
    const ids = (await testApp.app.inject({ method: 'GET', url: '/api/admin/products?stock=soldOut', headers: { cookie: admin } }))
      .json<{ products: Product[] }>()
      .products.map((product) => product.id);
    expect(ids).toContain(soldOut.id);
    expect(ids).not.toContain(available.id);
  });

  it('takes an empty model field as none', async () => {
    const testApp = context();
    expect(await newProduct(testApp, { ...fields, model: '' })).toMatchObject(PLAIN_PRODUCT_MODEL);
  });

  it('keeps the model through the photos’ changes', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const added = await testApp.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, ...productForm({}, await pngImage(90), admin) });
    expect(added.statusCode, added.body).toBe(201);
    const withPhoto = added.json<{ product: Product }>().product;
    expect(withPhoto.photos).toHaveLength(2);
    expect(withPhoto).toMatchObject(model);
    const removed = await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}/photos/${withPhoto.photos[1]!.id}`, headers: { cookie: admin } });
    expect(removed.json<{ product: Product }>().product).toMatchObject(model);
  });

  it('answers with the counts of combinations as orders change them', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    expect((await page(testApp, product.slug)).combinations).toContainEqual({ key: 'almond/long', stock: 2 });
    // As an order takes a set: the combination's count alone changes, not the product's row. Written
    // outside any request, it reaches the answers with its change notice (on PostgreSQL a moment later:
    // docs/decisions/0023-bounded-catalogue-staleness.md).
    await testApp.database.db
      .update(productCombinations)
      .set({ stock: 0 })
      .where(and(eq(productCombinations.productId, product.id), eq(productCombinations.key, 'almond/long')));
    await eventually(async () => (await page(testApp, product.slug)).combinations.some((combination) => combination.key === 'almond/long' && combination.stock === 0), MAX_STALENESS_MS * 5, 'the new count');
  });

  it('holds an edit of the options until an order holding the product is placed', async () => {
    const testApp = context();
    if (!testApp.databaseUrl) return; // PGlite runs one transaction at a time: nothing can overlap there.
    const product = await newProduct(testApp);
    const checkout = new pg.Client({ connectionString: testApp.databaseUrl });
    await checkout.connect();
    try {
      // As a checkout holds the products of its lines while it reads their options and takes their pieces.
      await checkout.query('begin');
      await checkout.query('select id from products where id = $1 for key share', [product.id]);
      let done = false;
      const editing = update(testApp, product.id, { ...fields, model: JSON.stringify({ ...model, combinations: [{ key: 'coffin/long', stock: null }] }) }).then((response) => {
        done = true;
        return response;
      });
      await someoneWaitsFor(checkout, 'the edit to wait for the checkout’s hold on the product');
      expect(done).toBe(false);
      const during = await checkout.query('select key from product_combinations where product_id = $1 order by key', [product.id]);
      expect(during.rows.map((row: { key: string }) => row.key)).toEqual(['almond/long', 'almond/short', 'coffin/long']);
      await checkout.query('commit');
      const response = await editing;
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ product: Product }>().product.combinations).toEqual([{ key: 'coffin/long', stock: null }]);
    } finally {
      await checkout.end();
    }
  });

  it('serves the size chart to everyone and lets only an admin change it, within its rules', async () => {
    const testApp = context();
    const read = await testApp.app.inject({ method: 'GET', url: '/api/size-chart' });
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(read.json()).toEqual(DEFAULT_NAIL_SIZE_CHART);

    const chart: NailSizeChart = {
      sizes: Array.from({ length: 16 }, (_, size) => ({ size, widthTenthsMm: 190 - size * 9 })),
      presets: [{ id: 'xl', name: { en: 'XL', bg: 'XL' }, sizes: [0, 3, 2, 4, 6, 0, 3, 2, 4, 6] }],
    };
    const put = (payload: unknown, cookie?: string) => testApp.app.inject({ method: 'PUT', url: '/api/admin/size-chart', headers: cookie ? { cookie } : {}, payload: payload as object });
    expect((await put(chart)).statusCode).toBe(401);
    expect((await put(chart, customer)).statusCode).toBe(403);
    const refused = await put({ ...chart, sizes: [...chart.sizes, { size: 3, widthTenthsMm: 100 }] }, admin);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ field: 'sizes.16.size', messageKey: 'admin.sizeChart.messages.duplicateSize' });
    const offChart = await put({ ...chart, presets: [{ ...chart.presets[0], sizes: [0, 3, 2, 4, 16, 0, 3, 2, 4, 6] }] }, admin);
    expect(offChart.json().error).toMatchObject({ field: 'presets.0.sizes.4', messageKey: 'admin.sizeChart.messages.presetOutsideChart' });
    expect((await testApp.app.inject({ method: 'GET', url: '/api/size-chart' })).json()).toEqual(DEFAULT_NAIL_SIZE_CHART);

    const saved = await put(chart, admin);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(chart);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/size-chart' })).json()).toEqual(chart);
    // Other tests of this app expect the default chart.
    expect((await put(DEFAULT_NAIL_SIZE_CHART, admin)).statusCode).toBe(200);
  });
});

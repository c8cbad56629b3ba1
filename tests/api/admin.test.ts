import { randomUUID } from 'node:crypto';
import { eq, like, sql, type SQL } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeEach, expect, it } from 'vitest';
import { ADMIN_ORDER_COUNT_LIMIT, type AdminOrderPage } from '#shared/admin.js';
import { PRODUCT_IMAGE_WIDTHS, type Product } from '#shared/catalog.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { admins, orderCustomerEmails, orders, orderStatusChanges, payments, products, users } from '#server/db/schema.js';
import { SEARCH_EMAIL_LIST_LIMIT } from '#server/orders/order-queries.js';
import { sofia } from './sample-data.js';
import { testProduct } from './test-products.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

/** A multipart/form-data body, as a browser sends a form with a file. */
function form(fields: Record<string, string>, file?: { name: string; type: string; content: Buffer }) {
  const boundary = `----shop${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(file.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const pngImage = () =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 220, g: 120, b: 170 } } })
    .withMetadata({ exif: { IFD0: { Copyright: 'secret camera data' } } })
    .png()
    .toBuffer();

const fields = { nameEn: 'Opal Press-On Set', descriptionEn: 'Milky opal nails with a gold line.', price: '24.5', category: 'nails' };

const key = () => randomUUID().replace(/-/g, '');

/** Places an order of one product as the signed-in customer, with an address, as the checkout does. */
async function placeOrder(testApp: TestApp, cookie: string, product: { id: string; priceMinor: number }): Promise<Order> {
  await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
  await testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations: [{ id: key(), type: 'add', productId: product.id }] } });
  const expectedTotalMinor = priceLines([{ priceMinor: product.priceMinor, quantity: 1 }]).total;
  const placed = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: key(), acceptTerms: true, expectedTotalMinor } });
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json<{ order: Order }>().order;
}

/** Orders written straight to the database, as many as a test needs: for the list, only these columns matter. */
async function insertOrders(testApp: TestApp, rows: { id: string; email: string; status?: string; createdAt: SQL }[]): Promise<void> {
  const [user] = await testApp.database.db.insert(users).values({ email: `list-${key()}@example.com` }).returning({ id: users.id });
  const values = rows.map((row) => ({
    id: row.id,
    userId: user!.id,
    customerEmail: row.email,
    status: row.status ?? 'pending',
    subtotalMinor: 1000,
    taxMinor: 50,
    shippingMinor: 599,
    totalMinor: 1649,
    itemCount: 1,
    itemDescription: 'Kit',
    paymentMethod: 'card',
    shippingFullName: 'Maria Ivanova',
    shippingStreetAddress: '12 Vitosha Blvd',
    shippingCity: 'Sofia',
    shippingPostalCode: '1000',
    shippingCountry: 'BG',
    shippingPhone: '+359888123456',
    createdAt: row.createdAt,
  }));
  for (let start = 0; start < values.length; start += 500) await testApp.database.db.insert(orders).values(values.slice(start, start + 500));
}

/** A time to the microsecond, which a JavaScript Date cannot hold but PostgreSQL keeps. */
const at = (time: string) => sql`${time}::timestamptz`;

/** A customer of their own (a new address) with one order of the product, for a test that needs an order no other test touches. */
async function customerWithOrder(testApp: TestApp, product: { id: string; priceMinor: number }): Promise<{ email: string; customer: string; order: Order }> {
  const email = `client.${key().slice(0, 12)}@example.com`;
  const customer = await signIn(testApp, email);
  return { email, customer, order: await placeOrder(testApp, customer, product) };
}

describeEachDatabase('admin', (context) => {
  // Each test has its own admin and product, made before it, so that none depends on what another did or on their order.
  let admin: string;
  let kit: typeof products.$inferSelect;

  beforeEach(async () => {
    const testApp = context();
    const adminEmail = `boss.${key().slice(0, 12)}@example.com`;
    await testApp.database.db.insert(admins).values({ id: adminEmail });
    admin = await signIn(testApp, adminEmail);
    [kit] = (await testApp.database.db.insert(products).values({ nameEn: 'Kit', descriptionEn: 'x', slug: `kit-${key()}`, priceMinor: 4900 }).returning()) as [typeof kit];
  });

  it('refuses every admin endpoint to visitors (401) and customers (403)', async () => {
    const testApp = context();
    const { customer, order: customerOrder } = await customerWithOrder(testApp, kit);
    const productId = randomUUID();
    const calls = [
      { method: 'GET', url: '/api/admin/access' },
      { method: 'GET', url: '/api/admin/products' },
      { method: 'POST', url: '/api/admin/products', ...form(fields) },
      { method: 'PUT', url: `/api/admin/products/${productId}`, ...form(fields) },
      { method: 'DELETE', url: `/api/admin/products/${productId}` },
      { method: 'POST', url: `/api/admin/products/${productId}/photos`, ...form({}, { name: 'a.png', type: 'image/png', content: Buffer.from('x') }) },
      { method: 'PUT', url: `/api/admin/products/${productId}/photos`, payload: { photos: [{ id: productId }] } },
      { method: 'DELETE', url: `/api/admin/products/${productId}/photos/${productId}` },
      { method: 'GET', url: '/api/admin/orders' },
      { method: 'GET', url: `/api/admin/orders/${customerOrder.orderId}` },
      { method: 'PATCH', url: `/api/admin/orders/${customerOrder.orderId}/status`, payload: { status: 'sent' } },
    ] as const;
    for (const call of calls) {
      const asVisitor = await testApp.app.inject({ ...call, headers: { ...('headers' in call ? call.headers : {}) } });
      expect(asVisitor.statusCode, `${call.method} ${call.url} as visitor`).toBe(401);
      const asCustomer = await testApp.app.inject({ ...call, headers: { ...('headers' in call ? call.headers : {}), cookie: customer } });
      expect(asCustomer.statusCode, `${call.method} ${call.url} as customer`).toBe(403);
    }
    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/access', headers: { cookie: admin } })).statusCode).toBe(200);
    expect((await testApp.database.db.select().from(orders).where(eq(orders.id, customerOrder.orderId))).map((row) => row.status)).toEqual(['pending']);
  });

  it('adds a product with a price given as a string and an image stored as WebP without metadata', async () => {
    const testApp = context();
    const body = form(fields, { name: 'opal.png', type: 'image/png', content: await pngImage() });
    const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...body.headers, cookie: admin }, payload: body.payload });
    expect(response.statusCode, response.body).toBe(201);
    const product = response.json<{ product: Product }>().product;
    expect(product).toMatchObject({ name: { en: 'Opal Press-On Set', bg: '' }, priceMinor: 2450, category: 'nails' });
    expect(product.photos).toHaveLength(1);
    expect(product.photos[0]!.url).toMatch(new RegExp(`^/images/nails/${product.id}_\\d+_[0-9a-f]{16}\\.webp$`));
    const image = await testApp.app.inject({ method: 'GET', url: `${product.photos[0]!.url}?w=640` });
    const metadata = await sharp(image.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 640, height: 640 });
    expect(metadata.exif).toBeUndefined();

    const home = (await testApp.app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[] }>().products;
    expect(home.map((item) => item.name.en)).toContain('Opal Press-On Set');
  });

  it('refuses files that are not JPEG, PNG or WebP, whatever their name, and files over 10 MB', async () => {
    const testApp = context();
    const before = await testApp.database.db.select().from(products);
    const attempts = [
      { name: 'notes.png', type: 'image/png', content: Buffer.from('just some text, not an image') },
      {
        name: 'logo.svg',
        type: 'image/svg+xml',
        content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>'),
      },
      { name: 'sneaky.png', type: 'image/png', content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>') },
    ];
    for (const file of attempts) {
      const body = form(fields, file);
      const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...body.headers, cookie: admin }, payload: body.payload });
      expect(response.statusCode, file.name).toBe(415);
      expect(response.json().error.message).toBe('Only JPEG, PNG and WebP images are accepted.');
    }
    const huge = form(fields, { name: 'huge.png', type: 'image/png', content: Buffer.alloc(10 * 1024 * 1024 + 1, 1) });
    const tooBig = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...huge.headers, cookie: admin }, payload: huge.payload });
    expect(tooBig.statusCode).toBe(413);
    expect(await testApp.database.db.select().from(products)).toHaveLength(before.length);
  });

  it('asks for the required fields and for an image when adding', async () => {
    const testApp = context();
    for (const missing of ['nameEn', 'descriptionEn', 'price']) {
      const body = form({ ...fields, [missing]: '' }, { name: 'a.png', type: 'image/png', content: await pngImage() });
      const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...body.headers, cookie: admin }, payload: body.payload });
      expect(response.json().error.message, missing).toBe(`${missing}: admin.products.messages.requiredFields`);
    }
    // A name and a description in either language will do: the pages show the other language's where one is missing.
    const bulgarianOnly = form(
      { nameBg: 'Опалов комплект', descriptionBg: 'Млечни опалови нокти.', price: '24.5' },
      { name: 'a.png', type: 'image/png', content: await pngImage() },
    );
    const created = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...bulgarianOnly.headers, cookie: admin }, payload: bulgarianOnly.payload });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ product: Product }>().product).toMatchObject({ name: { en: '', bg: 'Опалов комплект' }, description: { en: '', bg: 'Млечни опалови нокти.' } });
    for (const [field, value, messageKey] of [
      ['price', '100000.01', 'priceTooHigh'],
      ['price', '12.345', 'priceTooPrecise'],
      ['price', '0,005', 'priceTooPrecise'],
      ['nameEn', 'x'.repeat(201), 'nameTooLong'],
      ['nameBg', 'x'.repeat(201), 'nameTooLong'],
      ['descriptionEn', 'x'.repeat(10_000), 'descriptionTooLong'],
      ['descriptionBg', 'x'.repeat(2001), 'descriptionTooLong'],
      ['nameEn', 'Rose\u0000Set', 'invalidCharacters'],
      ['descriptionBg', 'Роза\u0000', 'invalidCharacters'],
      ['category', 'shoes', 'unknownCategory'],
    ]) {
      const body = form({ ...fields, [field!]: value! }, { name: 'a.png', type: 'image/png', content: await pngImage() });
      const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...body.headers, cookie: admin }, payload: body.payload });
      expect(response.statusCode, messageKey).toBe(400);
      expect(response.json().error.message).toBe(`${field}: admin.products.messages.${messageKey}`);
    }
    const noImage = form(fields);
    const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...noImage.headers, cookie: admin }, payload: noImage.payload });
    expect(response.json().error.message).toBe('Please select an image for the product');
  });

  it('edits a product’s texts and keeps its photos, which change only through the photo endpoints, and deletes it with all its files', async () => {
    const testApp = context();
    const created = form(fields, { name: 'a.png', type: 'image/png', content: await pngImage() });
    const product = (
      await testApp.app.inject({ method: 'POST', url: '/api/admin/products', headers: { ...created.headers, cookie: admin }, payload: created.payload })
    ).json<{ product: Product }>().product;
    // Every stored width of the product's images, in whichever store the app keeps them (files or PostgreSQL).
    const filesOf = async (id: string) => {
      const keys = (await testApp.images.listKeys()).filter((key) => key.startsWith(`nails/${id}_`));
      const variants = await Promise.all(keys.flatMap((key) => PRODUCT_IMAGE_WIDTHS.map((width) => testApp.images.read(key, width))));
      return variants.filter((variant) => variant !== null);
    };
    expect(await filesOf(product.id)).toHaveLength(3);

    const jpeg = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#333' } }).jpeg().toBuffer();
    const second = form({}, { name: 'b.jpg', type: 'image/jpeg', content: jpeg });
    const added = await testApp.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, headers: { ...second.headers, cookie: admin }, payload: second.payload });
    expect(added.statusCode, added.body).toBe(201);
    const withTwo = added.json<{ product: Product }>().product;
    expect(withTwo.photos).toHaveLength(2);
    expect(await filesOf(product.id)).toHaveLength(6);

    // The product form carries no image when editing: photos have endpoints of their own.
    const withImage = form({ ...fields, nameEn: 'Opal Set II' }, { name: 'b.jpg', type: 'image/jpeg', content: jpeg });
    const refusedImage = await testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${product.id}`, headers: { ...withImage.headers, cookie: admin }, payload: withImage.payload });
    expect(refusedImage.statusCode).toBe(400);

    const edit = form({ ...fields, price: '19,90', nameEn: 'Opal Set II', nameBg: 'Опалов комплект II', descriptionBg: 'Опалови нокти.' });
    const updated = await testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${product.id}`, headers: { ...edit.headers, cookie: admin }, payload: edit.payload });
    expect(updated.statusCode, updated.body).toBe(200);
    const changed = updated.json<{ product: Product }>().product;
    expect(changed).toMatchObject({ name: { en: 'Opal Set II', bg: 'Опалов комплект II' }, description: { en: fields.descriptionEn, bg: 'Опалови нокти.' }, priceMinor: 1990 });
    expect(changed.photos).toEqual(withTwo.photos);
    expect(await filesOf(product.id)).toHaveLength(6);

    // A price with a third decimal is refused, not rounded: the product keeps the price it had.
    const tooPrecise = form({ ...fields, price: '19.995' });
    const refused = await testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${product.id}`, headers: { ...tooPrecise.headers, cookie: admin }, payload: tooPrecise.payload });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('price: admin.products.messages.priceTooPrecise');
    const [unchanged] = await testApp.database.db.select().from(products).where(eq(products.id, product.id));
    expect(unchanged!.priceMinor).toBe(1990);

    expect((await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}`, headers: { cookie: admin } })).statusCode).toBe(204);
    expect(await filesOf(product.id)).toEqual([]);
    expect((await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}`, headers: { cookie: admin } })).statusCode).toBe(404);
    expect((await testApp.app.inject({ method: 'DELETE', url: '/api/admin/products/not-an-id', headers: { cookie: admin } })).statusCode).toBe(400);
  });

  it('sorts the product table by the names in the admin’s language', async () => {
    const testApp = context();
    const tag = key().slice(0, 6);
    // In English A, B, C; in Bulgarian В (Ведро), Г (Гума), Я (Ябълка): the orders differ.
    await testApp.database.db.insert(products).values([
      testProduct({ name: `A ${tag} Apple`, nameBg: `Ябълка ${tag}`, priceMinor: 100 }),
      testProduct({ name: `B ${tag} Bucket`, nameBg: `Ведро ${tag}`, priceMinor: 100 }),
      testProduct({ name: `C ${tag} Eraser`, nameBg: `Гума ${tag}`, priceMinor: 100 }),
    ]);
    const names = async (query: string) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/admin/products${query}`, headers: { cookie: admin } }))
        .json<{ products: Product[] }>()
        .products.filter((product) => product.name.en.includes(tag));
    expect((await names('')).map((product) => product.name.en)).toEqual([`A ${tag} Apple`, `B ${tag} Bucket`, `C ${tag} Eraser`]);
    expect((await names('?lang=en')).map((product) => product.name.en)).toEqual([`A ${tag} Apple`, `B ${tag} Bucket`, `C ${tag} Eraser`]);
    expect((await names('?lang=bg')).map((product) => product.name.bg)).toEqual([`Ведро ${tag}`, `Гума ${tag}`, `Ябълка ${tag}`]);
  });

  it('sets any status, writing updatedAt and the time named after it, and refuses others', async () => {
    const testApp = context();
    const { order: customerOrder } = await customerWithOrder(testApp, kit);
    const url = `/api/admin/orders/${customerOrder.orderId}/status`;
    for (const status of ['bogus', 'shipped', '', null]) {
      const refused = await testApp.app.inject({ method: 'PATCH', url, headers: { cookie: admin }, payload: { status } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe('Invalid status');
    }
    const sent = (await testApp.app.inject({ method: 'PATCH', url, headers: { cookie: admin }, payload: { status: 'sent' } })).json<{ order: Order }>().order;
    expect(sent.status).toBe('sent');
    expect(sent.statusTimes.sent).toBeDefined();
    expect(Date.parse(sent.updatedAt)).toBeGreaterThanOrEqual(Date.parse(sent.statusTimes.sent!));
    const back = (await testApp.app.inject({ method: 'PATCH', url, headers: { cookie: admin }, payload: { status: 'pending' } })).json<{ order: Order }>().order;
    expect(back.status).toBe('pending');
    expect(back.statusTimes.sent).toBe(sent.statusTimes.sent);
    const missing = await testApp.app.inject({ method: 'PATCH', url: '/api/admin/orders/NA-MISSING2/status', headers: { cookie: admin }, payload: { status: 'paid' } });
    expect(missing.statusCode).toBe(404);
  });

  it('lists, filters and searches orders on the server, reading legacy statuses through the mapping', async () => {
    const testApp = context();
    const { email, order: customerOrder } = await customerWithOrder(testApp, kit);
    // Other tests' orders share the database: the list is narrowed to this customer's, by a search that the list's tests prove.
    const own = `q=${encodeURIComponent(email)}`;
    await testApp.database.db.execute(sql`update orders set status = 'shipped' where id = ${customerOrder.orderId}`);
    const get = async (query: string) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders${query}`, headers: { cookie: admin } })).json<AdminOrderPage>();
    const all = await get(`?${own}`);
    expect(all.total).toBe(1);
    expect(all.orders[0]).toMatchObject({ orderId: customerOrder.orderId, status: 'sent', customerEmail: email });
    expect((await get('')).orders.map((order) => order.orderId)).toContain(customerOrder.orderId);
    expect((await get(`?status=sent&${own}`)).total).toBe(1);
    expect((await get(`?status=pending&${own}`)).total).toBe(0);
    expect((await get(`?q=${encodeURIComponent(email.split('@')[0]!.toUpperCase())}@`)).total).toBe(1);
    expect((await get(`?q=${customerOrder.orderId.slice(0, 8).toLowerCase()}`)).total).toBe(1);
    expect((await get('?q=nobody')).total).toBe(0);
    expect((await get('?q=%25')).total).toBe(0);
    expect(all).toMatchObject({ totalIsLowerBound: false, nextCursor: null, previousCursor: null });
    const detail = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${customerOrder.orderId}`, headers: { cookie: admin } })).json<{ order: Order }>().order;
    expect(detail).toMatchObject({ status: 'sent', items: [{ name: { en: 'Kit', bg: '' }, priceMinor: 4900 }], shippingAddress: { city: 'Sofia' } });
    const bad = await testApp.app.inject({ method: 'GET', url: '/api/admin/orders?pageSize=0', headers: { cookie: admin } });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps every status change in order, and setting Paid again leaves the time of the payment', async () => {
    const testApp = context();
    const buyer = await signIn(testApp, 'history@example.com');
    const placed = await placeOrder(testApp, buyer, kit);
    expect(placed.statusHistory).toEqual([{ status: 'pending', at: placed.createdAt }]);
    const paid = (
      await testApp.app.inject({ method: 'POST', url: `/api/orders/${placed.orderId}/payment`, headers: { cookie: buyer }, payload: { method: 'pay_by_link' } })
    ).json<{ order: Order }>().order;
    const paymentTime = paid.payment!.processedAt;
    expect(paid.statusTimes.paid).toBe(paymentTime);

    const url = `/api/admin/orders/${placed.orderId}/status`;
    const set = async (status: string) => {
      // A deliberate pause: the times are kept to the millisecond, and changes a few apart keep them distinct, as the order check below needs.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await testApp.app.inject({ method: 'PATCH', url, headers: { cookie: admin }, payload: { status } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ order: Order }>().order;
    };
    await set('preparing');
    const paidAgain = await set('paid');
    expect(paidAgain.payment!.processedAt).toBe(paymentTime);
    expect(paidAgain.statusTimes.paid).toBe(paymentTime);
    const cancelled = await set('cancelled');
    // Setting the status the order already has changes nothing and adds nothing.
    const repeated = await set('cancelled');
    expect(repeated.statusHistory).toEqual(cancelled.statusHistory);
    expect(repeated.updatedAt).toBe(cancelled.updatedAt);

    const detail = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${placed.orderId}`, headers: { cookie: admin } })).json<{ order: Order }>().order;
    expect(detail.status).toBe('cancelled');
    expect(detail.statusHistory.map((change) => change.status)).toEqual(['pending', 'paid', 'preparing', 'paid', 'cancelled']);
    expect(detail.statusHistory[1]!.at).toBe(paymentTime);
    const times = detail.statusHistory.map((change) => Date.parse(change.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(5);
    expect(detail.statusHistory[3]!.at).toBe(paidAgain.updatedAt);
    expect(detail.statusTimes).toMatchObject({ pending: placed.createdAt, paid: paymentTime, preparing: detail.statusHistory[2]!.at, cancelled: detail.statusHistory[4]!.at });
    const [payment] = await testApp.database.db.select().from(payments).where(eq(payments.orderId, placed.orderId));
    expect(payment!.processedAt.toISOString()).toBe(paymentTime);
    const stored = await testApp.database.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, placed.orderId));
    expect(stored.map((change) => change.position).sort()).toEqual([0, 1, 2, 3, 4]);

    // The customer sees the same history.
    const own = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${placed.orderId}`, headers: { cookie: buyer } })).json<{ order: Order }>().order;
    expect(own.statusHistory).toEqual(detail.statusHistory);
  });

  it('numbers the history without gaps when changes of one order arrive at once', async () => {
    const testApp = context();
    const placed = await placeOrder(testApp, await signIn(testApp, 'busy@example.com'), kit);
    const statuses = ['paid', 'preparing', 'ready', 'sent', 'delivered', 'cancelled'];
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${placed.orderId}/status`, headers: { cookie: admin }, payload: { status: statuses[index % statuses.length] } }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 200));
    const stored = await testApp.database.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, placed.orderId));
    // Each request that found another status added one entry; none collided or went missing.
    expect(stored.map((change) => change.position).sort((a, b) => a - b)).toEqual(stored.map((_, index) => index));
    expect(stored.length).toBeGreaterThan(1);
    const [row] = await testApp.database.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(stored.find((change) => change.position === stored.length - 1)!.status).toBe(row!.status);
  });

  it('finds an e-mail by any part of it (name, domain) and an order id by any part of it', async () => {
    const testApp = context();
    const maria = await placeOrder(testApp, await signIn(testApp, 'maria.ivanova@abv.bg'), kit);
    const petar = await placeOrder(testApp, await signIn(testApp, 'petar_95@gmail.com'), kit);
    const search = async (q: string) => {
      const response = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?q=${encodeURIComponent(q)}`, headers: { cookie: admin } });
      expect(response.statusCode, response.body).toBe(200);
      return response
        .json<AdminOrderPage>()
        .orders.map((order) => order.orderId)
        .sort();
    };
    expect(await search('ivanova')).toEqual([maria.orderId]);
    expect(await search('IVANOVA@ABV')).toEqual([maria.orderId]);
    expect(await search('abv.bg')).toEqual([maria.orderId]);
    expect(await search('@gmail.com')).toEqual([petar.orderId]);
    expect(await search('r_95')).toEqual([petar.orderId]);
    // LIKE's wildcards are plain characters in a search.
    expect(await search('r_9_')).toEqual([]);
    expect(await search('a%v')).toEqual([]);
    expect(await search(maria.orderId.slice(0, 6).toLowerCase())).toContain(maria.orderId);
    expect(await search(maria.orderId)).toEqual([maria.orderId]);
    // An order id is found by any part of three characters or more, in any case.
    expect(await search(maria.orderId.slice(4, 10))).toEqual([maria.orderId]);
    expect(await search(maria.orderId.slice(-3).toLowerCase())).toContain(maria.orderId);
    expect(await search(maria.orderId.slice(3, 8))).toContain(maria.orderId);
    const [everyone] = await testApp.database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(sql`customer_email like '%.%'`);
    expect((await search('.')).length).toBe(everyone!.n);
  });

  /** The ids of the orders that a search lists on its first page, sorted. */
  async function searchIds(testApp: TestApp, q: string): Promise<string[]> {
    const response = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?q=${encodeURIComponent(q)}&pageSize=100`, headers: { cookie: admin } });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<AdminOrderPage>()
      .orders.map((order) => order.orderId)
      .sort();
  }
  const searchEmails = async (testApp: TestApp, part: string) =>
    (await testApp.database.db.select().from(orderCustomerEmails).where(like(orderCustomerEmails.email, `%${part}%`))).map((row) => row.email).sort();

  it('lists, page by page, the orders a search finds both by the beginning of their id and by part of their e-mail', async () => {
    const testApp = context();
    await insertOrders(testApp, [
      { id: 'NA-BOTH01', email: 'someone@both.example', createdAt: at('2025-04-01T10:00:00Z') },
      { id: 'NA-ELSE01', email: 'na-both0.fan@both.example', createdAt: at('2025-04-01T11:00:00Z') },
      { id: 'NA-ELSE02', email: 'na-both0.fan@both.example', createdAt: at('2025-04-01T09:00:00Z') },
      { id: 'NA-ELSE03', email: 'other@both.example', createdAt: at('2025-04-01T12:00:00Z') },
    ]);
    const pages = await walk(testApp, 'q=NA-BOTH0&pageSize=1', 'next');
    expect(idsOf(pages)).toEqual(['NA-ELSE01', 'NA-BOTH01', 'NA-ELSE02']);
    expect(pages.map((page) => page.total)).toEqual([3, 3, 3]);
    // Pending shares legacy values ("ordered"): a walk for each value and each way the search matches, merged.
    const pending = await walk(testApp, 'q=NA-BOTH0&status=pending&pageSize=2', 'next');
    expect(idsOf(pending)).toEqual(['NA-ELSE01', 'NA-BOTH01', 'NA-ELSE02']);
  });

  it('lists once an order that a search finds both by a part of its id and by its e-mail', async () => {
    const testApp = context();
    await insertOrders(testApp, [
      { id: 'NA-TWICE01', email: 'twice01@twice.example', createdAt: at('2025-04-02T10:00:00Z') },
      { id: 'NA-TWICE02', email: 'other@twice.example', createdAt: at('2025-04-02T11:00:00Z') },
    ]);
    expect(await searchIds(testApp, 'twice01')).toEqual(['NA-TWICE01']);
    expect(await searchIds(testApp, 'wice0')).toEqual(['NA-TWICE01', 'NA-TWICE02']);
  });

  it('keeps each e-mail of the orders once for the search, whatever writes the orders, and drops one that no order holds', async () => {
    const testApp = context();
    await insertOrders(testApp, [
      { id: 'NA-KEEPA1', email: 'keep-a@keep.example', createdAt: at('2025-05-01T10:00:00Z') },
      { id: 'NA-KEEPA2', email: 'keep-a@keep.example', createdAt: at('2025-05-01T11:00:00Z') },
      { id: 'NA-KEEPB1', email: 'keep-b@keep.example', createdAt: at('2025-05-01T12:00:00Z') },
    ]);
    expect(await searchEmails(testApp, 'keep.example')).toEqual(['keep-a@keep.example', 'keep-b@keep.example']);
    const { db } = testApp.database;
    // One of keep-a's two orders moves to another e-mail: keep-a still has an order, so it stays.
    await db.update(orders).set({ customerEmail: 'keep-c@keep.example' }).where(eq(orders.id, 'NA-KEEPA1'));
    expect(await searchEmails(testApp, 'keep.example')).toEqual(['keep-a@keep.example', 'keep-b@keep.example', 'keep-c@keep.example']);
    expect(await searchIds(testApp, 'keep-a@')).toEqual(['NA-KEEPA2']);
    expect(await searchIds(testApp, 'keep-c@')).toEqual(['NA-KEEPA1']);
    // A status change leaves the e-mails alone; the last order of an e-mail, changed or deleted, takes it away.
    await db.update(orders).set({ status: 'paid' }).where(eq(orders.id, 'NA-KEEPA2'));
    await db.update(orders).set({ customerEmail: 'keep-c@keep.example' }).where(eq(orders.id, 'NA-KEEPA2'));
    await db.delete(orders).where(eq(orders.id, 'NA-KEEPB1'));
    expect(await searchEmails(testApp, 'keep.example')).toEqual(['keep-c@keep.example']);
    expect(await searchIds(testApp, 'keep')).toEqual(['NA-KEEPA1', 'NA-KEEPA2']);
    expect(await searchIds(testApp, 'keep-b')).toEqual([]);
  });

  it('finds a deleted account’s orders by their placeholder only: its e-mail is gone from the search', async () => {
    const testApp = context();
    const leaving = await signIn(testApp, 'vesela.leaving@abv.bg');
    const placed = [await placeOrder(testApp, leaving, kit), await placeOrder(testApp, leaving, kit)].map((order) => order.orderId).sort();
    expect(await searchIds(testApp, 'vesela.leaving')).toEqual(placed);
    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: leaving }, payload: { email: 'vesela.leaving@abv.bg' } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await searchIds(testApp, 'vesela.leaving')).toEqual([]);
    expect(await searchEmails(testApp, 'vesela')).toEqual([]);
    const [anonymised] = await testApp.database.db.select({ email: orders.customerEmail }).from(orders).where(eq(orders.id, placed[0]!));
    expect(anonymised!.email).not.toContain('vesela');
    expect(await searchIds(testApp, anonymised!.email)).toEqual(placed);
  });

  /** The pages of the list from one cursor on, following nextCursor (or previousCursor going back) to the end. */
  async function walk(testApp: TestApp, query: string, direction: 'next' | 'previous', onPage?: (page: AdminOrderPage) => Promise<void>, from?: string | null) {
    const pages: AdminOrderPage[] = [];
    let url = `/api/admin/orders?${query}${from ? `&${direction === 'next' ? 'after' : 'before'}=${from}` : ''}`;
    for (;;) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: { cookie: admin } });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<AdminOrderPage>();
      pages.push(page);
      await onPage?.(page);
      const cursor = direction === 'next' ? page.nextCursor : page.previousCursor;
      if (!cursor || pages.length > 100) return pages;
      url = `/api/admin/orders?${query}&${direction === 'next' ? 'after' : 'before'}=${cursor}`;
    }
  }
  const idsOf = (pages: AdminOrderPage[]) => pages.flatMap((page) => page.orders.map((order) => order.orderId));

  it('walks every order exactly once, newest first, even when orders arrive between pages, and walks back the same pages', async () => {
    const testApp = context();
    // Times that differ only in microseconds, and times that several orders share (the id decides their order).
    await insertOrders(testApp, [
      ...Array.from({ length: 9 }, (_, index) => ({ id: `NA-WALKA${index}`, email: 'walk@example.com', createdAt: at(`2026-01-01T10:00:00.123${400 + index}Z`) })),
      ...Array.from({ length: 8 }, (_, index) => ({ id: `NA-WALKB${index}`, email: 'walk@example.com', createdAt: at('2026-01-01T09:00:00Z') })),
      ...Array.from({ length: 6 }, (_, index) => ({ id: `NA-WALKC${index}`, email: 'walk@example.com', createdAt: at(`2025-12-${10 + index}T08:00:00Z`) })),
    ]);
    const expected = (await testApp.database.db.select({ id: orders.id }).from(orders).orderBy(sql`created_at desc, id desc`)).map((row) => row.id);
    expect(expected.length).toBeGreaterThan(25);

    let arrived = 0;
    const forward = await walk(testApp, 'pageSize=7', 'next', async () => {
      arrived += 1;
      await insertOrders(testApp, [{ id: `NA-NEW${arrived}`, email: 'walk@example.com', createdAt: sql`now()` }]);
    });
    const walked = idsOf(forward);
    expect(walked).toEqual(expected);
    expect(new Set(walked).size).toBe(walked.length);
    expect(forward.map((page) => page.orders.length)).toEqual([...forward.slice(1).map(() => 7), expected.length % 7 || 7]);
    expect(forward[0]!.previousCursor).toBeNull();
    expect(forward.at(-1)!.nextCursor).toBeNull();

    // Back from the last page: the same pages, until the orders that arrived meanwhile lead to a first page that shows them.
    const backward = await walk(testApp, 'pageSize=7', 'previous', undefined, forward.at(-1)!.previousCursor);
    const firstPage = backward.pop()!;
    expect(backward.map((page) => page.orders.map((order) => order.orderId))).toEqual(forward.slice(0, -1).reverse().map((page) => page.orders.map((order) => order.orderId)));
    expect(firstPage.previousCursor).toBeNull();
    expect(firstPage.orders.map((order) => order.orderId)).toEqual([...Array.from({ length: arrived }, (_, index) => `NA-NEW${arrived - index}`), ...expected].slice(0, 7));
  });

  it('pages a status filter that legacy values share, and a search, by cursor', async () => {
    const testApp = context();
    const stored = ['sent', 'shipped', 'paid'];
    await insertOrders(
      testApp,
      Array.from({ length: 24 }, (_, index) => ({
        id: `NA-FILT${String(index).padStart(2, '0')}`,
        email: `filter-${index % 2 ? 'odd' : 'even'}@filter.example`,
        status: stored[index % 3],
        createdAt: at(`2024-03-01T12:00:${String(index % 6).padStart(2, '0')}.000001Z`),
      })),
    );
    const expected = async (where: SQL) =>
      (await testApp.database.db.select({ id: orders.id }).from(orders).where(where).orderBy(sql`created_at desc, id desc`)).map((row) => row.id);

    const sent = await walk(testApp, 'status=sent&q=filter.example&pageSize=5', 'next');
    expect(idsOf(sent)).toEqual(await expected(sql`status in ('sent', 'shipped') and customer_email like '%filter.example'`));
    expect(idsOf(sent)).toHaveLength(16);
    expect(sent.map((page) => page.total)).toEqual(sent.map(() => 16));
    const back = await walk(testApp, 'status=sent&q=filter.example&pageSize=5', 'previous', undefined, sent.at(-1)!.previousCursor);
    expect(idsOf(back.reverse())).toEqual(idsOf(sent.slice(0, -1)));

    const odd = await walk(testApp, 'q=filter-odd&pageSize=5', 'next');
    expect(idsOf(odd)).toEqual(await expected(sql`customer_email = 'filter-odd@filter.example'`));
    const oddPaid = await walk(testApp, 'status=paid&q=filter-odd&pageSize=2', 'next');
    expect(idsOf(oddPaid)).toEqual(await expected(sql`status = 'paid' and customer_email = 'filter-odd@filter.example'`));
    expect(oddPaid.length).toBe(2);
  });

  it('counts matching orders up to the limit and says when there are more', async () => {
    const testApp = context();
    await insertOrders(
      testApp,
      Array.from({ length: ADMIN_ORDER_COUNT_LIMIT + 5 }, (_, index) => ({
        id: `NA-CAP${String(index).padStart(5, '0')}`,
        email: `bulk-${index}@cap.example`,
        createdAt: at('2023-06-01T00:00:00Z'),
      })),
    );
    const get = async (query: string) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?${query}`, headers: { cookie: admin } })).json<AdminOrderPage>();
    // More e-mails hold "cap.example" than the search lists by e-mail (SEARCH_EMAIL_LIST_LIMIT): it reads the orders by the search itself.
    expect(ADMIN_ORDER_COUNT_LIMIT + 5).toBeGreaterThan(SEARCH_EMAIL_LIST_LIMIT);
    const manyEmails = await get('q=cap.example');
    expect(manyEmails).toMatchObject({ total: ADMIN_ORDER_COUNT_LIMIT, totalIsLowerBound: true });
    expect(manyEmails.orders.map((order) => order.customerEmail).filter((email) => email.endsWith('@cap.example'))).toHaveLength(manyEmails.pageSize);
    expect(await get('')).toMatchObject({ total: ADMIN_ORDER_COUNT_LIMIT, totalIsLowerBound: true });
    // bulk-100@ and bulk-1000@ to bulk-1004@.
    expect(await get('q=bulk-100')).toMatchObject({ total: 6, totalIsLowerBound: false });
    const [matching] = await testApp.database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(sql`customer_email like '%@cap.example' and id like 'NA-CAP0099%'`);
    expect(await get('q=NA-CAP0099')).toMatchObject({ total: matching!.n, totalIsLowerBound: false });
  });

  it('refuses a cursor that names no place in the list with invalid_cursor', async () => {
    const testApp = context();
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of [
      'not a cursor',
      '%00',
      cursor(['2026-02-31T10:00:00.000000', 'NA-1']),
      cursor(['2026-01-01 10:00:00', 'NA-1']),
      cursor(['2026-01-01T10:00:00.000000']),
      cursor({ createdAt: '2026-01-01T10:00:00.000000', id: 'NA-1' }),
      cursor(['2026-01-01T10:00:00.000000', 7]),
      'x'.repeat(300),
    ]) {
      for (const name of ['after', 'before']) {
        const response = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?${name}=${encodeURIComponent(bad)}`, headers: { cookie: admin } });
        expect(response.statusCode, `${name}=${bad}`).toBe(400);
        expect(response.json().error.code, `${name}=${bad}`).toBe('invalid_cursor');
      }
    }
    const good = cursor(['2026-01-01T10:00:00.000000', 'NA-1']);
    const both = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?after=${good}&before=${good}`, headers: { cookie: admin } });
    expect(both.statusCode).toBe(400);
    expect((await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?after=${good}`, headers: { cookie: admin } })).statusCode).toBe(200);
  });
});

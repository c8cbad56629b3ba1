import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Address } from '#shared/addresses.js';
import type { Order } from '#shared/orders.js';
import { admins, productPhotos, products } from '#server/db/schema.js';
import { sofia } from './sample-data.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase } from './test-app.js';

// Whatever a client sends, a write endpoint answers 4xx to bad input, never 500. Each case changes
// one field of an otherwise valid request, so that the bad value is the reason for the answer.

const TEXT_VALUES: Array<[string, unknown]> = [
  ['NUL', 'Rose\u0000Set'],
  ['NUL alone', '\u0000'],
  ['lone high surrogate', 'Rose\uD800'],
  ['lone low surrogate', '\uDC00Set'],
  ['10 KB', 'x'.repeat(10_240)],
  ['number', 12],
  ['object', { $gt: '' }],
  ['array', ['a']],
  ['null', null],
];
const NUMBER_VALUES: Array<[string, unknown]> = [
  ['negative', -1],
  ['fraction', 1.5],
  ['huge', 1e308],
  ['past safe integers', Number.MAX_SAFE_INTEGER + 2],
  ['string', '100'],
  ['NUL string', '1\u00000'],
];
const PATH_VALUES: Array<[string, string]> = [
  ['NUL', 'NA-%00'],
  ['encoded lone surrogate', '%ED%A0%80'],
  ['replacement sign', '%EF%BF%BD'],
  ['10 KB', 'x'.repeat(10_240)],
  ['dots', '..%2F..%2Fetc'],
];

interface Case {
  name: string;
  request: InjectOptions;
}

describeEachDatabase('bad input on every endpoint', (context) => {
  let customer: string;
  let admin: string;
  let addressId: string;
  let orderId: string;
  let productId: string;
  let photoId: string;

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'boss@example.com' });
    admin = await signIn(testApp, 'boss@example.com');
    customer = await signIn(testApp, 'client@example.com');
    const [product] = await testApp.database.db.insert(products).values({ nameEn: 'Kit', descriptionEn: 'x', slug: 'kit', priceMinor: 4900 }).returning();
    productId = product!.id;
    const [photo] = await testApp.database.db.insert(productPhotos).values({ productId, position: 0, imageKey: `nails/${productId}_1700000000000.webp` }).returning();
    photoId = photo!.id;
    const saved = await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie: customer }, payload: sofia });
    addressId = saved.json<{ addresses: Address[] }>().addresses[0]!.id;
    await testApp.app.inject({
      method: 'POST',
      url: '/api/cart/operations',
      headers: { cookie: customer },
      payload: { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId }] },
    });
    const placed = await testApp.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie: customer },
      payload: { idempotencyKey: randomUUID().replace(/-/g, ''), acceptTerms: true, expectedTotalMinor: 4900 + 245 + 599 },
    });
    orderId = placed.json<{ order: Order }>().order.orderId;
  });

  const json = (method: InjectOptions['method'], url: string, cookie: string | undefined, payload: object): InjectOptions => ({
    method,
    url,
    headers: cookie ? { cookie } : {},
    payload: payload as InjectOptions['payload'],
  });

  function cases(): Case[] {
    const list: Case[] = [];
    const eachValue = (values: Array<[string, unknown]>, field: string, build: (value: unknown) => InjectOptions) => {
      for (const [label, value] of values) list.push({ name: `${field}: ${label}`, request: build(value) });
    };

    for (const field of ['email', 'language']) {
      eachValue(TEXT_VALUES, `sign-in link ${field}`, (value) =>
        json('POST', '/api/auth/sign-in-links', undefined, { email: 'a@example.com', language: 'en', [field]: value }),
      );
    }
    for (const field of ['token', 'email']) {
      eachValue(TEXT_VALUES, `sign-in ${field}`, (value) =>
        json('POST', '/api/auth/sessions', undefined, { token: 'A'.repeat(43), email: 'a@example.com', [field]: value }),
      );
    }
    for (const field of ['id', 'type', 'productId']) {
      eachValue(TEXT_VALUES, `cart add ${field}`, (value) =>
        json('POST', '/api/cart/operations', customer, { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId, [field]: value }] }),
      );
    }
    eachValue(TEXT_VALUES, 'cart remove itemId', (value) =>
      json('POST', '/api/cart/operations', customer, { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'remove', itemId: value }] }),
    );
    for (const field of Object.keys(sofia)) {
      eachValue(TEXT_VALUES, `new address ${field}`, (value) => json('POST', '/api/addresses', customer, { ...sofia, [field]: value }));
      eachValue(TEXT_VALUES, `changed address ${field}`, (value) => json('PUT', `/api/addresses/${addressId}`, customer, { ...sofia, [field]: value }));
    }
    for (const field of ['idempotencyKey', 'addressId', 'paymentMethod']) {
      eachValue(TEXT_VALUES, `order ${field}`, (value) =>
        json('POST', '/api/orders', customer, { idempotencyKey: randomUUID().replace(/-/g, ''), acceptTerms: true, expectedTotalMinor: 0, [field]: value }),
      );
    }
    eachValue([...NUMBER_VALUES, ['wrong total', 2 ** 31]], 'order expectedTotalMinor', (value) =>
      json('POST', '/api/orders', customer, { idempotencyKey: randomUUID().replace(/-/g, ''), acceptTerms: true, expectedTotalMinor: value }),
    );
    for (const field of ['method', 'cardLast4']) {
      eachValue(TEXT_VALUES, `payment ${field}`, (value) => json('POST', `/api/orders/${orderId}/payment`, customer, { method: 'card', cardLast4: '4242', [field]: value }));
    }
    eachValue(TEXT_VALUES, 'order status', (value) => json('PATCH', `/api/admin/orders/${orderId}/status`, admin, { status: value }));
    eachValue(TEXT_VALUES, 'account deletion email', (value) => json('DELETE', '/api/account', customer, { email: value }));
    for (const field of ['nameEn', 'nameBg', 'descriptionEn', 'descriptionBg', 'category']) {
      eachValue(multipartText(), `product ${field}`, (value) => productForm('PUT', `/api/admin/products/${productId}`, admin, { [field]: String(value) }));
      eachValue(multipartText(), `new product ${field}`, (value) => productForm('POST', '/api/admin/products', admin, { [field]: String(value) }));
    }
    for (const field of ['id', 'altEn', 'altBg']) {
      eachValue(TEXT_VALUES, `photo order ${field}`, (value) => json('PUT', `/api/admin/products/${productId}/photos`, admin, { photos: [{ id: photoId, [field]: value }] }));
    }
    eachValue(TEXT_VALUES, 'photo order list', (value) => json('PUT', `/api/admin/products/${productId}/photos`, admin, { photos: value as object }));
    for (const price of ['100000.01', '99999999999999999999', '1e9', '-5', '12,345.67', '12.345', 'NaN', 'Infinity', '0']) {
      list.push({ name: `product price ${price}`, request: productForm('PUT', `/api/admin/products/${productId}`, admin, { price }) });
    }
    for (const [label, id] of PATH_VALUES) {
      list.push({ name: `address id ${label} (change)`, request: json('PUT', `/api/addresses/${id}`, customer, sofia) });
      list.push({ name: `address id ${label} (delete)`, request: { method: 'DELETE', url: `/api/addresses/${id}`, headers: { cookie: customer } } });
      list.push({ name: `address id ${label} (default)`, request: { method: 'POST', url: `/api/addresses/${id}/default`, headers: { cookie: customer } } });
      list.push({ name: `order id ${label} (read)`, request: { method: 'GET', url: `/api/orders/${id}`, headers: { cookie: customer } } });
      list.push({ name: `order id ${label} (payment)`, request: json('POST', `/api/orders/${id}/payment`, customer, { method: 'pay_by_link' }) });
      list.push({ name: `order id ${label} (admin read)`, request: { method: 'GET', url: `/api/admin/orders/${id}`, headers: { cookie: admin } } });
      list.push({ name: `order id ${label} (status)`, request: json('PATCH', `/api/admin/orders/${id}/status`, admin, { status: 'sent' }) });
      list.push({ name: `product id ${label} (change)`, request: productForm('PUT', `/api/admin/products/${id}`, admin, {}) });
      list.push({ name: `product id ${label} (delete)`, request: { method: 'DELETE', url: `/api/admin/products/${id}`, headers: { cookie: admin } } });
      list.push({ name: `product id ${label} (photo order)`, request: json('PUT', `/api/admin/products/${id}/photos`, admin, { photos: [{ id: photoId }] }) });
      list.push({ name: `photo id ${label} (delete)`, request: { method: 'DELETE', url: `/api/admin/products/${productId}/photos/${id}`, headers: { cookie: admin } } });
    }
    for (const q of ['%00', 'x'.repeat(300)]) {
      list.push({ name: `order search ${q.slice(0, 10)}`, request: { method: 'GET', url: `/api/admin/orders?q=${q}`, headers: { cookie: admin } } });
    }
    return list;
  }

  it('answers every bad value with a 4xx in the API error shape', async () => {
    const { app } = context();
    const all = cases();
    expect(all.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const { name, request } of all) {
      const response = await app.inject(request);
      const body = response.json<{ error?: { code?: string; message?: string } }>();
      const accepted = response.statusCode >= 400 && response.statusCode < 500 && typeof body.error?.code === 'string';
      if (!accepted) failures.push(`${name}: ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers a NUL in any query string with a 4xx, or reads the query without it, never with a 5xx', async () => {
    const { app } = context();
    const reads: Array<[string, string | undefined]> = [
      ['/api/products?q=a%00b&category=%00&sort=%00&page=%00&lang=%00', undefined],
      ['/api/products/by-slug/kit?q=%00', undefined],
      ['/api/admin/products?stock=%00', admin],
      ['/api/admin/orders?status=%00&q=%00', admin],
      ['/api/admin/orders?pageSize=%00&after=%00', admin],
      ['/api/orders?q=%00', customer],
      ['/api/cart?q=%00', customer],
      ['/api/addresses?q=%00', customer],
      ['/api/account/export?q=%00', customer],
      ['/api/legal/terms?lang=%00', undefined],
      [`/images/nails/${productId}_1700000000000.webp?w=%00`, undefined],
      ['/?q=a%00b&category=%00', undefined],
      ['/product/kit?q=%00', undefined],
      ['/sitemap.xml?q=%00', undefined],
    ];
    const failures: string[] = [];
    for (const [url, cookie] of reads) {
      const response = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
      if (response.statusCode >= 500) failures.push(`${url}: ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it('names the field and its message key when an address field cannot be stored', async () => {
    const { app } = context();
    for (const [value, key] of [
      ['Maria\u0000', 'checkout.validation.invalidCharacters'],
      ['Maria\uD800', 'checkout.validation.invalidCharacters'],
      ['x'.repeat(10_240), 'checkout.validation.tooLong'],
    ] as const) {
      const response = await app.inject(json('POST', '/api/addresses', customer, { ...sofia, fullName: value }));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({ code: 'bad_request', message: `fullName: ${key}`, field: 'fullName', messageKey: key });
    }
  });

  it('names the refused field by its path and the broken rule by its message key, for the client to show in its language', async () => {
    const { app } = context();
    const refusals: Array<[string, InjectOptions, { field?: string; messageKey: string }]> = [
      ['address phone', json('POST', '/api/addresses', customer, { ...sofia, phone: '123' }), { field: 'phone', messageKey: 'checkout.validation.invalidPhone' }],
      ['address city', json('PUT', `/api/addresses/${addressId}`, customer, { ...sofia, city: ' ' }), { field: 'city', messageKey: 'checkout.validation.cityRequired' }],
      ['sign-in e-mail', json('POST', '/api/auth/sign-in-links', undefined, { email: 'not-an-email', language: 'en' }), { field: 'email', messageKey: 'auth.errors.invalidEmail' }],
      ['product price', productForm('PUT', `/api/admin/products/${productId}`, admin, { price: '12.345' }), { field: 'price', messageKey: 'admin.products.messages.priceTooPrecise' }],
      ['product names', productForm('PUT', `/api/admin/products/${productId}`, admin, { nameEn: '' }), { field: 'nameEn', messageKey: 'admin.products.messages.requiredFields' }],
      [
        'photo alt text',
        json('PUT', `/api/admin/products/${productId}/photos`, admin, { photos: [{ id: photoId, altEn: 'x'.repeat(201) }] }),
        { field: 'photos.0.altEn', messageKey: 'admin.products.messages.altTooLong' },
      ],
      ['new product without a photo', productForm('POST', '/api/admin/products', admin, {}), { field: 'image', messageKey: 'admin.products.messages.imageRequired' }],
      ['account deletion e-mail', json('DELETE', '/api/account', customer, { email: 'someone-else@example.com' }), { field: 'email', messageKey: 'accountData.errors.emailMismatch' }],
    ];
    for (const [name, request, expected] of refusals) {
      const response = await app.inject(request);
      expect(response.statusCode, name).toBe(400);
      const { error } = response.json<{ error: { code: string; message: string; field?: string; messageKey?: string } }>();
      expect({ code: error.code, field: error.field, messageKey: error.messageKey }, name).toEqual({ code: 'bad_request', ...expected });
      // The message stays for logs and API users; the client no longer reads it.
      expect(error.message, name).toEqual(expect.any(String));
    }
  });

  it('names the field but no message key for a rule that has no text, such as a query value’s format', async () => {
    const { app } = context();
    const response = await app.inject({ method: 'GET', url: '/api/admin/orders?pageSize=abc', headers: { cookie: admin } });
    expect(response.statusCode).toBe(400);
    const { error } = response.json<{ error: { code: string; field?: string; messageKey?: string } }>();
    expect(error.code).toBe('bad_request');
    expect(error.field).toBe('pageSize');
    expect(error.messageKey).toBeUndefined();
  });
});

/** Multipart carries bytes: a lone surrogate cannot be sent as UTF-8, so only the other values apply. */
const multipartText = () => TEXT_VALUES.filter(([label, value]) => typeof value === 'string' && !label.includes('surrogate'));

const FIELDS = { nameEn: 'Rose Set', descriptionEn: 'Pink', price: '24.50', category: 'nails' };

function productForm(method: InjectOptions['method'], url: string, cookie: string, change: Record<string, string>): InjectOptions {
  const boundary = `----shop${randomUUID()}`;
  const body = Object.entries({ ...FIELDS, ...change })
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  return {
    method,
    url,
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(`${body}--${boundary}--\r\n`),
  };
}

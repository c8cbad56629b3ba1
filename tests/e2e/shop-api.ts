import { expect, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import type { CartResponse } from '#shared/cart.js';
import type { Product, ProductCategory } from '#shared/catalog.js';
import { priceLines } from '#shared/pricing.js';
import type { OrderStatus } from '#shared/order-status.js';
import type { Order, PaymentMethod } from '#shared/orders.js';

// Setting the scene through the API, for tests whose journey starts later: the admin's side of a
// story, or an order that only has to exist.

const productImage = (red = 214) =>
  sharp({ create: { width: 640, height: 640, channels: 3, background: { r: red, g: 120, b: 160 } } })
    .png()
    .toBuffer();

const productForm = async (name: string, price: string, image: boolean, stock?: number, category: ProductCategory = 'nails') => ({
  nameEn: name,
  descriptionEn: 'A test product whose price the admin changes while a customer shops.',
  price,
  category,
  ...(stock === undefined ? {} : { stock: String(stock) }),
  ...(image ? { image: { name: 'product.png', mimeType: 'image/png', buffer: await productImage() } } : {}),
});

/**
 * A new product with an image, made to order unless a stock count is given. Its name starting with
 * "Zz" keeps it after the demo products on the home page.
 */
export async function createProduct(admin: APIRequestContext, name: string, price: string, stock?: number, category?: ProductCategory): Promise<Product> {
  const response = await admin.post('/api/admin/products', { multipart: await productForm(name, price, true, stock, category) });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { product: Product }).product;
}

export async function changePrice(admin: APIRequestContext, product: Product, price: string): Promise<void> {
  const response = await admin.put(`/api/admin/products/${product.id}`, { multipart: await productForm(product.name.en, price, false) });
  expect(response.status(), await response.text()).toBe(200);
}

/** Renames the product and sets its price, as the admin's product form does. */
export async function renameProduct(admin: APIRequestContext, product: Product, name: string, price: string): Promise<Product> {
  const response = await admin.put(`/api/admin/products/${product.id}`, { multipart: await productForm(name, price, false) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { product: Product }).product;
}

/** Adds a photo of another colour to the product, after its others. */
export async function addPhoto(admin: APIRequestContext, product: Product, red: number): Promise<Product> {
  const response = await admin.post(`/api/admin/products/${product.id}/photos`, {
    multipart: { image: { name: 'photo.png', mimeType: 'image/png', buffer: await productImage(red) } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { product: Product }).product;
}

export async function deleteProduct(admin: APIRequestContext, product: Product): Promise<void> {
  expect((await admin.delete(`/api/admin/products/${product.id}`)).status()).toBe(204);
}

export async function setOrderStatus(admin: APIRequestContext, orderId: string, status: OrderStatus): Promise<void> {
  const response = await admin.patch(`/api/admin/orders/${orderId}/status`, { data: { status } });
  expect(response.status(), await response.text()).toBe(200);
}

const randomKey = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.padEnd(20, '0');

/** Places an order for one product as the signed-in customer: address, cart line and order, at the cart's total. */
export async function placeOrderThroughApi(customer: APIRequestContext, productId: string, paymentMethod: PaymentMethod): Promise<Order> {
  const address = await customer.post('/api/addresses', {
    data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
  });
  expect(address.ok(), await address.text()).toBe(true);
  const added = await customer.post('/api/cart/operations', { data: { operations: [{ id: randomKey(), type: 'add', productId }] } });
  expect(added.ok(), await added.text()).toBe(true);
  const { items } = (await added.json()) as CartResponse;
  const expectedTotalMinor = priceLines(items).total;
  const placed = await customer.post('/api/orders', { data: { idempotencyKey: randomKey(), paymentMethod, acceptTerms: true, expectedTotalMinor } });
  expect(placed.status(), await placed.text()).toBe(201);
  return ((await placed.json()) as { order: Order }).order;
}
